// spec 001 §4 "Asset filtering" and §2.6 other-assets summary: which non-managed items a member's
// balance sheet lists, and the summary cards built from them. Pure; shared by server and browser.

export const ASSET_TABS = ["investments", "pensions", "annuities", "liabilities"] as const;
export type AssetTab = (typeof ASSET_TABS)[number];

export type RawAsset = {
  id: number;
  desc: string;
  type: string;
  status: string | null;
  isSippWrapper: boolean;
  /** The member's share in the report currency (null: conversion rate unavailable). */
  valueOwned: number | null;
  currency: string;
};

export type AssetItem = { id: number; desc: string; value: number | null };
export type AssetCard = { tab: AssetTab; index: number; total: number; count: number; top: AssetItem[] };

/** spec 001 §9: SIPP, QNUPs, QROPs and RNUPs wrappers. */
const WRAPPER_TYPES = new Set(["sipp", "qnups", "qrops", "rnups"]);
const isWrapperType = (type: string) => WRAPPER_TYPES.has(type.trim().toLowerCase().replace(/\s+wrappers?$/, ""));

const statusIn = (status: string | null, kept: readonly string[]) => {
  const s = (status ?? "").trim().toLowerCase();
  return s === "" || kept.some((k) => k.toLowerCase() === s);
};

/** spec 001 §4: pensions keep Paid Up and Premium Holiday everywhere, plus Active in GB and Inforce in NA, AA and ZA. */
function pensionStatuses(country: string): string[] {
  const kept = ["Paid Up", "Premium Holiday"];
  if (country === "GB") kept.push("Active");
  if (["NA", "AA", "ZA"].includes(country)) kept.push("Inforce");
  return kept;
}

export type AssetInput = Record<AssetTab, RawAsset[]>;
export type FilterOptions = { country: string; enhancedSippWrapper: boolean };

/**
 * The four lists a balance sheet shows. Investments keep blank, Existing and Paid Up; annuities
 * blank and Inforce; liabilities blank and Current. The pensions list drops wrapper-type pensions
 * and takes in what SIPP wrappers hold: wrapped investments and annuities and, with the enhanced
 * SIPP wrapper, wrapped liabilities with their sign flipped.
 */
export function filterAssets(input: AssetInput, options: FilterOptions): Record<AssetTab, AssetItem[]> {
  const item = (a: RawAsset, sign = 1): AssetItem => ({ id: a.id, desc: a.desc, value: a.valueOwned === null ? null : sign * a.valueOwned });
  const investments = input.investments.filter((a) => statusIn(a.status, ["Existing", "Paid Up"]));
  const annuities = input.annuities.filter((a) => statusIn(a.status, ["Inforce"]));
  const liabilities = input.liabilities.filter((a) => statusIn(a.status, ["Current"]));
  const wrappedLiability = (a: RawAsset) => options.enhancedSippWrapper && a.isSippWrapper;
  return {
    investments: investments.filter((a) => !a.isSippWrapper).map((a) => item(a)),
    pensions: [
      ...input.pensions.filter((a) => statusIn(a.status, pensionStatuses(options.country)) && !isWrapperType(a.type)).map((a) => item(a)),
      ...investments.filter((a) => a.isSippWrapper).map((a) => item(a)),
      ...annuities.filter((a) => a.isSippWrapper).map((a) => item(a)),
      ...liabilities.filter(wrappedLiability).map((a) => item(a, -1)),
    ],
    annuities: annuities.filter((a) => !a.isSippWrapper).map((a) => item(a)),
    liabilities: liabilities.filter((a) => !wrappedLiability(a)).map((a) => item(a)),
  };
}

const sum = (items: readonly AssetItem[]) => items.reduce((total, i) => total + (i.value ?? 0), 0);

/**
 * spec 001 §2.6: a card per asset type with at most the three largest items by value; cards with
 * no items are left out. The liabilities total is negative (spec 001 §4).
 */
export function assetCards(lists: Record<AssetTab, AssetItem[]>): AssetCard[] {
  return ASSET_TABS.map((tab, index) => {
    const items = lists[tab];
    const top = [...items].sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity) || a.id - b.id).slice(0, 3);
    const total = tab === "liabilities" ? -Math.abs(sum(items)) : sum(items);
    return { tab, index, total, count: items.length, top };
  }).filter((card) => card.count > 0);
}

/** A member's net total: assets less liabilities. */
export function netTotal(cards: readonly AssetCard[]): number {
  return cards.reduce((total, c) => total + c.total, 0);
}
