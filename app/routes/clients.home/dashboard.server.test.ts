import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { z } from "zod/v4";
import { type PlanningClient, PlanningError } from "~/planning/client.server";
import type { AssetLists, SeriesAnswer, SummaryAnswer, SummaryData, SummaryItem } from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";
import { buildAssetsView, buildPortfolioView, type HomeInput } from "./dashboard.server";
import type { HomeQuery } from "./home-query";

const site = (settings: Site["settings"] = {}): Site => ({
  version: null,
  firmName: "Test firm",
  logo: null,
  logoOnWhite: null,
  memorableWordEnabled: false,
  chartColours: ["#1d4f91"],
  pages: {},
  settings,
});

const money = (amount: number, currency = "GBP") => ({ amount, currency });
function data(fields: Partial<SummaryData> = {}): SummaryData {
  return {
    timeframe: "1Y",
    start_date: "2024-03-14",
    end_date: "2025-03-14",
    since: null,
    base_currency: "GBP",
    value: money(1000),
    market_value_from: money(900),
    market_value_to: money(1000),
    net_flows: money(0),
    movement: money(100),
    twrr: 0.1111,
    twrr_period: 0.1095,
    irr: 0.2222,
    irr_period: 0.2034,
    over_a_year: false,
    ...fields,
  };
}

// ── the views built from fake platform answers ──────────────────────────────────────────────

const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const QUERY: HomeQuery = { timeframe: "default", currency: "report", expand: [], memberId: null };

type Get = (path: string, options?: { query?: Record<string, unknown> }) => Promise<unknown>;
/** A planning client whose GETs the test answers; every call is recorded. */
function fakePlanning(get: Get, batch?: () => Promise<unknown>) {
  const calls: Array<{ path: string; query: Record<string, unknown> }> = [];
  const planning = {
    get: (path: string, _schema: z.ZodType, options?: { query?: Record<string, unknown> }) => {
      calls.push({ path, query: options?.query ?? {} });
      return get(path, options);
    },
    batch: batch ?? (() => Promise.reject(new Error("no batch expected"))),
  } as unknown as PlanningClient;
  return { planning, calls };
}
const input = (
  planning: PlanningClient,
  query: Partial<HomeQuery> = {},
  settings: Site["settings"] = {},
): HomeInput => ({
  planning,
  t,
  locale: "en-GB",
  site: site(settings),
  query: { ...QUERY, ...query },
  pricingType: "delayed",
});

function summaryItem(key: string, name: string | null, value: number, fields: Partial<SummaryItem> = {}): SummaryItem {
  return {
    key,
    name,
    isLinked: false,
    account_count: 1,
    accountids: [1],
    plan_currency: null,
    plan_currency_value: null,
    defaultData: data({ value: money(value), movement: money(value / 10) }),
    secondaryData: data({
      timeframe: "SI",
      start_date: "2022-05-16",
      value: money(value),
      movement: money(value / 5),
      over_a_year: true,
    }),
    ...fields,
  };
}
function summary(items: SummaryItem[], level: SummaryAnswer["level"] = "portfolio"): SummaryAnswer {
  const total = items.reduce((sum, i) => sum + i.defaultData.value.amount, 0);
  return {
    level,
    end_date: "2025-03-14",
    report_currency: "GBP",
    items,
    totals: items.length
      ? {
          defaultData: data({ value: money(total) }),
          secondaryData: data({ start_date: "2022-05-16", value: money(total), over_a_year: true }),
        }
      : null,
  };
}
const series = (points: Array<[string, number | null]>): SeriesAnswer => ({
  start_date: "2024-03-14",
  end_date: "2025-03-14",
  frequency: "monthly",
  report_currency: "GBP",
  inception_date: "2022-05-16",
  points: points.map(([date, cumulative]) => ({
    date,
    value: money(1000),
    cumulative_twrr: cumulative,
    net_flows: money(0),
  })),
});
const isSummary = (path: string) => path.endsWith("portfolio/summary");

