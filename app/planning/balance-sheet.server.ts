// The balance sheet's figures (spec 001 §2.5, §4 "Balance sheet" and "Asset filtering"): the
// member's lists read from the platform and placed in the tabs by the filter rules, each item's value
// and share in the currency mode asked for, and the tables' totals. The page
// (app/routes/clients.balance-sheet) formats them; its CSV download (decision 208) writes them, so
// both read the same figure.
import { ASSET_TABS, type AssetTab, assetMembers, type PlacedAsset, placeAssets, type RawAsset } from "~/lib/assets";
import {
  type BalanceSheetQuery,
  chooseView,
  isManaged,
  type TableKind,
  tablesOf,
  viewSettings,
} from "~/lib/balance-sheet";
import { shareOfAmount, sumAmounts } from "~/lib/money";
import { portfolioSettings } from "~/lib/performance";
import { type PlanningClient, isLostSession } from "./client.server";
import { isToggleOn } from "./feature-toggles.server";
import {
  type AssetLists,
  fetchAssetLists,
  fetchBalanceSheetBasics,
  type Money,
  pricingTypeFor,
  rawAssetOf,
} from "./portfolio.server";
import type { Site } from "./site.server";

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

/** One item's figures in a currency mode: its value as shown and the member's signed share of it. */
export type SheetFigure = { asset: SheetAsset; shown: Money | null; share: Money | null };

/**
 * The figures of one list in the currency mode asked for, and the total of the shares: the page's
 * and its CSV download's (decision 208), so both read the same figure. Liabilities count negative;
 * a figure that could not be converted is null (partial) and counts 0 in the total.
 */
export function sheetFigures(
  tab: AssetTab,
  placed: readonly PlacedAsset<SheetAsset>[],
  mode: "report" | "plan",
): { figures: SheetFigure[]; total: number | null; currency: string | null; partial: boolean } {
  // spec 001 §4: the liabilities total is forced negative; a SIPP's wrapped liability counts against the pensions
  const signOf = (p: PlacedAsset<SheetAsset>) => (tab === "liabilities" ? -1 : p.sign);
  let partial = false;
  const figures = placed.map((p): SheetFigure => {
    const a = p.asset;
    const owned: Money | null =
      mode === "plan"
        ? { currency: a.value.currency, amount: shareOfAmount(a.value.amount, a.percentOwned) }
        : a.valueOwnedMoney;
    const shown = mode === "plan" ? a.value : a.valueInReport;
    if (owned === null || shown === null) partial = true;
    const share = owned === null ? null : { currency: owned.currency, amount: signOf(p) * Math.abs(owned.amount) };
    return { asset: a, shown, share };
  });
  const owned = figures.map((f) => f.share);
  const currencies = new Set(owned.filter((m) => m !== null).map((m) => m.currency));
  // amounts in several original currencies cannot be added up
  if (currencies.size > 1) return { figures, total: null, currency: null, partial };
  const total = sumAmounts(owned.map((m) => m?.amount ?? 0));
  return { figures, total, currency: [...currencies][0] ?? null, partial };
}

type SheetLists = { ok: true; value: AssetLists } | { ok: false };

/**
 * The member's lists, asked for once the basics say whose they may be and how the portfolio
 * accounts among them are valued: with the pricing the capabilities allow and the site's hold-back,
 * as the analysis page values them (decision 109). A lost session signs out; another failure is an
 * error panel under the page's selectors.
 */
