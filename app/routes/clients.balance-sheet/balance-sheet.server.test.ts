import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { type PlanningClient, PlanningError } from "~/planning/client.server";
import type { AssetLists } from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";
import { type BalanceSheetPage, buildBalanceSheet, type SheetTable } from "./balance-sheet.server";
import { type BalanceSheetQuery, readBalanceSheetQuery } from "~/lib/balance-sheet";
import { fakePlatformKeys } from "../../../tests/fake-platform-keys";

const site = (settings: Site["settings"] = {}): Site => ({
  version: null,
  firmName: "Test firm",
  logo: null,
  logoOnWhite: null,
  memorableWordEnabled: false,
  chartColours: ["#1d4f91"],
  pages: {},
  settings: { balanceSheetViews: "managed,non-managed,everything", balanceSheetDefaultView: "everything", ...settings },
});
const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const money = (amount: number, currency = "GBP") => ({ amount, currency });

const asset = (id: number, desc: string, amount: number, extra: Record<string, unknown> = {}) => ({
  id,
  desc,
  type: "Other",
  owners: [{ owner_id: 1, owner_name: "Ellie Hartley", percentage: 100 }],
  percentOwned: 100,
  value_owned: money(amount),
  is_sipp_wrapper: false,
  under_advice: false,
  currency: "GBP",
  source: "other" as "other" | "portfolio",
  ...extra,
});
const lists = (overrides: Partial<AssetLists> = {}): AssetLists => ({
  investments: [
    {
      ...asset(1, "Cottage", 242_500, {
        percentOwned: 50,
        owners: [
          { owner_id: 1, owner_name: "Ellie Hartley", percentage: 50 },
          { owner_id: 2, owner_name: "James Hartley", percentage: 50 },
        ],
      }),
      amount: money(485_000),
      amount_in_report_currency: money(485_000),
      status: "Existing",
      provider: "Self",
      policy_number: "PROP-001",
      valuation_date: "2024-11-14",
    },
  ],
  pensions: [
    {
      ...asset(2, "Workplace pension", 212_400, { under_advice: true }),
      fund_value: money(212_400),
      fund_value_in_report_currency: money(212_400),
      policy_status: "Active",
      product_provider: "Aviva",
      fund_or_policy_num: "AV-1",
      fund_valuation_date: "2025-01-10",
    },
    {
      ...asset(5, "SIPP", 96_870.25, { type: "SIPP", is_sipp_wrapper: true, under_advice: 1 }),
      fund_value: money(96_870.25),
      policy_status: "Active",
    },
  ],
  annuities: [],
  liabilities: [
    {
      ...asset(3, "", 134_225.38, { under_advice: true, percentOwned: 50 }),
      package_name: "Mortgage",
      amount: money(268_450.75),
      amount_in_report_currency: money(268_450.75),
      status: "Current",
      supplier: "Nationwide",
      rate: 4.49,
      policy_number: "NW-1",
      valuation_date: "2025-02-12",
    },
  ],
  ...overrides,
});

const members = [
  { entity_id: 1, display_name: "Ellie Hartley", relationship: "Client", login_accessible: true },
  { entity_id: 2, display_name: "James Hartley", relationship: "Partner", login_accessible: true },
  { entity_id: 3, display_name: "Olivia Hartley", relationship: "Child", login_accessible: false },
];

type Fake = {
  assets?: () => Promise<AssetLists>;
  basics?: () => Promise<unknown>;
  capabilities?: string[];
  multiCurrency?: boolean;
};
function fakePlanning(fake: Fake = {}) {
  const asked: string[] = [];
  const planning = {
    keys: fakePlatformKeys(),
    batch: (items: Record<string, { url: string }>) => {
      if ("capabilities" in items) {
        return fake.basics
          ? fake.basics()
          : Promise.resolve({
              capabilities: { capabilities: fake.capabilities ?? ["view_partner"] },
              members,
              access: { multi_currency: fake.multiCurrency ?? true },
            });
      }
      asked.push(items.investments!.url);
      return fake.assets ? fake.assets() : Promise.resolve(lists());
    },
    get: () => Promise.resolve([{ name: "enhanced_sipp_wrapper", enabled: true }]),
  } as unknown as PlanningClient;
  return { planning, asked };
}