describe("buildPortfolioView: platform failures (spec 001 §2.1, §8)", () => {
  it("shows the portfolio error when the summary fails", async () => {
    for (const error of [
      new PlanningError(500, "Internal failure"),
      new PlanningError(0, null),
      new PlanningError(403, "Permission Error: no"),
    ]) {
      const { planning } = fakePlanning(() => Promise.reject(error));
      expect(await buildPortfolioView(input(planning), 3)).toEqual({ state: "error" });
    }
  });

  it("lets a lost session through to the login redirect", async () => {
    const lost = new PlanningError(401, "This feature is not available without a valid session");
    const { planning } = fakePlanning(() => Promise.reject(lost));
    await expect(buildPortfolioView(input(planning), 3)).rejects.toBe(lost);
  });

  it("says 'No portfolios' without accounts, and 'no visible accounts' when the summary is empty", async () => {
    const { planning } = fakePlanning(() => Promise.resolve(summary([])));
    expect(await buildPortfolioView(input(planning), 0)).toEqual({ state: "noPortfolios" });
    expect(await buildPortfolioView(input(planning), 2)).toEqual({ state: "noAccounts" });
    const noTotals = fakePlanning(() =>
      Promise.resolve({ ...summary([summaryItem("portfolio-1", "P", 10)]), totals: null }),
    );
    expect(await buildPortfolioView(input(noTotals.planning), 2)).toEqual({ state: "noAccounts" });
  });
});

