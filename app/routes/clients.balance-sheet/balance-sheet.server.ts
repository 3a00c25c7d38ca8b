// The balance sheet (spec 001 §2.5, §4 "Balance sheet" and "Asset filtering"): what the page
// shows, built on the server from the platform's answers, formatted, so the page needs no script
// to read it (docs/decisions/075-balance-sheet.md).
import type { TFunction } from "i18next";
import {
  ASSET_TABS,
  type AssetTab,
  assetMembers,
  type PlacedAsset,
  placeAssets,
  type RawAsset,
  selectedMember,
} from "~/lib/assets";
import {
  type BalanceSheetQuery,
  type BalanceSheetView,
  balanceSheetHref,
  chooseTab,
  chooseView,
  isManaged,
  tabCounts,
  tablesOf,
  type TableKind,
  viewSettings,
} from "~/lib/balance-sheet";
import { TABLE_DECIMALS } from "~/lib/dashboard";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { shareOfAmount, sumAmounts } from "~/lib/money";
import { localisedSetting } from "~/lib/site-settings";
import { type PlanningClient, isLostSession } from "~/planning/client.server";
import { isToggleOn } from "~/planning/feature-toggles.server";
import { portfolioSettings } from "~/lib/performance";
import {
  type AssetLists,
  fetchAssetLists,
  fetchBalanceSheetBasics,
  type Money,
  pricingTypeFor,
  rawAssetOf,
} from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";

/** One item as the balance sheet lists it, whatever list the platform gave it in. */
export type SheetAsset = RawAsset & {
  /** Unique across the lists: a portfolio account's id and another asset's come from two sequences. */
  key: string;
  /** The platform's list: a SIPP's wrapped investments, annuities and liabilities come with the pensions. */
  source: AssetTab;
  managed: boolean;
  owners: string[];
  provider: string | null;
  policyNumber: string | null;
  /** Liabilities: the interest rate per year, in percent. */
  rate: number | null;
  /** Annuities: the income and how often it is paid. */
  income: Money | null;
  frequency: string | null;
  /** The value in its own currency, and converted to the preferred (session) currency. */
  value: Money;
  valueInReport: Money | null;
  /** The member's share, converted (the platform's value owned). */
  valueOwnedMoney: Money | null;
  percentOwned: number;
  valuationDate: string | null;
};

const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** The four platform lists as the filter rules (app/lib/assets.ts) and the tables need them. */
export function sheetAssetsOf(lists: AssetLists): Record<AssetTab, SheetAsset[]> {
  const common = (
    a: AssetLists[AssetTab][number],
    source: AssetTab,
    status: string | null,
    value: Money,
    valueInReport: Money | null | undefined,
  ) => ({
    ...rawAssetOf(a, status),
    key: `${a.source}-${a.id}`,
    currency: value.currency,
    source,
    managed: isManaged(a.under_advice),
    owners: a.owners.map((o) => o.owner_name),
    value,
    valueInReport: valueInReport ?? null,
    valueOwnedMoney: a.value_owned,
    // spec 001 §4: percent owned for pensions is 100
    percentOwned: source === "pensions" ? 100 : a.percentOwned,
    rate: null,
    income: null,
    frequency: null,
  });
  return {
    investments: lists.investments.map((a) => ({
      ...common(a, "investments", a.status, a.amount, a.amount_in_report_currency),
      provider: text(a.provider) ?? text(a.supplier),
      policyNumber: text(a.policy_number),
      valuationDate: a.valuation_date ?? null,
    })),
    pensions: lists.pensions.map((a) => ({
      ...common(a, "pensions", a.policy_status, a.fund_value, a.fund_value_in_report_currency),
      provider: text(a.product_provider),
      policyNumber: text(a.fund_or_policy_num),
      valuationDate: a.fund_valuation_date ?? null,
    })),
    annuities: lists.annuities.map((a) => ({
      ...common(a, "annuities", a.policy_status, a.current_value, a.current_value_in_report_currency),
      provider: text(a.product_provider),
      policyNumber: text(a.policy_number),
      valuationDate: a.valuation_date ?? null,
      income: a.income_value ?? null,
      frequency: text(a.frequency),
    })),
    liabilities: lists.liabilities.map((a) => ({
      ...common(a, "liabilities", a.status, a.amount, a.amount_in_report_currency),
      provider: text(a.supplier),
      policyNumber: text(a.policy_number),
      valuationDate: a.valuation_date ?? null,
      rate: a.rate ?? null,
    })),
  };
}

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
  // spec 001 §4: the liabilities total is forced negative; a SIPP's wrapped liability counts against the pensions
  const signOf = (p: PlacedAsset<SheetAsset>) => (tab === "liabilities" ? -1 : p.sign);
  let partial = false;
  const owned = placed.map((p) => {
    const a = p.asset;
    const share: Money | null =
      mode === "plan"
        ? { currency: a.value.currency, amount: shareOfAmount(a.value.amount, a.percentOwned) }
        : a.valueOwnedMoney;
    if (share === null) partial = true;
    return share === null ? null : { currency: share.currency, amount: signOf(p) * Math.abs(share.amount) };
  });
  const rows = placed.map((p, i): SheetRow => {
    const a = p.asset;
    const shown = mode === "plan" ? a.value : a.valueInReport;
    if (shown === null) partial = true;
    const share = owned[i] ?? null;
    return {
      key: a.key,
      description: { text: a.desc, note: a.owners.length ? a.owners.join(", ") : null },
      type: { text: a.type, note: a.provider },
      detail: detailOf(tab, a, money, locale),
      value: { text: money(shown), note: a.valuationDate ? formatDate(a.valuationDate, locale, "long") : null },
      valueOwned: { text: money(share), note: percentOf(a.percentOwned, locale) },
      negative: share !== null && share.amount < 0,
    };
  });
  const currencies = new Set(owned.filter((m) => m !== null).map((m) => m.currency));
  // amounts in several original currencies cannot be added up
  if (currencies.size > 1) return { rows, total: null, currency: null, partial };
  const total = sumAmounts(owned.map((m) => m?.amount ?? 0));
  return { rows, total, currency: [...currencies][0] ?? null, partial };
}

