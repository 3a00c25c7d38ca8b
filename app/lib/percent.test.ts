import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sumAmounts } from "./money";
import { formatPercentLabel, roundPercentages } from "./percent";

const percents = (values: number[]) => roundPercentages(values).map((s) => s.percent);
const labels = (values: number[]) => roundPercentages(values).map((s) => s.label);

describe("roundPercentages (spec 001 §2.1)", () => {
  it("gives the leftover point of three equal items to the first", () => {
    expect(percents([1, 1, 1])).toEqual([34, 33, 33]);
    expect(labels([1, 1, 1])).toEqual(["34%", "33%", "33%"]);
  });

  it("always adds up to 100 when the total is positive", () => {
    for (const values of [
      [1, 1, 1],
      [1, 2, 3, 4, 5, 6, 7],
      [0.1, 0.2, 0.3],
      [1e9, 1, 1],
      [7, 7, 7, 7, 7, 7],
    ]) {
      expect(percents(values).reduce((a, b) => a + b, 0)).toBe(100);
    }
  });

  it("spreads the leftover by the largest remainder", () => {
    // Exact shares 48.6, 31.4, 20.0: floors 48, 31, 20 and one point left, to the .6.
    expect(percents([48.6, 31.4, 20])).toEqual([49, 31, 20]);
    // Exact shares 12.5 each: four points left, to the first four (equal remainders and values).
    expect(percents([1, 1, 1, 1, 1, 1, 1, 1])).toEqual([13, 13, 13, 13, 12, 12, 12, 12]);
  });

  it("breaks a tie in remainder by the larger value first", () => {
    // 0.5 and 0.5 remainders: 10.5 and 89.5; the leftover point goes to the larger value.
    expect(percents([10.5, 89.5])).toEqual([10, 90]);
  });

  it("shows '<1%' for a tiny item that is not truly zero, and '0%' for a zero", () => {
    // Exact 50, 49.95, 0.05: the leftover point goes to the .95, so the 0.05 stays at 0.
    const shares = roundPercentages([50, 49.95, 0.05, 0]);
    expect(shares.map((s) => s.percent)).toEqual([50, 50, 0, 0]);
    expect(shares.map((s) => s.label)).toEqual(["50%", "50%", "<1%", "0%"]);
    expect(shares[2]!.exact).toBeCloseTo(0.05, 10);
  });

  it("gives a tiny item the leftover point when its remainder is the largest", () => {
    // 99.4 and 0.6: floors 99 and 0; the point goes to the 0.6, which then shows 1%.
    expect(labels([99.4, 0.6])).toEqual(["99%", "1%"]);
  });

  it("keeps a single item at 100", () => {
    expect(roundPercentages([42])).toEqual([{ percent: 100, label: "100%", exact: 100 }]);
    expect(percents([0, 250, 0])).toEqual([0, 100, 0]);
  });

  it("never spreads the leftover above 99", () => {
    // 1000 and 1: exact 99.9 and 0.1; the first may not take the point, so the second shows 1%.
    expect(percents([1000, 1])).toEqual([99, 1]);
    // 99.7 has the larger remainder but may not become 100: the point goes to 0.3.
    expect(percents([99.7, 0.3])).toEqual([99, 1]);
    expect(percents([99.5, 0.25, 0.25])).toEqual([99, 1, 0]);
    expect(labels([99.5, 0.25, 0.25])).toEqual(["99%", "1%", "<1%"]);
  });

  it("gives 0% to every item when the total is zero", () => {
    expect(roundPercentages([0, 0])).toEqual([
      { percent: 0, label: "0%", exact: 0 },
      { percent: 0, label: "0%", exact: 0 },
    ]);
    expect(roundPercentages([])).toEqual([]);
  });

  it("counts negative and non-finite values as zero", () => {
    const shares = roundPercentages([-50, 25, 75, Number.NaN]);
    expect(shares.map((s) => s.percent)).toEqual([0, 25, 75, 0]);
    expect(shares.map((s) => s.label)).toEqual(["0%", "25%", "75%", "0%"]);
    expect(shares[0]!.exact).toBe(0);
    expect(percents([-1, -2])).toEqual([0, 0]);
  });

  it("never gives a leftover point to an item whose value is 0", () => {
    expect(percents([0, 1, 1, 1])).toEqual([0, 34, 33, 33]);
  });

  it("floors a share computed just below a whole number as that number", () => {
    // 0.7 / 1 * 100 and 0.1 + 0.2 style errors must not lose a point.
    expect(percents([0.1, 0.2, 0.7])).toEqual([10, 20, 70]);
  });

  it("follows a locale when given one", () => {
    const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
    expect(roundPercentages([1, 3], "fr-CA").map((s) => plain(s.label))).toEqual(["25 %", "75 %"]);
    expect(roundPercentages([50, 49.95, 0.05], "en-GB")[2]!.label).toBe("<1%");
  });
});

describe("formatPercentLabel", () => {
  it("reads '<1%' only for a non-zero share shown as 0", () => {
    expect(formatPercentLabel(0, true)).toBe("<1%");
    expect(formatPercentLabel(0, false)).toBe("0%");
    expect(formatPercentLabel(42, true)).toBe("42%");
    expect(formatPercentLabel(100, true, "en-GB")).toBe("100%");
  });
});

describe("roundPercentages: properties (decision 106)", () => {
  // amounts as sent (whole minor units, shown to two decimals), some of them nothing
  const amounts = fc.array(
    fc.oneof(
      fc.constant(0),
      fc.integer({ min: 1, max: 10 ** 11 }).map((m) => m / 100),
    ),
    { minLength: 1, maxLength: 25 },
  );

  it("gives whole percentages that add up to 100 whenever there is a whole", () => {
    fc.assert(
      fc.property(amounts, (values) => {
        const shares = roundPercentages(values);
        const total = sumAmounts(values);
        if (total > 0) expect(shares.reduce((s, p) => s + p.percent, 0)).toBe(100);
        else expect(shares.every((p) => p.percent === 0)).toBe(true);
      }),
    );
  });

  it("keeps each percentage within one point of its exact share, gives nothing to nothing, and never more than 99 from the spread", () => {
    fc.assert(
      fc.property(amounts, (values) => {
        const shares = roundPercentages(values);
        for (const [i, share] of shares.entries()) {
          expect(Number.isInteger(share.percent)).toBe(true);
          expect(Math.abs(share.percent - share.exact)).toBeLessThan(1);
          if (values[i] === 0) expect(share.percent).toBe(0);
          if (share.percent > Math.floor(share.exact + 1e-9)) expect(share.percent).toBeLessThanOrEqual(99);
        }
      }),
    );
  });
});