const build = (search: string, fake: Fake = {}, settings: Site["settings"] = {}) => {
  const { planning, asked } = fakePlanning(fake);
  const query: BalanceSheetQuery = readBalanceSheetQuery(new URL(`http://portal.test/clients/balance-sheet${search}`));
  return buildBalanceSheet({
    planning,
    t,
    locale: "en-GB",
    site: site(settings),
    query,
    entityId: 1,
    selfName: "Ellie Hartley",
  }).then((page) => ({
    page,
    asked,
  }));
};
type Ok = Extract<BalanceSheetPage["content"], { state: "ok" }>;
function ok(page: BalanceSheetPage): Ok {
  if (page.content.state !== "ok") throw new Error(`expected tables, got ${page.content.state}`);
  return page.content;
}
const tables = (content: Ok) => content.tables.filter((table): table is SheetTable => !("empty" in table));

describe("buildBalanceSheet: views (spec 001 §2.5, §4)", () => {
  it("shows Everything by default: each tab's managed and non-managed tables, counts over both", async () => {
    const { page } = await build("");
    expect(page.heading).toBe("balanceSheet.title");
    expect(page.views.map((v) => [v.view, v.label, v.current, v.href])).toEqual([
      ["managed", "balanceSheet.views.managed", false, "/clients/balance-sheet?id=1&view=managed&asset=0"],
      ["nonManaged", "balanceSheet.views.nonManaged", false, "/clients/balance-sheet?id=1&view=non-managed&asset=0"],
      ["everything", "balanceSheet.views.everything", true, "/clients/balance-sheet?id=1&view=everything&asset=0"],
    ]);
    const content = ok(page);
    // the wrapper-type SIPP is left out of the pensions (spec 001 §4)
    expect(content.tabs.map((tab) => [tab.tab, tab.index, tab.title, tab.current])).toEqual([
      ["investments", 0, 'balanceSheet.tabs.investments {"count":1}', true],
      ["pensions", 1, 'balanceSheet.tabs.pensions {"count":1}', false],
      ["liabilities", 3, 'balanceSheet.tabs.liabilities {"count":1}', false],
    ]);
    expect(content.tab).toBe("investments");
    // nothing managed among the investments: the managed table says so, then the non-managed table
    expect(content.tables[0]).toEqual({ kind: "managed", empty: true });
    const [table] = tables(content);
    expect(table!.kind).toBe("nonManaged");
    expect(table!.caption).toBe("balanceSheet.captions.nonManaged.investments");
    expect(table!.rows).toEqual([
      {
        key: "other-1",
        description: { text: "Cottage", note: "Ellie Hartley, James Hartley" },
        type: { text: "Other", note: "Self" },
        detail: { text: "PROP-001", note: null },
        value: { text: "£485,000.00", note: "14th November 2024" },
        valueOwned: { text: "£242,500.00", note: "50.00%" },
        negative: false,
      },
    ]);
    expect(table!.total).toBe("£242,500.00");
  });

  it("shows only managed items in the Managed view, and says so when there are none", async () => {
    const managed = ok((await build("?view=managed")).page);
    expect(managed.tabs.map((tab) => tab.tab)).toEqual(["pensions", "liabilities"]);
    // investments asked for, but it has nothing managed: the first tab with data
    expect(managed.tab).toBe("pensions");
    expect(tables(managed).map((table) => [table.kind, table.rows.map((r) => r.description.text)])).toEqual([
      ["managed", ["Workplace pension"]],
    ]);

    const none = await build("?view=managed", {
      assets: () => Promise.resolve(lists({ pensions: [], liabilities: [] })),
    });
    expect(none.page.content).toEqual({ state: "noManaged" });
  });

  it("shows only non-managed items in the Non-managed view", async () => {
    const content = ok((await build("?view=non-managed&asset=3")).page);
    expect(content.tabs.map((tab) => tab.tab)).toEqual(["investments"]);
    expect(content.tab).toBe("investments");
    expect(tables(content).map((table) => table.kind)).toEqual(["nonManaged"]);
  });

  it("falls back to the default view for a view the site does not allow, and offers only allowed views", async () => {
    const { page } = await build(
      "?view=managed",
      {},
      { balanceSheetViews: "non-managed,everything", balanceSheetDefaultView: "non-managed" },
    );
    expect(page.views.map((v) => [v.view, v.current])).toEqual([
      ["nonManaged", true],
      ["everything", false],
    ]);
  });

  it("says the views are disabled, and asks the platform nothing, when no view is enabled", async () => {
    const { page, asked } = await build("", {}, { balanceSheetViews: "" });
    expect(page.content).toEqual({ state: "disabled" });
    expect(page.views).toEqual([]);
    expect(page.member).toBeNull();
    expect(asked).toEqual([]);
  });

  it("takes the heading and labels from the site when it has them", async () => {
    const { page } = await build(
      "",
      {},
      { balanceSheetHeading: "Your wealth", "balanceSheetLabel.everything": "All assets" },
    );
    expect(page.heading).toBe("Your wealth");
    expect(page.views.find((v) => v.view === "everything")!.label).toBe("All assets");
  });
});

