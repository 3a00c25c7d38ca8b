// The platform's one rounding rule for money (docs/decisions/106-money-rounding.md). Pure, no I/O.
//
// Money is carried in integer minor units (1/100 of the currency, as stored: decision 071).
// Quantities, prices and FX rates are integer micro-units. A figure computed from them (a holding's
// value, a flow, a converted amount, a share of a cost) is the exact rational quantity × price ×
// rate, rounded ONCE to the minor unit, half away from zero, as a statement rounds each line. Every
// larger figure (an account, a portfolio, a total, the net flows) is the exact integer sum of the
// rounded lines, so what is sent adds up to what is shown.
//
// Products of micro-units pass 2^53 (a million units at £10,000 is 10^22 micro-micro-pounds), so the
// division is done with BigInt, except where the numerator is a safe integer, where plain numbers
// are exact and much faster.

/** Minor units in one unit of every currency the platform keeps (pence, cents). */
export const MINOR_PER_UNIT = 100;
const MICROS = 1_000_000;
/** quantity micros × price micros = 10^12 per unit; 10^10 per minor unit. */
const PRODUCT_PER_MINOR = (MICROS * MICROS) / MINOR_PER_UNIT;
const PRODUCT_PER_MINOR_BIG = BigInt(PRODUCT_PER_MINOR);
const GBP_RATE_MICROS = MICROS;

/** n / d rounded to the nearest integer, halves away from zero (d > 0). */
export function divideRoundedBig(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError("The divisor must be positive.");
  const q = n / d; // truncates towards zero
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** n / d rounded half away from zero, for integers n and d > 0; exact for any size. */
export function divideRounded(n: number, d: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(d)) throw new RangeError("Expected integers.");
  if (Number.isSafeInteger(n) && Number.isSafeInteger(d) && d > 0) {
    const r = n % d; // exact for safe integers; the sign of n
    const q = (n - r) / d; // an exact multiple: the quotient is exact
    return 2 * Math.abs(r) >= d ? q + Math.sign(n) : q + 0;
  }
  return Number(divideRoundedBig(BigInt(n), BigInt(d)));
}

/** Half away from zero to a whole number, for a value already in minor units (e.g. 12.5 → 13, −12.5 → −13). */
export function roundHalfAwayFromZero(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError("Expected a finite number.");
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r + 0;
}

/**
 * The value in minor units of `to` of `quantityMicros` units at `priceMicros` (in `from`), with
 * `fromPerGbpMicros` and `toPerGbpMicros` units of each currency for one GBP: quantity × price ×
 * to/from, rounded once. The same currency (equal rates) converts at exactly 1.
 */
export function holdingMinor(quantityMicros: number, priceMicros: number, fromPerGbpMicros = GBP_RATE_MICROS, toPerGbpMicros = fromPerGbpMicros): number {
  if (fromPerGbpMicros === toPerGbpMicros) {
    const product = quantityMicros * priceMicros;
    // a float product within the safe range is the exact product (rounding is monotonic)
    if (Number.isSafeInteger(product)) return divideRounded(product, PRODUCT_PER_MINOR);
    const split = productMinorBySplit(quantityMicros, priceMicros);
    if (split !== null) return split;
    return Number(divideRoundedBig(BigInt(quantityMicros) * BigInt(priceMicros), PRODUCT_PER_MINOR_BIG));
  }
  return Number(
    divideRoundedBig(
      BigInt(quantityMicros) * BigInt(priceMicros) * BigInt(toPerGbpMicros),
      PRODUCT_PER_MINOR_BIG * BigInt(fromPerGbpMicros),
    ),
  );
}

const HALF = 100_000; // 10^5: (10^5)^2 is PRODUCT_PER_MINOR
const SPLIT_LIMIT = 1e15;

/**
 * quantity × price / 10^10 rounded half away from zero, exactly, with plain numbers: each factor is
 * cut into its high and low five digits so that no partial product passes 2^53 (the hot loop of
 * `valuesOn` values a cash line of £100,000, 10^16 as a product, on every date). Null when a factor
 * is too large for the cut (then BigInt answers).
 */
