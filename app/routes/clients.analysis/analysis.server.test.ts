import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { z } from "zod/v4";
import { type PlanningClient, PlanningError } from "~/planning/client.server";
import type {
  AccountAnswer,
  DetailAnswer,
  DetailRow,
  TargetSeriesAnswer,
  TransactionAnswer,
} from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";
import {
  analysisSettings,
  buildAnalysis,
  chartTabOf,
  chosenBenchmarks,
  LostSession,
  type AnalysisPage,
  type Figures,
} from "./analysis.server";
import type { AnalysisQuery } from "~/lib/analysis/query";
import type { IncomeAnswer } from "~/planning/income.server";
import { fakePlatformKeys } from "../../../tests/fake-platform-keys";

const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const site = (settings: Site["settings"] = {}): Site => ({
  version: null,
  firmName: "Test firm",
  logo: null,
  logoOnWhite: null,
  memorableWordEnabled: false,
  chartColours: ["#1d4f91", "#00857c", "#c4511a"],
  pages: {},
  settings,
});
const QUERY: AnalysisQuery = {
  id: null,
  range: "1Y",
  from: "",
  to: "",
  chart: null,
  currency: "report",
  tab: null,
  tx: null,
  pages: 1,
  sort: "description",
  dir: "asc",
  expand: "primary",
  open: [],
  show: "preferred",
  convert: [],
};
const money = (amount: number, currency = "GBP") => ({ amount, currency });

const account = (accountid: number, fields: Partial<AccountAnswer> = {}): AccountAnswer => ({
  accountid,
  description: `Account ${accountid}`,
  portfolioid: 1,
  portfolioName: "Ellie's portfolio",
  group_code: "ISA",
  group_name: "ISAs",
  plan_currency: "GBP",
  report_currency: "GBP",
  service_type: "Discretionary",
  inception_date: "2023-01-10",
  type: "single",
  isLinked: false,
  ...fields,
});
const ACCOUNTS = [
  account(1),
  account(2, { plan_currency: "USD" }),
  account(3, { portfolioid: 2, portfolioName: "James's portfolio", isLinked: true }),
];

function row(
  level: DetailRow["level"],
  key: string,
  name: string | null,
  value: number,
  fields: Partial<DetailRow> = {},
): DetailRow {
  return {
    level,
    key,
    name,
    accountid: null,
    start_date: "2024-03-14",
    end_date: "2025-03-14",
    since: null,
    value: money(value),
    market_value_from: money(value * 0.9),
    market_value_to: money(value),
    net_flows: money(0),
    movement: money(value / 10),
    twrr: 0.1,
    twrr_period: 0.1,
    irr: 0.12,
    irr_period: 0.12,
    over_a_year: false,
    native_currency: "GBP",
    plan_currency_value: null,
    ...fields,
  };
}
function detail(rows: DetailRow[], total: DetailRow | null = row("all", "all", null, 3000)): DetailAnswer {
  return {
    start_date: "2024-03-14",
    end_date: "2025-03-14",
    report_currency: "GBP",
    inception_date: "2023-01-10",
    rows,
    total,
  };
}
const PORTFOLIO_ROWS = [
  row("portfolio", "portfolio-1", "Ellie's portfolio", 2000, { portfolioid: 1, isLinked: false, account_count: 2 }),
  row("portfolio", "portfolio-2", "James's portfolio", 1000, { portfolioid: 2, isLinked: true, account_count: 1 }),
];
function series(
  points: Array<[string, number | null, number]>,
  benchmarks: TargetSeriesAnswer["benchmarks"] = [],
): TargetSeriesAnswer {
  return {
    start_date: "2024-03-14",
    end_date: "2025-03-14",
    frequency: "monthly",
    report_currency: "GBP",
    inception_date: "2023-01-10",
    points: points.map(([date, cumulative, value]) => ({
      date,
      value: money(value),
      cumulative_twrr: cumulative,
      net_flows: money(value > 1000 ? 50 : 0),
    })),
    benchmarks,
  };
}
const SERIES = series(
  [
    ["2024-03-14", 0, 1000],
    ["2024-09-14", 0.05, 1100],
    ["2025-03-14", 0.1, 1200],
  ],
  [
    {
      code: "FTASX",
      name: "FTSE All-Share",
      points: [
        { date: "2024-03-14", cumulative: 0 },
        { date: "2025-03-14", cumulative: 0.08 },
      ],
    },
  ],
);

function tx(id: number, fields: Partial<TransactionAnswer> = {}): TransactionAnswer {
  return {
    id,
    accountId: 1,
    tradeDate: "2025-03-04",
    settlementDate: "2025-03-06",
    securityDescription: "iShares Core FTSE 100",
    type: "buy",
    transactionTypeDesc: "Purchase",
    nativeCurrency: "GBP",
    nativeTransactionValue: money(1000),
    netAmount: money(1012.5),
    fee: money(10),
    tax: money(2.5),
    volume: 125.5,
    pricePerUnit: 7.9681,
    code: "ISF",
    exchange: "LSE",
    securityIsin: "IE0005042456",
    comment: "Bought 125.5 ISF",
    ...fields,
  };
}

