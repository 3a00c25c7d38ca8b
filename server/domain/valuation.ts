// Positions and valuation (docs/decisions/071-portfolio-book.md). Pure functions, no I/O.
//
// Stored numbers are integers: quantities, prices and FX rates in micro-units (1/1,000,000), money
// in minor units (1/100). FX rates are units of a currency for one GBP; cross rates go via GBP.
// Dates are ISO calendar dates 'YYYY-MM-DD'; the value of a past date uses the prices and the FX
// rates of that date (the last business day on or before it), never today's.

import { isIsoDate, isWeekendDate, shiftDays } from "./calendar";
import { holdingMinor, sumMinor, unitsOf } from "./money";

export const MICROS = 1_000_000;
/** One minor unit (0.01) of cash is 10,000 micro-units of a cash line priced at 1.00. */
export const MICROS_PER_MINOR = 10_000;
export const BASE_CURRENCY = "GBP";

export type TransactionType = "buy" | "sell" | "income" | "fee" | "tax" | "transfer_in" | "transfer_out";

export type BookTransaction = {
  accountId: number;
  securityId: number;
  type: TransactionType;
  tradeDate: string;
  /** Unsigned; the type gives the direction. Ignored for income, fees and taxes. */
  quantityMicros: number;
  /** Unsigned cash amount settled on the cash line (buy: paid, sell: received, income: received after tax, fee and tax: paid). */
  netMinor: number;
  /** The cash line that settles the transaction; none for transfers (they move the security itself). */
  cashSecurityId?: number | null;
};

export type Position = { accountId: number; securityId: number; quantityMicros: number };
export type PricePoint = { date: string; micros: number };
/** Price series in ascending date order. */
export type PriceSeries = readonly PricePoint[];
/** Units of each currency for one GBP, per currency (GBP itself need not be listed). */
export type FxSeries = Readonly<Record<string, PriceSeries>>;

function checkDate(date: string, what: string): string {
  if (!isIsoDate(date)) {
    throw new RangeError(`${what}: '${date}' is not a calendar date in the form YYYY-MM-DD.`);
  }
  return date;
}

/** Monday to Friday (no holiday calendar: holidays are priced as business days). */
export function isBusinessDay(date: string): boolean {
  return !isWeekendDate(checkDate(date, "Date"));
}

/** The ISO date `days` calendar days after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return shiftDays(checkDate(date, "Date"), days);
}

/** Every business day from `from` to `to`, both included, in order. */
export function businessDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (isBusinessDay(d)) days.push(d);
  return days;
}

/** The signed change of the security and of the cash line that one transaction makes. */
export function transactionEffects(t: BookTransaction): Array<{ securityId: number; micros: number }> {
  const cash = (sign: number) =>
    t.cashSecurityId == null ? [] : [{ securityId: t.cashSecurityId, micros: sign * t.netMinor * MICROS_PER_MINOR }];
  switch (t.type) {
    case "buy":
      return [{ securityId: t.securityId, micros: t.quantityMicros }, ...cash(-1)];
    case "sell":
      return [{ securityId: t.securityId, micros: -t.quantityMicros }, ...cash(1)];
    case "income":
      return cash(1);
    case "fee":
    case "tax":
      return cash(-1);
    case "transfer_in":
      return [{ securityId: t.securityId, micros: t.quantityMicros }];
    case "transfer_out":
      return [{ securityId: t.securityId, micros: -t.quantityMicros }];
  }
}

/**
 * Quantities per security per account after every transaction traded on or before `date`, sorted
 * by account then security; lines that come back to zero are left out.
 */
export function positionsAt(transactions: readonly BookTransaction[], date: string): Position[] {
  checkDate(date, "Valuation date");
  const held = new Map<string, Position>();
  for (const t of transactions) {
    if (t.tradeDate > date) continue;
    for (const effect of transactionEffects(t)) {
      const key = `${t.accountId}:${effect.securityId}`;
      const line = held.get(key) ?? { accountId: t.accountId, securityId: effect.securityId, quantityMicros: 0 };
      line.quantityMicros += effect.micros;
      held.set(key, line);
    }
  }
  return [...held.values()]
    .filter((p) => p.quantityMicros !== 0)
    .sort((a, b) => a.accountId - b.accountId || a.securityId - b.securityId);
}

