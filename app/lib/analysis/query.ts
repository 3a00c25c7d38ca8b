// The analysis page's query (spec 001 §2.2, §3 "Filters", §4): the account filter, the date range,
// the chart tab, the currency and the active tab, so that every view of the page is a URL an
// adviser can bookmark and share. Pure: shared by server and browser.
import {
  checkCustomRange,
  type DateError,
  type DateRangeName,
  DEFAULT_DATE_RANGE,
  readDateRangeName,
} from "~/lib/date-range";
import { PAGE_PATHS } from "~/lib/navigation";

export type ChartTab = "percentage" | "value";
export type CurrencyMode = "report" | "plan";
/** The tabs of spec 001 §2.3, in the spec's order. */
export const ANALYSIS_TABS = [
  "accounts",
  "investments",
  "allocation",
  "transactions",
  "instructions",
  "payment",
  // issue 41: income received, after the spec's tabs (docs/decisions/199-income-received.md)
  "income",
] as const;
export type AnalysisTab = (typeof ANALYSIS_TABS)[number];

export type AnalysisQuery = {
  /** The account filter: an account id, `portfolio-{id}`, a group code, or null for everything. */
  id: string | null;
  range: DateRangeName;
  /** The custom range as typed (DD-MM-YYYY), kept even when invalid so the form can show it again. */
  from: string;
  to: string;
  /** null: the page's initial tab (a setting, spec 001 §4 "Chart tab"). */
  chart: ChartTab | null;
  currency: CurrencyMode;
  /** null: the first tab the selection shows (spec 001 §2.3). */
  tab: AnalysisTab | null;
  /** The transactions tab: the selected transaction (null: the first) and how many pages are loaded. */
  tx: number | null;
  pages: number;
  /** The investments tab (spec 001 §2.3, §4): its sort, expand mode, the rows toggled from that mode, the currency shown and the accounts converted to their own currency. */
  sort: InvestmentSort;
  dir: "asc" | "desc";
  expand: ExpandMode;
  open: string[];
  show: "preferred" | "original";
  convert: number[];
  /** The income tab (issue 41): null for the last 24 months, else a tax year (the year it starts in). */
  taxYear?: number | null;
};

/** spec 001 §2.3: the investments table's sortable columns; the default is the security name (description) ascending. */
export const INVESTMENT_SORTS = ["description", "cost", "weight", "value", "gain", "income"] as const;
export type InvestmentSort = (typeof INVESTMENT_SORTS)[number];
/** spec 001 §4 "Investments table expand modes": ExpandAllPrimaryItem (the default), ExpandAll, CollapseAll; rows toggled by the user (UserToggle) are listed in `open`. */
export const EXPAND_MODES = ["primary", "all", "none"] as const;
export type ExpandMode = (typeof EXPAND_MODES)[number];
/** A row of the investments table: `a{accountid}` or `p{row id}`. */
const ROW_KEY = /^[ap][A-Za-z0-9-]{1,40}$/;
const MAX_OPEN = 200;

/** spec 001 §9: the transactions tab loads 50 at a time; 'Load more' stops at this many pages. */
export const TRANSACTIONS_PAGE_SIZE = 50;
export const MAX_TRANSACTION_PAGES = 20;

/** An account id, a portfolio, or a group code (the home's row keys for ungrouped and linked accounts too). */
const FILTER_ID = /^(?:[1-9]\d{0,9}|portfolio-[1-9]\d{0,9}|(?!portfolio-)[A-Za-z][A-Za-z0-9_-]{0,59})$/;
const TYPED_DATE = /^[\d\-/. ]{0,12}$/;

/** A whole number from 1 to `max`, else null. */
function positive(value: string | null, max: number): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 ? Math.min(n, max) : null;
}

const list = (value: string | null) =>
  value
    ? value
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