describe("buildBalanceSheet: tabs and tables", () => {
  it("opens the tab asked for, with the liabilities' columns and negative values owned", async () => {
    const content = ok((await build("?asset=3")).page);
    expect(content.tab).toBe("liabilities");
    const [table] = tables(content);
    expect(table!.kind).toBe("managed");
    expect(table!.rows[0]).toEqual({
      key: "other-3",
      description: { text: "Mortgage", note: "Ellie Hartley" },
      type: { text: "Other", note: "Nationwide" },
      detail: { text: "4.49%", note: "NW-1" },
      value: { text: "£268,450.75", note: "12th February 2025" },
      valueOwned: { text: "-£134,225.38", note: "50.00%" },
      negative: true,
    });
    expect(table!.total).toBe("-£134,225.38");
    expect(table!.totalNegative).toBe(true);
  });

  it("counts with singular and plural labels", async () => {
    const two = lists().investments.concat({ ...lists().investments[0]!, id: 9, desc: "Flat" });
    const content = ok((await build("", { assets: () => Promise.resolve(lists({ investments: two })) })).page);
    expect(content.tabs[0]!.title).toBe('balanceSheet.tabs.investments {"count":2}');
  });

  it("folds a SIPP's wrapped items into the pensions with percent owned 100 and the wrapped loan negative", async () => {
    const content = ok(
      (
        await build("?asset=1", {
          assets: () =>
            Promise.resolve(
              lists({
                investments: [
                  {
                    ...lists().investments[0]!,
                    id: 7,
                    desc: "Wrapped fund",
                    is_sipp_wrapper: true,
                    under_advice: true,
                  },
                ],
                liabilities: [{ ...lists().liabilities[0]!, id: 8, package_name: "SIPP loan", is_sipp_wrapper: true }],
              }),
            ),
        })
      ).page,
    );
    expect(content.tabs.map((tab) => tab.tab)).toEqual(["pensions"]);
    const [table] = tables(content);
    expect(table!.rows.map((r) => [r.description.text, r.valueOwned.text, r.valueOwned.note])).toEqual([
      ["Workplace pension", "£212,400.00", "100.00%"],
      ["Wrapped fund", "£242,500.00", "50.00%"],
      ["SIPP loan", "-£134,225.38", "50.00%"],
    ]);
    expect(table!.total).toBe("£320,674.62");
  });

  it("says 'Not available' for an amount without a conversion rate, and warns", async () => {
    const content = ok(
      (
        await build("", {
          assets: () =>
            Promise.resolve(
              lists({
                investments: [
                  {
                    ...lists().investments[0]!,
                    value_owned: null,
                    amount_in_report_currency: null,
                    amount: money(1000, "ZAR"),
                    currency: "ZAR",
                  },
                ],
              }),
            ),
        })
      ).page,
    );
    const [table] = tables(content);
    expect(table!.rows[0]!.value.text).toBe("balanceSheet.notAvailable");
    expect(table!.rows[0]!.valueOwned.text).toBe("balanceSheet.notAvailable");
    expect(content.partial).toBe(true);
  });

  it("is empty when nothing is left after the filters", async () => {
    const { page } = await build("", {
      assets: () =>
        Promise.resolve(
          lists({
            investments: [],
            pensions: [{ ...lists().pensions[0]!, policy_status: "Transferred" }],
            liabilities: [],
          }),
        ),
    });
    expect(page.content).toEqual({ state: "empty" });
    expect(page.member).toEqual({ id: 1, name: "Ellie Hartley" });
  });
});

