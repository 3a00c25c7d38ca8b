// Value and performance of a set of accounts over a period (docs/decisions/073-performance-endpoints.md).
// Pure functions over the book: transactions, price series and FX series. No I/O.
//
// - Values use the prices and FX rates of their own date (valuation.ts); "close" pricing never uses
//   today's price, which is not a close until the market shuts: today is valued at the previous
//   business day's close. "delayed" and "live" take today's price (the book holds one price a day).
// - External cash flows are transfers in and out, valued on their trade date. On the "before fees and
//   taxes" basis the fees and taxes of every transaction are external outflows too, so they do not
//   lower the return; on the "after" basis (the default) they are part of the return.
// - Money follows decision 106: each holding's value and each flow is rounded once to the minor
//   unit; an account's value, a total and the net flows are exact integer sums of those, and the
//   movement is value to − value from − net flows in minor units. Returns use those values.
// - TWR chains the sub-periods between every flow date (flows at the end of their day, decision 070);
//   IRR is the XIRR of the opening value, the flows and the closing value.

import { calendarDaysBetween, shiftMonths } from "./calendar";
import { convertMinor, holdingMinor, sumMinor, unitsOf } from "./money";
import { type CashFlow, isOverAYear, twr, xirr } from "./returns";
import {
  addDays,
  BASE_CURRENCY,
  type BookTransaction,
  type FxSeries,
  isBusinessDay,
  MICROS,
  perGbpMicros,
  pointOn,
  type Position,
  type PricePoint,
  type PriceSeries,
  type SecurityPricing,
  transactionEffects,
} from "./valuation";

export type PricingType = "close" | "delayed" | "live";
export type FeesBasis = "after" | "before";
export type Frequency = "daily" | "weekly" | "monthly" | "quarterly" | "yearly";

export type LedgerTransaction = BookTransaction & { currency: string; feeMinor: number; taxMinor: number };

export type Book = {
  /** The transactions of the accounts being measured (and only those). */
  transactions: readonly LedgerTransaction[];
  prices: ReadonlyMap<number, SecurityPricing>;
  fx: FxSeries;
  /** Each account's plan currency. */
  planCurrencies: ReadonlyMap<number, string>;
  /** The platform's today. */
  today: string;
};

export type Measure = { currency: string; pricing: PricingType; basis: FeesBasis };

/** The last business day strictly before `date`. */
export function previousBusinessDay(date: string): string {
  let day = addDays(date, -1);
  while (!isBusinessDay(day)) day = addDays(day, -1);
  return day;
}

/** spec 001 §4/§9 hold-back: an end date of today (or later) moves back to the previous business day. */
export function holdBackEnd(end: string, today: string, holdBack: boolean): string {
  if (end > today) end = today;
  return holdBack && end >= today ? previousBusinessDay(today) : end;
}

/** The date whose prices and FX value `date`: close pricing does not use today's price. */
export function pricingDate(date: string, today: string, pricing: PricingType): string {
  if (date >= today) return pricing === "close" ? previousBusinessDay(today) : today;
  return date;
}

export type AccountValue = {
  planCurrency: string;
  /** Units (exactly the minor units / 100). */
  planValue: number;
  value: number;
  /** Minor units: the exact sums of the account's holdings' values, each rounded once (decision 106). */
  planMinor: number;
  valueMinor: number;
};

export type BookValue = {
  /** In the measure's currency, units (exactly totalMinor / 100). */
  total: number;
  /** The exact sum of the accounts' values in minor units. */
  totalMinor: number;
  /** Per account, in its plan currency and in the measure's currency. */
  accounts: Map<number, AccountValue>;
};

/** The book's transactions in trade-date order (stable), so positions can be carried forward. */
function inTradeOrder(transactions: readonly LedgerTransaction[]): readonly LedgerTransaction[] {
  for (let i = 1; i < transactions.length; i++) {
    if ((transactions[i - 1] as LedgerTransaction).tradeDate > (transactions[i] as LedgerTransaction).tradeDate) {
      return [...transactions].sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
    }
  }
  return transactions;
}

