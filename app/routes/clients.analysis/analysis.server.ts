// The analysis page (spec 001 §2.2, §2.3 first tab, §2.4, §4, §5): what the page shows, built on the
// server from the platform's answers, so that it reads the same without JavaScript
// (docs/decisions/093-analysis-page.md).
import type { TFunction } from "i18next";
import type { ChartLegendItem, ChartTable } from "~/components/charts/chart-data";
import { type LineChartInput, lineChartLegend, lineChartTable } from "~/components/charts/line-chart";
import { renderLineChartSvg } from "~/components/charts/line-chart-svg.server";
import type { ChartSvg } from "~/lib/chart-svg";
import { DATE_RANGE_NAMES, type DateError, type DateRangeName, formatDisplayDate } from "~/lib/date-range";
import { TABLE_DECIMALS, TILE_DECIMALS } from "~/lib/dashboard";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import {
  type ChartNoData,
  chartShown,
  figure,
  type Figure,
  type Performance,
  startsBeforeOpening,
} from "~/lib/performance";
import { performanceOf } from "~/lib/performance.server";
import { PlanningError, type PlanningClient, isLostSession } from "~/planning/client.server";
import {
  type AccountAnswer,
  type Benchmark,
  type DetailAnswer,
  type DetailRow,
  fetchAnalysisBasics,
  fetchDetail,
  fetchHasTransactions,
  fetchPaymentInformation,
  fetchTargetSeries,
  fetchTargetSets,
  fetchTransactions,
  type PaymentInformation,
  type TargetSet,
  type TransactionAnswer,
  type PricingType,
  pricingTypeFor,
  type SeriesTarget,
  type TargetSeriesAnswer,
} from "~/planning/portfolio.server";
import { isToggleOn } from "~/planning/feature-toggles.server";
import { chartSvgOfPage } from "~/runtime/chart-markup.server";
import { fetchAllocation, fetchFxRates, fetchHoldings } from "~/planning/positions.server";
import { conversionPairs, securityName } from "~/lib/analysis/investments";
import { type AllocationView, allocationView, investmentsView, type InvestmentsView } from "./investments.server";
import type { Site } from "~/planning/site.server";
import { type Crumb, type Filter, LINKED, parentCrumb, resolveFilter, UNGROUPED } from "~/lib/analysis/filter";
import { byName } from "~/lib/collation";
import { type BankCodeField, bankCodeFields, offersBpay } from "~/lib/analysis/payment";
import {
  analysisDownloadHref,
  analysisHref,
  type AnalysisQuery,
  type AnalysisTab,
  type ChartTab,
  MAX_TRANSACTION_PAGES,
  periodOfQuery,
  TRANSACTIONS_PAGE_SIZE,
} from "~/lib/analysis/query";
import { type AnalysisSettings, analysisSettings } from "~/lib/analysis/settings";
import { toMinor } from "~/lib/money";
import { detailKeys, directionOf, signedAmounts, transactionDate, transactionKind } from "~/lib/analysis/transactions";
import { type Covers, viewOf, viewOptions } from "~/lib/analysis/view";
import { jurisdictionOf } from "~/lib/analysis/income";
import { fetchIncome } from "~/planning/income.server";
import { incomeView, type IncomeView } from "./income.server";
import type { Locale } from "~/lib/i18n";
import { inSiteLanguage, type NamedList, recordsText, siteNames, type Worded } from "~/lib/site-words";

/** spec 001 §9: the analysis chart is 500 high, 300 on small screens. */
export const ANALYSIS_CHART_SIZE = { width: 960, height: 500 } as const;
export const NARROW_ANALYSIS_CHART_SIZE = { width: 360, height: 300 } as const;

// ── settings ────────────────────────────────────────────────────────────────────────────────────

export { type AnalysisSettings, analysisSettings } from "~/lib/analysis/settings";

/**
 * spec 001 §2.3, the tabs in order: the accounts tab unless one account is selected; investments,
 * allocation (with at least one type enabled) and transactions when published; investment instructions and payment information for one account with the
 * client-analysis toggle (instructions also need the capability modelling_by_target_sets).
 */
export function availableTabs(r: {
  single: boolean;
  sections: ReadonlySet<string>;
  clientAnalysis: boolean;
  targetSets: boolean;
  allocationTypes: number;
}): AnalysisTab[] {
  return [
    ...(r.single ? [] : (["accounts"] as const)),
    ...(r.sections.has("investments") ? (["investments"] as const) : []),
    ...(r.sections.has("allocation") && r.allocationTypes > 0 ? (["allocation"] as const) : []),
    ...(r.sections.has("transactions") ? (["transactions"] as const) : []),
    ...(r.single && r.clientAnalysis && r.targetSets ? (["instructions"] as const) : []),
    ...(r.single && r.clientAnalysis ? (["payment"] as const) : []),
    // issue 41: income received, read from the transactions, so where they are published
    ...(r.sections.has("transactions") ? (["income"] as const) : []),
  ];
}

/** The spec's index of each tab (ids analysis__tabs_tab-N), so an id means the same tab whatever is shown. */
export const TAB_INDEX: Record<AnalysisTab, number> = {
  accounts: 0,
  investments: 1,
  allocation: 2,
  transactions: 3,
  instructions: 4,
  payment: 5,
  income: 6,
};

/**
 * spec 001 §4 "Chart tab": the tab in the URL, else the setting's; with historic data, a selected
 * account filter opens on Percentage and no filter on Value.
 */
