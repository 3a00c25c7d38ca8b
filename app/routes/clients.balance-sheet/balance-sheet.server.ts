// The balance sheet (spec 001 §2.5, §4 "Balance sheet" and "Asset filtering"): what the page
// shows, built on the server from the platform's answers, formatted, so the page needs no script
// to read it (docs/decisions/075-balance-sheet.md).
import type { TFunction } from "i18next";
import { ASSET_TABS, type AssetTab, assetMembers, type PlacedAsset, selectedMember } from "~/lib/assets";
import {
  type BalanceSheetQuery,
  type BalanceSheetView,
  balanceSheetDownloadHref,
  balanceSheetHref,
  chooseTab,
  chooseView,
  tabCounts,
  tablesOf,
  type TableKind,
  viewSettings,
} from "~/lib/balance-sheet";
import { TABLE_DECIMALS } from "~/lib/dashboard";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { localisedSetting } from "~/lib/site-settings";
import {
  currencyModeOf,
  fetchSheetLists,
  placedSheetAssets,
  type SheetAsset,
  sheetFigures,
} from "~/planning/balance-sheet.server";
import { type PlanningClient, isLostSession } from "~/planning/client.server";
import { isToggleOn } from "~/planning/feature-toggles.server";
import { fetchBalanceSheetBasics, type Money } from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";

// ── the view ────────────────────────────────────────────────────────────────────────────────────

export type Cell = { text: string; note: string | null };
export type SheetRow = {
  key: string;
  description: Cell;
  type: Cell;
  detail: Cell;
  value: Cell;
  valueOwned: Cell;
  negative: boolean;
};
export type SheetTable = { kind: TableKind; caption: string; rows: SheetRow[]; total: string; totalNegative: boolean };
export type SheetTab = { tab: AssetTab; index: number; title: string; href: string; current: boolean };
export type SheetMember = { id: number; name: string };

export type BalanceSheetPage = {
  heading: string;
  members: SheetMember[];
  member: SheetMember | null;
  views: Array<{ view: BalanceSheetView; label: string; href: string; current: boolean }>;
  /**
   * The currency dropdown (multi-currency only), with the preferred currency's code and the query
   * its GET form carries along (its own field is the currency).
   */
  currency: { preferred: string; mode: "report" | "plan"; hidden: Record<string, string> } | null;
  /** The query the member selector's GET form carries along. */
  hidden: Record<string, string>;
  /** The CSV download of every member's balance sheet in this view and currency (decision 208). */
  csv: string | null;
  content:
    | { state: "disabled" }
    | { state: "error" }
    | { state: "empty" }
    | { state: "noManaged" }
    | {
        state: "ok";
        tabs: SheetTab[];
        tab: AssetTab;
        /** 'No managed assets data' where a managed table has nothing (the Everything view). */
        tables: Array<SheetTable | { kind: "managed"; empty: true }>;
        partial: boolean;
      };
};

export type BalanceSheetInput = {
  planning: PlanningClient;
  t: TFunction;
  locale: string;
  site: Site;
  query: BalanceSheetQuery;
  entityId: number;
  selfName: string;
};

const percentOf = (value: number, locale: string) =>
  numberFormat(locale, {
    style: "percent",
    minimumFractionDigits: TABLE_DECIMALS,
    maximumFractionDigits: TABLE_DECIMALS,
  }).format(value / 100);

/** spec 001 §2.5 columns: the third column by tab (record: docs/decisions/075-balance-sheet.md). */
function detailOf(tab: AssetTab, a: SheetAsset, money: (m: Money | null) => string, locale: string): Cell {
  if (tab === "liabilities") return { text: a.rate === null ? "" : percentOf(a.rate, locale), note: a.policyNumber };
  if (tab === "annuities") return { text: a.income ? money(a.income) : "", note: a.frequency };
  return { text: a.policyNumber ?? "", note: null };
}

