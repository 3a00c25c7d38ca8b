// Adding up money in the portal (decision 106). Pure: shared by the server and the browser.
//
// The platform sends every amount as exact two-decimal figures, each rounded once. The portal never
// adds them as floating-point numbers (0.1 + 0.2 is not 0.3): it adds whole minor units (pence,
// cents), so a total shown with its rows is the sum of the rows as shown, to the penny.

/** Minor units in one unit of every currency the platform sends (two decimals on the wire). */
export const MINOR_PER_UNIT = 100;

/** Half away from zero to a whole number (12.5 → 13, −12.5 → −13); 0, never −0. */
export function roundHalfAwayFromZero(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x)) + 0;
}

/**
 * An amount in whole minor units, read from its shortest decimal form (what `String` prints): exact
 * for an amount as sent (two decimals), and anything finer rounded once at the third decimal, half
 * away from zero (1.005 → 101, −2.675 → −268), as the decimal reads, not as its binary double falls.
 */
export function toMinor(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError(`${amount} is not an amount.`);
  const text = String(Math.abs(amount));
  let magnitude: number;
  if (/e/i.test(text)) {
    // very small or very large: no decimal reading to honour
    magnitude = Math.round(Math.abs(amount) * MINOR_PER_UNIT);
  } else {
    const [whole = "0", fraction = ""] = text.split(".");
    const digits = fraction.padEnd(3, "0");
    magnitude = Number(whole) * MINOR_PER_UNIT + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  }
  if (!Number.isSafeInteger(magnitude)) throw new RangeError(`${amount} is too large an amount.`);
  return amount < 0 && magnitude !== 0 ? -magnitude : magnitude;
}

/** Whole minor units as an amount: 12345 → 123.45. */
export const fromMinor = (minor: number) => minor / MINOR_PER_UNIT + 0;

/** An amount rounded once to the minor unit (half away from zero), as a row is shown. */
export const roundMoney = (amount: number) => fromMinor(toMinor(amount));

/** The exact sum of amounts, added in whole minor units: the total of rows as they are shown. */
export function sumAmounts(amounts: Iterable<number>): number {
  let minor = 0;
  for (const amount of amounts) minor += toMinor(amount);
  if (!Number.isSafeInteger(minor)) throw new RangeError("A sum of money passed 2^53 minor units.");
  return fromMinor(minor);
}

export type Amount = { amount: number; currency: string };

/**
 * The sum of amounts in one currency, in that currency; null when there is nothing to add or when
 * they are in more than one currency (amounts in different currencies cannot be added up).
 */
export function sumMoney(list: ReadonlyArray<Amount>): Amount | null {
  const first = list[0];
  if (!first || list.some((m) => m.currency !== first.currency)) return null;
  return { amount: sumAmounts(list.map((m) => m.amount)), currency: first.currency };
}

/** `percent` of an amount (a share owned), rounded once to the minor unit. */
export const shareOfAmount = (amount: number, percent: number) =>
  fromMinor(roundHalfAwayFromZero((toMinor(amount) * percent) / 100));