export function chartTabOf(
  query: Pick<AnalysisQuery, "chart" | "id">,
  settings: Pick<AnalysisSettings, "chartTab" | "useHistoricData">,
): ChartTab {
  if (query.chart) return query.chart;
  if (settings.useHistoricData) return query.id ? "percentage" : "value";
  return settings.chartTab;
}

// ── the view ────────────────────────────────────────────────────────────────────────────────────

export type AnalysisRow = {
  key: string;
  name: string;
  accountCount: number | null;
  value: string;
  /** null: 'Not available'; absent for the type none. */
  performance?: Performance | null;
  movement: Figure;
  href: string;
};

export type RangeOption = { name: DateRangeName; label: string; disabled: boolean };

export type DateRangeView = {
  name: DateRangeName;
  label: string;
  options: RangeOption[];
  /** The custom inputs' values: as typed, else the shown period's dates. */
  from: string;
  to: string;
  /** spec 001 §5: the start input's minimum, the since-inception date (DD-MM-YYYY). */
  earliest: string | null;
  errors: { from?: DateError; to?: DateError };
};

export type ChartArea =
  | { state: "hidden" }
  | { state: "error" }
  | (ChartNoData & { state: "noData" })
  | {
      state: "ok";
      caption: string;
      /** The chart's SVG, or on a document request a reference to it in the page (decision 156). */
      svg: ChartSvg;
      narrowSvg: ChartSvg;
      legend: ChartLegendItem[];
      table: ChartTable;
      interactive: LineChartInput;
    };

export type AccountsTab = {
  title: string;
  /** 'My …' and 'Linked …' when split, else one 'All …' section; the linked one says it is in no total. */
  sections: Array<{ heading: string; rows: AnalysisRow[]; note?: string }>;
  collection: "portfolio" | "group" | "account";
};

export type TabLink = { key: AnalysisTab; index: number; label: string; href: string; current: boolean };

/** `spoken`: the words a screen reader hears after a signed amount ('paid out', 'received'), null when the figure has no direction. */
export type TransactionField = {
  label: string;
  value: string;
  spoken: string | null;
  /** The value's language where it is not the page's: a narrative from the records (decision 210). */
  lang?: "en";
};
export type TransactionRow = {
  id: number;
  tradeDate: string;
  security: string;
  /** A security's name is the records' own, in the site's language (decision 210). */
  securityLang: "en" | null;
  account: string;
  /** What the transaction is ('Purchase', 'Withdrawal', …), translated from the platform's type code. */
  type: string;
  /** Signed: money leaving the account is negative (decision 108). */
  value: string;
  valueSpoken: string | null;
  href: string;
  selected: boolean;
  /** The row's id in the table (wide screens) and in the list (phones): 'Load more' links to the first new one. */
  anchor: string;
  phoneAnchor: string;
  fields: TransactionField[];
};
export type TransactionsView =
  | { state: "error" }
  | { state: "empty" }
  | {
      state: "ok";
      rows: TransactionRow[];
      selected: TransactionRow;
      /** 'Load more' to the first new row of the table (wide screens) or of the list (phones), one link shown per layout. */
      moreHref: string | null;
      morePhoneHref: string | null;
      /** After 'Load more': how many rows the last page added and how many are shown (announced, WCAG 4.1.3). */
      arrived: { count: number; shown: number } | null;
      /** The most the tab loads is reached and there are more: a shorter range shows the earlier ones. */
      capped: boolean;
      /** The period's transactions as a CSV file. */
      csv: string;
    };

export type InstructionsView =
  | { state: "error" }
  | { state: "empty" }
  | { state: "ok"; description: string; securities: Array<{ code: string; name: string; weight: string }> };

export type PaymentView =
  | { state: "error" }
  | { state: "empty" }
  | {
      state: "ok";
      bpays: Array<{ id: number; billerCode: string; reference: string }>;
      /** The bank's code as the site's country names it (decision 120). */
      banks: Array<{ id: number; bank: string; accountName: string; codes: BankCodeField[]; accountNumber: string }>;
    };

export type Figures =
  | { state: "error" }
  | { state: "noData" }
  | {
      state: "ok";
      period: string;
      value: string;
      performance: Performance | null;
      performanceLabel: string | null;
      movement: Figure;
      /** What the tiles' totals cover, in words (decision 107). */
      coverage: string | null;
      chart: ChartArea;
      /** spec 001 §2.3: the tabs the selection shows, and the active one's content (the others are not loaded). */
      tabs: TabLink[];
      /** Hidden for a single account (spec 001 §2.3). */
      accounts: AccountsTab | null;
      investments: InvestmentsView | null;
      allocation: AllocationView | null;
      transactions: TransactionsView | null;
      instructions: InstructionsView | null;
      payment: PaymentView | null;
      income: IncomeView | null;
      currencyNote: boolean;
      /** spec 001 §2.2: 'No transactions to display' (client-analysis toggle on, none in the selection). */
      noTransactions: boolean;
    };

export type AnalysisPage = {
  heading: string;
  crumbs: Array<{ name: string; href: string | null }>;
  /** spec 000 §2: the mobile Back button's target without JavaScript, the level above. */
  backHref: string | null;
  notFound: boolean;
  range: DateRangeView;
  chartTab: ChartTab;
  currencyToggle: boolean;
  figures: Figures | null;
  /** Links that keep the rest of the view: chart tabs and currency. */
  links: { percentage: string; value: string; report: string; plan: string; accountsTab: string };
};

export type AnalysisInput = {
  planning: PlanningClient;
  t: TFunction;
  locale: string;
  site: Site;
  query: AnalysisQuery;
};

