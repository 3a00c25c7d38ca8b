import { describe, expect, it } from "vitest";
import { parseStepAnswer } from "~/lib/sign-in-step-answers.server";
import { createPlanningClient } from "./client.server";
import { registrationOptions, listPasskeys } from "./passkeys.server";
import {
  fetchAssetLists,
  fetchDetail,
  fetchSummary,
  fetchTargetSeries,
  type TargetSeriesRequest,
} from "./portfolio.server";
import { fetchHoldings } from "./positions.server";
import { fetchReportTemplates } from "./reports.server";
import { fetchSecurityQuestions } from "./security.server";
import { fetchSessionUser } from "./session.server";
import { fetchSignatureItem, fetchSignatureView } from "./signature.server";
import { SiteAnswer, toSite } from "./site.server";

// The platform's answers are parsed with zod 4 (docs/decisions/159), whose `.default(x)` answers x
// for an absent field without parsing it, where zod 3 parsed it. Each default the answers had under
// zod 3 is checked here through the module that reads it: a field left out gives the value it gave
// before. An object or a list is a `.prefault`, parsed as zod 3 did, so that each answer has its own
// (and the site's `content` its `pages`).

const money = (amount: number) => ({ code: "GBP", value: { _type: "BigDecimal", _val: String(amount) } });
const date = (day: string) => ({ _type: "Date", _val: day });

/** A platform whose answers are given by path (without `resourceful/` or the query), for calls and batches alike. */
function platform(answers: Record<string, unknown>) {
  const answerTo = (path: string) => {
    const key = path.replace(/^\/?(resourceful\/)?/, "").replace(/\?.*$/, "");
    if (!(key in answers)) throw new Error(`unexpected ${key}`);
    return answers[key];
  };
  return createPlanningClient({
    baseUrl: "http://platform.test",
    retryDelayMs: 0,
    fetch: async (input, init) => {
      const path = new URL(String(input)).pathname;
      const body =
        path === "/resourceful"
          ? (JSON.parse(String(init?.body)) as { batch: Array<{ name: string; url: string }> }).batch.map((item) => ({
              name: item.name,
              code: 200,
              body: JSON.stringify(answerTo(item.url)),
            }))
          : answerTo(path);
      return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
    },
  });
}

const period = {
  start_date: date("2024-03-14"),
  end_date: date("2025-03-14"),
  value: money(100),
  market_value_from: money(90),
  market_value_to: money(100),
  net_flows: money(0),
  movement: money(10),
  twrr: 0.1,
  twrr_period: 0.1,
  irr: null,
  irr_period: null,
  over_a_year: true,
};
const summaryData = { timeframe: "1Y", base_currency: "GBP", ...period };
const detailRow = {
  ...period,
  level: "account",
  key: "1",
  name: "ISA",
  accountid: 1,
  native_currency: "GBP",
  plan_currency_value: null,
};
const selection = { pricingType: "close", holdBack: false, feesAndTaxes: 0 } as const;

