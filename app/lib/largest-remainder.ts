// Decision 207: rounded parts that add up to the rounded whole, by the largest remainder method
// (Hamilton's): each part is its exact value rounded down or up, and the units left over after
// rounding every part down go to the parts with the largest remainders. Pure: shared by the server
// and the browser.

type ApportionOptions = {
  /**
   * Parts already rounded elsewhere (the same thing in another panel): kept as they are, so that
   * the same thing reads the same everywhere. null: free.
   */
  pinned?: ReadonlyArray<number | null>;
  /** No part rises above this (spec 001 §2.1's 99 for a share beside others); parts already above keep their floor. */
  ceiling?: number;
};

// a part computed as 33.99999999999999 is 34: floor after this tolerance
const EPSILON = 1e-9;

/**
 * Whole numbers for `parts` (non-negative, finite) that add up to `whole`, each the part rounded
 * down or up (or its pinned value). The leftover units go one each to the free parts with the
 * largest remainder (ties: the larger part, then the earlier one); a part of 0 never gets one.
 * null when it cannot be done: `whole` outside what rounding each part down or up can reach, or
 * pins that leave the free parts too little or too much.
 */
export function apportion(parts: readonly number[], whole: number, options: ApportionOptions = {}): number[] | null {
  if (!Number.isInteger(whole) || parts.some((p) => !Number.isFinite(p) || p < 0)) return null;
  const pinned = options.pinned ?? [];
  const ceiling = options.ceiling ?? Infinity;
  const result = parts.map((p, i) => pinned[i] ?? Math.floor(p + EPSILON));
  let leftover = whole - result.reduce((sum, n) => sum + n, 0);
  if (leftover < 0) return null;
  const candidates = parts
    .map((part, index) => ({ part, index, remainder: part - result[index]! }))
    .filter(
      ({ part, index, remainder }) =>
        (pinned[index] ?? null) === null && part > 0 && remainder > EPSILON && result[index]! + 1 <= ceiling,
    )
    .sort((a, b) => b.remainder - a.remainder || b.part - a.part || a.index - b.index);
  if (candidates.length < leftover) return null;
  for (const { index } of candidates) {
    if (leftover === 0) break;
    result[index] = result[index]! + 1;
    leftover -= 1;
  }
  return result;
}

/**
 * Whole percentages of `values`' total that add up to 100 (0 for all when the total is 0), none above
 * 99 while another part is not 0 (spec 001 §2.1), `pinned` kept when the rest can still add up.
 */
export function wholePercentages(values: readonly number[], pinned?: ReadonlyArray<number | null>): number[] {
  const amounts = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const total = amounts.reduce((sum, v) => sum + v, 0);
  if (total <= 0) return amounts.map(() => 0);
  const exact = amounts.map((v) => (v / total) * 100);
  const ceiling = amounts.filter((v) => v > 0).length > 1 ? 99 : 100;
  return (
    (pinned ? apportion(exact, 100, { pinned, ceiling }) : null) ??
    apportion(exact, 100, { ceiling }) ??
    // a ceiling no set of parts can meet (never with two parts or more): without it
    apportion(exact, 100)!
  );
}
