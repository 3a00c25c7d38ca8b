// spec 001 §4 "Asset filtering", §2.5 balance sheet and §2.6 other-assets summary: which items a
// member's balance sheet lists, whose assets may be shown, and the summary cards built from them.
// Pure; shared by server and browser.

import { sumAmounts } from "./money";

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
  /** The member's percentage of the asset (0–100; pensions 100); absent: the whole of it. */
  percentOwned?: number;
  currency: string;
};

/** `percentOwned` below 100: `value` is the member's share, not the asset's whole value. */
export type AssetItem = { id: number; desc: string; value: number | null; percentOwned?: number };
export type AssetCard = { tab: AssetTab; index: number; total: number; count: number; top: AssetItem[] };

/** spec 001 §9: SIPP, QNUPs, QROPs and RNUPs wrappers. */
const WRAPPER_TYPES = new Set(["sipp", "qnups", "qrops", "rnups"]);
const isWrapperType = (type: string) =>
  WRAPPER_TYPES.has(
    type
      .trim()
      .toLowerCase()
      .replace(/\s+wrappers?$/, ""),
  );

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

/** Where an asset is listed, and whether its value counts against the list (a wrapped liability). */
export type PlacedAsset<T extends RawAsset = RawAsset> = { asset: T; sign: 1 | -1 };

/**
 * The four lists a balance sheet shows. Investments keep blank, Existing and Paid Up; annuities
 * blank and Inforce; liabilities blank and Current. The pensions list drops wrapper-type pensions
 * and takes in what SIPP wrappers hold: wrapped investments and annuities and, with the enhanced
 * SIPP wrapper, wrapped liabilities with their sign flipped. Generic so that a page can carry its
 * own fields through the same rules.
 */
export function placeAssets<T extends RawAsset>(
  input: Record<AssetTab, T[]>,
  options: FilterOptions,
): Record<AssetTab, PlacedAsset<T>[]> {
  const place = (asset: T, sign: 1 | -1 = 1): PlacedAsset<T> => ({ asset, sign });
  const investments = input.investments.filter((a) => statusIn(a.status, ["Existing", "Paid Up"]));
  const annuities = input.annuities.filter((a) => statusIn(a.status, ["Inforce"]));
  const liabilities = input.liabilities.filter((a) => statusIn(a.status, ["Current"]));
  const wrappedLiability = (a: T) => options.enhancedSippWrapper && a.isSippWrapper;
  return {
    investments: investments.filter((a) => !a.isSippWrapper).map((a) => place(a)),
    pensions: [
      ...input.pensions
        .filter((a) => statusIn(a.status, pensionStatuses(options.country)) && !isWrapperType(a.type))
        .map((a) => place(a)),
      ...investments.filter((a) => a.isSippWrapper).map((a) => place(a)),
      ...annuities.filter((a) => a.isSippWrapper).map((a) => place(a)),
      ...liabilities.filter(wrappedLiability).map((a) => place(a, -1)),
    ],
    annuities: annuities.filter((a) => !a.isSippWrapper).map((a) => place(a)),
    liabilities: liabilities.filter((a) => !wrappedLiability(a)).map((a) => place(a)),
  };
}

/** The four lists as the summary cards need them: id, description and the signed value owned. */
export function filterAssets(input: AssetInput, options: FilterOptions): Record<AssetTab, AssetItem[]> {
  const placed = placeAssets(input, options);
  const item = ({ asset: a, sign }: PlacedAsset): AssetItem => ({
    id: a.id,
    desc: a.desc,
    value: a.valueOwned === null ? null : sign * a.valueOwned,
    ...(a.percentOwned !== undefined ? { percentOwned: a.percentOwned } : {}),
  });
  return {
    investments: placed.investments.map(item),
    pensions: placed.pensions.map(item),
    annuities: placed.annuities.map(item),
    liabilities: placed.liabilities.map(item),
  };
}

// added in whole minor units (decision 106): a card's total is the sum of its items as shown
const sum = (items: readonly AssetItem[]) => sumAmounts(items.map((i) => i.value ?? 0));

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
  return sumAmounts(cards.map((c) => c.total));
}

/** A member of the client's group, as the platform lists it (entity/client/{id}/client_group/member). */
export type GroupMember = {
  entity_id: number;
  display_name: string;
  relationship?: string | null;
  login_accessible: boolean;
};

/**
 * spec 001 §2.5, §2.6 and §6: whose assets may be shown: the client first, then the other
 * login-accessible members of the client group, the partner only with the view_partner capability.
 */
export function assetMembers<M extends GroupMember>(
  members: readonly M[],
  self: M,
  capabilities: readonly string[],
): M[] {
  const others = members.filter(
    (m) =>
      m.entity_id !== self.entity_id &&
      m.login_accessible &&
      (m.relationship !== "Partner" || capabilities.includes("view_partner")),
  );
  return [members.find((m) => m.entity_id === self.entity_id) ?? self, ...others];
}

/** The member asked for with `?id=`; an id outside the list falls back to the client (the first). */
export function selectedMember<M extends GroupMember>(members: readonly M[], requested: number | null): M | undefined {
  return members.find((m) => m.entity_id === requested) ?? members[0];
}
