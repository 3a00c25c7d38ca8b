// The analysis page's query (spec 001 §2.2, §3 "Filters", §4): the account filter, the date range,
// the chart tab, the currency and the active tab, so that every view of the page is a URL an
// adviser can bookmark and share. Pure: shared by server and browser.
import { DATE_RANGE_NAMES, type DateRangeName, DEFAULT_DATE_RANGE, readDateRangeName } from "~/lib/date-range";
import { PAGE_PATHS } from "~/lib/navigation";

export type ChartTab = "percentage" | "value";
export type CurrencyMode = "report" | "plan";
/** The tabs of spec 001 §2.3 this page has; the next ones join the list as they are built. */
export const ANALYSIS_TABS = ["accounts"] as const;
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
  tab: AnalysisTab;
};

/** An account id, a portfolio, or a group code (the home's row keys for ungrouped and linked accounts too). */
const FILTER_ID = /^(?:[1-9]\d{0,9}|portfolio-[1-9]\d{0,9}|(?!portfolio-)[A-Za-z][A-Za-z0-9_-]{0,59})$/;
const TYPED_DATE = /^[\d\-/. ]{0,12}$/;

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
    tab: ANALYSIS_TABS.find((t) => t === get("tab")) ?? "accounts",
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
  if (query.tab !== "accounts") params.set("tab", query.tab);
  return params;
}

/** The analysis URL with some of its query changed. */
export function analysisHref(query: AnalysisQuery, change: Partial<AnalysisQuery> = {}): string {
  const search = analysisParams({ ...query, ...change }).toString();
  return `${PAGE_PATHS.analysis}${search ? `?${search}` : ""}`;
}

export const DATE_RANGE_OPTIONS = DATE_RANGE_NAMES;