/** The table rows of one list, in the currency mode asked for; liabilities count negative. */
export function sheetRows(
  tab: AssetTab,
  placed: readonly PlacedAsset<SheetAsset>[],
  mode: "report" | "plan",
  locale: string,
  notAvailable: string,
): { rows: SheetRow[]; total: number | null; currency: string | null; partial: boolean } {
  const money = (m: Money | null) =>
    m === null ? notAvailable : formatMoney(m.amount, m.currency, locale, { decimals: TABLE_DECIMALS });
  const { figures, ...sum } = sheetFigures(tab, placed, mode);
  const rows = figures.map(({ asset: a, shown, share }): SheetRow => ({
    key: a.key,
    description: { text: a.desc, note: a.owners.length ? a.owners.join(", ") : null },
    type: { text: a.type, note: a.provider },
    detail: detailOf(tab, a, money, locale),
    value: { text: money(shown), note: a.valuationDate ? formatDate(a.valuationDate, locale, "long") : null },
    valueOwned: { text: money(share), note: percentOf(a.percentOwned, locale) },
    negative: share !== null && share.amount < 0,
  }));
  return { rows, ...sum };
}

type SheetContent = BalanceSheetPage["content"];
type SheetTableOrEmpty = Extract<SheetContent, { state: "ok" }>["tables"][number];

/** How many items each tab has in the view; none when the lists failed. */
function sheetTabCounts(
  placed: Record<AssetTab, PlacedAsset<SheetAsset>[]> | null,
  view: BalanceSheetView,
): Record<AssetTab, number> {
  return tabCounts(
    Object.fromEntries(ASSET_TABS.map((key) => [key, placed ? placed[key].map((p) => p.asset) : []])) as Record<
      AssetTab,
      SheetAsset[]
    >,
    view,
  );
}

/** The currency dropdown's choice, with the preferred currency's code and the rest of the view its form keeps. */
function currencyToggle(
  preferred: string,
  mode: "report" | "plan",
  state: BalanceSheetQuery,
): NonNullable<BalanceSheetPage["currency"]> {
  const url = new URL(balanceSheetHref({ ...state, currency: "report" }), "http://portal.invalid");
  return { preferred, mode, hidden: Object.fromEntries(url.searchParams.entries()) };
}

/** The view selector's links: the site's label for each view it allows, or the page's own. */
function viewLinks(
  input: BalanceSheetInput,
  allowed: readonly BalanceSheetView[],
  state: BalanceSheetQuery,
): BalanceSheetPage["views"] {
  const { site, locale, t } = input;
  const label = (v: BalanceSheetView) =>
    localisedSetting(site.settings, `balanceSheetLabel.${v}`, locale) ?? t(`balanceSheet.views.${v}`);
  return allowed.map((v) => ({
    view: v,
    label: label(v),
    href: balanceSheetHref({ ...state, view: v }),
    current: v === state.view,
  }));
}

/** The tables of the tab shown, one per kind the view has; a managed one with nothing says so. */
function sheetTables(
  input: BalanceSheetInput,
  placed: readonly PlacedAsset<SheetAsset>[],
  tab: AssetTab,
  view: BalanceSheetView,
  mode: "report" | "plan",
): { tables: SheetTableOrEmpty[]; partial: boolean } {
  const { t, locale } = input;
  const notAvailable = t("balanceSheet.notAvailable");
  let partial = false;
  const tables = tablesOf(view).flatMap((kind): SheetTableOrEmpty[] => {
    const items = placed.filter((p) => p.asset.managed === (kind === "managed"));
    if (items.length === 0) return kind === "managed" ? [{ kind: "managed", empty: true }] : [];
    const built = sheetRows(tab, items, mode, locale, notAvailable);
    partial ||= built.partial;
    return [
      {
        kind,
        caption: t(`balanceSheet.captions.${kind}.${tab}`),
        rows: built.rows,
        total:
          built.total === null || built.currency === null
            ? notAvailable
            : formatMoney(built.total, built.currency, locale, { decimals: TABLE_DECIMALS }),
        totalNegative: built.total !== null && built.total < 0,
      },
    ];
  });
  return { tables, partial };
}