/** Thrown for a lost session, so the loader can send the user to sign in again. */
export class LostSession extends Error {}

function rethrowLostSession(error: unknown): never | void {
  if (isLostSession(error)) throw new LostSession("lost session");
}

function rangeLabel(t: TFunction, name: DateRangeName) {
  return t(`analysis.range.options.${name}`);
}

/** The chart's call: the path of the account, portfolio or group selected (for its benchmark), else the view's accounts. */
function seriesTargetOf(filter: Filter, counted: number[]): SeriesTarget {
  switch (filter.kind) {
    case "account":
      return { kind: "account", accountId: filter.account.accountid };
    case "portfolio":
      return { kind: "portfolio", portfolioId: filter.portfolioId };
    case "group":
      return filter.code === UNGROUPED || filter.code === LINKED
        ? { kind: "accounts", accountIds: counted }
        : { kind: "group", code: filter.code };
    default:
      return { kind: "accounts", accountIds: counted };
  }
}

/** What the overview's totals cover, in words (decision 107); none for nothing counted. */
export function coverageOf(
  covers: Covers,
  heading: string,
  hasLinked: boolean,
  level: "portfolio" | "group" | "account",
  t: TFunction,
): string | null {
  switch (covers) {
    case "own":
      return [
        t(`analysis.overview.covers.own.${level}`),
        ...(hasLinked ? [t("analysis.overview.covers.linkedApart")] : []),
      ].join(" ");
    case "linked":
      return t("analysis.overview.covers.linked");
    case "selection":
      return t("analysis.overview.covers.selection", { name: heading });
    default:
      return null;
  }
}

/** The benchmarks the settings name that the platform knows, else every one it lists. */
export function chosenBenchmarks(wanted: readonly string[], known: readonly Benchmark[]): string[] {
  if (!wanted.length) return known.map((b) => b.code);
  const lower = (s: string) => s.toLowerCase();
  return known
    .filter((b) => wanted.some((w) => lower(w) === lower(b.code) || lower(w) === lower(b.name)))
    .map((b) => b.code);
}

type Context = {
  t: TFunction;
  locale: string;
  /** The site's names of a list in the page's language (decision 210); English as it is without it. */
  names?: (list: NamedList) => (english: string) => Worded;
  settings: AnalysisSettings;
  query: AnalysisQuery;
  /** spec 001 §2.3: drilling down opens the Investments tab when the analysis-investment-tab toggle is on. */
  drillTab?: AnalysisTab | null;
};

function rowOf(
  row: DetailRow,
  c: Context,
  level: "portfolio" | "group" | "account",
  currency: string | null,
): AnalysisRow {
  const id =
    level === "portfolio"
      ? `portfolio-${row.portfolioid}`
      : level === "group"
        ? row.key.startsWith("group-") && !row.group_code
          ? row.key
          : (row.group_code ?? row.key)
        : String(row.accountid);
  const value = currency && row.plan_currency_value ? row.plan_currency_value : row.value;
  return {
    key: row.key,
    name:
      row.name ?? c.t(row.key === "group-linked" ? "analysis.accounts.linkedAccounts" : "analysis.accounts.ungrouped"),
    // spec 001 §2.3 '(n account(s))' on a portfolio's or a group's row; an account's row is the
    // account itself, so no '(1 account)' after its name (decision 120, as on the home page)
    accountCount: level === "account" ? null : (row.account_count ?? null),
    value: formatMoney(value.amount, value.currency, c.locale, { decimals: TABLE_DECIMALS }),
    ...(c.settings.profitAnalysisType === "none"
      ? {}
      : { performance: performanceOf(row, c.settings.profitAnalysisType, c.locale) }),
    movement: figure(
      formatMoney(row.movement.amount, row.movement.currency, c.locale, { decimals: TABLE_DECIMALS }),
      row.movement.amount,
    ),
    href: analysisHref(c.query, { id, tab: c.drillTab ?? null, tx: null, pages: 1, open: [], convert: [] }),
  };
}

/** spec 001 §2.3 accounts summary table: rows of the selection's collection, split into own and linked. */
export function accountsTab(
  filter: Filter,
  detail: DetailAnswer,
  accounts: readonly AccountAnswer[],
  c: Context,
): AccountsTab | null {
  if (!filter.rows) return null;
  const level = filter.rows;
  const linkedAccount = new Set(accounts.filter((a) => a.isLinked).map((a) => a.accountid));
  const rows = detail.rows.filter((r) => r.level === level);
  const isLinked = (r: DetailRow) =>
    level === "account" ? linkedAccount.has(r.accountid ?? -1) : r.isLinked === true || r.key === "group-linked";
  const own = rows.filter((r) => !isLinked(r));
  const linked = rows.filter(isLinked);
  const kind = filter.kind === "all" ? level : "account";
  const heading = (which: "my" | "linked" | "all") => c.t(`analysis.accounts.sections.${which}.${kind}`);
  const toRow = (r: DetailRow) => rowOf(r, c, level, null);
  return {
    title: c.t(`analysis.accounts.tab.${kind}`),
    collection: kind,
    sections:
      own.length && linked.length
        ? [
            { heading: heading("my"), rows: own.map(toRow) },
            { heading: heading("linked"), rows: linked.map(toRow), note: c.t("analysis.accounts.linkedNote") },
          ]
        : [{ heading: heading("all"), rows: rows.map(toRow) }],
  };
}