export function readAnalysisQuery(url: URL, disabled: ReadonlySet<DateRangeName> = new Set()): AnalysisQuery {
  const get = (name: string) => url.searchParams.get(name);
  const id = (get("id") ?? "").trim();
  const range = readDateRangeName(get("range"), disabled);
  const typed = (value: string | null) => {
    const text = (value ?? "").slice(0, 12);
    return TYPED_DATE.test(text) ? text : text.replace(/[^\d\-/. ]/g, "");
  };
  const chart = get("chart");
  return {
    id: FILTER_ID.test(id) ? id : null,
    range,
    from: range === "custom" ? typed(get("from")) : "",
    to: range === "custom" ? typed(get("to")) : "",
    chart: chart === "percentage" || chart === "value" ? chart : null,
    currency: get("currency") === "plan" ? "plan" : "report",
    tab: ANALYSIS_TABS.find((t) => t === get("tab")) ?? null,
    tx: positive(get("tx"), 2_000_000_000),
    pages: positive(get("pages"), MAX_TRANSACTION_PAGES) ?? 1,
    sort: INVESTMENT_SORTS.find((x) => x === get("sort")) ?? "description",
    dir: get("dir") === "desc" ? "desc" : "asc",
    expand: EXPAND_MODES.find((x) => x === get("expand")) ?? "primary",
    open: [...new Set(list(get("open")).filter((key) => ROW_KEY.test(key)))].slice(0, MAX_OPEN),
    show: get("show") === "original" ? "original" : "preferred",
    convert: [
      ...new Set(
        list(get("convert"))
          .map((x) => positive(x, 9_999_999_999))
          .filter((x): x is number => x !== null),
      ),
    ].slice(0, MAX_OPEN),
    taxYear: /^(19|20)\d{2}$/.test(get("taxYear") ?? "") ? Number(get("taxYear")) : null,
  };
}

/** The query as URL parameters, defaults left out so URLs stay short. */
export function analysisParams(query: AnalysisQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.id) params.set("id", query.id);
  if (query.range !== DEFAULT_DATE_RANGE) params.set("range", query.range);
  if (query.range === "custom") {
    params.set("from", query.from);
    params.set("to", query.to);
  }
  if (query.chart) params.set("chart", query.chart);
  if (query.currency !== "report") params.set("currency", query.currency);
  if (query.tab) params.set("tab", query.tab);
  if (query.tx !== null) params.set("tx", String(query.tx));
  if (query.pages > 1) params.set("pages", String(query.pages));
  if (query.sort !== "description") params.set("sort", query.sort);
  if (query.dir !== "asc") params.set("dir", query.dir);
  if (query.expand !== "primary") params.set("expand", query.expand);
  if (query.open.length) params.set("open", query.open.join(","));
  if (query.show !== "preferred") params.set("show", query.show);
  if (query.convert.length) params.set("convert", query.convert.join(","));
  if (query.taxYear) params.set("taxYear", String(query.taxYear));
  return params;
}

/** The analysis URL with some of its query changed. */
export function analysisHref(query: AnalysisQuery, change: Partial<AnalysisQuery> = {}): string {
  const search = analysisParams({ ...query, ...change }).toString();
  return `${PAGE_PATHS.analysis}${search ? `?${search}` : ""}`;
}

/**
 * The rest of the view a per-account currency form carries in hidden fields (its select is the
 * `convert` field): the investments tab, every other choice kept (decision 205).
 */
export function convertFormFields(query: AnalysisQuery): Array<[string, string]> {
  return [...analysisParams({ ...query, tab: "investments", tx: null, pages: 1, convert: [] })];
}

/** The CSV download of a tab (the investments, the allocation, the transactions or the income) for the same view. */
export function analysisDownloadHref(
  kind: "investments" | "allocation" | "transactions" | "income",
  query: AnalysisQuery,
): string {
  const search = analysisParams({ ...query, tab: null, tx: null, pages: 1, expand: "primary", open: [] }).toString();
  return `${PAGE_PATHS.analysis}/download/${kind}${search ? `?${search}` : ""}`;
}

/** A period: a named timeframe the platform dates, or two dates (YYYY-MM-DD). */
export type QueryPeriod = { timeframe: string } | { start: string; end: string };

/**
 * The query's period; a custom range that fails spec 001 §5 gives its errors and no period.
 * `earliest`: the since-inception date (YYYY-MM-DD) of the selection, before which a custom range
 * cannot start.
 */
export function periodOfQuery(
  query: Pick<AnalysisQuery, "range" | "from" | "to">,
  earliest: string | null = null,
): {
  period: QueryPeriod | null;
  errors: { from?: DateError; to?: DateError };
} {
  if (query.range !== "custom") return { period: { timeframe: query.range }, errors: {} };
  const check = checkCustomRange(query.from, query.to, earliest);
  return check.ok
    ? { period: { start: check.start, end: check.end }, errors: {} }
    : { period: null, errors: check.errors };
}