/** The tabs that have items in the view, each with its count. */
function sheetTabs(
  t: TFunction,
  counts: Record<AssetTab, number>,
  state: BalanceSheetQuery,
  tab: AssetTab,
  mode: "report" | "plan",
): SheetTab[] {
  return ASSET_TABS.map((key, i) => ({
    tab: key,
    index: i,
    title: t(`balanceSheet.tabs.${key}`, { count: counts[key] }),
    href: balanceSheetHref({ ...state, asset: i, currency: mode }),
    current: key === tab,
  })).filter((entry) => counts[entry.tab] > 0);
}

export async function buildBalanceSheet(input: BalanceSheetInput): Promise<BalanceSheetPage> {
  const { planning, t, locale, site, query } = input;
  const heading = localisedSetting(site.settings, "balanceSheetHeading", locale) ?? t("balanceSheet.title");
  const settings = viewSettings(site.settings);
  const view = chooseView(query.view, settings);
  const page: BalanceSheetPage = {
    heading,
    members: [],
    member: null,
    views: [],
    currency: null,
    hidden: {},
    csv: null,
    content: { state: "error" },
  };
  // spec 001 §2.5: no view enabled, nothing to load
  if (view === null) return { ...page, content: { state: "disabled" } };

  let basics: Awaited<ReturnType<typeof fetchBalanceSheetBasics>>;
  try {
    basics = await fetchBalanceSheetBasics(planning, input.entityId);
  } catch (error) {
    if (isLostSession(error)) throw error;
    return page;
  }
  const self = { entity_id: input.entityId, display_name: input.selfName, login_accessible: true };
  const members = assetMembers(basics.members, self, basics.capabilities.capabilities);
  const selected = selectedMember(members, query.memberId) ?? self;
  const member = { id: selected.entity_id, name: selected.display_name };
  page.members = members.map((m) => ({ id: m.entity_id, name: m.display_name }));
  page.member = member;
  const loaded = await fetchSheetLists(planning, site, member.id, basics.capabilities.capabilities);

  const placed = loaded.ok
    ? placedSheetAssets(loaded.value, site, isToggleOn(basics.toggles, "enhanced_sipp_wrapper"))
    : null;
  const all = placed ? ASSET_TABS.flatMap((tab) => placed[tab].map((p) => p.asset)) : [];

  const { preferred, multiCurrency, mode } = currencyModeOf(basics.access, all, query.currency);
  const counts = sheetTabCounts(placed, view);
  const tab = chooseTab(counts, query.asset);
  // the member, view and tab are always written into the page's links, so a shared URL shows the same
  const asset = placed ? (tab === null ? null : ASSET_TABS.indexOf(tab)) : query.asset;
  const state: BalanceSheetQuery = { ...query, memberId: member.id, view, asset };
  page.views = viewLinks(input, settings.allowed, state);
  page.hidden = hiddenOf(state);
  if (multiCurrency) page.currency = currencyToggle(preferred, mode, state);
  if (!placed) return page;
  page.csv = balanceSheetDownloadHref({ view, currency: query.currency });
  if (all.length === 0) return { ...page, content: { state: "empty" } };
  if (tab === null) return { ...page, content: { state: view === "managed" ? "noManaged" : "empty" } };
  const { tables, partial } = sheetTables(input, placed[tab], tab, view, mode);
  return { ...page, content: { state: "ok", tab, tabs: sheetTabs(t, counts, state, tab, mode), tables, partial } };
}

/** The query the member selector carries along (its own field is the member). */
function hiddenOf(q: BalanceSheetQuery): Record<string, string> {
  const url = new URL(balanceSheetHref({ ...q, memberId: null }), "http://portal.invalid");
  return Object.fromEntries(url.searchParams.entries());
}