describe("buildBalanceSheet: members (spec 001 §2.5, §6)", () => {
  it("lists the client and the login-accessible members, the partner only with view_partner", async () => {
    expect((await build("")).page.members.map((m) => m.name)).toEqual(["Ellie Hartley", "James Hartley"]);
    expect((await build("", { capabilities: [] })).page.members.map((m) => m.name)).toEqual(["Ellie Hartley"]);
  });

  it("shows the member asked for, and falls back to the client for an id outside the list", async () => {
    const james = await build("?id=2");
    expect(james.page.member).toEqual({ id: 2, name: "James Hartley" });
    expect(james.asked).toEqual(["entity/client/2/asset?pricing_type=close&hold_back_period=false"]);
    for (const id of [3, 4, 99]) {
      const other = await build(`?id=${id}`);
      expect(other.page.member, String(id)).toEqual({ id: 1, name: "Ellie Hartley" });
      expect(other.asked).toEqual(["entity/client/1/asset?pricing_type=close&hold_back_period=false"]);
    }
    const hidden = await build("?id=2", { capabilities: [] });
    expect(hidden.page.member).toEqual({ id: 1, name: "Ellie Hartley" });
  });

  it("carries the view, tab and currency along in the member selector", async () => {
    const { page } = await build("?id=2&view=non-managed&asset=0");
    expect(page.hidden).toEqual({ view: "non-managed", asset: "0" });
  });
});

describe("buildBalanceSheet: portfolio accounts under advice (decision 109)", () => {
  // the platform's ISA account 1 and SIPP account 2, beside other assets with the same ids
  const isa = {
    ...asset(1, "Ellie Stocks and Shares ISA", 154_986.28, {
      source: "portfolio",
      accountid: 1,
      under_advice: true,
      type: "Individual Savings Account",
    }),
    amount: money(154_986.28),
    amount_in_report_currency: money(154_986.28),
    status: "Existing",
    provider: "Northbridge ISA",
    policy_number: "NBW-100217",
    valuation_date: "2025-03-14",
  };
  const sipp = {
    ...asset(2, "Ellie Self-Invested Personal Pension", 274_421.99, {
      source: "portfolio",
      accountid: 2,
      under_advice: true,
      type: "Personal pension (SIPP)",
    }),
    fund_value: money(274_421.99),
    fund_value_in_report_currency: money(274_421.99),
    policy_status: "Active",
    product_provider: "Northbridge SIPP",
    fund_or_policy_num: "NBW-100234",
    fund_valuation_date: "2025-03-14",
  };
  const withAccounts = () => {
    const base = lists();
    return { ...base, investments: [isa, ...base.investments], pensions: [sipp, ...base.pensions] };
  };

  it("lists them in the managed tables, keyed apart from the other assets with the same ids", async () => {
    const content = ok((await build("?view=managed&asset=0", { assets: () => Promise.resolve(withAccounts()) })).page);
    expect(content.tabs.map((tab) => tab.title)).toEqual([
      'balanceSheet.tabs.investments {"count":1}',
      'balanceSheet.tabs.pensions {"count":2}',
      'balanceSheet.tabs.liabilities {"count":1}',
    ]);
    const [table] = tables(content);
    expect(
      table!.rows.map((r) => [
        r.key,
        r.description.text,
        r.type.text,
        r.type.note,
        r.detail.text,
        r.value.text,
        r.value.note,
        r.valueOwned.text,
      ]),
    ).toEqual([
      [
        "portfolio-1",
        "Ellie Stocks and Shares ISA",
        "Individual Savings Account",
        "Northbridge ISA",
        "NBW-100217",
        "£154,986.28",
        "14th March 2025",
        "£154,986.28",
      ],
    ]);
    expect(table!.total).toBe("£154,986.28");
    const pensions = ok((await build("?view=managed&asset=1", { assets: () => Promise.resolve(withAccounts()) })).page);
    const [managed] = tables(pensions);
    expect(managed!.rows.map((r) => [r.key, r.description.text, r.valueOwned.note])).toEqual([
      ["portfolio-2", "Ellie Self-Invested Personal Pension", "100.00%"],
      ["other-2", "Workplace pension", "100.00%"],
    ]);
    // the non-managed view leaves them out; the other asset with id 1 is still there
    const nonManaged = ok(
      (await build("?view=non-managed&asset=0", { assets: () => Promise.resolve(withAccounts()) })).page,
    );
    expect(tables(nonManaged)[0]!.rows.map((r) => r.key)).toEqual(["other-1"]);
  });

  it("asks for them valued with the analysis page's pricing and hold-back", async () => {
    expect((await build("", { capabilities: ["view_partner", "view_marketdata"] })).asked).toEqual([
      "entity/client/1/asset?pricing_type=delayed&hold_back_period=false",
    ]);
    expect(
      (await build("", { capabilities: ["live_marketdata_access"] }, { enableHoldBackPeriod: true })).asked,
    ).toEqual(["entity/client/1/asset?pricing_type=live&hold_back_period=true"]);
  });
});