/** The last point on or before `date` (a weekend or holiday takes the previous business day); null before the series starts. */
export function pointOn(series: PriceSeries, date: string): PricePoint | null {
  checkDate(date, "Date");
  let lo = 0;
  let hi = series.length - 1;
  let found: PricePoint | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const point = series[mid] as PricePoint;
    if (point.date <= date) {
      found = point;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The price (micro-units) on `date`: the last one on or before it; null before the series starts. */
export function priceOn(series: PriceSeries, date: string): number | null {
  return pointOn(series, date)?.micros ?? null;
}

/** Units of `currency` for one GBP on `date`, in micro-units (GBP: exactly one million). */
export function perGbpMicros(fx: FxSeries, currency: string, date: string): number {
  if (currency === BASE_CURRENCY) return MICROS;
  const series = fx[currency];
  const micros = series ? priceOn(series, date) : null;
  if (micros == null) throw new RangeError(`No ${BASE_CURRENCY}/${currency} rate on or before ${date}.`);
  return micros;
}

function unitsPerGbp(fx: FxSeries, currency: string, date: string): number {
  return perGbpMicros(fx, currency, date) / MICROS;
}

/** How many `to` one `from` buys on `date` (the rates of that date; cross rates via GBP). */
export function fxOn(fx: FxSeries, from: string, to: string, date: string): number {
  checkDate(date, "Date");
  if (from === to) return 1;
  return unitsPerGbp(fx, to, date) / unitsPerGbp(fx, from, date);
}

export type SecurityPricing = { currency: string; series: PriceSeries };

export type ValuedPosition = Position & {
  nativeCurrency: string;
  /** The price used (units, not micros) and the date it was struck. */
  nativePrice: number;
  priceDate: string;
  /** Values in units, each exactly its minor units / 100 (decision 106: rounded once per holding and currency). */
  nativeValue: number;
  planCurrency: string;
  planValue: number;
  reportValue: number;
  nativeMinor: number;
  planMinor: number;
  reportMinor: number;
};

export type Valuation = {
  date: string;
  reportCurrency: string;
  positions: ValuedPosition[];
  /** Sum of reportValue (exactly: the sum of reportMinor, in units). */
  reportTotal: number;
  reportTotalMinor: number;
  /** Per account: plan currency, plan value and report value (the sums of its positions' rounded values). */
  accounts: Array<{
    accountId: number;
    planCurrency: string;
    planValue: number;
    reportValue: number;
    planMinor: number;
    reportMinor: number;
  }>;
};

/**
 * Values positions on `date` in native (the security's), plan (the account's) and report
 * (`currency`) currency, with the prices and FX rates of that date. Each position's value in each
 * currency is quantity × price × rate rounded once to the minor unit (decision 106); accounts and
 * the total are the exact sums of those.
 */
export function valueAt(input: {
  positions: readonly Position[];
  prices: ReadonlyMap<number, SecurityPricing> | Readonly<Record<number, SecurityPricing>>;
  fx: FxSeries;
  date: string;
  /** The report currency. */
  currency: string;
  /** Each account's plan currency; the report currency when not given. */
  planCurrencies?: ReadonlyMap<number, string> | Readonly<Record<number, string>>;
}): Valuation {
  const { positions, fx, date, currency } = input;
  checkDate(date, "Valuation date");
  const lookup = <T>(
    from: ReadonlyMap<number, T> | Readonly<Record<number, T>> | undefined,
    key: number,
  ): T | undefined =>
    from === undefined ? undefined : from instanceof Map ? from.get(key) : (from as Record<number, T>)[key];
  const valued: ValuedPosition[] = positions.map((p) => {
    const pricing = lookup(input.prices, p.securityId);
    if (!pricing) throw new RangeError(`No prices for security ${p.securityId}.`);
    const point = pointOn(pricing.series, date);
    if (!point) throw new RangeError(`No price for security ${p.securityId} on or before ${date}.`);
    const planCurrency = lookup(input.planCurrencies, p.accountId) ?? currency;
    const from = perGbpMicros(fx, pricing.currency, date);
    const nativeMinor = holdingMinor(p.quantityMicros, point.micros);
    const planMinor = holdingMinor(p.quantityMicros, point.micros, from, perGbpMicros(fx, planCurrency, date));
    const reportMinor = holdingMinor(p.quantityMicros, point.micros, from, perGbpMicros(fx, currency, date));
    return {
      ...p,
      nativeCurrency: pricing.currency,
      nativePrice: point.micros / MICROS,
      priceDate: point.date,
      nativeValue: unitsOf(nativeMinor),
      planCurrency,
      planValue: unitsOf(planMinor),
      reportValue: unitsOf(reportMinor),
      nativeMinor,
      planMinor,
      reportMinor,
    };
  });
  const byAccount = new Map<
    number,
    { accountId: number; planCurrency: string; planMinor: number; reportMinor: number }
  >();
  for (const v of valued) {
    const account = byAccount.get(v.accountId) ?? {
      accountId: v.accountId,
      planCurrency: v.planCurrency,
      planMinor: 0,
      reportMinor: 0,
    };
    account.planMinor = sumMinor([account.planMinor, v.planMinor]);
    account.reportMinor = sumMinor([account.reportMinor, v.reportMinor]);
    byAccount.set(v.accountId, account);
  }
  const reportTotalMinor = sumMinor(valued.map((v) => v.reportMinor));
  return {
    date,
    reportCurrency: currency,
    positions: valued,
    reportTotal: unitsOf(reportTotalMinor),
    reportTotalMinor,
    accounts: [...byAccount.values()]
      .sort((a, b) => a.accountId - b.accountId)
      .map((a) => ({ ...a, planValue: unitsOf(a.planMinor), reportValue: unitsOf(a.reportMinor) })),
  };
}
