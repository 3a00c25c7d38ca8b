// Decision 207: an allocation panel's whole percentages, adding up to 100 by the largest remainder
// (spec 001 §2.1: none above 99), and the same category with the same amount of the same total (cash
// as an asset class and as a sector) at the same percentage in every panel. Shared by the page and
// its CSV, so that the file says what the page says.
import { wholePercentages } from "~/lib/largest-remainder";

type Category = { name: string; value: { amount: number } };

/**
 * A panel's percentages. Call it for the panels in the order they are shown, with one
 * `shownBefore` map: a category already shown with the same amount of the same total keeps its
 * percentage (keyed by its English name and amount in minor units).
 */
export function allocationPercentages(
  categories: readonly Category[],
  total: { amount: number },
  shownBefore: Map<string, number>,
): number[] {
  const totalMinor = Math.round(total.amount * 100);
  const keys = categories.map((c) => `${c.name}\u0000${Math.round(c.value.amount * 100)}\u0000${totalMinor}`);
  const percents = wholePercentages(
    categories.map((c) => c.value.amount),
    keys.map((key) => shownBefore.get(key) ?? null),
  );
  keys.forEach((key, i) => {
    if (!shownBefore.has(key)) shownBefore.set(key, percents[i]!);
  });
  return percents;
}