const usd = (amount: number) => ({ currency: "USD", amount });
const INCOME: IncomeAnswer = {
  report_currency: "GBP",
  tax_year: "GB",
  end_date: "2025-03-14",
  months: Array.from({ length: 24 }, (_, i) => {
    const month = `${2023 + Math.floor((i + 3) / 12)}-${String(((i + 3) % 12) + 1).padStart(2, "0")}`;
    return {
      month,
      start_date: `${month}-01`,
      end_date: `${month}-28`,
      income: money(month === "2025-03" ? 80.3 : month === "2024-06" ? 30.1 : 0),
    };
  }),
  tax_years: [
    { tax_year: 2024, start_date: "2024-04-06", end_date: "2025-04-05", income: money(110.4) },
    { tax_year: 2023, start_date: "2023-04-06", end_date: "2024-04-05", income: money(0) },
  ],
  holdings: [
    { accountid: 1, security_id: 5, description: "iShares Gilts", code: "IGL", isin: null, currency: "GBP" },
    { accountid: 2, security_id: 7, description: "Vanguard US", code: "VUS", isin: null, currency: "USD" },
  ],
  rows: [
    {
      accountid: 2,
      security_id: 7,
      month: "2025-03",
      tax_year: 2024,
      native_income: usd(100.4),
      income: money(80.2),
      transactions: 1,
    },
    {
      accountid: 1,
      security_id: 5,
      month: "2025-03",
      tax_year: 2024,
      native_income: money(0.1),
      income: money(0.1),
      transactions: 1,
    },
    {
      accountid: 1,
      security_id: 5,
      month: "2024-06",
      tax_year: 2024,
      native_income: money(30.1),
      income: money(30.1),
      transactions: 1,
    },
  ],
};

type Call = { path: string; query: Record<string, unknown> };
type Answers = {
  basics?: unknown;
  detail?: unknown;
  series?: unknown;
  transactions?: unknown;
  list?: unknown;
  targetSets?: unknown;
  payment?: unknown;
  income?: unknown;
  clientAnalysis?: boolean;
  capabilities?: string[];
};
const lost = () => new PlanningError(401, "This feature is not available without a valid session");

function fakePlanning(answers: Answers = {}) {
  const calls: Call[] = [];
  const answer = (value: unknown) => (value instanceof Error ? Promise.reject(value) : Promise.resolve(value));
  const planning = {
    keys: fakePlatformKeys(),
    get: (path: string, _schema: z.ZodType, options?: { query?: Record<string, unknown> }) => {
      calls.push({ path, query: options?.query ?? {} });
      if (path.endsWith("toggle_condition"))
        return Promise.resolve([{ name: "client_analysis", enabled: answers.clientAnalysis ?? false }]);
      if (path.endsWith("portfolio/transaction"))
        return answer(
          options?.query?.page_size === 1
            ? (answers.transactions ?? [tx(1)])
            : (answers.list ?? [tx(3), tx(2, { type: "income", comment: null })]),
        );
      if (path.endsWith("portfolio/targetset")) return answer(answers.targetSets ?? []);
      if (path.endsWith("portfolio/income")) return answer(answers.income ?? INCOME);
      if (path.endsWith("payment_information")) return answer(answers.payment ?? { bpays: [], bankAccounts: [] });
      if (path.endsWith("profit_analysis/detail")) return answer(answers.detail ?? detail(PORTFOLIO_ROWS));
      if (path.endsWith("historic_time_series_twrr")) return answer(answers.series ?? SERIES);
      return Promise.reject(new Error(`unexpected ${path}`));
    },
    batch: () =>
      answer(
        answers.basics ?? {
          capabilities: { capabilities: answers.capabilities ?? ["view_marketdata"] },
          accounts: ACCOUNTS,
          access: { multi_currency: true },
          benchmarks: [
            { code: "FTASX", name: "FTSE All-Share" },
            { code: "BAL6040", name: "Balanced index" },
          ],
        },
      ),
  } as unknown as PlanningClient;
  return { planning, calls };
}

const build = (planning: PlanningClient, query: Partial<AnalysisQuery> = {}, settings: Site["settings"] = {}) =>
  buildAnalysis({ planning, t, locale: "en-GB", site: site(settings), query: { ...QUERY, ...query } });
function ok(page: AnalysisPage): Extract<Figures, { state: "ok" }> {
  if (page.figures?.state !== "ok") throw new Error(`expected figures, got ${JSON.stringify(page.figures)}`);
  return page.figures;
}
const detailCall = (calls: Call[]) => calls.find((c) => c.path.endsWith("profit_analysis/detail"));
const seriesCall = (calls: Call[]) => calls.find((c) => c.path.endsWith("historic_time_series_twrr"));

describe("analysisSettings and chartTabOf (spec 001 §4 'Chart tab', 'Date range selection')", () => {
  it("reads the initial tab, the disabled ranges and the benchmarks", () => {
    const s = analysisSettings({
      analysisChartTab: "value",
      disabledDateRanges: "2 years,Custom",
      analysisBenchmarks: " FTASX , BAL6040 ",
    });
    expect(s.chartTab).toBe("value");
    expect([...s.disabledRanges]).toEqual(["2Y", "custom"]);
    expect(s.benchmarks).toEqual(["FTASX", "BAL6040"]);
    expect(analysisSettings({}).chartTab).toBe("percentage");
  });

  it("takes the URL's tab first; with historic data a filter opens on Percentage and none on Value", () => {
    const settings = { chartTab: "percentage" as const, useHistoricData: false };
    expect(chartTabOf({ chart: "value", id: null }, settings)).toBe("value");
    expect(chartTabOf({ chart: null, id: null }, settings)).toBe("percentage");
    expect(chartTabOf({ chart: null, id: null }, { ...settings, chartTab: "value" })).toBe("value");
    expect(chartTabOf({ chart: null, id: "12" }, { ...settings, useHistoricData: true })).toBe("percentage");
    expect(chartTabOf({ chart: null, id: null }, { ...settings, useHistoricData: true })).toBe("value");
  });
});

describe("chosenBenchmarks", () => {
  const known = [
    { code: "FTASX", name: "FTSE All-Share" },
    { code: "BAL6040", name: "Balanced index" },
  ];
  it("keeps the named ones the platform knows, by code or name, in the platform's order", () => {
    expect(chosenBenchmarks(["balanced index", "NOPE", "ftasx"], known)).toEqual(["FTASX", "BAL6040"]);
  });
  it("draws every benchmark when the settings name none", () => {
    expect(chosenBenchmarks([], known)).toEqual(["FTASX", "BAL6040"]);
  });
});