/** spec 001 §2.2 performance chart: Percentage (with benchmark lines) or Value. */
export function chartOf(series: TargetSeriesAnswer, tab: ChartTab, c: Context, colours: string[]): ChartArea {
  const { t, locale } = c;
  const percent = tab === "percentage";
  const points = series.points
    .filter((p) => (percent ? p.cumulative_twrr !== null : true))
    .map((p) => ({ date: p.date, value: percent ? (p.cumulative_twrr as number) : p.value.amount }));
  if (points.length < 2) return { state: "noData", noData: true, beforeOpening: startsBeforeOpening(series) };
  const caption = t(percent ? "analysis.chart.captionPercent" : "analysis.chart.captionValue", {
    from: formatDate(series.start_date, locale),
    to: formatDate(series.end_date, locale),
  });
  const lines: LineChartInput["series"] = [
    { id: "portfolio", label: t(percent ? "analysis.chart.performance" : "analysis.chart.value"), points },
  ];
  if (percent) {
    // the site's benchmark names in the page's language (decision 210)
    const benchmarkName = c.names?.("benchmarkNames") ?? ((name: string) => ({ text: name, lang: null }));
    for (const benchmark of series.benchmarks) {
      const benchmarkPoints = benchmark.points
        .filter((p) => p.cumulative !== null)
        .map((p) => ({ date: p.date, value: p.cumulative as number }));
      if (benchmarkPoints.length >= 2)
        lines.push({
          id: `benchmark-${benchmark.code}`,
          label: benchmarkName(benchmark.name).text,
          points: benchmarkPoints,
        });
    }
  } else {
    // the money paid in less the money taken out, on top of the opening value: what the value would be with no growth
    const opening = series.points[0]!.value.amount;
    lines.push({
      id: "invested",
      label: t("analysis.chart.invested"),
      points: series.points.map((p) => ({ date: p.date, value: opening + p.net_flows.amount })),
    });
  }
  const chart: LineChartInput = {
    series: lines,
    colours,
    yFormat: percent ? "percent" : "money",
    currency: series.report_currency,
    locale,
    title: caption,
  };
  return {
    state: "ok",
    caption,
    svg: chartSvgOfPage(renderLineChartSvg({ ...chart, ...ANALYSIS_CHART_SIZE })),
    narrowSvg: chartSvgOfPage(renderLineChartSvg({ ...chart, ...NARROW_ANALYSIS_CHART_SIZE })),
    // each series' colour and its number, which gives its theme's colour and dash (docs/decisions/203)
    legend: lineChartLegend(chart),
    table: lineChartTable(chart, { caption, dateHeading: t("analysis.chart.date") }),
    interactive: chart,
  };
}

function crumbLinks(crumbs: Crumb[], query: AnalysisQuery) {
  return crumbs.map((crumb, i) => ({
    name: crumb.name,
    href: i === crumbs.length - 1 ? null : analysisHref(query, { id: crumb.id, tab: null, tx: null, pages: 1 }),
  }));
}

/** The n-th transaction's row (1-based) in the table and in the phones' list. */
const transactionAnchor = (n: number) => `tx-${n}`;
const transactionPhoneAnchor = (n: number) => `tx-item-${n}`;

type TransactionFieldKey = ReturnType<typeof detailKeys>[number];

/** The texts of one transaction's fields, signed amounts with the words a screen reader hears (decision 108). */
function transactionValues(
  tx: TransactionAnswer,
  kind: ReturnType<typeof transactionKind>,
  type: string,
  accountName: ReadonlyMap<number, string>,
  c: Pick<Context, "t" | "locale">,
): Record<TransactionFieldKey, { value: string; spoken: string | null; lang?: "en" }> {
  const { t, locale } = c;
  const number = numberFormat(locale, { maximumFractionDigits: 4 });
  const signed = signedAmounts(kind, {
    value: tx.nativeTransactionValue.amount,
    valueAfter: tx.netAmount.amount,
    fees: tx.fee.amount,
    taxes: tx.tax.amount,
  });
  const directed = directionOf(kind) !== null;
  // an amount that shows as nothing (0.00) moved no money either way
  const spoken = (amount: number) =>
    toMinor(amount) === 0 ? null : t(amount < 0 ? "analysis.transactions.paidOut" : "analysis.transactions.received");
  const amount = (value: number | null) => ({
    value:
      value === null
        ? ""
        : formatMoney(value, tx.nativeTransactionValue.currency, locale, { decimals: TABLE_DECIMALS }),
    spoken: value === null || !directed ? null : spoken(value),
  });
  const plain = (value: string) => ({ value, spoken: null });
  const notAvailable = t("analysis.transactions.notAvailable");
  return {
    account: plain(accountName.get(tx.accountId) ?? String(tx.accountId)),
    value: amount(signed.value),
    // the records' narrative is not translated: marked English on a page in another language (decision 210)
    narrative: tx.comment ? fromRecords(tx.comment, locale) : plain(type),
    valueAfter: amount(signed.valueAfter),
    fees: amount(signed.fees),
    taxes: amount(signed.taxes),
    units: plain(
      `${number.format(tx.volume)} / ${tx.pricePerUnit === null ? notAvailable : number.format(tx.pricePerUnit)}`,
    ),
    code: plain(`${tx.code} / ${tx.securityIsin ?? notAvailable}`),
    settlement: plain(transactionDate(tx.settlementDate, locale)),
  };
}