describe("buildPortfolioView: the view", () => {
  const items = [
    summaryItem("portfolio-1", "Ellie's portfolio", 3000, { account_count: 2, accountids: [1, 2] }),
    summaryItem("portfolio-3", "Joint portfolio", 1000),
    summaryItem("portfolio-2", "James's portfolio", 500.5, { isLinked: true, account_count: 2, accountids: [4, 5] }),
  ];
  const accountItems = [
    summaryItem("account-4", "James ISA", 400, {
      isLinked: true,
      plan_currency: "GBP",
      plan_currency_value: money(400),
    }),
    summaryItem("account-5", "James USD", 100.5, {
      isLinked: true,
      plan_currency: "USD",
      plan_currency_value: money(130.25, "USD"),
      defaultData: data({
        value: money(100.5),
        movement: money(-7.6),
        plan_currency_value: money(130.25, "USD"),
        plan_currency_movement: money(-9.8, "USD"),
      }),
    }),
  ];
  const answers =
    (options: { expansion?: "ok" | "fail"; chart?: SeriesAnswer | "fail" } = {}): Get =>
    (path, o) => {
      if (isSummary(path)) {
        if (o?.query?.portfolioid === undefined) return Promise.resolve(summary(items));
        return options.expansion === "fail"
          ? Promise.reject(new PlanningError(500, null))
          : Promise.resolve(summary(accountItems, "account"));
      }
      if (options.chart === "fail") return Promise.reject(new PlanningError(500, null));
      return Promise.resolve(
        options.chart ??
          series([
            ["2024-03-14", 0],
            ["2024-09-14", 0.05],
            ["2025-03-14", 0.1095],
          ]),
      );
    };

  it("gives the linked rows of a client who sees nothing else their shares of the total they make (decision 107)", async () => {
    const linkedOnly = [
      summaryItem("portfolio-2", "James's portfolio", 300, { isLinked: true }),
      summaryItem("portfolio-4", "James's other portfolio", 100, { isLinked: true }),
    ];
    const { planning } = fakePlanning((path) =>
      isSummary(path) ? Promise.resolve(summary(linkedOnly)) : Promise.reject(new Error("no chart")),
    );
    const view = await buildPortfolioView(input(planning), 2);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.own).toEqual([]);
    expect(view.linked.map((r) => [r.key, r.percent, r.percentLabel])).toEqual([
      ["portfolio-2", 75, "75%"],
      ["portfolio-4", 25, "25%"],
    ]);
    expect(view.overview.coverage).toBe("home.overview.covers.linked");
  });

  it("splits own and linked rows, with tiles at 0 decimals and each section's shares", async () => {
    const { planning, calls } = fakePlanning(answers());
    const view = await buildPortfolioView(input(planning), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.layout).toBe("tiles");
    expect(view.collection).toBe("portfolio");
    expect(view.overview.value).toBe("£4,501");
    expect(view.overview.performance).toEqual({
      period: { text: "+10.95%", negative: false },
      annual: null,
      since: null,
    });
    expect(view.overview.performanceLabel).toBe("home.overview.performance.twrr");
    expect(view.period).toBe('home.overview.period {"from":"14th March 2024","to":"14th March 2025"}');
    expect(view.own.map((r) => [r.key, r.value, r.accountCount, r.percent, r.percentLabel])).toEqual([
      ["portfolio-1", "£3,000", 2, 75, "75%"],
      ["portfolio-3", "£1,000", 1, 25, "25%"],
    ]);
    // a linked portfolio is no part of her total: no share of it (decision 107), and the overview says what it covers
    expect(view.linked.map((r) => [r.key, r.value, r.percent, r.percentLabel])).toEqual([
      ["portfolio-2", "£501", null, null],
    ]);
    expect(view.overview.coverage).toBe("home.overview.covers.own home.overview.covers.linkedApart");
    expect(view.own.every((r) => r.expandable && !r.expanded && r.accounts === null)).toBe(true);
    expect(view.own[0]!.toggle).toBe("portfolio-1");
    // one summary call at portfolio level with the site's settings and the pricing type
    const summaryCalls = calls.filter((c) => isSummary(c.path));
    expect(summaryCalls).toHaveLength(1);
    expect(summaryCalls[0]!.query).toMatchObject({
      level: "portfolio",
      default_timeframe: "1Y",
      secondary_timeframe: "SI",
      pricing_type: "delayed",
      hold_back_period: "false",
      fees_and_taxes: "1",
    });
    // the chart's series covers the summary's period: the same timeframe, at the spec's frequency for its length
    const seriesCall = calls.find((c) => !isSummary(c.path))!;
    expect(seriesCall.query).toMatchObject({
      timeframe: "1Y",
      hold_back_period: "false",
      frequency: "auto",
      to_pricing_type: "delayed",
    });
    if (!view.chart || "noData" in view.chart) throw new Error("expected a chart");
    expect(view.chart.svg).toContain("<svg");
    expect(view.chart.table.rows).toHaveLength(3);
    expect(view.chart.interactive.series[0]!.points.map((p) => p.value)).toEqual([0, 0.05, 0.1095]);
  });

  it("loads an expanded row's accounts at account level, in plan currency when asked", async () => {
    const { planning, calls } = fakePlanning(answers());
    const view = await buildPortfolioView(input(planning, { expand: ["portfolio-2", "group-x"], currency: "plan" }), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    const expansion = calls.filter((c) => isSummary(c.path) && c.query.portfolioid !== undefined);
    // only keys of the view's level are loaded
    expect(expansion.map((c) => [c.query.level, c.query.portfolioid])).toEqual([["account", 2]]);
    const james = view.linked[0]!;
    expect(james.expanded).toBe(true);
    expect(james.toggle).toBe("group-x");
    expect(james.accounts!.map((a) => [a.key, a.value, a.accountCount, a.expandable, a.percent])).toEqual([
      ["account-4", "£400", null, false, 80],
      ["account-5", "$130", null, false, 20],
    ]);
    // a single account's change in value is in its plan currency too; its share stays that of its reported value
    expect(james.accounts![1]!.movement).toEqual({ text: "-$10", negative: true });
    expect(james.accounts![0]!.movement).toEqual({ text: "£40", negative: false });
    expect(view.currencyNote).toBe(true);
    // totals of several accounts stay in the reporting currency
    expect(james.value).toBe("£501");
    expect(view.own[0]!.toggle).toBe("portfolio-2,group-x,portfolio-1");
  });

  it("marks an expanded row whose accounts failed to load, and keeps the rest of the view", async () => {
    const { planning } = fakePlanning(answers({ expansion: "fail" }));
    const view = await buildPortfolioView(input(planning, { expand: ["portfolio-1"] }), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.own[0]).toMatchObject({ expanded: true, accounts: null, accountsError: true });
    expect(view.overview.value).toBe("£4,501");
  });

  it("shows the secondary timeframe's figures", async () => {
    const { planning } = fakePlanning(answers());
    const view = await buildPortfolioView(input(planning, { timeframe: "secondary" }), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.period).toBe('home.overview.period {"from":"16th May 2022","to":"14th March 2025"}');
    expect(view.overview.performance!.annual).toEqual({ text: "+11.11%", negative: false });
    expect(view.own[0]!.movement).toEqual({ text: "£600", negative: false });
  });

  it("says there is no chart data with fewer than two points, or when the series fails", async () => {
    for (const chart of [
      series([["2025-03-14", 0.01]]),
      series([
        ["2024-03-14", null],
        ["2025-03-14", 0.1],
      ]),
      "fail" as const,
    ]) {
      const { planning } = fakePlanning(answers({ chart }));
      const view = await buildPortfolioView(input(planning), 5);
      if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
      expect(view.chart).toEqual({ noData: true, beforeOpening: false });
    }
  });

  it("says the range starts before the opening date when it does and there is no data (spec 001 §2.4)", async () => {
    const opened = { ...series([["2025-03-14", 0.01]]), inception_date: "2025-03-01" };
    const { planning } = fakePlanning(answers({ chart: opened }));
    const view = await buildPortfolioView(input(planning), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.chart).toEqual({ noData: true, beforeOpening: true });
  });

  it("asks for no chart when it is hidden, and shows no performance for the type none", async () => {
    const historic = fakePlanning(answers());
    const view = await buildPortfolioView(input(historic.planning, {}, { useHistoricData: true }), 5);
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(view.chart).toBeNull();
    expect(historic.calls.every((c) => isSummary(c.path))).toBe(true);

    const none = fakePlanning(answers());
    const noneView = await buildPortfolioView(input(none.planning, {}, { profitAnalysisType: "none" }), 5);
    if (noneView.state !== "ok") throw new Error(`expected a view, got ${noneView.state}`);
    expect(noneView.overview.performance).toBeNull();
    expect(noneView.overview.performanceLabel).toBeNull();
    expect(noneView.own.length).toBeGreaterThan(0);
    expect(noneView.own.every((r) => !("performance" in r))).toBe(true);
    expect(noneView.chart).toBeNull();
  });

  it("shows the value chart for irr", async () => {
    const { planning } = fakePlanning(answers());
    const view = await buildPortfolioView(input(planning, {}, { profitAnalysisType: "irr" }), 5);
    if (view.state !== "ok" || !view.chart || "noData" in view.chart) throw new Error("expected a chart");
    expect(view.overview.performanceLabel).toBe("home.overview.performance.irr");
    expect(view.chart.interactive.yFormat).toBe("money");
    expect(view.chart.interactive.series[0]!.points.map((p) => p.value)).toEqual([1000, 1000, 1000]);
  });

  it("asks for account groups or accounts by the grouping, and switches to a table for many accounts", async () => {
    const many = Array.from({ length: 10 }, (_, i) => summaryItem(`account-${i + 1}`, `Account ${i + 1}`, 100 + i));
    const { planning, calls } = fakePlanning((path) =>
      isSummary(path)
        ? Promise.resolve(summary(many, "account"))
        : Promise.resolve(
            series([
              ["2024-03-14", 0],
              ["2025-03-14", 0.1],
            ]),
          ),
    );
    const view = await buildPortfolioView(
      input(planning, { expand: ["portfolio-1", "account-1"] }, { portfolioGrouping: "consolidated" }),
      10,
    );
    if (view.state !== "ok") throw new Error(`expected a view, got ${view.state}`);
    expect(calls.filter((c) => isSummary(c.path)).map((c) => c.query.level)).toEqual(["account"]);
    expect(view.collection).toBe("account");
    expect(view.layout).toBe("table");
    expect(view.own[0]!.value).toBe("£100.00");
    expect(view.own.every((r) => !r.expandable && !r.expanded)).toBe(true);
    expect(view.own.reduce((sum, r) => sum + (r.percent ?? 0), 0)).toBe(100);

    const groups = fakePlanning((path) =>
      isSummary(path) ? Promise.resolve(summary([], "group")) : Promise.reject(new Error("no chart")),
    );
    await buildPortfolioView(input(groups.planning, {}, { portfolioGrouping: "accountgroup" }), 1);
    expect(groups.calls.find((c) => isSummary(c.path))!.query.level).toBe("group");
  });
});

