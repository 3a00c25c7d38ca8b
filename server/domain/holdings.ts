// Positions of a book on a date (spec 001 §3 "Position", §7 "Positions and allocation"): quantities,
// values in native, plan and report currency, the parcels still held (FIFO) with their book cost,
// income and yield, weights, and the allocation by asset class, sector and region. Pure functions
// over the book (performance.ts); no I/O.
//
// - Quantities and values are carried and converted exactly as `valuesOn` values a date, so the
//   positions of a set of accounts add up to its value in the performance calls.
// - Parcels: every buy and transfer in of a security opens one, at its cost (the net amount: price
//   × units plus fees and stamp duty; a transfer's net is its value on the day); sales and
//   transfers out take units from the oldest parcel first, and with them the same share of its
//   cost. A cost in another currency than the security's is unknown (null).
// - Money follows decision 106: each holding's value in each currency, each parcel's cost and each
//   income is rounded once to the minor unit; an account's figures are the exact sums of its
//   holdings', and a holding's parcels share out its value so that they add up to it.

import type { Book, LedgerTransaction, PricingType } from "./performance";
import { gbpRates, pricingDate } from "./performance";
import { apportionMinor, holdingMinor, minorOf, shareMinor, sumMinor, unitsOf } from "./money";
import { MICROS, pointOn, positionsAt } from "./valuation";
import { compareNames } from "../lib/collation";

/** Names of the asset classes (securities.asset_class_code). */
export const ASSET_CLASS_NAMES: Readonly<Record<string, string>> = {
  EQUITY: "Equities",
  FIXED: "Fixed income",
  PROPERTY: "Property",
  CASH: "Cash",
  MIXED: "Multi-asset",
};

/** US withholding tax on dividends paid to an account with a personal (not sheltered) tax structure. */
export const WITHHOLDING_RATE = 0.15;

/** spec 001 §5: a security is cash when its exchange or its code is "cash", in any case. */
export const isCashSecurity = (code: string, exchange: string) =>
  code.toLowerCase() === "cash" || exchange.toLowerCase() === "cash";

export type Split = { name: string; weight: number };

/** A stored split (JSON `[{ name, weight }]`, weights in percent); null when absent or not a usable list. */
export function parseSplit(stored: string | null | undefined): Split[] | null {
  if (!stored) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const out: Split[] = [];
  for (const part of parsed) {
    const p = part as { name?: unknown; weight?: unknown };
    if (
      typeof p?.name !== "string" ||
      p.name === "" ||
      typeof p.weight !== "number" ||
      !Number.isFinite(p.weight) ||
      p.weight < 0
    )
      return null;
    out.push({ name: p.name, weight: p.weight });
  }
  return out.reduce((sum, p) => sum + p.weight, 0) > 0 ? out : null;
}

/** The asset-class split of a security: its stored look-through, else wholly its own class. */
export const assetClassSplit = (assetClassCode: string, stored?: string | null): Split[] =>
  parseSplit(stored) ?? [{ name: ASSET_CLASS_NAMES[assetClassCode] ?? assetClassCode, weight: 100 }];

/** The regional split of a security: its stored look-through, else wholly its own region. */
export const regionalSplit = (region: string, stored?: string | null): Split[] =>
  parseSplit(stored) ?? [{ name: region, weight: 100 }];

/**
 * Yearly yield in percent: gross from the security, net of withholding tax for US income in a
 * personal account; and the same as whole parts per million of the value (exact, for incomes).
 */
export function yieldOf(
  yieldBp: number,
  securityCurrency: string,
  taxStructure: string,
): { gross: number; net: number; grossPpm: number; netPpm: number } {
  const gross = yieldBp / 100;
  const withheld = securityCurrency === "USD" && taxStructure === "Personal";
  const grossPpm = Math.round(yieldBp * 100);
  return {
    gross,
    net: withheld ? gross * (1 - WITHHOLDING_RATE) : gross,
    grossPpm,
    netPpm: withheld ? Math.round(grossPpm * (1 - WITHHOLDING_RATE)) : grossPpm,
  };
}

/** A year's income on a value in minor units at a yield in parts per million, rounded once (decision 106). */
export const incomeMinor = (valueMinor: number, yieldPpm: number) => shareMinor(valueMinor, yieldPpm, 1_000_000);

/** A share of a total in percent; 0 of nothing. */
export const weightOf = (value: number, total: number) => (total === 0 ? 0 : (value / total) * 100);

export type Parcel = {
  tradeDate: string;
  quantityMicros: number;
  /**
   * Book cost of the units still held, in units of the security's currency (exactly a number of
   * minor units: the parcel's cost × units held / units bought, rounded once); null when unknown.
   */
  cost: number | null;
};

/**
 * The parcels of each account's holding of each security after the transactions traded on or before
 * `date` (FIFO), keyed `accountId:securityId`, oldest first; emptied parcels are left out.
 */
