// Realised gains and losses by the UK share-matching rules (docs/decisions/201-realised-gains-uk-matching.md).
// Pure, no I/O.
//
// A disposal of shares is identified with acquisitions of the same holding in this order (TCGA 1992
// s105, s106A; HMRC helpsheet HS284, Capital Gains Manual CG51560):
//   1. acquisitions on the same day ("same day");
//   2. acquisitions in the following 30 days, earliest first ("bed and breakfasting");
//   3. the section 104 holding: every other acquisition pooled at its average cost.
// All acquisitions on one day are one acquisition, and all disposals on one day one disposal
// (s105(1)(a)). An acquisition's cost includes its dealing costs (commission, stamp duty); a
// disposal's proceeds are net of its dealing costs.
//
// Money is in integer minor units of one currency (the plan currency: each side is converted at its
// own date's rate before it comes here); quantities in integer micro-units. Each share of an amount
// is rounded once, and what is taken from an acquisition or from the pool is taken exactly, so that
// the parts of an amount always add up to it.
import { apportionMinor, shareMinor, sumMinor } from "./money";

/** One deal in a holding: an acquisition (cost) or a disposal (proceeds), in minor units of one currency. */
export type Deal = {
  /** Identifies the deal to the caller (a transaction id); deals of one day are taken together. */
  id: number;
  date: string;
  kind: "acquisition" | "disposal";
  quantityMicros: number;
  /** Acquisition: what it cost, dealing costs included. Disposal: the proceeds less dealing costs. */
  amountMinor: number;
};

export type MatchRule = "same-day" | "thirty-day" | "section-104" | "no-acquisition";

/** A disposal's part identified by one rule (and, for the 30-day rule, with one day's acquisition). */
export type Match = {
  rule: MatchRule;
  quantityMicros: number;
  proceedsMinor: number;
  allowableCostMinor: number;
  gainMinor: number;
  /** The day of the acquisition it was matched with (same day, 30 days); null for the pool. */
  acquiredOn: string | null;
};

/** One day's disposals of the holding, with the parts the rules identified. */
export type Disposal = {
  date: string;
  /** The deals of the day taken together (s105(1)(a)). */
  dealIds: number[];
  quantityMicros: number;
  proceedsMinor: number;
  allowableCostMinor: number;
  gainMinor: number;
  matches: Match[];
};

/** What is left in the section 104 holding after a day's deals. */
export type PoolState = { date: string; quantityMicros: number; costMinor: number };

export type Matching = { disposals: Disposal[]; pool: PoolState[] };

/** Thirty calendar days after an ISO date (s106A(5): "within the period of 30 days after"). */
export function thirtyDaysAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 30);
  return d.toISOString().slice(0, 10);
}

/** What is still unmatched of one day's acquisitions or disposals. */
type Day = { date: string; ids: number[]; quantity: number; amount: number; left: number; amountLeft: number };

