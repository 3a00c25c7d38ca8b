import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apportion, wholePercentages } from "./largest-remainder";

// Decision 207: the largest remainder method, by examples and by properties over random parts.

const sum = (list: readonly number[]) => list.reduce((s, n) => s + n, 0);
/** Amounts in pence, as the platform's money reads: up to £10m each. */
const amounts = fc.array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 1, maxLength: 12 });

describe("apportion", () => {
  it("gives the leftover to the largest remainders, then the larger part, then the earlier one", () => {
    expect(apportion([12.6, 45.3, 42.1], 100)).toEqual([13, 45, 42]);
    expect(apportion([33.3333, 33.3333, 33.3334], 100)).toEqual([33, 33, 34]);
    expect(apportion([1.5, 1.5, 7], 10)).toEqual([2, 1, 7]);
    expect(apportion([0.5, 2.5, 7], 10)).toEqual([0, 3, 7]);
    // a part of 0 gets nothing; whole parts stay as they are
    expect(apportion([0, 50, 50], 100)).toEqual([0, 50, 50]);
    expect(apportion([], 0)).toEqual([]);
  });

  it("keeps pinned parts and shares the rest among the free ones", () => {
    // 12.6 would be 13 here; pinned at 12 (as another panel shows it) the unit goes elsewhere
    expect(apportion([12.6, 45.3, 42.1], 100, { pinned: [12, null, null] })).toEqual([12, 46, 42]);
    expect(apportion([12.6, 87.4], 100, { pinned: [13, null] })).toEqual([13, 87]);
  });

  it("answers null when the whole cannot be reached by rounding each part down or up", () => {
    expect(apportion([10.2, 10.2], 25)).toBeNull();
    expect(apportion([10.2, 10.2], 19)).toBeNull();
    expect(apportion([0.5, 0.5, 99], 100, { pinned: [1, 1, null] })).toBeNull();
    expect(apportion([1, -1], 0)).toBeNull();
    expect(apportion([1.5], 1.5)).toBeNull();
  });

  it("holds for any parts: floor or ceiling each, adding up to the whole, the leftover to the largest remainders", () => {
    fc.assert(
      fc.property(amounts, (pence) => {
        const total = sum(pence);
        fc.pre(total > 0);
        const exact = pence.map((p) => (p / total) * 100);
        const whole = apportion(exact, 100)!;
        expect(sum(whole)).toBe(100);
        whole.forEach((n, i) => {
          expect(n === Math.floor(exact[i]! + 1e-9) || n === Math.ceil(exact[i]! - 1e-9)).toBe(true);
        });
        // no part rounded down has a larger remainder than a part rounded up
        const up = whole.map((n, i) => n > exact[i]! + 1e-9);
        const remainder = exact.map((e) => e - Math.floor(e + 1e-9));
        const smallestUp = Math.min(...remainder.filter((_, i) => up[i]));
        const largestDown = Math.max(...remainder.filter((r, i) => !up[i] && r > 1e-9));
        if (Number.isFinite(smallestUp) && Number.isFinite(largestDown))
          expect(largestDown).toBeLessThanOrEqual(smallestUp + 1e-9);
      }),
    );
  });

  it("splits whole pounds so that they add up to the rounded total", () => {
    fc.assert(
      fc.property(amounts, (pence) => {
        const pounds = pence.map((p) => p / 100);
        const whole = Math.round(sum(pence) / 100);
        const shown = apportion(pounds, whole)!;
        expect(sum(shown)).toBe(whole);
        shown.forEach((n, i) => expect(Math.abs(n - pounds[i]!)).toBeLessThan(1));
      }),
    );
  });
});

describe("wholePercentages", () => {
  it("adds up to 100, none above 99 beside another part, and 0 for all of nothing", () => {
    expect(wholePercentages([99.6, 0.4])).toEqual([99, 1]);
    expect(wholePercentages([5])).toEqual([100]);
    expect(wholePercentages([0, 0])).toEqual([0, 0]);
    expect(wholePercentages([-3, Number.NaN, 4])).toEqual([0, 0, 100]);
  });

  it("keeps a pin only while the rest can add up under the ceiling", () => {
    // 0.4% pinned at 0 would leave 100 for a part that may not pass 99
    expect(wholePercentages([0.4, 99.6], [0, null])).toEqual([1, 99]);
  });

  it("shows a part pinned elsewhere the same, the rest still adding up to 100", () => {
    // cash is 12.6% in two panels: 13% by largest remainder in one, 12% in the other unpinned
    const assetClass = [12.6, 50.2, 37.2];
    const region = [12.6, 43.7, 43.7];
    expect(wholePercentages(assetClass)).toEqual([13, 50, 37]);
    expect(wholePercentages(region)).toEqual([12, 44, 44]);
    expect(wholePercentages(region, [13, null, null])).toEqual([13, 44, 43]);
  });

  it("holds for any parts and any feasible pin", () => {
    fc.assert(
      fc.property(amounts, fc.boolean(), (pence, up) => {
        const total = sum(pence);
        fc.pre(total > 0);
        const plain = wholePercentages(pence);
        expect(sum(plain)).toBe(100);
        if (pence.filter((p) => p > 0).length > 1) expect(Math.max(...plain)).toBeLessThanOrEqual(99);
        // the first part pinned at its floor or its ceiling, as another panel may have it
        const exact = (pence[0]! / total) * 100;
        const pin = up ? Math.ceil(exact) : Math.floor(exact);
        const pins = [pin, ...pence.slice(1).map(() => null)];
        const pinned = wholePercentages(pence, pins);
        expect(sum(pinned)).toBe(100);
        // kept, unless no apportionment under the ceiling can keep it
        if (pinned[0] !== pin) {
          const shares = pence.map((p) => (p / total) * 100);
          expect(apportion(shares, 100, { pinned: pins, ceiling: 99 })).toBeNull();
        }
      }),
    );
  });
});