export function fetchSheetLists(
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
export function placedSheetAssets(
  lists: AssetLists,
  site: Site,
  enhancedSippWrapper: boolean,
): Record<AssetTab, PlacedAsset<SheetAsset>[]> {
  // the firm's country, not the page's language (spec 001 §4 status rules depend on it)
  const country = typeof site.settings.country === "string" ? site.settings.country.toUpperCase() : "GB";
  return placeAssets(sheetAssetsOf(lists), { country, enhancedSippWrapper });
}

/** The preferred (session) currency: the one the platform converted the items into. */
function preferredCurrency(all: readonly SheetAsset[]): string {
  return (
    all.find((a) => a.valueOwnedMoney)?.valueOwnedMoney?.currency ??
    all.find((a) => a.valueInReport)?.valueInReport?.currency ??
    "GBP"
  );
}

/** spec 001 §5: the currency toggle only with multi-currency and an asset in another currency; else converted. */
export function currencyModeOf(
  access: { multi_currency?: unknown },
  all: readonly SheetAsset[],
  asked: "report" | "plan",
): { preferred: string; multiCurrency: boolean; mode: "report" | "plan" } {
  const preferred = preferredCurrency(all);
  const multiCurrency = access.multi_currency === true && all.some((a) => a.currency !== preferred);
  return { preferred, multiCurrency, mode: multiCurrency ? asked : "report" };
}

// ── the CSV download (decision 208) ─────────────────────────────────────────────────────────────

export type SheetExportTable = {
  tab: AssetTab;
  kind: TableKind;
  figures: SheetFigure[];
  /** The table's total as the page shows it; null when its shares are in several currencies. */
  total: Money | null;
};
export type SheetExportMember = { member: { id: number; name: string }; tables: SheetExportTable[] };
export type BalanceSheetExport =
  { state: "disabled" } | { state: "error" } | { state: "ok"; members: SheetExportMember[] };

/**
 * The balance sheet of every member the page's selector offers, each as the page shows them in the
 * view and currency asked for (the member's own currency rule), with every tab's tables: the same
 * lists, filter rules and figures as the page (sheetFigures). A lost session is thrown; another
 * failure of any member's lists is an error, never a file without that member's assets.
 */
export async function buildBalanceSheetExport(input: {
  planning: PlanningClient;
  site: Site;
  query: BalanceSheetQuery;
  /** The client (own, or the adviser's client in context) and the name they are listed by. */
  entityId: number;
  selfName: string;
}): Promise<BalanceSheetExport> {
  const { planning, site, query } = input;
  const view = chooseView(query.view, viewSettings(site.settings));
  if (view === null) return { state: "disabled" };
  let basics: Awaited<ReturnType<typeof fetchBalanceSheetBasics>>;
  try {
    basics = await fetchBalanceSheetBasics(planning, input.entityId);
  } catch (error) {
    if (isLostSession(error)) throw error;
    return { state: "error" };
  }
  const self = { entity_id: input.entityId, display_name: input.selfName, login_accessible: true };
  const capabilities = basics.capabilities.capabilities;
  const members = assetMembers(basics.members, self, capabilities);
  const loaded = await Promise.all(members.map((m) => fetchSheetLists(planning, site, m.entity_id, capabilities)));
  const enhanced = isToggleOn(basics.toggles, "enhanced_sipp_wrapper");
  const sheets: SheetExportMember[] = [];
  for (const [i, member] of members.entries()) {
    const lists = loaded[i]!;
    if (!lists.ok) return { state: "error" };
    const placed = placedSheetAssets(lists.value, site, enhanced);
    const all = ASSET_TABS.flatMap((tab) => placed[tab].map((p) => p.asset));
    const { mode } = currencyModeOf(basics.access, all, query.currency);
    const tables = ASSET_TABS.flatMap((tab) =>
      tablesOf(view).flatMap((kind): SheetExportTable[] => {
        const items = placed[tab].filter((p) => p.asset.managed === (kind === "managed"));
        if (items.length === 0) return [];
        const { figures, total, currency } = sheetFigures(tab, items, mode);
        return [
          { tab, kind, figures, total: total === null || currency === null ? null : { amount: total, currency } },
        ];
      }),
    );
    sheets.push({ member: { id: member.entity_id, name: member.display_name }, tables });
  }
  return { state: "ok", members: sheets };
}