/** One row of the transactions tab (1-based `n` for its anchors). */
function transactionRow(
  tx: TransactionAnswer,
  n: number,
  accountName: ReadonlyMap<number, string>,
  c: Context,
): TransactionRow {
  const { t, query, settings } = c;
  const kind = transactionKind(tx);
  const type = kind === "other" ? tx.transactionTypeDesc : t(`analysis.transactions.types.${kind}`);
  const values = transactionValues(tx, kind, type, accountName, c);
  return {
    id: tx.id,
    tradeDate: transactionDate(tx.tradeDate, c.locale),
    // spec 001 §5: an invalid or empty security name is 'INVALID DATA' (never a link without a name)
    security: securityName(tx.securityDescription) ?? t("analysis.investments.invalidName"),
    securityLang: securityName(tx.securityDescription) && !inSiteLanguage(c.locale) ? "en" : null,
    account: values.account.value,
    type,
    value: values.value.value,
    valueSpoken: values.value.spoken,
    href: analysisHref(query, { tab: "transactions", tx: tx.id }),
    selected: false,
    anchor: transactionAnchor(n),
    phoneAnchor: transactionPhoneAnchor(n),
    fields: detailKeys(tx.type, settings.hide).map((key) => ({
      label: t(`analysis.transactions.fields.${key}`),
      ...values[key],
    })),
  };
}

/** spec 001 §2.3 transactions tab: the loaded pages, the selected one's details, 'Load more' while there are more. */
export function transactionsView(
  list: TransactionAnswer[],
  accounts: readonly AccountAnswer[],
  c: Context,
): TransactionsView {
  if (!list.length) return { state: "empty" };
  const { query } = c;
  const shown = list.slice(0, TRANSACTIONS_PAGE_SIZE * query.pages);
  const accountName = new Map(accounts.map((a) => [a.accountid, a.description]));
  const rows = shown.map((tx, index) => transactionRow(tx, index + 1, accountName, c));
  const selected = rows.find((r) => r.id === query.tx) ?? rows[0]!;
  // like the adviser's client list: the next page opens at its first row, not at the top
  const more =
    list.length > shown.length && query.pages < MAX_TRANSACTION_PAGES
      ? analysisHref(query, { tab: "transactions", pages: query.pages + 1 })
      : null;
  return {
    state: "ok",
    rows: rows.map((r) => (r === selected ? { ...r, selected: true } : r)),
    selected: { ...selected, selected: true },
    moreHref: more ? `${more}#${transactionAnchor(shown.length + 1)}` : null,
    morePhoneHref: more ? `${more}#${transactionPhoneAnchor(shown.length + 1)}` : null,
    arrived:
      query.pages > 1
        ? { count: shown.length - TRANSACTIONS_PAGE_SIZE * (query.pages - 1), shown: shown.length }
        : null,
    capped: list.length > shown.length && query.pages >= MAX_TRANSACTION_PAGES,
    csv: analysisDownloadHref("transactions", query),
  };
}

export function instructionsView(sets: TargetSet[], locale: string): InstructionsView {
  const first = sets[0];
  if (!first || !first.securities.length) return { state: "empty" };
  const percent = numberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return {
    state: "ok",
    description: first.description,
    // decision 120: by name in the page's locale, whatever order the platform sends
    securities: [...first.securities]
      .sort(byName(locale, (s) => s.name))
      .map((s) => ({ code: s.code, name: s.name, weight: percent.format(s.weight / 100) })),
  };
}

export function paymentView(info: PaymentInformation, locale: string): PaymentView {
  const text = (v: string | null) => v ?? "";
  // decision 120: BPAY shows where it exists (Australia), the bank's code by the site's country
  const bpays = offersBpay(locale) ? info.bpays : [];
  if (!bpays.length && !info.bankAccounts.length) return { state: "empty" };
  return {
    state: "ok",
    bpays: bpays.map((b) => ({ id: b.id, billerCode: text(b.billerCode), reference: text(b.reference) })),
    banks: info.bankAccounts.map((b) => ({
      id: b.id,
      bank: text(b.bank),
      accountName: text(b.accountName),
      codes: bankCodeFields(locale, text(b.bsb)),
      accountNumber: text(b.accountNumber),
    })),
  };
}

/** Links that keep the rest of the view: chart tabs and currency. */
function analysisLinks(query: AnalysisQuery): AnalysisPage["links"] {
  return {
    percentage: analysisHref(query, { chart: "percentage" }),
    value: analysisHref(query, { chart: "value" }),
    report: analysisHref(query, { currency: "report" }),
    plan: analysisHref(query, { currency: "plan" }),
    accountsTab: analysisHref(query, { tab: "accounts" }),
  };
}

/** spec 001 §5 date range: the options, and the custom inputs as typed or else the shown period's dates. */
function rangeView(
  t: TFunction,
  query: AnalysisQuery,
  settings: AnalysisSettings,
  errors: DateRangeView["errors"],
  detail: DetailAnswer | null,
  earliest: string | null,
): DateRangeView {
  return {
    name: query.range,
    label: rangeLabel(t, query.range),
    options: DATE_RANGE_NAMES.map((name) => ({
      name,
      label: rangeLabel(t, name),
      disabled: settings.disabledRanges.has(name),
    })),
    from: query.range === "custom" ? query.from : detail ? formatDisplayDate(detail.start_date) : "",
    to: query.range === "custom" ? query.to : detail ? formatDisplayDate(detail.end_date) : "",
    earliest: detail?.inception_date
      ? formatDisplayDate(detail.inception_date)
      : earliest
        ? formatDisplayDate(earliest)
        : null,
    errors,
  };
}

type Basics = Awaited<ReturnType<typeof fetchAnalysisBasics>>;
type Period = NonNullable<ReturnType<typeof periodOfQuery>["period"]>;
type Settled<T> = { ok: true; value: T } | { ok: false; message: string | null };