/** The last point on or before `date` of an ascending series (a date already validated); null before it starts. */
function lastOnOrBefore(series: PriceSeries, date: string): number | null {
  let lo = 0;
  let hi = series.length - 1;
  let found: number | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const point = series[mid] as PricePoint;
    if (point.date <= date) {
      found = point.micros;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The value of the book's accounts at the end of each of `dates`, answered in the order asked. The
 * positions are carried forward through the transactions once, in date order (what `positionsAt`
 * gives for each date), and each date is valued as `valueAt` values it, at its pricing date: each
 * position's price on or before that date, converted with that date's rates (cross rates via GBP),
 * each rounded once to the minor unit and summed exactly by account, then over accounts (decision
 * 106). The rates are looked up once per currency and date.
 */
export function valuesOn(
  book: Book,
  dates: readonly string[],
  measure: Pick<Measure, "currency" | "pricing">,
): BookValue[] {
  const order = dates
    .map((date, index) => ({ date, index }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.index - b.index));
  const ledger = inTradeOrder(book.transactions);
  const held = new Map<string, Position>();
  const out: BookValue[] = new Array<BookValue>(dates.length);
  let next = 0;
  for (const { date, index } of order) {
    for (; next < ledger.length && (ledger[next] as LedgerTransaction).tradeDate <= date; next++) {
      const t = ledger[next] as LedgerTransaction;
      for (const effect of transactionEffects(t)) {
        const key = `${t.accountId}:${effect.securityId}`;
        const line = held.get(key) ?? { accountId: t.accountId, securityId: effect.securityId, quantityMicros: 0 };
        line.quantityMicros += effect.micros;
        held.set(key, line);
      }
    }
    const positions = [...held.values()]
      .filter((p) => p.quantityMicros !== 0)
      .sort((a, b) => a.accountId - b.accountId || a.securityId - b.securityId);
    const priced = pricingDate(date, book.today, measure.pricing);
    const perGbp = gbpRates(book, priced);
    const accounts = new Map<number, AccountValue>();
    const toRate = perGbp(measure.currency);
    for (const p of positions) {
      const pricing = book.prices.get(p.securityId);
      if (!pricing) throw new RangeError(`No prices for security ${p.securityId}.`);
      const price = lastOnOrBefore(pricing.series, priced);
      if (price == null) throw new RangeError(`No price for security ${p.securityId} on or before ${priced}.`);
      const planCurrency = book.planCurrencies.get(p.accountId) ?? measure.currency;
      const fromRate = perGbp(pricing.currency);
      const valueMinor = holdingMinor(p.quantityMicros, price, fromRate, toRate);
      const planMinor =
        planCurrency === measure.currency
          ? valueMinor
          : holdingMinor(p.quantityMicros, price, fromRate, perGbp(planCurrency));
      let account = accounts.get(p.accountId);
      if (!account) {
        account = { planCurrency, planValue: 0, value: 0, planMinor: 0, valueMinor: 0 };
        accounts.set(p.accountId, account);
      }
      account.planMinor += planMinor;
      account.valueMinor += valueMinor;
    }
    let totalMinor = 0;
    for (const account of accounts.values()) {
      account.planMinor = sumMinor([account.planMinor]);
      account.planValue = unitsOf(account.planMinor);
      account.value = unitsOf(sumMinor([account.valueMinor]));
      totalMinor += account.valueMinor;
    }
    out[index] = { total: unitsOf(sumMinor([totalMinor])), totalMinor, accounts };
  }
  return out;
}

/** Units of a currency for one GBP on `priced` (the last rate on or before it) in micro-units, each looked up once. */
export function gbpRates(book: Pick<Book, "fx">, priced: string): (currency: string) => number {
  const rates = new Map<string, number>([[BASE_CURRENCY, MICROS]]);
  return (currency) => {
    let rate = rates.get(currency);
    if (rate === undefined) {
      const series = book.fx[currency];
      const micros = series ? lastOnOrBefore(series, priced) : null;
      if (micros == null) throw new RangeError(`No ${BASE_CURRENCY}/${currency} rate on or before ${priced}.`);
      rate = micros;
      rates.set(currency, rate);
    }
    return rate;
  };
}

/** The value of the book's accounts at the end of `date`. */
export function valueOn(book: Book, date: string, measure: Pick<Measure, "currency" | "pricing">): BookValue {
  return valuesOn(book, [date], measure)[0] as BookValue;
}

function nativePriceMicros(book: Book, securityId: number, date: string): number {
  const pricing = book.prices.get(securityId);
  const point = pricing ? pointOn(pricing.series, date) : null;
  if (!pricing || !point) throw new RangeError(`No price for security ${securityId} on or before ${date}.`);
  return point.micros;
}

/** An external flow: `amount` in units, exactly `minor` / 100 (rounded once, decision 106). */
export type MoneyFlow = CashFlow & { minor: number };

/** A transfer's value on `date` (its units at the day's price and rate), in the currency of `toRate`, rounded once. */
function transferMinor(book: Book, t: LedgerTransaction, date: string, toRate: number): number {
  const currency = book.prices.get(t.securityId)?.currency ?? t.currency;
  return holdingMinor(
    t.quantityMicros,
    nativePriceMicros(book, t.securityId, date),
    perGbpMicros(book.fx, currency, date),
    toRate,
  );
}

/**
 * Decision 207: a transaction's value in `currency` at its trade date, unsigned as amounts are
 * listed, rounded once: a transfer as the external flows value it (so that a file of them adds up
 * to the net flows to the minor unit), any other its gross amount at the day's rate.
 */
export function transactionValueMinor(
  book: Book,
  t: LedgerTransaction & { grossMinor: number },
  measure: Pick<Measure, "currency" | "pricing">,
): number {
  const date = pricingDate(t.tradeDate, book.today, measure.pricing);
  const toRate = perGbpMicros(book.fx, measure.currency, date);
  if (t.type === "transfer_in" || t.type === "transfer_out") return Math.abs(transferMinor(book, t, date, toRate));
  return Math.abs(convertMinor(t.grossMinor, perGbpMicros(book.fx, t.currency, date), toRate));
}

/** The external cash flows after `from` up to and including `to`, in the measure's currency, each rounded once. */
export function externalFlows(book: Book, from: string, to: string, measure: Measure): MoneyFlow[] {
  const flows: MoneyFlow[] = [];
  const flow = (date: string, minor: number) => flows.push({ date, minor: minor + 0, amount: unitsOf(minor) });
  for (const t of book.transactions) {
    if (t.tradeDate <= from || t.tradeDate > to) continue;
    const date = pricingDate(t.tradeDate, book.today, measure.pricing);
    const toRate = perGbpMicros(book.fx, measure.currency, date);
    if (t.type === "transfer_in" || t.type === "transfer_out") {
      const minor = transferMinor(book, t, date, toRate);
      flow(t.tradeDate, t.type === "transfer_in" ? minor : -minor);
    }
    if (measure.basis === "before" && t.feeMinor + t.taxMinor > 0) {
      flow(t.tradeDate, -convertMinor(t.feeMinor + t.taxMinor, perGbpMicros(book.fx, t.currency, date), toRate));
    }
  }
  return flows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export type PeriodPerformance = {
  start: string;
  end: string;
  /** Units, each exactly its minor units (`minor`) / 100. */
  valueFrom: number;
  valueTo: number;
  /** Per account at the end: plan currency and values. */
  accounts: BookValue["accounts"];
  netFlows: number;
  /** Change in value less the net external flows: what the investments earned. */
  movement: number;
  /** The same four figures in minor units: movement = valueTo − valueFrom − netFlows exactly. */
  minor: { valueFrom: number; valueTo: number; netFlows: number; movement: number };
  /**
   * The date returns are measured from: the start, or the first later date with a value when the
   * accounts were funded within the period (inception); null when the book never had a value.
   */
  since: string | null;
  /** Time-weighted: over the period, and a year when the period is over a year (else null). */
  twr: { period: number; annualised: number | null } | null;
  /** Money-weighted: the yearly rate, and its equivalent over the period. */
  irr: { annual: number; period: number } | null;
  /** The measured period (from `since`) is over a year: both the cumulative and the annualised figure apply. */
  overAYear: boolean;
};

/** Value, change and returns of the book's accounts from the end of `start` to the end of `end`. */
export function periodPerformance(book: Book, start: string, end: string, measure: Measure): PeriodPerformance {
  const flows = externalFlows(book, start, end, measure);
  const dates = [...new Set([start, ...flows.map((f) => f.date), end])].sort();
  const valued = valuesOn(book, dates, measure);
  const values = new Map<string, BookValue>(dates.map((date, i) => [date, valued[i] as BookValue]));
  const from = values.get(start) as BookValue;
  const to = values.get(end) as BookValue;
  const netFlowsMinor = sumMinor(flows.map((f) => f.minor));
  const movementMinor = sumMinor([to.totalMinor, -from.totalMinor, -netFlowsMinor]);
  const since = start < end ? (dates.find((d) => (values.get(d) as BookValue).total > 0) ?? null) : null;
  const result: PeriodPerformance = {
    start,
    end,
    valueFrom: from.total,
    valueTo: to.total,
    accounts: to.accounts,
    netFlows: unitsOf(netFlowsMinor),
    movement: unitsOf(movementMinor),
    minor: { valueFrom: from.totalMinor, valueTo: to.totalMinor, netFlows: netFlowsMinor, movement: movementMinor },
    since,
    twr: null,
    irr: null,
    overAYear: since !== null && since < end && isOverAYear(since, end),
  };
  if (since === null || since >= end) return result;

  try {
    const r = twr(
      dates.map((date) => ({ date, value: Math.max(0, (values.get(date) as BookValue).total) })),
      flows,
    );
    result.twr = { period: r.cumulative, annualised: r.annualised };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }

  const irrFlows: CashFlow[] = [];
  if (from.total > 0) irrFlows.push({ date: start, amount: -from.total });
  for (const f of flows) irrFlows.push({ date: f.date, amount: -f.amount });
  irrFlows.push({ date: end, amount: to.total });
  const first = irrFlows[0]?.date ?? start;
  try {
    const annual = xirr(irrFlows);
    result.irr = { annual, period: (1 + annual) ** (calendarDaysBetween(first, end) / 365) - 1 };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return result;
}

/** The dates of a series from `start` to `end` at `frequency` (both ends included; daily: business days). */
export function seriesDates(start: string, end: string, frequency: Frequency): string[] {
  if (start > end) return [];
  const dates: string[] = [start];
  const step = (n: number): string => {
    switch (frequency) {
      case "daily":
        return addDays(start, n);
      case "weekly":
        return addDays(start, 7 * n);
      case "monthly":
        return shiftMonths(start, n);
      case "quarterly":
        return shiftMonths(start, 3 * n);
      case "yearly":
        return shiftMonths(start, 12 * n);
    }
  };
  for (let n = 1; ; n++) {
    const date = step(n);
    if (date >= end) break;
    if (frequency === "daily" && !isBusinessDay(date)) continue;
    dates.push(date);
  }
  if (end !== start) dates.push(end);
  return dates;
}

export type SeriesPoint = {
  date: string;
  value: number;
  /** Time-weighted return from the series' start (or from inception when later); null before any value. */
  cumulative: number | null;
  /** External flows from the start up to this date (units; exactly `netFlowsMinor` / 100). */
  netFlows: number;
  /** `value` and `netFlows` in minor units. */
  valueMinor: number;
  netFlowsMinor: number;
};

/**
 * Value and cumulative time-weighted return at each of `points` (ascending). Sub-periods are cut at
 * every point and every external flow date, and chained: the same figure `periodPerformance` gives.
 */
export function timeSeries(book: Book, points: readonly string[], measure: Measure): SeriesPoint[] {
  if (points.length === 0) return [];
  const start = points[0] as string;
  const end = points[points.length - 1] as string;
  const flows = externalFlows(book, start, end, measure);
  const flowByDate = new Map<string, number>();
  for (const f of flows) flowByDate.set(f.date, (flowByDate.get(f.date) ?? 0) + f.minor);
  const wanted = new Set(points);
  const dates = [...new Set([...points, ...flowByDate.keys()])].sort();
  const valued = valuesOn(book, dates, measure);
  const out: SeriesPoint[] = [];
  let previous = 0;
  let growth = 1;
  let funded = false;
  let netFlowsMinor = 0;
  for (const [i, date] of dates.entries()) {
    const valueMinor = Math.max(0, (valued[i] as BookValue).totalMinor);
    const flowMinor = i === 0 ? 0 : (flowByDate.get(date) ?? 0);
    netFlowsMinor = sumMinor([netFlowsMinor, flowMinor]);
    if (i > 0 && previous > 0) growth *= (valueMinor - flowMinor) / previous;
    if (valueMinor > 0) funded = true;
    previous = valueMinor;
    if (wanted.has(date)) {
      out.push({
        date,
        value: unitsOf(valueMinor),
        cumulative: funded ? growth - 1 : null,
        netFlows: unitsOf(netFlowsMinor),
        valueMinor,
        netFlowsMinor,
      });
    }
  }
  return out;
}

/** A benchmark's cumulative return from the first point, at each point (null before its series starts). */
export function benchmarkSeries(
  series: PriceSeries,
  points: readonly string[],
): Array<{ date: string; cumulative: number | null }> {
  const base = points[0] ? pointOn(series, points[0]) : null;
  return points.map((date) => {
    const level = pointOn(series, date);
    return { date, cumulative: base && level ? level.micros / base.micros - 1 : null };
  });
}