type SheetLists = { ok: true; value: AssetLists } | { ok: false };
type SheetContent = BalanceSheetPage["content"];
type SheetTableOrEmpty = Extract<SheetContent, { state: "ok" }>["tables"][number];

/**
 * The member's lists, asked for once the basics say whose they may be and how the portfolio
 * accounts among them are valued: with the pricing the capabilities allow and the site's hold-back,
 * as the analysis page values them (decision 109). A lost session signs out; another failure is an
 * error panel under the page's selectors.
 */
function fetchSheetLists(
  planning: PlanningClient,
  site: Site,
  memberId: number,
  capabilities: readonly string[],
): Promise<SheetLists> {
  return fetchAssetLists(planning, memberId, {
    pricingType: pricingTypeFor(capabilities),
    holdBack: portfolioSettings(site.settings).holdBack,
  }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => {
      if (isLostSession(error)) throw error;
      return { ok: false as const };
    },
  );
}

/** The member's items placed in the tabs by the filter rules (spec 001 §4 "Asset filtering"). */
function placedSheetAssets(
  lists: AssetLists,
  site: Site,
  enhancedSippWrapper: boolean,
): Record<AssetTab, PlacedAsset<SheetAsset>[]> {
  // the firm's country, not the page's language (spec 001 §4 status rules depend on it)
  const country = typeof site.settings.country === "string" ? site.settings.country.toUpperCase() : "GB";
  return placeAssets(sheetAssetsOf(lists), { country, enhancedSippWrapper });
}

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

/** The preferred (session) currency: the one the platform converted the items into. */
function preferredCurrency(all: readonly SheetAsset[]): string {
  return (
    all.find((a) => a.valueOwnedMoney)?.valueOwnedMoney?.currency ??
    all.find((a) => a.valueInReport)?.valueInReport?.currency ??
    "GBP"
  );
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

  // spec 001 §5: the currency toggle only with multi-currency and an asset in another currency
  const preferred = preferredCurrency(all);
  const multiCurrency = basics.access.multi_currency === true && all.some((a) => a.currency !== preferred);
  const mode = multiCurrency ? query.currency : "report";
  const counts = sheetTabCounts(placed, view);
  const tab = chooseTab(counts, query.asset);
  // the member, view and tab are always written into the page's links, so a shared URL shows the same
  const asset = placed ? (tab === null ? null : ASSET_TABS.indexOf(tab)) : query.asset;
  const state: BalanceSheetQuery = { ...query, memberId: member.id, view, asset };
  page.views = viewLinks(input, settings.allowed, state);
  page.hidden = hiddenOf(state);
  if (multiCurrency) page.currency = currencyToggle(preferred, mode, state);
  if (!placed) return page;
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