function productMinorBySplit(quantityMicros: number, priceMicros: number): number | null {
  const q = Math.abs(quantityMicros);
  const p = Math.abs(priceMicros);
  if (!Number.isSafeInteger(q) || !Number.isSafeInteger(p) || q >= SPLIT_LIMIT || p >= SPLIT_LIMIT) return null;
  const qh = Math.floor(q / HALF);
  const ql = q - qh * HALF;
  const ph = Math.floor(p / HALF);
  const pl = p - ph * HALF;
  const high = qh * ph; // units of 10^10
  if (!Number.isSafeInteger(high)) return null;
  const middle = qh * pl + ql * ph; // units of 10^5, below 2·10^15
  const mh = Math.floor(middle / HALF);
  const ml = middle - mh * HALF;
  const low = ml * HALF + ql * pl; // units of 1, below 2·10^10
  const carry = Math.floor(low / PRODUCT_PER_MINOR);
  const rest = low - carry * PRODUCT_PER_MINOR;
  const magnitude = high + mh + carry + (2 * rest >= PRODUCT_PER_MINOR ? 1 : 0);
  if (!Number.isSafeInteger(magnitude)) return null;
  const negative = quantityMicros < 0 !== priceMicros < 0;
  return negative && magnitude !== 0 ? -magnitude : magnitude;
}

/** An amount in minor units of one currency converted to another (rates per GBP in micros), rounded once. */
export function convertMinor(amountMinor: number, fromPerGbpMicros: number, toPerGbpMicros: number): number {
  if (fromPerGbpMicros === toPerGbpMicros) return amountMinor;
  return Number(divideRoundedBig(BigInt(amountMinor) * BigInt(toPerGbpMicros), BigInt(fromPerGbpMicros)));
}

/** `minor` × numerator / denominator rounded once: a share of an amount (a cost for the units still held, an income at a yield). */
export function shareMinor(minor: number, numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  const sign = denominator < 0 ? -1 : 1;
  const product = minor * numerator * sign;
  if (Number.isSafeInteger(product)) return divideRounded(product, Math.abs(denominator));
  return Number(divideRoundedBig(BigInt(minor) * BigInt(numerator) * BigInt(sign), BigInt(Math.abs(denominator))));
}

/** The exact sum of amounts in minor units (integers; throws past 2^53 rather than lose a penny). */
export function sumMinor(amounts: Iterable<number>): number {
  let total = 0;
  for (const a of amounts) {
    if (!Number.isSafeInteger(a)) throw new RangeError(`${a} is not a whole number of minor units.`);
    total += a;
  }
  if (!Number.isSafeInteger(total)) throw new RangeError("A sum of minor units passed 2^53.");
  return total;
}

/** Minor units as an amount in units: 12345 → 123.45 (the nearest double, which prints back exactly). */
export const unitsOf = (minor: number) => minor / MINOR_PER_UNIT + 0;

/** An amount as exactly two decimals from its minor units: -12345 → '-123.45', 5 → '0.05'. */
export function decimalOf(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units.`);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(3, "0");
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Shares a whole number of minor units out over parts in proportion to `weights` (non-negative),
 * so that the shares add up to `total` exactly (largest remainder; ties to the earlier part).
 */
export function apportionMinor(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (weights.length === 0) return [];
  if (!(sum > 0)) {
    const out = weights.map(() => 0);
    out[0] = total;
    return out;
  }
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map((e) => Math.trunc(e));
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((e, i) => ({ i, rest: Math.abs(e - (shares[i] as number)) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  const step = Math.sign(left);
  for (let k = 0; left !== 0; k++) {
    const at = (order[k % order.length] as { i: number }).i;
    shares[at] = (shares[at] as number) + step;
    left -= step;
  }
  return shares;
}

/** The minor units of an amount in units that is a whole number of minor units (e.g. one from `unitsOf`). */
export function minorOf(units: number): number {
  const minor = Math.round(units * MINOR_PER_UNIT) + 0;
  if (!Number.isSafeInteger(minor) || unitsOf(minor) !== units + 0) {
    throw new RangeError(`${units} is not a whole number of minor units.`);
  }
  return minor;
}