/** spec 001 §7: a tab's failed call keeps the platform's message for its warning panel; a lost session still signs out. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => {
      rethrowLostSession(error);
      return { ok: false as const, message: error instanceof PlanningError ? (error.userMessage ?? null) : null };
    },
  );
}

/** A settled tab's view: null when the tab was not loaded, the error state when its call failed. */
function settledView<T, V>(answer: Settled<T> | null, view: (value: T) => V): V | { state: "error" } | null {
  if (!answer) return null;
  return answer.ok ? view(answer.value) : { state: "error" };
}

function filterNames(t: TFunction) {
  return {
    allPortfolios: t("analysis.heading.allPortfolios"),
    allAccounts: t("analysis.heading.allAccounts"),
    ungrouped: t("analysis.accounts.ungrouped"),
    linked: t("analysis.accounts.linkedAccounts"),
  };
}

/**
 * decision 107: one set of accounts for every part of the view; an id is resolved against the
 * accounts a view shows ('Not managed' ones, and those without transactions unless an option says
 * otherwise, are in none).
 */
function selectionOf(basics: Basics, site: Site, settings: AnalysisSettings, query: AnalysisQuery, t: TFunction) {
  const options = viewOptions(site.settings, isToggleOn(basics.toggles, "client_analysis"));
  const accounts = viewOf(basics.accounts, null, options).shown;
  const filter = resolveFilter(query.id, accounts, settings.grouping, filterNames(t));
  const view = viewOf(accounts, filter.accountIds, options);
  const counted = view.counted;
  const selected = accounts.filter((a) => counted.includes(a.accountid));
  // spec 001 §5: the multi-currency toggle only when plan currencies differ from the reporting one
  const currencyToggle =
    basics.access.multi_currency === true && selected.some((a) => a.plan_currency !== a.report_currency);
  const single = filter.kind === "account" ? filter.account : null;
  const planCurrency =
    currencyToggle && query.currency === "plan" && single
      ? accounts.find((a) => a.accountid === single.accountid)?.plan_currency
      : undefined;
  // spec 001 §5: a custom range cannot start before the selection's since-inception date
  const earliest = earliestInception(accounts, [...counted, ...view.linked]);
  return { accounts, filter, view, counted, currencyToggle, single, planCurrency, earliest };
}
type Selection = ReturnType<typeof selectionOf>;

/** The since-inception date (YYYY-MM-DD) of some accounts, as the platform dates 'Since inception': the earliest account's. */
function earliestInception(accounts: readonly AccountAnswer[], ids: readonly number[]): string | null {
  const dates = accounts.filter((a) => ids.includes(a.accountid)).map((a) => a.inception_date);
  return dates.length ? dates.reduce((a, b) => (b < a ? b : a)) : null;
}

/** The page around its figures: heading, crumbs and the range, the same whatever the figures hold. */
function pageOf(
  s: Selection,
  query: AnalysisQuery,
  chartTab: ChartTab,
  links: AnalysisPage["links"],
  range: (detail: DetailAnswer | null, earliest: string | null) => DateRangeView,
) {
  const parent = parentCrumb(s.filter);
  return (figures: Figures | null, detail: DetailAnswer | null): AnalysisPage => ({
    heading: s.filter.heading,
    crumbs: s.filter.crumbs.length >= 2 ? crumbLinks(s.filter.crumbs, query) : [],
    backHref: parent
      ? analysisHref(query, { id: parent.id, tab: null, tx: null, pages: 1, open: [], convert: [] })
      : null,
    notFound: s.filter.kind === "unknown",
    range: range(detail, s.earliest),
    chartTab,
    currencyToggle: s.currencyToggle,
    figures,
    links,
  });
}

/** spec 001 §2.3: the tabs shown, the active one, and where drilling down opens. */
function tabsOf(basics: Basics, filter: Filter, settings: AnalysisSettings, query: AnalysisQuery) {
  const tabs = availableTabs({
    single: filter.kind === "account",
    sections: settings.sections,
    clientAnalysis: isToggleOn(basics.toggles, "client_analysis"),
    targetSets: basics.capabilities.capabilities.includes("modelling_by_target_sets"),
    allocationTypes: settings.allocationTypes.length,
  });
  const drillTab: AnalysisTab | null =
    settings.sections.has("investments") && isToggleOn(basics.toggles, "analysis_investment_tab")
      ? "investments"
      : null;
  const active: AnalysisTab | null = query.tab && tabs.includes(query.tab) ? query.tab : (tabs[0] ?? null);
  return { tabs, active, drillTab };
}

/** spec 001 §2.2: with the client-analysis toggle, whether the selection has any transaction; a failed check warns of nothing. */
function fetchAnyTransactions(planning: PlanningClient, basics: Basics, counted: number[]): Promise<boolean> {
  if (!isToggleOn(basics.toggles, "client_analysis")) return Promise.resolve(true);
  return fetchHasTransactions(planning, counted).catch((error: unknown) => {
    rethrowLostSession(error);
    return true;
  });
}

/** The holdings, with the exchange rates for the conversions shown; failed rates convert nothing. */
async function fetchHoldingsWithRates(
  planning: PlanningClient,
  selection: Parameters<typeof fetchHoldings>[1],
  query: AnalysisQuery,
) {
  const answer = await fetchHoldings(planning, selection);
  const rates = await fetchFxRates(planning, conversionPairs(answer, query.show, query.convert), answer.date).catch(
    (error: unknown) => {
      rethrowLostSession(error);
      return new Map<string, number | null>();
    },
  );
  return { answer, rates };
}