export function parcelsAt(
  transactions: readonly LedgerTransaction[],
  date: string,
  currencyOf: (securityId: number) => string | undefined,
): Map<string, Parcel[]> {
  const ordered = [...transactions]
    .filter((t) => t.tradeDate <= date)
    .sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
  type Lot = { tradeDate: string; quantityMicros: number; boughtMicros: number; paidMinor: number | null };
  const lots = new Map<string, Lot[]>();
  for (const t of ordered) {
    const key = `${t.accountId}:${t.securityId}`;
    if (t.type === "buy" || t.type === "transfer_in") {
      if (t.quantityMicros <= 0) continue;
      const known = t.currency === (currencyOf(t.securityId) ?? t.currency);
      const list = lots.get(key) ?? [];
      list.push({
        tradeDate: t.tradeDate,
        quantityMicros: t.quantityMicros,
        boughtMicros: t.quantityMicros,
        paidMinor: known ? t.netMinor : null,
      });
      lots.set(key, list);
    } else if (t.type === "sell" || t.type === "transfer_out") {
      const list = lots.get(key);
      let left = t.quantityMicros;
      while (list && list.length && left > 0) {
        const oldest = list[0] as Lot;
        if (oldest.quantityMicros <= left) {
          left -= oldest.quantityMicros;
          list.shift();
        } else {
          oldest.quantityMicros -= left;
          left = 0;
        }
      }
    }
  }
  const parcels = new Map<string, Parcel[]>();
  for (const [key, list] of lots) {
    if (list.length === 0) continue;
    // the cost of the units still held: the parcel's cost in proportion, rounded once (not at every sale)
    parcels.set(
      key,
      list.map((l) => ({
        tradeDate: l.tradeDate,
        quantityMicros: l.quantityMicros,
        cost: l.paidMinor === null ? null : unitsOf(shareMinor(l.paidMinor, l.quantityMicros, l.boughtMicros)),
      })),
    );
  }
  return parcels;
}

export type SecurityFacts = {
  code: string;
  exchange: string;
  currency: string;
  yieldBp: number;
};

/** A parcel with its share of the holding's values (units; the parcels' values add up to the holding's). */
export type HeldParcel = Parcel & { nativeValue: number; planValue: number; value: number };

export type Holding = {
  accountId: number;
  securityId: number;
  quantityMicros: number;
  cash: boolean;
  nativeCurrency: string;
  /** The price used (units) and the date it was struck. */
  nativePrice: number;
  priceDate: string;
  nativeValue: number;
  planCurrency: string;
  planValue: number;
  /** In the report currency. Values are units, each exactly its minor units / 100 (rounded once). */
  value: number;
  nativeMinor: number;
  planMinor: number;
  valueMinor: number;
  /** Units of the plan (report) currency for one unit of the native currency on the pricing date. */
  fxToPlan: number;
  fxToReport: number;
  /** Book cost of the units held (native currency): the sum of its parcels' costs; null for cash and when unknown. */
  cost: number | null;
  costMinor: number | null;
  /** Percent. */
  grossYield: number;
  netYield: number;
  /** The same in parts per million of the value (whole numbers): incomes are `incomeMinor(value, ppm)`. */
  grossYieldPpm: number;
  netYieldPpm: number;
  /** The parcels still held, oldest first; none for cash. */
  parcels: HeldParcel[];
};

export type Holdings = {
  date: string;
  pricingDate: string;
  currency: string;
  /** In the order `valuesOn` sums them: by account, then security. */
  holdings: Holding[];
  /** The report-currency total, summed as `valuesOn` sums it (units; exactly totalMinor / 100). */
  total: number;
  totalMinor: number;
};

/**
 * The parcels of one holding with their shares of its rounded values (native, plan, report), and its
 * book cost: the sum of the parcels' costs when they account for the whole holding, else not known.
 */
function heldParcels(
  lots: readonly Parcel[],
  quantityMicros: number,
  cash: boolean,
  minors: readonly [native: number, plan: number, value: number],
): { costMinor: number | null; parcels: HeldParcel[] } {
  // the parcels account for the whole holding, or its cost is not known
  const complete = lots.reduce((sum, l) => sum + l.quantityMicros, 0) === quantityMicros;
  const costMinor =
    cash || !complete || lots.some((l) => l.cost === null)
      ? null
      : sumMinor(lots.map((l) => minorOf(l.cost as number)));
  // the parcels share the holding's rounded values in proportion to their units, adding up to them
  // when they account for the whole holding (units they do not account for keep their share)
  const uncovered = quantityMicros - lots.reduce((sum, l) => sum + l.quantityMicros, 0);
  const weights = [...lots.map((l) => l.quantityMicros), ...(uncovered > 0 ? [uncovered] : [])];
  const [nativeShares, planShares, valueShares] = minors.map((m) => apportionMinor(m, weights)) as [
    number[],
    number[],
    number[],
  ];
  const parcels = lots.map((l, i) => ({
    ...l,
    cost: complete ? l.cost : null,
    nativeValue: unitsOf(nativeShares[i] as number),
    planValue: unitsOf(planShares[i] as number),
    value: unitsOf(valueShares[i] as number),
  }));
  return { costMinor, parcels };
}