describe("buildAnalysis: all portfolios (spec 001 §2.2, §2.3)", () => {
  it("asks for the named range by portfolio, and for the series of the own accounts with the benchmarks", async () => {
    const { planning, calls } = fakePlanning();
    await build(planning, { range: "SI" }, { analysisBenchmarks: "FTASX" });
    // the rows cover her own and the linked accounts (their own section); the total and the chart her own (decision 107)
    expect(detailCall(calls)!.query).toMatchObject({
      timeframe: "SI",
      grouping: "portfolio",
      accountid: "1,2,3",
      to_pricing_type: "delayed",
    });
    const s = seriesCall(calls)!;
    expect(s.path).toBe("resourceful/portfolio/profit_analysis/historic_time_series_twrr");
    expect(s.query).toMatchObject({ timeframe: "SI", frequency: "auto", benchmark_name: "FTASX", accountid: "1,2" });
  });

  it("covers one set of accounts on every tab: her own managed ones, never a 'Not managed' or a linked one (decision 107)", async () => {
    const accounts = [
      ...ACCOUNTS,
      account(4, { service_type: "Not managed", description: "Premium Bonds" }),
      account(5, { has_transactions: false }),
    ];
    const basics = {
      capabilities: { capabilities: ["view_marketdata"] },
      accounts,
      access: { multi_currency: true },
      benchmarks: [],
    };
    const asked: Record<string, unknown> = {};
    for (const tab of ["accounts", "investments", "allocation", "transactions"] as const) {
      const { planning, calls } = fakePlanning({ basics, clientAnalysis: true });
      const page = await build(planning, { tab }).catch(() => null);
      for (const c of calls)
        if (c.query.accountid !== undefined)
          asked[`${tab} ${c.path.replace("resourceful/portfolio/", "")}`] = c.query.accountid;
      if (tab === "accounts")
        expect(ok(page!).coverage).toBe("analysis.overview.covers.own.portfolio analysis.overview.covers.linkedApart");
    }
    // the one-row check, the series and the active tab's call all ask for accounts 1 and 2; the detail adds the linked 3 as rows
    const own = Object.entries(asked).filter(([key]) => !key.endsWith("profit_analysis/detail"));
    expect(own.length).toBeGreaterThanOrEqual(6);
    for (const [key, ids] of own) expect(ids, key).toBe("1,2");
    expect(asked["transactions transaction"]).toBe("1,2");
    for (const tab of ["accounts", "investments", "allocation", "transactions"])
      expect(asked[`${tab} profit_analysis/detail`]).toBe("1,2,3");
  });

  it("says what a total covers: a portfolio drilled into, the linked accounts of a client who has no own", async () => {
    const linkedPortfolio = await build(fakePlanning().planning, { id: "portfolio-2" });
    expect(ok(linkedPortfolio).coverage).toBe('analysis.overview.covers.selection {"name":"James\'s portfolio"}');
    const onlyLinked = fakePlanning({
      basics: { capabilities: { capabilities: [] }, accounts: [ACCOUNTS[2]], access: {}, benchmarks: [] },
    });
    const page = await build(onlyLinked.planning);
    expect(ok(page).coverage).toBe("analysis.overview.covers.linked");
    expect(detailCall(onlyLinked.calls)!.query.accountid).toBe("3");
    // a 'Not managed' account is in no view: its id is not found, and nothing is asked for
    const bonds = fakePlanning({
      basics: {
        capabilities: { capabilities: [] },
        accounts: [...ACCOUNTS, account(4, { service_type: "Not managed" })],
        access: {},
        benchmarks: [],
      },
    });
    const notFound = await build(bonds.planning, { id: "4" });
    expect([notFound.notFound, notFound.figures]).toEqual([true, { state: "noData" }]);
    expect(bonds.calls.filter((c) => c.path.includes("profit_analysis"))).toEqual([]);
  });

  it("shows the tiles, the default heading, no breadcrumb, and the rows split into mine and linked", async () => {
    const { planning } = fakePlanning();
    const page = await build(planning);
    expect(page.heading).toBe("analysis.heading.allPortfolios");
    expect(page.crumbs).toEqual([]);
    expect(page.backHref).toBeNull();
    const figures = ok(page);
    expect(figures.value).toBe("£3,000");
    expect(figures.performance).toEqual({ period: { text: "+10.00%", negative: false }, annual: null, since: null });
    expect(figures.movement).toEqual({ text: "£300", negative: false });
    expect(figures.period).toBe('analysis.period {"from":"14th March 2024","to":"14th March 2025"}');
    expect(figures.accounts!.title).toBe("analysis.accounts.tab.portfolio");
    expect(
      figures.accounts!.sections.map((s) => [s.heading, s.rows.map((r) => [r.name, r.accountCount, r.value, r.href])]),
    ).toEqual([
      [
        "analysis.accounts.sections.my.portfolio",
        [["Ellie's portfolio", 2, "£2,000.00", "/clients/analysis?id=portfolio-1"]],
      ],
      [
        "analysis.accounts.sections.linked.portfolio",
        [["James's portfolio", 1, "£1,000.00", "/clients/analysis?id=portfolio-2"]],
      ],
    ]);
  });

  it("has one 'All …' section when nothing is linked, and keeps the view's state in the drill-down links", async () => {
    const { planning } = fakePlanning({ detail: detail([PORTFOLIO_ROWS[0]!]) });
    const page = await build(planning, { range: "2Y", chart: "value" });
    const sections = ok(page).accounts!.sections;
    expect(sections.map((s) => s.heading)).toEqual(["analysis.accounts.sections.all.portfolio"]);
    expect(sections[0]!.rows[0]!.href).toBe("/clients/analysis?id=portfolio-1&range=2Y&chart=value");
  });

  it("says 'You don't have any accounts to view.' through an empty section, and 'No data available' without a total", async () => {
    const empty = await build(fakePlanning({ detail: detail([]) }).planning);
    expect(ok(empty).accounts!.sections).toEqual([{ heading: "analysis.accounts.sections.all.portfolio", rows: [] }]);
    const none = await build(fakePlanning({ detail: detail([], null) }).planning);
    expect(none.figures).toEqual({ state: "noData" });
  });

  it("draws the percentage chart with the benchmark lines, named in the legend and the table", async () => {
    const { planning } = fakePlanning();
    const chart = ok(await build(planning)).chart;
    if (chart.state !== "ok") throw new Error(chart.state);
    expect(chart.legend.map((l) => l.label)).toEqual(["analysis.chart.performance", "FTSE All-Share"]);
    expect(chart.table.columns).toEqual(["analysis.chart.date", "analysis.chart.performance", "FTSE All-Share"]);
    expect(chart.table.rows[2]).toEqual({ header: "14 Mar 2025", cells: ["10.00%", "8.00%"] });
    expect(chart.svg).toContain("<svg");
  });

  it("draws the value chart with the net amount invested and no benchmark", async () => {
    const { planning, calls } = fakePlanning();
    const chart = ok(await build(planning, { chart: "value" })).chart;
    if (chart.state !== "ok") throw new Error(chart.state);
    expect(seriesCall(calls)!.query.benchmark_name).toBeUndefined();
    expect(chart.table.columns).toEqual(["analysis.chart.date", "analysis.chart.value", "analysis.chart.invested"]);
    // the opening value plus the flows since the start
    expect(chart.table.rows.map((r) => r.cells)).toEqual([
      ["£1,000.00", "£1,000.00"],
      ["£1,100.00", "£1,050.00"],
      ["£1,200.00", "£1,050.00"],
    ]);
  });
});