describe("buildBalanceSheet: currency (spec 001 §2.5, §5)", () => {
  const usd = () =>
    lists({
      investments: [
        ...lists().investments,
        {
          ...asset(4, "US brokerage", 32_000),
          amount: money(41_200, "USD"),
          amount_in_report_currency: money(32_000),
          currency: "USD",
          status: "Existing",
        },
      ],
    });

  it("offers the toggle only with multi-currency and an asset in another currency", async () => {
    expect((await build("")).page.currency).toBeNull();
    expect((await build("", { assets: () => Promise.resolve(usd()), multiCurrency: false })).page.currency).toBeNull();
    const { page } = await build("", { assets: () => Promise.resolve(usd()) });
    expect(page.currency).toEqual({
      preferred: "GBP",
      mode: "report",
      hidden: { id: "1", view: "everything", asset: "0" },
    });
    const [table] = tables(ok(page));
    expect(table!.rows.map((r) => r.value.text)).toEqual(["£485,000.00", "£32,000.00"]);
    expect(table!.total).toBe("£274,500.00");
  });

  it("shows original currencies on request, with no total across currencies", async () => {
    const { page } = await build("?currency=plan", { assets: () => Promise.resolve(usd()) });
    expect(page.currency?.mode).toBe("plan");
    const [table] = tables(ok(page));
    expect(table!.rows.map((r) => [r.value.text, r.valueOwned.text])).toEqual([
      ["£485,000.00", "£242,500.00"],
      ["$41,200.00", "$41,200.00"],
    ]);
    expect(table!.total).toBe("balanceSheet.notAvailable");
  });

  it("ignores a request for original currencies without multi-currency", async () => {
    const { page } = await build("?currency=plan", { assets: () => Promise.resolve(usd()), multiCurrency: false });
    const [table] = tables(ok(page));
    expect(table!.rows.map((r) => r.value.text)).toEqual(["£485,000.00", "£32,000.00"]);
  });
});

describe("buildBalanceSheet: failures", () => {
  it("shows the asset error when the lists or the basics fail, and lets a lost session through", async () => {
    expect((await build("", { assets: () => Promise.reject(new PlanningError(500, null)) })).page.content).toEqual({
      state: "error",
    });
    expect((await build("", { basics: () => Promise.reject(new PlanningError(500, null)) })).page.content).toEqual({
      state: "error",
    });
    const lost = new PlanningError(401, "This feature is not available without a valid session");
    await expect(build("", { assets: () => Promise.reject(lost) })).rejects.toBe(lost);
  });
});