/** Only the active tab's data is loaded, beside the figures; the holdings and the allocation are valued at the end of the period. */
function fetchActiveTab(
  planning: PlanningClient,
  active: AnalysisTab | null,
  s: Selection,
  settings: AnalysisSettings,
  query: AnalysisQuery,
  r: { period: Period; pricingType: PricingType; locale: string },
) {
  const accountId = s.filter.kind === "account" ? s.filter.account.accountid : null;
  const pageSize = TRANSACTIONS_PAGE_SIZE * query.pages + 1;
  const selection = {
    accountIds: s.counted,
    date: "end" in r.period ? r.period.end : null,
    holdBack: settings.holdBack,
    pricingType: r.pricingType,
  };
  const allocation = { ...selection, method: settings.allocationMethod, types: settings.allocationTypes };
  const answers = {
    transactions:
      active === "transactions"
        ? settle(
            fetchTransactions(planning, {
              accountIds: s.counted,
              period: r.period,
              holdBack: settings.holdBack,
              pageSize,
            }),
          )
        : null,
    holdings: active === "investments" ? settle(fetchHoldingsWithRates(planning, selection, query)) : null,
    allocation: active === "allocation" ? settle(fetchAllocation(planning, allocation)) : null,
    instructions: active === "instructions" && accountId !== null ? settle(fetchTargetSets(planning, accountId)) : null,
    payment: active === "payment" && accountId !== null ? settle(fetchPaymentInformation(planning, accountId)) : null,
    // issue 41: the tax year of the site's jurisdiction, in the currency the page shows
    income:
      active === "income"
        ? settle(
            fetchIncome(planning, {
              accountIds: s.counted,
              jurisdiction: jurisdictionOf(r.locale),
              reportCurrency: s.planCurrency,
            }),
          )
        : null,
  };
  for (const p of Object.values(answers)) p?.catch(() => undefined);
  return answers;
}

/** spec 001 §2.2: the chart, or its error state; hidden when the settings hide it. */
async function chartAreaOf(
  series: Promise<TargetSeriesAnswer | null>,
  tab: ChartTab,
  c: Context,
  colours: string[],
): Promise<ChartArea> {
  try {
    const answer = await series;
    return answer ? chartOf(answer, tab, c, colours) : { state: "hidden" };
  } catch (error) {
    rethrowLostSession(error);
    return { state: "error" };
  }
}

/** The level the accounts tab and the coverage speak of: the collection at 'All …', else accounts. */
const levelOf = (filter: Filter) => (filter.kind === "all" ? (filter.rows ?? "account") : "account");

function tabLinks(
  tabs: AnalysisTab[],
  active: AnalysisTab | null,
  filter: Filter,
  query: AnalysisQuery,
  t: TFunction,
): TabLink[] {
  return tabs.map((key) => ({
    key,
    index: TAB_INDEX[key],
    label: key === "accounts" ? t(`analysis.accounts.tab.${levelOf(filter)}`) : t(`analysis.tabs.${key}`),
    href: analysisHref(query, { tab: key, tx: null, pages: 1 }),
    current: key === active,
  }));
}

type TabAnswers = { [K in keyof ReturnType<typeof fetchActiveTab>]: Awaited<ReturnType<typeof fetchActiveTab>[K]> };

/** The allocation with its CSV download (decision 208) when it has something to download. */
const withDownload = (view: AllocationView, csv: string): AllocationView =>
  view.state === "ok" ? { ...view, csv } : view;

/** The active tab's content; the others are null. */
function tabContents(
  answers: TabAnswers,
  active: AnalysisTab | null,
  detail: DetailAnswer,
  s: Selection,
  c: Context,
  r: { basics: Basics; site: Site },
): Pick<
  Extract<Figures, { state: "ok" }>,
  "accounts" | "investments" | "allocation" | "transactions" | "instructions" | "payment" | "income"
> {
  const { t, locale, query, settings } = c;
  const { allocation } = answers;
  return {
    accounts: active === "accounts" ? accountsTab(s.filter, detail, s.accounts, c) : null,
    investments: settledView(answers.holdings, ({ answer, rates }) =>
      investmentsView(
        answer,
        query,
        settings,
        rates,
        { t, locale },
        { multiCurrencyAccess: r.basics.access.multi_currency === true },
      ),
    ),
    allocation: allocation
      ? allocation.ok
        ? withDownload(
            allocationView(allocation.value, settings.allocationTypes, r.site.chartColours, { t, locale }, c.names),
            analysisDownloadHref("allocation", query),
          )
        : { state: "error", message: allocation.message }
      : null,
    transactions: settledView(answers.transactions, (list) => transactionsView(list, s.accounts, c)),
    instructions: settledView(answers.instructions, (sets) => instructionsView(sets, locale)),
    payment: settledView(answers.payment, (info) => paymentView(info, locale)),
    income: settledView(answers.income, (answer) =>
      incomeView(
        answer,
        new Map(s.accounts.map((a) => [a.accountid, a.description])),
        r.site.chartColours[0] ?? "#1d4f91",
        { t, locale, query },
      ),
    ),
  };
}