describe("buildAnalysis: drilling down (spec 001 §4 'Account filter levels')", () => {
  it("lists a portfolio's accounts, with a breadcrumb back to all portfolios", async () => {
    const rows = [
      row("account", "account-1", "Account 1", 1500, { accountid: 1 }),
      row("account", "account-2", "Account 2", 500, { accountid: 2 }),
    ];
    const { planning, calls } = fakePlanning({ detail: detail(rows) });
    const page = await build(planning, { id: "portfolio-1", range: "3Y" });
    expect(detailCall(calls)!.query).toMatchObject({ grouping: "account", accountid: "1,2", timeframe: "3Y" });
    expect(seriesCall(calls)!.path).toBe("resourceful/portfolio/portfolio/1/profit_analysis/historic_time_series_twrr");
    expect(page.heading).toBe("Ellie's portfolio");
    expect(page.crumbs).toEqual([
      { name: "analysis.heading.allPortfolios", href: "/clients/analysis?range=3Y" },
      { name: "Ellie's portfolio", href: null },
    ]);
    expect(page.backHref).toBe("/clients/analysis?range=3Y");
    const tab = ok(page).accounts!;
    expect(tab.title).toBe("analysis.accounts.tab.account");
    // decision 120: an account's row is one account, it reads no '(1 account)' after its name
    expect(tab.sections[0]!.rows.map((r) => [r.name, r.accountCount, r.href])).toEqual([
      ["Account 1", null, "/clients/analysis?id=1&range=3Y"],
      ["Account 2", null, "/clients/analysis?id=2&range=3Y"],
    ]);
  });

  it("shows one account without the accounts tab, under its portfolio", async () => {
    const { planning, calls } = fakePlanning({ detail: detail([]) });
    const page = await build(planning, { id: "2" });
    expect(detailCall(calls)!.query).toMatchObject({ grouping: "all", accountid: "2" });
    expect(seriesCall(calls)!.path).toBe("resourceful/portfolio/account/2/profit_analysis/historic_time_series_twrr");
    expect(page.crumbs.map((c) => c.href)).toEqual(["/clients/analysis", "/clients/analysis?id=portfolio-1", null]);
    expect(page.backHref).toBe("/clients/analysis?id=portfolio-1");
    expect(ok(page).accounts).toBeNull();
  });

  it("measures one account in its plan currency when asked, the toggle being offered", async () => {
    const { planning, calls } = fakePlanning({
      detail: detail([], row("all", "all", null, 100, { plan_currency_value: money(127, "USD") })),
    });
    const page = await build(planning, { id: "2", currency: "plan" });
    expect(page.currencyToggle).toBe(true);
    expect(detailCall(calls)!.query.report_currency).toBe("USD");
    expect(seriesCall(calls)!.query.report_currency).toBe("USD");
    expect(ok(page).value).toBe("$127");
    expect(ok(page).currencyNote).toBe(false);
  });

  it("keeps several accounts in the reporting currency, saying so", async () => {
    const { planning, calls } = fakePlanning();
    const page = await build(planning, { currency: "plan" });
    expect(detailCall(calls)!.query.report_currency).toBeUndefined();
    expect(ok(page).currencyNote).toBe(true);
  });

  it("shows nothing of an id the client does not see: no platform figures asked for, and 'not found'", async () => {
    const { planning, calls } = fakePlanning();
    const page = await build(planning, { id: "99" });
    expect(page.notFound).toBe(true);
    expect(page.figures).toEqual({ state: "noData" });
    expect(detailCall(calls)).toBeUndefined();
    expect(seriesCall(calls)).toBeUndefined();
  });
});

