// spec 001 §2.5 and §4 "Balance sheet": the page's query (member, view, tab, currency) and the
// rules that choose what it shows (docs/decisions/075-balance-sheet.md). Pure: shared by server
// and browser, unit tested without a server.
import { ASSET_TABS, type AssetTab } from "~/lib/assets";
import { PAGE_PATHS } from "~/lib/navigation";

/** spec 001 §2.5: Managed / Non-managed / Everything. */
export const BALANCE_SHEET_VIEWS = ["managed", "nonManaged", "everything"] as const;
export type BalanceSheetView = (typeof BALANCE_SHEET_VIEWS)[number];

/** The views as they are written in URLs and in the site settings. */
const VIEW_PARAM: Record<BalanceSheetView, string> = {
  managed: "managed",
  nonManaged: "non-managed",
  everything: "everything",
};
const viewOfParam = (value: string | null | undefined): BalanceSheetView | null => {
  const v = (value ?? "")
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
  return BALANCE_SHEET_VIEWS.find((view) => VIEW_PARAM[view] === v || view.toLowerCase() === v) ?? null;
};

export type BalanceSheetQuery = {
  /** The member whose assets are shown (`?id=`); null is the client. */
  memberId: number | null;
  /** `?view=`; null is the site's default view. */
  view: BalanceSheetView | null;
  /** `?asset=0..3` (investments, pensions, annuities, liabilities); null is the first tab with data. */
  asset: number | null;
  /** `?currency=plan`: original currencies; otherwise converted to the preferred currency. */
  currency: "report" | "plan";
};

export function readBalanceSheetQuery(url: URL): BalanceSheetQuery {
  const p = url.searchParams;
  const id = Number(p.get("id"));
  const asset = p.get("asset");
  const index = asset !== null && /^[0-3]$/.test(asset) ? Number(asset) : null;
  return {
    memberId: Number.isInteger(id) && id > 0 ? id : null,
    view: viewOfParam(p.get("view")),
    asset: index,
    currency: p.get("currency") === "plan" ? "plan" : "report",
  };
}

/** The balance sheet's URL for a state; what is unset is left out, so URLs stay short. */
export function balanceSheetHref(query: Partial<BalanceSheetQuery>): string {
  const params = new URLSearchParams();
  if (query.memberId != null) params.set("id", String(query.memberId));
  if (query.view) params.set("view", VIEW_PARAM[query.view]);
  if (query.asset != null) params.set("asset", String(query.asset));
  if (query.currency === "plan") params.set("currency", "plan");
  const search = params.toString();
  return `${PAGE_PATHS.balanceSheet}${search ? `?${search}` : ""}`;
}

/**
 * The CSV download of the balance sheet (decision 208): every member and tab, in the view and the
 * currency shown, so only those two travel.
 */
export function balanceSheetDownloadHref(query: Pick<BalanceSheetQuery, "view" | "currency">): string {
  const href = balanceSheetHref({ view: query.view, currency: query.currency });
  return href.replace(PAGE_PATHS.balanceSheet, `${PAGE_PATHS.balanceSheet}/download`);
}

type Settings = Record<string, string | number | boolean | null | undefined>;
export type ViewSettings = { allowed: BalanceSheetView[]; defaultView: BalanceSheetView | null };

/**
 * spec 001 §2.5: the allowed views and the default one come from the site. `balanceSheetViews` is
 * a comma list (managed, non-managed, everything); unset allows all three, and a blank list (or
 * one naming no view) allows none. `balanceSheetDefaultView` is used when it is allowed, else the
 * first allowed view in the toggle's order.
 */
export function viewSettings(settings: Settings): ViewSettings {
  const listed = settings.balanceSheetViews;
  const named =
    listed === undefined || listed === null
      ? [...BALANCE_SHEET_VIEWS]
      : String(listed)
          .split(",")
          .map(viewOfParam)
          .filter((v): v is BalanceSheetView => v !== null);
  const allowed = BALANCE_SHEET_VIEWS.filter((v) => named.includes(v));
  const wanted = viewOfParam(
    typeof settings.balanceSheetDefaultView === "string" ? settings.balanceSheetDefaultView : null,
  );
  return { allowed, defaultView: wanted && allowed.includes(wanted) ? wanted : (allowed[0] ?? null) };
}

/** The view shown: the one asked for when allowed, else the default; null when no view is enabled. */
export function chooseView(requested: BalanceSheetView | null, settings: ViewSettings): BalanceSheetView | null {
  return requested && settings.allowed.includes(requested) ? requested : settings.defaultView;
}

/**
 * spec 001 §4: managed means the under-advice flag is set (true, 1 or another non-zero value);
 * anything else, including a flag the platform could not give, is non-managed.
 */
export function isManaged(underAdvice: unknown): boolean {
  if (typeof underAdvice === "boolean") return underAdvice;
  if (typeof underAdvice === "number") return underAdvice !== 0;
  if (typeof underAdvice === "string") return !["", "0", "false", "n", "no"].includes(underAdvice.trim().toLowerCase());
  return false;
}

export type TableKind = "managed" | "nonManaged";

/** spec 001 §2.5: each tab shows a managed table and/or a non-managed table, by the view. */
export function tablesOf(view: BalanceSheetView): TableKind[] {
  if (view === "managed") return ["managed"];
  if (view === "nonManaged") return ["nonManaged"];
  return ["managed", "nonManaged"];
}

/** The items of a list that a view shows. */
export function inView<T extends { managed: boolean }>(items: readonly T[], view: BalanceSheetView): T[] {
  if (view === "everything") return [...items];
  return items.filter((i) => i.managed === (view === "managed"));
}

/** spec 001 §2.5: the count in each tab's title, for the view shown. */
export function tabCounts<T extends { managed: boolean }>(
  lists: Record<AssetTab, readonly T[]>,
  view: BalanceSheetView,
): Record<AssetTab, number> {
  return {
    investments: inView(lists.investments, view).length,
    pensions: inView(lists.pensions, view).length,
    annuities: inView(lists.annuities, view).length,
    liabilities: inView(lists.liabilities, view).length,
  };
}

/** spec 001 §4: tabs show only when their asset type has data. */
export function visibleTabs(counts: Record<AssetTab, number>): AssetTab[] {
  return ASSET_TABS.filter((tab) => counts[tab] > 0);
}

/** spec 001 §2.5: the tab asked for (`asset` 0–3) when it has data, else the first tab with data. */
export function chooseTab(counts: Record<AssetTab, number>, requested: number | null): AssetTab | null {
  const tabs = visibleTabs(counts);
  const asked = requested === null ? undefined : ASSET_TABS[requested];
  return asked && tabs.includes(asked) ? asked : (tabs[0] ?? null);
}