/** spec 001 §2.2 the overview's tiles: the period, the value, the performance and the movement. */
function overviewOf(detail: DetailAnswer, total: NonNullable<DetailAnswer["total"]>, s: Selection, c: Context) {
  const { t, locale, settings } = c;
  const value = s.planCurrency && total.plan_currency_value ? total.plan_currency_value : total.value;
  return {
    period: t("analysis.period", {
      from: formatDate(detail.start_date, locale),
      to: formatDate(detail.end_date, locale),
    }),
    value: formatMoney(value.amount, value.currency, locale, { decimals: TILE_DECIMALS }),
    performance: performanceOf(total, settings.profitAnalysisType, locale),
    performanceLabel:
      settings.profitAnalysisType === "none" ? null : t(`analysis.overview.performance.${settings.profitAnalysisType}`),
    movement: figure(
      formatMoney(total.movement.amount, total.movement.currency, locale, { decimals: TILE_DECIMALS }),
      total.movement.amount,
    ),
    coverage: coverageOf(s.view.covers, s.filter.heading, s.view.linked.length > 0, levelOf(s.filter), t),
  };
}

/** The figures and the rows of the selection; at 'All …' the linked accounts too, as rows of their own section, the total being the counted ones' (decision 107). */
function fetchSelectionDetail(
  planning: PlanningClient,
  common: Omit<Parameters<typeof fetchDetail>[1], "grouping" | "accountIds">,
  s: Selection,
) {
  return fetchDetail(planning, {
    ...common,
    grouping: s.filter.kind === "all" ? s.filter.rows : s.filter.kind === "account" ? "all" : "account",
    accountIds: [...s.counted, ...s.view.linked],
  });
}

async function awaitTabAnswers(answers: ReturnType<typeof fetchActiveTab>): Promise<TabAnswers> {
  const [transactions, instructions, payment, holdings, allocation, income] = await Promise.all([
    answers.transactions,
    answers.instructions,
    answers.payment,
    answers.holdings,
    answers.allocation,
    answers.income,
  ]);
  return { transactions, instructions, payment, holdings, allocation, income };
}

/** The page when the selection's basics could not be read: the top heading and the figures' error. */
function basicsFailedPage(
  t: TFunction,
  settings: AnalysisSettings,
  chartTab: AnalysisPage["chartTab"],
  links: AnalysisPage["links"],
  range: AnalysisPage["range"],
): AnalysisPage {
  const top = resolveFilter(null, [], settings.grouping, filterNames(t));
  const figures: Figures = { state: "error" };
  return {
    heading: top.heading,
    crumbs: [],
    backHref: null,
    notFound: false,
    range,
    chartTab,
    currencyToggle: false,
    figures,
    links,
  };
}

export async function buildAnalysis(input: AnalysisInput): Promise<AnalysisPage> {
  const { planning, t, locale, site, query } = input;
  const settings = analysisSettings(site.settings);
  const chartTab = chartTabOf(query, settings);
  let { period, errors } = periodOfQuery(query);
  const links = analysisLinks(query);
  const range = (detail: DetailAnswer | null, earliest: string | null = null) =>
    rangeView(t, query, settings, errors, detail, earliest);

  let basics: Basics;
  try {
    basics = await fetchAnalysisBasics(planning);
  } catch (error) {
    rethrowLostSession(error);
    return basicsFailedPage(t, settings, chartTab, links, range(null));
  }
  const s = selectionOf(basics, site, settings, query, t);
  if (period && "start" in period) ({ period, errors } = periodOfQuery(query, s.earliest));
  const page = pageOf(s, query, chartTab, links, range);
  if (s.filter.kind === "unknown") return page({ state: "noData" }, null);
  if (!period) return page(null, null);
  if (!s.counted.length) return page({ state: "noData" }, null);

  const { tabs, active, drillTab } = tabsOf(basics, s.filter, settings, query);
  const names = (list: NamedList) => siteNames(site.settings, list, locale as Locale);
  const c: Context = { t, locale, settings, query, drillTab, names };
  const pricingType: PricingType = pricingTypeFor(basics.capabilities.capabilities);
  const common = {
    period,
    pricingType,
    holdBack: settings.holdBack,
    feesAndTaxes: settings.feesAndTaxes,
    reportCurrency: s.planCurrency,
  };
  const showChart = chartShown(settings);
  const benchmarks = chartTab === "percentage" ? chosenBenchmarks(settings.benchmarks, basics.benchmarks) : [];
  const series = showChart
    ? fetchTargetSeries(planning, { ...common, target: seriesTargetOf(s.filter, s.counted), benchmarks })
    : Promise.resolve(null);
  series.catch(() => undefined);
  const anyTransactions = fetchAnyTransactions(planning, basics, s.counted);
  anyTransactions.catch(() => undefined);
  const tabAnswers = fetchActiveTab(planning, active, s, settings, query, { period, pricingType, locale });
  let detail: DetailAnswer;
  try {
    detail = await fetchSelectionDetail(planning, common, s);
  } catch (error) {
    rethrowLostSession(error);
    return page({ state: "error" }, null);
  }
  const chart: ChartArea = showChart ? await chartAreaOf(series, chartTab, c, site.chartColours) : { state: "hidden" };
  const hasTransactions = await anyTransactions;
  const answers = await awaitTabAnswers(tabAnswers);
  const total = detail.total;
  if (!total) return page({ state: "noData" }, detail);
  return page(
    {
      state: "ok",
      ...overviewOf(detail, total, s, c),
      chart,
      tabs: tabLinks(tabs, active, s.filter, query, t),
      ...tabContents(answers, active, detail, s, c, { basics, site }),
      currencyNote: query.currency === "plan" && s.currencyToggle && !s.single,
      noTransactions: !hasTransactions,
    },
    detail,
  );
}

/** A text from the records (a narrative), marked English on a page in another language (decision 210). */
function fromRecords(text: string, locale: string): { value: string; spoken: null; lang?: "en" } {
  const { lang } = recordsText(text, locale as Locale);
  return lang ? { value: text, spoken: null, lang } : { value: text, spoken: null };
}