/**
 * Every position of the book's accounts at the end of `date`, valued as `valuesOn` values that date
 * (the same pricing date, prices and rates, the same arithmetic), with parcels, cost and yield.
 */
export function holdingsOn(
  book: Book,
  date: string,
  measure: { currency: string; pricing: PricingType },
  securities: ReadonlyMap<number, SecurityFacts>,
  taxStructures: ReadonlyMap<number, string>,
): Holdings {
  const positions = positionsAt(book.transactions, date);
  const priced = pricingDate(date, book.today, measure.pricing);
  const perGbp = gbpRates(book, priced);
  const parcels = parcelsAt(book.transactions, date, (id) => book.prices.get(id)?.currency);
  const holdings: Holding[] = [];
  const reportRate = perGbp(measure.currency);
  for (const p of positions) {
    const pricing = book.prices.get(p.securityId);
    if (!pricing) throw new RangeError(`No prices for security ${p.securityId}.`);
    const point = pointOn(pricing.series, priced);
    if (!point) throw new RangeError(`No price for security ${p.securityId} on or before ${priced}.`);
    const price = point.micros;
    const planCurrency = book.planCurrencies.get(p.accountId) ?? measure.currency;
    const fromRate = perGbp(pricing.currency);
    const planRate = perGbp(planCurrency);
    // as valuesOn: quantity × price × rate, rounded once in each currency
    const nativeMinor = holdingMinor(p.quantityMicros, price);
    const planMinor = holdingMinor(p.quantityMicros, price, fromRate, planRate);
    const valueMinor = holdingMinor(p.quantityMicros, price, fromRate, reportRate);
    const fxToPlan = pricing.currency === planCurrency ? 1 : planRate / fromRate;
    const fxToReport = pricing.currency === measure.currency ? 1 : reportRate / fromRate;
    const facts = securities.get(p.securityId);
    const cash = facts ? isCashSecurity(facts.code, facts.exchange) : false;
    const lots = cash ? [] : (parcels.get(`${p.accountId}:${p.securityId}`) ?? []);
    const held = heldParcels(lots, p.quantityMicros, cash, [nativeMinor, planMinor, valueMinor]);
    const yields = yieldOf(facts?.yieldBp ?? 0, pricing.currency, taxStructures.get(p.accountId) ?? "");
    holdings.push({
      accountId: p.accountId,
      securityId: p.securityId,
      quantityMicros: p.quantityMicros,
      cash,
      nativeCurrency: pricing.currency,
      nativePrice: price / MICROS,
      priceDate: point.date,
      nativeValue: unitsOf(nativeMinor),
      planCurrency,
      planValue: unitsOf(planMinor),
      value: unitsOf(valueMinor),
      nativeMinor,
      planMinor,
      valueMinor,
      fxToPlan,
      fxToReport,
      cost: held.costMinor === null ? null : unitsOf(held.costMinor),
      costMinor: held.costMinor,
      grossYield: yields.gross,
      netYield: yields.net,
      grossYieldPpm: yields.grossPpm,
      netYieldPpm: yields.netPpm,
      parcels: held.parcels,
    });
  }
  // by account, then over accounts: the same sums as valuesOn
  const totalMinor = sumMinor(holdings.map((h) => h.valueMinor));
  return { date, pricingDate: priced, currency: measure.currency, holdings, total: unitsOf(totalMinor), totalMinor };
}

export type Slice = { key: string; name: string; weight: number };

export type Category<T> = {
  key: string;
  name: string;
  /** Minor units: the exact sum of its members' parts. */
  value: number;
  members: Array<{ item: T; value: number }>;
};

/**
 * Groups items by their slices: each item's value (minor units) is shared out across its slices in
 * proportion to their weights, in whole minor units that add up to the value (largest remainder,
 * decision 106), so the categories add up to the items' total exactly. Categories by value
 * descending, then name; the members of a category by value descending.
 */
export function categorise<T>(
  items: ReadonlyArray<{ item: T; value: number; slices: readonly Slice[] }>,
): Category<T>[] {
  const byKey = new Map<string, Category<T>>();
  for (const { item, value, slices } of items) {
    const used = slices.filter((x) => x.weight > 0);
    if (used.length === 0) continue;
    const parts = apportionMinor(
      value,
      used.map((x) => x.weight),
    );
    for (const [i, slice] of used.entries()) {
      const part = parts[i] as number;
      const category = byKey.get(slice.key) ?? { key: slice.key, name: slice.name, value: 0, members: [] };
      category.value = sumMinor([category.value, part]);
      category.members.push({ item, value: part });
      byKey.set(slice.key, category);
    }
  }
  const categories = [...byKey.values()];
  for (const c of categories) c.members.sort((a, b) => b.value - a.value);
  return categories.sort((a, b) => b.value - a.value || compareNames(a.name, b.name));
}

/** The key of an asset-class name: its code when it is one of ours, else the name. */
export function assetClassKey(name: string): string {
  return Object.entries(ASSET_CLASS_NAMES).find(([, n]) => n === name)?.[0] ?? name;
}