describe("the defaults of the platform's answers, as zod 3 gave them", () => {
  it("summary: a period's `since` null, an item's account count 1", async () => {
    const planning = platform({
      "portfolio/summary": {
        level: "account",
        end_date: date("2025-03-14"),
        report_currency: "GBP",
        items: [
          {
            key: "1",
            name: "ISA",
            isLinked: false,
            accountids: [1],
            plan_currency: "GBP",
            plan_currency_value: null,
            defaultData: summaryData,
            secondaryData: { ...summaryData, since: date("2024-06-01") },
          },
        ],
        totals: null,
      },
    });
    const summary = await fetchSummary(planning, {
      ...selection,
      level: "account",
      defaultTimeframe: "1Y",
      secondaryTimeframe: "SI",
    });
    expect(summary.items[0]!.account_count).toBe(1);
    expect(summary.items[0]!.defaultData.since).toBeNull();
    expect(summary.items[0]!.secondaryData.since).toBe("2024-06-01");
  });

  it("detail: the inception date and each row's `since` null", async () => {
    const planning = platform({
      "portfolio/profit_analysis/detail": {
        start_date: date("2024-03-14"),
        end_date: date("2025-03-14"),
        report_currency: "GBP",
        rows: [detailRow],
        total: null,
      },
    });
    const detail = await fetchDetail(planning, {
      ...selection,
      period: { timeframe: "1Y" },
      grouping: "account",
      accountIds: null,
    });
    expect(detail.inception_date).toBeNull();
    expect(detail.rows[0]!.since).toBeNull();
  });

  it("a series: no benchmark lines, a list of its own", async () => {
    const series = {
      start_date: date("2024-03-14"),
      end_date: date("2025-03-14"),
      frequency: "monthly",
      report_currency: "GBP",
      inception_date: null,
      points: [],
    };
    const planning = platform({ "portfolio/profit_analysis/historic_time_series_twrr": series });
    const request: TargetSeriesRequest = {
      ...selection,
      target: { kind: "accounts", accountIds: null },
      period: { timeframe: "1Y" },
      benchmarks: [],
    };
    const first = await fetchTargetSeries(planning, request);
    const second = await fetchTargetSeries(planning, request);
    expect(first.benchmarks).toEqual([]);
    expect(second.benchmarks).not.toBe(first.benchmarks);
  });

  it("an asset's source 'other', when absent or unknown", async () => {
    const asset = {
      id: 9,
      desc: "Cash ISA",
      type: "ISA",
      owners: [{ owner_id: 1, owner_name: "Ellie", percentage: 100 }],
      percentOwned: 100,
      value_owned: money(10),
      is_sipp_wrapper: false,
      currency: "GBP",
      amount: money(10),
      status: null,
    };
    const planning = platform({
      "entity/client/1/asset": [
        asset,
        { ...asset, id: 10, source: "elsewhere" },
        { ...asset, id: 11, source: "portfolio" },
      ],
      "entity/client/1/pension": [],
      "entity/client/1/annuity": [],
      "entity/client/1/liability": [],
    });
    const lists = await fetchAssetLists(planning, 1, { pricingType: "close", holdBack: false });
    expect(lists.investments.map((a) => a.source)).toEqual(["other", "other", "portfolio"]);
  });

  it("a position without allocations or parcels: no parcels", async () => {
    const position = {
      row_id: "1-7",
      accountid: 1,
      security_id: 7,
      security: { code: "VUKE", exchange: "LSE", isin: null, sector_name: null, asset_class_code: null, region: null },
      description: "FTSE 100 ETF",
      cash: false,
      volume: 10,
      native_currency: "GBP",
      native_marketprice: 1,
      price_date: date("2025-03-14"),
      native_value: money(10),
      plan_currency: "GBP",
      plan_currency_marketprice: 1,
      plan_currency_value: money(10),
      value: money(10),
      weight: 1,
      native_cost: null,
      native_unrealised_gain: null,
      percent_gain_loss: null,
      annual_income: money(0),
      plan_currency_annual_income: money(0),
      native_annual_income: money(0),
      gross_annual_income: money(0),
      native_gross_annual_income: money(0),
      percent_yield: 0,
      gross_percent_yield: 0,
      fx_rate_to_plan: 1,
      fx_rate_to_report: 1,
    };
    const planning = platform({
      "portfolio/position": {
        date: date("2025-03-14"),
        report_currency: "GBP",
        total_value: money(10),
        accounts: [],
        positions: [position, position],
      },
    });
    const holdings = await fetchHoldings(planning, { ...selection, accountIds: null, date: null });
    expect(holdings.holdings.map((h) => h.parcels)).toEqual([[], []]);
    expect(holdings.holdings[1]!.parcels).not.toBe(holdings.holdings[0]!.parcels);
  });

  it("a passkey without transports is listed", async () => {
    const planning = platform({
      "session/passkey": [{ id: 1, name: "Laptop", created_at: "2025-03-14T10:00:00Z", last_used_at: null }],
    });
    expect(await listPasskeys(planning)).toEqual([
      { id: 1, name: "Laptop", createdAt: "2025-03-14T10:00:00Z", lastUsedAt: null },
    ]);
  });

  it("security questions: no default questions, a list of its own", async () => {
    const planning = platform({ "session/security_questions": { questions: [] } });
    const first = await fetchSecurityQuestions(planning);
    const second = await fetchSecurityQuestions(planning);
    expect(first.default_questions).toEqual([]);
    expect(second.default_questions).not.toBe(first.default_questions);
  });

  it("the session's user: signed in by password, no passkey", async () => {
    const planning = platform({
      "session/user": { id: 5, entity_id: 50, display_name: "Alex Adviser", role_name: "User" },
    });
    const user = await fetchSessionUser(planning);
    expect(user.loginMethod).toBe("Basic");
    expect(user.hasPasskey).toBe(false);
  });

  it("a signature item: no signatories, a list of its own; the terms in English when they do not say", async () => {
    const item = {
      id: 3,
      docnote_id: null,
      filename: "application.pdf",
      title: "Application",
      duedate: null,
      status: 0,
      signing_method: null,
      last_notified_at: null,
      terms_and_conds: null,
      secure_data: null,
    };
    const planning = platform({
      "digital_signature/3": item,
      "digital_signature/3/signatories": [],
      "digital_signature/terms": { title: "Terms", html: "<p>Terms</p>" },
    });
    const first = await fetchSignatureItem(planning, 3);
    const second = await fetchSignatureItem(planning, 3);
    expect(first.signatories).toEqual([]);
    expect(second.signatories).not.toBe(first.signatories);
    expect((await fetchSignatureView(planning, 3)).terms.lang).toBe("en");
  });

  it("the site: no settings and no pages, the content's default parsed as zod 3 did", () => {
    const answer = SiteAnswer.parse({});
    expect(answer).toEqual({ settings: {}, content: { pages: {} } });
    expect(SiteAnswer.parse({ content: {} }).content).toEqual({ pages: {} });
    const again = SiteAnswer.parse({});
    expect(again.settings).not.toBe(answer.settings);
    expect(again.content.pages).not.toBe(answer.content.pages);
    expect(toSite(answer).pages).toEqual({});
  });

  it("the sign-in steps' answers", () => {
    const ticketed = { role_name: "ClientUser", login_ticket: "t".repeat(43) };
    const stepOf = (answer: object) => {
      const progress = parseStepAnswer({ ...ticketed, ...answer });
      return progress?.kind === "step" ? progress.step : null;
    };
    expect(stepOf({ login_status: "SetSecurityQuestions" })).toEqual({
      status: "SetSecurityQuestions",
      defaultQuestions: [],
      answerMinLength: 0,
    });
    expect(stepOf({ login_status: "MfaRequired" })).toMatchObject({ enrolled: false });
    expect(stepOf({ login_status: "MfaEnrolmentLinkDevice" })).toEqual({
      status: "MfaEnrolmentLinkDevice",
      methods: [],
    });
    const device = { device_id: "d1", mfa_method: "sms" };
    expect(stepOf({ ...device, login_status: "MfaEnrolmentValidateDevice" })).toMatchObject({ deviceName: "" });
    expect(stepOf({ ...device, login_status: "MfaEnrolmentLinkDeviceInvalidOtp" })).toMatchObject({ deviceName: "" });
    expect(stepOf({ login_status: "MemorableCharactersRequired" })).toMatchObject({ positions: [] });
  });
});

describe("what else zod 4 would have changed, kept as zod 3 had it", () => {
  it("a passkey ceremony's options pass on every field the platform sent", async () => {
    const options = { challenge: "c2lnbg", rp: { id: "localhost", name: "Client Online" }, timeout: 60000 };
    const planning = platform({ "session/passkey/registration/options": options });
    expect(await registrationOptions(planning, "Demo-pass-1")).toEqual(options);
  });

  it("a whole number beyond 2^53 is still a whole number; a fraction is not", async () => {
    const template = {
      name: "Valuation",
      userType: "Client",
      dateParameters: "Single Date",
      requiredSelector: "Current Client Only",
    };
    const big = platform({ "xmerge/template/template-v2": [{ ...template, id: 2 ** 60 }] });
    expect((await fetchReportTemplates(big, 1)).map((t) => t.id)).toEqual([2 ** 60]);
    const fraction = platform({ "xmerge/template/template-v2": [{ ...template, id: 1.5 }] });
    await expect(fetchReportTemplates(fraction, 1)).rejects.toMatchObject({ status: 502 });
  });
});