describe("buildAnalysis: the date range (spec 001 §5)", () => {
  it("asks for a valid custom range by its dates and shows them in the inputs", async () => {
    const { planning, calls } = fakePlanning();
    const page = await build(planning, { range: "custom", from: "01-06-2024", to: "31-12-2024" });
    expect(detailCall(calls)!.query).toMatchObject({ start_date: "2024-06-01", end_date: "2024-12-31" });
    expect(page.range).toMatchObject({
      name: "custom",
      from: "01-06-2024",
      to: "31-12-2024",
      earliest: "10-01-2023",
      errors: {},
    });
  });

  it("refuses an invalid custom range before asking the platform, keeping what was typed", async () => {
    const { planning, calls } = fakePlanning();
    const page = await build(planning, { range: "custom", from: "31-02-2024", to: "" });
    expect(detailCall(calls)).toBeUndefined();
    expect(page.figures).toBeNull();
    expect(page.range).toMatchObject({ from: "31-02-2024", to: "", errors: { from: "invalidFormat", to: "required" } });
  });

  it("fills the custom inputs with the shown period's dates and marks disabled options", async () => {
    const { planning } = fakePlanning();
    const page = await build(planning, {}, { disabledDateRanges: "YTD" });
    expect(page.range).toMatchObject({ name: "1Y", from: "14-03-2024", to: "14-03-2025" });
    expect(page.range.options.filter((o) => o.disabled).map((o) => o.name)).toEqual(["YTD"]);
  });
});

describe("buildAnalysis: failures and settings (spec 001 §2.4, §8)", () => {
  it("says 'Something went wrong' in the chart when the series fails, keeping the rest", async () => {
    const { planning } = fakePlanning({ series: new PlanningError(500, "boom") });
    const figures = ok(await build(planning));
    expect(figures.chart).toEqual({ state: "error" });
    expect(figures.value).toBe("£3,000");
  });

  it("explains an empty chart: before the opening date, or no data", async () => {
    const before = { ...series([["2024-03-14", null, 0]]), inception_date: "2024-06-01" };
    expect(ok(await build(fakePlanning({ series: before }).planning)).chart).toEqual({
      state: "noData",
      noData: true,
      beforeOpening: true,
    });
    const empty = series([]);
    expect(ok(await build(fakePlanning({ series: empty }).planning)).chart).toEqual({
      state: "noData",
      noData: true,
      beforeOpening: false,
    });
  });

  it("shows the portfolio error when the figures or the basics fail", async () => {
    expect((await build(fakePlanning({ detail: new PlanningError(500, "boom") }).planning)).figures).toEqual({
      state: "error",
    });
    expect((await build(fakePlanning({ basics: new PlanningError(0, null) }).planning)).figures).toEqual({
      state: "error",
    });
  });

  it("lets a lost session through to the loader", async () => {
    await expect(build(fakePlanning({ basics: lost() }).planning)).rejects.toBeInstanceOf(LostSession);
    await expect(build(fakePlanning({ detail: lost() }).planning)).rejects.toBeInstanceOf(LostSession);
    await expect(build(fakePlanning({ series: lost() }).planning)).rejects.toBeInstanceOf(LostSession);
  });

  it("hides the chart for the type none, and shows no performance", async () => {
    const { planning, calls } = fakePlanning();
    const figures = ok(await build(planning, {}, { profitAnalysisType: "none" }));
    expect(seriesCall(calls)).toBeUndefined();
    expect(figures.chart).toEqual({ state: "hidden" });
    expect(figures.performanceLabel).toBeNull();
    expect(figures.accounts!.sections[0]!.rows[0]).not.toHaveProperty("performance");
  });

  it("shows the money-weighted figures for irr", async () => {
    const figures = ok(await build(fakePlanning().planning, {}, { profitAnalysisType: "irr" }));
    expect(figures.performanceLabel).toBe("analysis.overview.performance.irr");
    expect(figures.performance!.period.text).toBe("+12.00%");
  });
});

describe("buildAnalysis: 'No transactions to display' (spec 001 §2.2)", () => {
  it("checks the selection for one transaction when the client-analysis toggle is on", async () => {
    const { planning, calls } = fakePlanning({ clientAnalysis: true, transactions: [] });
    const figures = ok(await build(planning, { id: "portfolio-1" }));
    expect(figures.noTransactions).toBe(true);
    expect(calls.find((c) => c.path.endsWith("portfolio/transaction"))!.query).toMatchObject({
      accountid: "1,2",
      page_size: 1,
      start_date: "1900-01-01",
    });
    expect(ok(await build(fakePlanning({ clientAnalysis: true }).planning)).noTransactions).toBe(false);
  });

  it("does not check with the toggle off, and warns of nothing when the check fails", async () => {
    const off = fakePlanning({ transactions: [] });
    expect(ok(await build(off.planning)).noTransactions).toBe(false);
    expect(off.calls.some((c) => c.path.endsWith("portfolio/transaction"))).toBe(false);
    expect(
      ok(await build(fakePlanning({ clientAnalysis: true, transactions: new PlanningError(500, "boom") }).planning))
        .noTransactions,
    ).toBe(false);
    await expect(build(fakePlanning({ clientAnalysis: true, transactions: lost() }).planning)).rejects.toBeInstanceOf(
      LostSession,
    );
  });
});

