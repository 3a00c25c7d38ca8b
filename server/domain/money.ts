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
export function holdingMinor(
  quantityMicros: number,
  priceMicros: number,
  fromPerGbpMicros = GBP_RATE_MICROS,
  toPerGbpMicros = fromPerGbpMicros,
): number {
  const negative = quantityMicros < 0 !== priceMicros < 0;
  const magnitude =
    fromPerGbpMicros === toPerGbpMicros
      ? nativeMagnitude(Math.abs(quantityMicros), Math.abs(priceMicros))
      : convertedMagnitude(Math.abs(quantityMicros), Math.abs(priceMicros), fromPerGbpMicros, toPerGbpMicros);
  if (magnitude !== null) return negative && magnitude !== 0 ? -magnitude : magnitude;
  const numerator = BigInt(quantityMicros) * BigInt(priceMicros) * BigInt(toPerGbpMicros);
  return Number(divideRoundedBig(numerator, PRODUCT_PER_MINOR_BIG * BigInt(fromPerGbpMicros)));
}

const HALF = 100_000; // 10^5: (10^5)^2 is PRODUCT_PER_MINOR
const SPLIT_LIMIT = 1e15;

/**
 * a × b ÷ 10^10 for non-negative integers below 10^15, as [quotient, remainder], exactly with plain
 * numbers: each factor is cut into its high and low five digits so that no partial product passes
 * 2^53 (the hot loop of `valuesOn` values a cash line of £100,000, 10^17 as a product, on every
 * date). Null when the quotient would not be a safe integer (then BigInt answers).
 */
function splitProduct(a: number, b: number): [number, number] | null {
  const product = a * b;
  // a float product within the safe range is the exact product (rounding is monotonic)
  if (Number.isSafeInteger(product)) {
    const rest = product % PRODUCT_PER_MINOR;
    return [(product - rest) / PRODUCT_PER_MINOR, rest];
  }
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a >= SPLIT_LIMIT || b >= SPLIT_LIMIT) return null;
  const ah = Math.floor(a / HALF);
  const al = a - ah * HALF;
  const bh = Math.floor(b / HALF);
  const bl = b - bh * HALF;
  const high = ah * bh; // units of 10^10
  const middle = ah * bl + al * bh; // units of 10^5, below 2·10^15
  const mh = Math.floor(middle / HALF);
  const ml = middle - mh * HALF;
  const low = ml * HALF + al * bl; // units of 1, below 2·10^10
  const carry = low >= PRODUCT_PER_MINOR ? 1 : 0;
  const quotient = high + mh + carry;
  return Number.isSafeInteger(quotient) ? [quotient, low - carry * PRODUCT_PER_MINOR] : null;
}

/** |q| × |p| ÷ 10^10 rounded half up (the magnitude of a same-currency value); null past plain numbers. */
function nativeMagnitude(q: number, p: number): number | null {
  const split = splitProduct(q, p);
  if (split === null) return null;
  return split[0] + (2 * split[1] >= PRODUCT_PER_MINOR ? 1 : 0);
}

/**
 * |q| × |p| × to ÷ (10^10 × from) rounded half up, exactly with plain numbers when every step stays
 * below 2^53 (real holdings and rates do); null otherwise. With q × p = A·10^10 + B:
 * value × from = A × to + B × to ÷ 10^10, each part cut into a quotient and a remainder.
 */
function convertedMagnitude(q: number, p: number, from: number, to: number): number | null {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from <= 0 || to <= 0) return null;
  const native = splitProduct(q, p);
  if (native === null) return null;
  const [a, b] = native;
  const x = a * to;
  if (!Number.isSafeInteger(x)) return null;
  const y = splitProduct(b, to); // B × to = yq·10^10 + yr
  if (y === null) return null;
  const xr = x % from;
  const xq = (x - xr) / from;
  const z = xr + y[0];
  if (!Number.isSafeInteger(z)) return null;
  const zr = z % from;
  const zq = (z - zr) / from;
  // the fraction left is (zr·10^10 + yr) ÷ (from·10^10): at least a half when 2·zr ≥ from, or
  // when 2·zr = from − 1 and 2·yr ≥ 10^10
  const k = 2 * zr - from;
  const up = k >= 0 || (k === -1 && 2 * y[1] >= PRODUCT_PER_MINOR);
  const magnitude = xq + zq + (up ? 1 : 0);
  return Number.isSafeInteger(magnitude) ? magnitude : null;
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
  const order = exact
    .map((e, i) => ({ i, rest: Math.abs(e - (shares[i] as number)) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
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