function byDay(deals: readonly Deal[], kind: Deal["kind"]): Day[] {
  const days = new Map<string, Day>();
  for (const deal of deals) {
    if (deal.kind !== kind) continue;
    if (!Number.isSafeInteger(deal.quantityMicros) || deal.quantityMicros <= 0)
      throw new RangeError(`Deal ${deal.id}: the quantity must be a positive whole number of micro-units.`);
    if (!Number.isSafeInteger(deal.amountMinor))
      throw new RangeError(`Deal ${deal.id}: the amount must be whole minor units.`);
    const day = days.get(deal.date) ?? { date: deal.date, ids: [], quantity: 0, amount: 0, left: 0, amountLeft: 0 };
    day.ids.push(deal.id);
    day.quantity += deal.quantityMicros;
    day.amount = sumMinor([day.amount, deal.amountMinor]);
    days.set(deal.date, day);
  }
  return [...days.values()]
    .map((d) => ({ ...d, ids: d.ids.sort((a, b) => a - b), left: d.quantity, amountLeft: d.amount }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

/** Takes `quantity` of what is left of an acquisition day: its exact share of the cost left. */
function takeCost(day: Day, quantity: number): number {
  const cost = quantity === day.left ? day.amountLeft : shareMinor(day.amountLeft, quantity, day.left);
  day.left -= quantity;
  day.amountLeft -= cost;
  return cost;
}

type Part = { rule: MatchRule; quantity: number; cost: number; acquiredOn: string | null };

/**
 * Identifies every disposal of one holding (one security in one capacity) with its acquisitions by
 * the UK rules, and keeps the section 104 holding. The order the deals come in does not matter.
 */
export function matchHolding(deals: readonly Deal[]): Matching {
  const acquisitions = byDay(deals, "acquisition");
  const disposals = byDay(deals, "disposal");
  const acquisitionOn = new Map(acquisitions.map((a) => [a.date, a]));
  const parts = new Map<string, Part[]>(disposals.map((d) => [d.date, []]));

  // 1. same day
  for (const d of disposals) {
    const a = acquisitionOn.get(d.date);
    if (!a) continue;
    const quantity = Math.min(d.left, a.left);
    if (quantity <= 0) continue;
    (parts.get(d.date) as Part[]).push({ rule: "same-day", quantity, cost: takeCost(a, quantity), acquiredOn: a.date });
    d.left -= quantity;
  }

  // 2. the following 30 days: earlier disposals first, each with the earliest acquisitions first
  for (const d of disposals) {
    if (d.left === 0) continue;
    const last = thirtyDaysAfter(d.date);
    for (const a of acquisitions) {
      if (d.left === 0) break;
      if (a.date <= d.date || a.date > last || a.left === 0) continue;
      const quantity = Math.min(d.left, a.left);
      (parts.get(d.date) as Part[]).push({
        rule: "thirty-day",
        quantity,
        cost: takeCost(a, quantity),
        acquiredOn: a.date,
      });
      d.left -= quantity;
    }
  }

  // 3. the section 104 holding, day by day: what is left of the day's acquisitions joins it, then
  // what is left of the day's disposal leaves it at the average cost (exactly the pool's share)
  const pool = { quantity: 0, cost: 0 };
  const states: PoolState[] = [];
  const dates = [...new Set([...acquisitions.map((a) => a.date), ...disposals.map((d) => d.date)])].sort();
  const disposalOn = new Map(disposals.map((d) => [d.date, d]));
  for (const date of dates) {
    const a = acquisitionOn.get(date);
    if (a && a.left > 0) {
      pool.quantity += a.left;
      pool.cost += takeCost(a, a.left);
    }
    const d = disposalOn.get(date);
    if (d && d.left > 0) {
      const quantity = Math.min(d.left, pool.quantity);
      if (quantity > 0) {
        const cost = quantity === pool.quantity ? pool.cost : shareMinor(pool.cost, quantity, pool.quantity);
        pool.quantity -= quantity;
        pool.cost -= cost;
        (parts.get(date) as Part[]).push({ rule: "section-104", quantity, cost, acquiredOn: null });
        d.left -= quantity;
      }
      // more sold than was ever acquired (an incomplete record): no cost is known for the rest
      if (d.left > 0) {
        (parts.get(date) as Part[]).push({ rule: "no-acquisition", quantity: d.left, cost: 0, acquiredOn: null });
        d.left = 0;
      }
    }
    states.push({ date, quantityMicros: pool.quantity, costMinor: pool.cost });
  }

  return {
    disposals: disposals.map((d) => disposalOf(d, parts.get(d.date) as Part[])),
    pool: states,
  };
}

const RULE_ORDER: MatchRule[] = ["same-day", "thirty-day", "section-104", "no-acquisition"];

/** A day's disposal with its proceeds shared over its parts by quantity (exactly: they add up). */
function disposalOf(d: Day, parts: Part[]): Disposal {
  const ordered = [...parts].sort(
    (x, y) =>
      RULE_ORDER.indexOf(x.rule) - RULE_ORDER.indexOf(y.rule) || (x.acquiredOn ?? "").localeCompare(y.acquiredOn ?? ""),
  );
  const proceeds = apportionMinor(
    d.amount,
    ordered.map((p) => p.quantity),
  );
  const matches = ordered.map((p, i): Match => ({
    rule: p.rule,
    quantityMicros: p.quantity,
    proceedsMinor: proceeds[i] as number,
    allowableCostMinor: p.cost,
    gainMinor: (proceeds[i] as number) - p.cost,
    acquiredOn: p.acquiredOn,
  }));
  const allowableCostMinor = sumMinor(matches.map((m) => m.allowableCostMinor));
  return {
    date: d.date,
    dealIds: d.ids,
    quantityMicros: d.quantity,
    proceedsMinor: d.amount,
    allowableCostMinor,
    gainMinor: d.amount - allowableCostMinor,
    matches,
  };
}

// ── tax years ────────────────────────────────────────────────────────────────────────────────

/** The UK tax year a date falls in, by its first calendar year: 6 April 2024 – 5 April 2025 is 2024. */
export function ukTaxYearOf(date: string): number {
  const year = Number(date.slice(0, 4));
  return date.slice(5) >= "04-06" ? year : year - 1;
}

/** '2024-25' for the tax year starting in 2024, as HMRC writes it. */
export const taxYearLabel = (startYear: number) => `${startYear}-${String((startYear + 1) % 100).padStart(2, "0")}`;

/** The first and last days of a UK tax year. */
export const taxYearDates = (startYear: number) => ({ start: `${startYear}-04-06`, end: `${startYear + 1}-04-05` });

/**
 * A tax year's totals of its disposals: the gains (disposals with a gain), the losses (disposals with
 * a loss, as a positive amount) and the net. A disposal is one day's sales of one holding, its parts
 * taken together (s105(1)(a)), as the capital gains pages of a return count them; the net is gains
 * less losses, and equals proceeds less allowable costs.
 */
export function yearTotals(
  matches: ReadonlyArray<Pick<Disposal, "gainMinor" | "proceedsMinor" | "allowableCostMinor">>,
) {
  const gainsMinor = sumMinor(matches.map((m) => Math.max(m.gainMinor, 0)));
  const lossesMinor = sumMinor(matches.map((m) => Math.max(-m.gainMinor, 0)));
  return {
    proceedsMinor: sumMinor(matches.map((m) => m.proceedsMinor)),
    allowableCostMinor: sumMinor(matches.map((m) => m.allowableCostMinor)),
    gainsMinor,
    lossesMinor,
    netMinor: gainsMinor - lossesMinor,
  };
}

// ── the annual exempt amount ───────────────────────────────────────────────────────────────────

/**
 * HMRC's Capital Gains Tax annual exempt amount by tax year (the first calendar year), in pounds,
 * for individuals (and personal representatives) and for most trustees (half). Source: GOV.UK,
 * "Capital Gains Tax: what you pay it on, rates and allowances" and "Rates and allowances: Capital
 * Gains Tax" (https://www.gov.uk/guidance/capital-gains-tax-rates-and-allowances); the amounts from
 * 2023-24 were set by the Finance (No. 2) Act 2023 (TCGA 1992 s3, as amended), £3,000 a year from
 * 2024-25 until changed.
 */
export const ANNUAL_EXEMPT_AMOUNTS: ReadonlyArray<{ year: number; individualPounds: number; trusteesPounds: number }> =
  [
    { year: 2019, individualPounds: 12_000, trusteesPounds: 6_000 },
    { year: 2020, individualPounds: 12_300, trusteesPounds: 6_150 },
    { year: 2021, individualPounds: 12_300, trusteesPounds: 6_150 },
    { year: 2022, individualPounds: 12_300, trusteesPounds: 6_150 },
    { year: 2023, individualPounds: 6_000, trusteesPounds: 3_000 },
    { year: 2024, individualPounds: 3_000, trusteesPounds: 1_500 },
    { year: 2025, individualPounds: 3_000, trusteesPounds: 1_500 },
    { year: 2026, individualPounds: 3_000, trusteesPounds: 1_500 },
  ];

export const ANNUAL_EXEMPT_AMOUNT_SOURCE = {
  name: "HM Revenue & Customs: Capital Gains Tax rates and allowances",
  url: "https://www.gov.uk/guidance/capital-gains-tax-rates-and-allowances",
};

/** The year's annual exempt amount, or null for a year the table does not hold. */
export function annualExemptAmount(year: number) {
  return ANNUAL_EXEMPT_AMOUNTS.find((a) => a.year === year) ?? null;
}