describe("buildAnalysis: the income tab (issue 41)", () => {
  it("asks for the view's accounts' income in the site's tax year, only on its tab, and adds it up per account", async () => {
    const { planning, calls } = fakePlanning();
    const figures = ok(await build(planning, { tab: "income" }));
    expect(calls.find((c) => c.path.endsWith("portfolio/income"))!.query).toMatchObject({
      accountid: "1,2",
      tax_year: "GB",
    });
    const income = figures.income!;
    if (income.state !== "ok") throw new Error("expected the income");
    expect(income.yearRule).toBe("analysis.income.yearRule.GB");
    expect(income.periods.map((p) => [p.text, p.current])).toEqual([
      ["analysis.income.lastMonths", true],
      ["2024/25", false],
      ["2023/24", false],
    ]);
    expect(income.periods[1]!.href).toBe("/clients/analysis?tab=income&taxYear=2024");
    expect(income.total).toBe("£110.40");
    expect(
      income.accounts.map((a) => [a.name, a.total, a.holdings.map((h) => [h.name, h.native, h.converted])]),
    ).toEqual([
      ["Account 1", "£30.20", [["iShares Gilts", "£30.20", "£30.20"]]],
      ["Account 2", "£80.20", [["Vanguard US", "$100.40", "£80.20"]]],
    ]);
    expect(income.byCurrency).toEqual([
      { currency: "GBP", amount: "£30.20" },
      { currency: "USD", amount: "$100.40" },
    ]);
    // 24 months, the empty ones as £0.00
    expect(income.chart.table.rows).toHaveLength(24);
    expect(income.chart.table.rows.filter((r) => r.cells[0] === "£0.00")).toHaveLength(22);
    expect(income.csv).toBe("/clients/analysis/download/income");
    const other = ok(await build(fakePlanning().planning, { tab: "transactions" }));
    expect(other.income).toBeNull();
  });

  it("shows a tax year the answer lists, its chart by tax year; an unknown one is the last 24 months", async () => {
    const year = ok(await build(fakePlanning().planning, { tab: "income", taxYear: 2024 })).income!;
    if (year.state !== "ok") throw new Error("expected the income");
    expect(year.periods.find((p) => p.current)?.text).toBe("2024/25");
    expect(year.total).toBe("£110.40");
    expect(year.chart.table.rows.map((r) => [r.header, r.cells[0]])).toEqual([
      ["2023/24", "£0.00"],
      ["2024/25", "£110.40"],
    ]);
    expect(year.csv).toBe("/clients/analysis/download/income?taxYear=2024");
    const unknown = ok(await build(fakePlanning().planning, { tab: "income", taxYear: 2010 })).income!;
    expect(unknown.state === "ok" && unknown.periods[0]!.current).toBe(true);
  });

  it("uses Australia's and Canada's tax years on their sites, and says when the call failed", async () => {
    for (const [locale, jurisdiction] of [
      ["en-AU", "AU"],
      ["fr-CA", "CA"],
    ] as const) {
      const { planning, calls } = fakePlanning();
      await buildAnalysis({ planning, t, locale, site: site(), query: { ...QUERY, tab: "income" } });
      expect(calls.find((c) => c.path.endsWith("portfolio/income"))!.query.tax_year).toBe(jurisdiction);
    }
    const failed = ok(
      await build(fakePlanning({ income: new PlanningError(500, "down") }).planning, { tab: "income" }),
    );
    expect(failed.income).toEqual({ state: "error" });
  });
});

