import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMoney } from "./format";
import { fromMinor, roundHalfAwayFromZero, roundMoney, shareOfAmount, sumAmounts, sumMoney, toMinor } from "./money";

// Decision 106: the portal adds amounts as sent in whole minor units, never as floating-point sums.
// Property tests (fast-check) and the cases that floating-point sums get wrong.

const minor = fc.integer({ min: -(10 ** 13), max: 10 ** 13 });
/** An amount as the platform sends it: two decimals, read as a double. */
const sent = minor.map(fromMinor);

describe("adding up money", () => {
  it("reads an amount as sent back to its exact minor units", () => {
    fc.assert(
      fc.property(minor, (m) => {
        expect(toMinor(fromMinor(m))).toBe(m);
      }),
    );
    expect([toMinor(0.1), toMinor(-0.07), toMinor(429_408.27), toMinor(0)]).toEqual([10, -7, 42_940_827, 0]);
  });

  it("adds rows into a total that is their exact sum, in any order", () => {
    fc.assert(
      fc.property(fc.array(minor, { maxLength: 50 }), (rows) => {
        const exact = rows.reduce((s, m) => s + m, 0);
        const amounts = rows.map(fromMinor);
        expect(toMinor(sumAmounts(amounts))).toBe(exact);
        expect(sumAmounts([...amounts].reverse())).toBe(sumAmounts(amounts));
      }),
    );
    // where floating-point sums go wrong
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
    expect(sumAmounts([274_422.0, 154_986.26])).toBe(429_408.26);
    expect(sumAmounts([])).toBe(0);
  });

  it("shows a total that equals the sum of its rows as shown", () => {
    fc.assert(
      fc.property(fc.array(sent, { minLength: 1, maxLength: 20 }), (rows) => {
        const shownRows = rows.map((r) => formatMoney(r, "GBP", "en-GB"));
        const readBack = shownRows.map((text) => Number(text.replace(/[£,]/g, "")));
        expect(formatMoney(sumAmounts(readBack), "GBP", "en-GB")).toBe(formatMoney(sumAmounts(rows), "GBP", "en-GB"));
      }),
    );
  });

  it("adds money only in one currency", () => {
    expect(
      sumMoney([
        { amount: 0.1, currency: "GBP" },
        { amount: 0.2, currency: "GBP" },
      ]),
    ).toEqual({ amount: 0.3, currency: "GBP" });
    expect(
      sumMoney([
        { amount: 1, currency: "GBP" },
        { amount: 1, currency: "USD" },
      ]),
    ).toBeNull();
    expect(sumMoney([])).toBeNull();
  });

  it("rounds anything finer than a minor unit once, half away from zero, as the decimal reads", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        (whole, cents, third, negative) => {
          const text = `${negative ? "-" : ""}${whole}.${String(cents).padStart(2, "0")}${third}`;
          const magnitude = whole * 100 + cents + (third >= 5 ? 1 : 0);
          expect(toMinor(Number(text)), text).toBe(negative && magnitude !== 0 ? -magnitude : magnitude);
        },
      ),
    );
    // 1.005 is stored just below 1.005 in binary; it still reads, and rounds, as 1.005
    expect([roundMoney(1.005), roundMoney(-1.005), roundMoney(2.675), roundMoney(0.004), roundMoney(-0.005)]).toEqual([
      1.01, -1.01, 2.68, 0, -0.01,
    ]);
    expect([roundHalfAwayFromZero(2.5), roundHalfAwayFromZero(-2.5), roundHalfAwayFromZero(-0.4)]).toEqual([3, -3, 0]);
    expect(Object.is(roundHalfAwayFromZero(-0.4), 0)).toBe(true);
  });

  it("takes a share of an amount rounded once; all of it is the amount itself", () => {
    fc.assert(
      fc.property(sent, (a) => {
        expect(shareOfAmount(a, 100)).toBe(a);
      }),
    );
    expect(shareOfAmount(100.01, 50)).toBe(50.01); // 5000.5 pence, half away from zero
    expect(shareOfAmount(-100.01, 50)).toBe(-50.01);
    expect(shareOfAmount(1_000, 33.33)).toBe(333.3);
  });
});