// ── other assets ────────────────────────────────────────────────────────────────────────────

const asset = (id: number, desc: string, value: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  desc,
  type: "Other",
  owners: [],
  percentOwned: 100,
  value_owned: value === null ? null : money(value),
  is_sipp_wrapper: false,
  under_advice: false,
  currency: "GBP",
  source: "other" as "other" | "portfolio",
  ...extra,
});
const assetLists = (overrides: Partial<AssetLists> = {}): AssetLists => ({
  investments: [{ ...asset(1, "Cottage", 242_500), amount: money(485_000), status: "Existing" }],
  pensions: [{ ...asset(2, "Workplace pension", 212_400), fund_value: money(212_400), policy_status: "Active" }],
  annuities: [],
  liabilities: [
    { ...asset(3, "", 134_225.38), package_name: "Mortgage", amount: money(268_450.75), status: "Current" },
  ],
  ...overrides,
});
const members = [
  { entity_id: 1, display_name: "Ellie Hartley", login_accessible: true },
  { entity_id: 2, display_name: "James Hartley", login_accessible: true },
];

describe("buildAssetsView (spec 001 §2.6)", () => {
  const assetsInput = (planning: PlanningClient, memberId: number | null = null) => ({
    ...input(planning, { memberId }),
    members,
    country: "GB",
    enhancedSippWrapper: true,
  });

  it("shows the selected member's cards, liabilities negative, and links to the other members", async () => {
    const asked: string[] = [];
    const planning = {
      batch: (items: Record<string, { url: string }>) => {
        asked.push(...Object.values(items).map((i) => i.url));
        return Promise.resolve(assetLists());
      },
    } as unknown as PlanningClient;
    const view = await buildAssetsView(assetsInput(planning, 2));
    if (view.state !== "ok") throw new Error(`expected cards, got ${view.state}`);
    // the portfolio accounts among them valued as the portfolio view values them (decision 109)
    expect(asked).toEqual([
      "entity/client/2/asset?pricing_type=delayed&hold_back_period=false",
      "entity/client/2/pension?pricing_type=delayed&hold_back_period=false",
      "entity/client/2/annuity",
      "entity/client/2/liability",
    ]);
    expect(view.member).toEqual({ id: 2, name: "James Hartley", total: "£320,675" });
    expect(view.cards.map((c) => [c.tab, c.index, c.total, c.items.map((i) => `${i.desc} ${i.value}`)])).toEqual([
      ["investments", 0, "£242,500", ["Cottage £242,500"]],
      ["pensions", 1, "£212,400", ["Workplace pension £212,400"]],
      ["liabilities", 3, "-£134,225", ["Mortgage -£134,225"]],
    ]);
    expect(view.cards[0]!.title).toBe('home.assets.tabs.investments {"count":1}');
    // the cards open the member's balance sheet on their tab; 'View assets' opens the other member's
    expect(view.cards.map((c) => c.href)).toEqual([
      "/clients/balance-sheet?id=2&asset=0",
      "/clients/balance-sheet?id=2&asset=1",
      "/clients/balance-sheet?id=2&asset=3",
    ]);
    expect(view.balanceSheetHref).toBe("/clients/balance-sheet?id=2");
    expect(view.others).toEqual([{ id: 1, name: "Ellie Hartley", href: "/clients/balance-sheet?id=1" }]);
    expect(view.partial).toBe(false);
  });

  it("falls back to the client for a member outside the group", async () => {
    const asked: string[] = [];
    const planning = {
      batch: (items: Record<string, { url: string }>) => {
        asked.push(items.pensions!.url);
        return Promise.resolve(assetLists());
      },
    } as unknown as PlanningClient;
    const view = await buildAssetsView(assetsInput(planning, 4));
    expect(view.state === "ok" && view.member.id).toBe(1);
    expect(asked).toEqual(["entity/client/1/pension?pricing_type=delayed&hold_back_period=false"]);
  });

  it("says 'Not available' for an item without a conversion rate, and that the view is partial", async () => {
    const planning = {
      batch: () =>
        Promise.resolve(
          assetLists({
            pensions: [{ ...asset(2, "Overseas pension", null), fund_value: money(1, "ZAR"), policy_status: null }],
          }),
        ),
    } as unknown as PlanningClient;
    const view = await buildAssetsView(assetsInput(planning));
    if (view.state !== "ok") throw new Error(`expected cards, got ${view.state}`);
    expect(view.partial).toBe(true);
    expect(view.cards.find((c) => c.tab === "pensions")!.items).toEqual([
      { desc: "Overseas pension", value: "home.assets.notAvailable", share: null },
    ]);
  });

  it("says a joint asset's figure is the member's share, hers or theirs (decision 207)", async () => {
    const joint = {
      ...asset(5, "Joint General Investment Account", 69_724.5, { percentOwned: 50, source: "portfolio" }),
      amount: money(139_449),
      status: null,
    };
    const planning = {
      batch: () => Promise.resolve(assetLists({ investments: [joint, ...assetLists().investments] })),
    } as unknown as PlanningClient;
    const own = await buildAssetsView(assetsInput(planning));
    if (own.state !== "ok") throw new Error(`expected cards, got ${own.state}`);
    expect(own.cards[0]!.items).toEqual([
      { desc: "Cottage", value: "£242,500", share: null },
      { desc: "Joint General Investment Account", value: "£69,725", share: 'home.assets.yourShare {"percent":"50%"}' },
    ]);
    // a pension is always wholly the member's: no share said
    expect(own.cards[1]!.items[0]!.share).toBeNull();
    const partner = await buildAssetsView(assetsInput(planning, 2));
    if (partner.state !== "ok") throw new Error(`expected cards, got ${partner.state}`);
    expect(partner.cards[0]!.items[1]!.share).toBe('home.assets.theirShare {"percent":"50%"}');
  });

  it("is empty when nothing is left after the filters, and an error when the lists fail", async () => {
    const nothing = {
      batch: () =>
        Promise.resolve(
          assetLists({
            investments: [],
            pensions: [{ ...asset(2, "Transferred", 0), fund_value: money(0), policy_status: "Transferred" }],
            liabilities: [],
          }),
        ),
    } as unknown as PlanningClient;
    expect(await buildAssetsView(assetsInput(nothing))).toEqual({ state: "empty", memberName: "Ellie Hartley" });
    const failing = { batch: () => Promise.reject(new PlanningError(500, null)) } as unknown as PlanningClient;
    expect(await buildAssetsView(assetsInput(failing))).toEqual({ state: "error" });
    const lost = new PlanningError(401, "This feature is not available without a valid session");
    const losing = { batch: () => Promise.reject(lost) } as unknown as PlanningClient;
    await expect(buildAssetsView(assetsInput(losing))).rejects.toBe(lost);
  });
});