describe("buildAnalysis: the tabs (spec 001 §2.3)", () => {
  it("shows the accounts tab and the transactions tab for several accounts, loading only the active one", async () => {
    const { planning, calls } = fakePlanning();
    const figures = ok(await build(planning));
    expect(figures.tabs.map((tab) => [tab.key, tab.index, tab.label, tab.current])).toEqual([
      ["accounts", 0, "analysis.accounts.tab.portfolio", true],
      ["investments", 1, "analysis.tabs.investments", false],
      ["allocation", 2, "analysis.tabs.allocation", false],
      ["transactions", 3, "analysis.tabs.transactions", false],
      ["income", 6, "analysis.tabs.income", false],
    ]);
    expect(figures.tabs[3]!.href).toBe("/clients/analysis?tab=transactions");
    expect(calls.some((c) => c.path.endsWith("portfolio/position") || c.path.endsWith("portfolio/allocation"))).toBe(
      false,
    );
    expect(calls.some((c) => c.path.endsWith("portfolio/transaction"))).toBe(false);
    expect(figures.transactions).toBeNull();
  });

  it("opens one account on its transactions; instructions and payment with client analysis, instructions with the capability", async () => {
    const tabsOf = async (answers: Answers) =>
      ok(await build(fakePlanning(answers).planning, { id: "1" })).tabs.map((tab) => tab.key);
    const published = { analysisSections: "transactions" };
    const only = async (answers: Answers) =>
      ok(await build(fakePlanning(answers).planning, { id: "1" }, published)).tabs.map((tab) => tab.key);
    expect(await tabsOf({})).toEqual(["investments", "allocation", "transactions", "income"]);
    expect(await only({ clientAnalysis: true })).toEqual(["transactions", "payment", "income"]);
    expect(await only({ clientAnalysis: true, capabilities: ["modelling_by_target_sets"] })).toEqual([
      "transactions",
      "instructions",
      "payment",
      "income",
    ]);
    const unpublished = ok(await build(fakePlanning().planning, { id: "1" }, { analysisSections: "news" }));
    expect(unpublished.tabs).toEqual([]);
    // spec 001 §2.3: allocation needs one of its types enabled
    expect(
      ok(await build(fakePlanning().planning, { id: "1" }, { allocationTypes: "none" })).tabs.map((tab) => tab.key),
    ).toEqual(["investments", "transactions", "income"]);
  });

  it("falls back to the first tab for one the selection does not show", async () => {
    const figures = ok(await build(fakePlanning().planning, { tab: "payment" }));
    expect(figures.tabs.find((tab) => tab.current)?.key).toBe("accounts");
    expect(figures.accounts).not.toBeNull();
  });

  it("lists transactions newest first with the first selected, and its details by the spec's rules", async () => {
    const { planning, calls } = fakePlanning();
    const view = ok(await build(planning, { tab: "transactions", range: "2Y" })).transactions;
    expect(calls.find((c) => c.path.endsWith("portfolio/transaction") && c.query.page_size !== 1)!.query).toMatchObject(
      { timeframe: "2Y", page_size: 51 },
    );
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect(view.rows.map((r) => [r.id, r.tradeDate, r.type, r.account, r.value, r.valueSpoken, r.selected])).toEqual([
      [
        3,
        "04/03/2025",
        "analysis.transactions.types.purchase",
        "Account 1",
        "-£1,000.00",
        "analysis.transactions.paidOut",
        true,
      ],
      [
        2,
        "04/03/2025",
        "analysis.transactions.types.income",
        "Account 1",
        "£1,000.00",
        "analysis.transactions.received",
        false,
      ],
    ]);
    expect(view.rows[1]!.href).toBe("/clients/analysis?range=2Y&tab=transactions&tx=2");
    const paidOut = "analysis.transactions.paidOut";
    expect(view.selected.fields).toEqual([
      { label: "analysis.transactions.fields.account", value: "Account 1", spoken: null },
      { label: "analysis.transactions.fields.value", value: "-£1,000.00", spoken: paidOut },
      { label: "analysis.transactions.fields.narrative", value: "Bought 125.5 ISF", spoken: null },
      { label: "analysis.transactions.fields.valueAfter", value: "-£1,012.50", spoken: paidOut },
      { label: "analysis.transactions.fields.fees", value: "-£10.00", spoken: paidOut },
      { label: "analysis.transactions.fields.taxes", value: "-£2.50", spoken: paidOut },
      { label: "analysis.transactions.fields.units", value: "125.5 / 7.9681", spoken: null },
      { label: "analysis.transactions.fields.code", value: "ISF / IE0005042456", spoken: null },
      { label: "analysis.transactions.fields.settlement", value: "06/03/2025", spoken: null },
    ]);
    expect(view.moreHref).toBeNull();
  });

  it("selects the transaction in the URL, hides fields by the settings, and offers more while there are more", async () => {
    const list = Array.from({ length: 51 }, (_, i) => tx(100 - i, i === 1 ? { type: "income", comment: null } : {}));
    const { planning } = fakePlanning({ list });
    const view = ok(
      await build(
        planning,
        { tab: "transactions", tx: 99 },
        { hideFees: "Hide For All Transactions", hideTaxes: "Hide For Income Transactions Only" },
      ),
    ).transactions;
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect(view.rows).toHaveLength(50);
    expect(view.selected.id).toBe(99);
    expect(view.selected.fields.map((f) => f.label.split(".").pop())).toEqual([
      "account",
      "value",
      "narrative",
      "valueAfter",
      "code",
      "settlement",
    ]);
    expect(view.selected.fields[2]!.value).toBe("analysis.transactions.types.income");
    // 'Load more' opens at the first new row: the table's on wide screens, the list's on phones
    expect(view.moreHref).toBe("/clients/analysis?tab=transactions&tx=99&pages=2#tx-51");
    expect(view.morePhoneHref).toBe("/clients/analysis?tab=transactions&tx=99&pages=2#tx-item-51");
    expect(view.rows.slice(0, 2).map((r) => [r.anchor, r.phoneAnchor])).toEqual([
      ["tx-1", "tx-item-1"],
      ["tx-2", "tx-item-2"],
    ]);
    expect(view.arrived).toBeNull();
  });

  it("after 'Load more' says how many arrived and how many are shown", async () => {
    const list = Array.from({ length: 120 }, (_, i) => tx(200 - i));
    const { planning } = fakePlanning({ list });
    const view = ok(await build(planning, { tab: "transactions", pages: 3 })).transactions;
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect(view.rows).toHaveLength(120);
    expect(view.arrived).toEqual({ count: 20, shown: 120 });
    expect(view.moreHref).toBeNull();
  });

  it("shows a fee as the cost it is: paid out as its value, with no Fees or Taxes repeating it", async () => {
    const cash = {
      code: "GBPCASH",
      exchange: "CASH",
      securityIsin: null,
      volume: 0,
      pricePerUnit: null,
      comment: null,
    };
    const list = [
      tx(5, {
        type: "fee",
        transactionTypeDesc: "Fee",
        ...cash,
        nativeTransactionValue: money(31.65),
        netAmount: money(31.65),
        fee: money(31.65),
        tax: money(0),
      }),
      tx(4, {
        type: "transfer_out",
        transactionTypeDesc: "Transfer out",
        ...cash,
        nativeTransactionValue: money(5000),
        netAmount: money(5000),
        fee: money(0),
        tax: money(0),
      }),
      tx(3, {
        type: "transfer_in",
        transactionTypeDesc: "Transfer in",
        ...cash,
        nativeTransactionValue: money(20000),
        netAmount: money(20000),
        fee: money(0),
        tax: money(0),
      }),
      tx(2, {
        type: "sell",
        transactionTypeDesc: "Sale",
        nativeTransactionValue: money(1000),
        netAmount: money(990),
        fee: money(10),
        tax: money(0),
      }),
    ];
    const view = ok(await build(fakePlanning({ list }).planning, { tab: "transactions" })).transactions;
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect(view.rows.map((r) => [r.type, r.value, r.valueSpoken])).toEqual([
      ["analysis.transactions.types.fee", "-£31.65", "analysis.transactions.paidOut"],
      ["analysis.transactions.types.withdrawal", "-£5,000.00", "analysis.transactions.paidOut"],
      ["analysis.transactions.types.deposit", "£20,000.00", "analysis.transactions.received"],
      ["analysis.transactions.types.sale", "£1,000.00", "analysis.transactions.received"],
    ]);
    expect(view.selected.fields.map((f) => [f.label.split(".").pop(), f.value])).toEqual([
      ["account", "Account 1"],
      ["value", "-£31.65"],
      ["narrative", "analysis.transactions.types.fee"],
      ["valueAfter", "-£31.65"],
      ["code", "GBPCASH / analysis.transactions.notAvailable"],
      ["settlement", "06/03/2025"],
    ]);
    const sale = view.rows[3]!.fields.filter((f) =>
      ["value", "fees", "taxes", "valueAfter"].includes(f.label.split(".").pop()!),
    );
    expect(sale.map((f) => [f.value, f.spoken])).toEqual([
      ["£1,000.00", "analysis.transactions.received"],
      ["£990.00", "analysis.transactions.received"],
      ["-£10.00", "analysis.transactions.paidOut"],
      ["£0.00", null],
    ]);
  });

  it("says when there are no transactions, or when they could not be loaded", async () => {
    expect(ok(await build(fakePlanning({ list: [] }).planning, { tab: "transactions" })).transactions).toEqual({
      state: "empty",
    });
    expect(
      ok(await build(fakePlanning({ list: new PlanningError(500, "boom") }).planning, { tab: "transactions" }))
        .transactions,
    ).toEqual({ state: "error" });
  });

  it("shows the first target set's securities and weights on the instructions tab", async () => {
    const targetSets = [
      {
        id: 4,
        description: "Balanced growth (70/30)",
        securities: [
          { code: "VGOV", name: "Vanguard UK Gilt", weight: 70 },
          { code: "ISF", name: "iShares Core FTSE 100", weight: 30 },
        ],
      },
      { id: 5, description: "Second", securities: [] },
    ];
    const answers = { clientAnalysis: true, capabilities: ["modelling_by_target_sets"], targetSets };
    const { planning, calls } = fakePlanning(answers);
    const figures = ok(await build(planning, { id: "1", tab: "instructions" }));
    expect(calls.find((c) => c.path.endsWith("portfolio/targetset"))!.query).toEqual({ accountid: "1" });
    expect(figures.instructions).toEqual({
      state: "ok",
      description: "Balanced growth (70/30)",
      // decision 120: by name in the page's locale, whatever the platform's order ('iShares' before 'Vanguard')
      securities: [
        { code: "ISF", name: "iShares Core FTSE 100", weight: "30.00%" },
        { code: "VGOV", name: "Vanguard UK Gilt", weight: "70.00%" },
      ],
    });
    expect(
      ok(await build(fakePlanning({ ...answers, targetSets: [] }).planning, { id: "1", tab: "instructions" }))
        .instructions,
    ).toEqual({ state: "empty" });
  });

  it("shows the bank cards on the payment tab with the code named as the site's country names it, BPAY in Australia only, or that there is none", async () => {
    const payment = {
      bpays: [{ id: 1, billerCode: "254789", reference: "4012" }],
      bankAccounts: [
        { id: 2, bank: "Barclays", accountName: "Client Money", bsb: "20-00-00", accountNumber: "43987610" },
      ],
    };
    const figures = ok(
      await build(fakePlanning({ clientAnalysis: true, payment }).planning, { id: "1", tab: "payment" }),
    );
    // decision 120: a sort code and no BPAY on the British site
    expect(figures.payment).toEqual({
      state: "ok",
      bpays: [],
      banks: [
        {
          id: 2,
          bank: "Barclays",
          accountName: "Client Money",
          codes: [{ label: "sortCode", value: "20-00-00" }],
          accountNumber: "43987610",
        },
      ],
    });
    const australian = await buildAnalysis({
      planning: fakePlanning({ clientAnalysis: true, payment }).planning,
      t,
      locale: "en-AU",
      site: site({}),
      query: { ...QUERY, id: "1", tab: "payment" },
    });
    expect(ok(australian).payment).toEqual({
      state: "ok",
      bpays: [{ id: 1, billerCode: "254789", reference: "4012" }],
      banks: [
        {
          id: 2,
          bank: "Barclays",
          accountName: "Client Money",
          codes: [{ label: "bsb", value: "20-00-00" }],
          accountNumber: "43987610",
        },
      ],
    });
    // BPAY alone is no way to pay outside Australia
    const bpayOnly = { bpays: payment.bpays, bankAccounts: [] };
    expect(
      ok(await build(fakePlanning({ clientAnalysis: true, payment: bpayOnly }).planning, { id: "1", tab: "payment" }))
        .payment,
    ).toEqual({ state: "empty" });
    expect(
      ok(await build(fakePlanning({ clientAnalysis: true }).planning, { id: "1", tab: "payment" })).payment,
    ).toEqual({ state: "empty" });
  });
});

describe("transactionsView: the most the tab loads", () => {
  it("stops offering more at the last page, saying a shorter range shows the earlier ones", async () => {
    const list = Array.from({ length: 20 * 50 + 1 }, (_, i) => tx(5000 - i));
    const view = ok(await build(fakePlanning({ list }).planning, { tab: "transactions", pages: 20 })).transactions;
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect([view.rows.length, view.moreHref, view.capped]).toEqual([1000, null, true]);
    const short = ok(
      await build(fakePlanning({ list: list.slice(0, 1000) }).planning, { tab: "transactions", pages: 20 }),
    ).transactions;
    expect(short).toMatchObject({ moreHref: null, capped: false });
  });
});

describe("transactionsView: security names", () => {
  it("names an empty or invalid security 'INVALID DATA' (spec 001 §5), so no row's link is without a name", async () => {
    const list = [tx(3, { securityDescription: "" }), tx(2, { securityDescription: " - " }), tx(1)];
    const view = ok(await build(fakePlanning({ list }).planning, { tab: "transactions" })).transactions;
    if (view?.state !== "ok") throw new Error(JSON.stringify(view));
    expect(view.rows.map((r) => r.security)).toEqual([
      "analysis.investments.invalidName",
      "analysis.investments.invalidName",
      "iShares Core FTSE 100",
    ]);
  });
});
