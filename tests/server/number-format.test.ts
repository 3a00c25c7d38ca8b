// Decision 145: the platform's number formatters are made once per locale and options and kept
// (a bounded cache), and format exactly as a formatter made for the call.
import { describe, expect, it } from "vitest";
import { keptFormats, MAX_KEPT, numberFormat } from "../../server/lib/number-format";

describe("numberFormat", () => {
  it("gives the same formatter for the same locale and options, another for others", () => {
    const money = numberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 });
    expect(numberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 })).toBe(money);
    expect(numberFormat("en-GB", { style: "currency", currency: "USD", minimumFractionDigits: 2 })).not.toBe(money);
    expect(numberFormat("fr-CA", { style: "currency", currency: "GBP", minimumFractionDigits: 2 })).not.toBe(money);
    expect(numberFormat("en-GB")).toBe(numberFormat("en-GB"));
    expect(numberFormat("en-GB")).not.toBe(money);
  });

  it("formats as a formatter made for the call does", () => {
    const cases: Array<[string, Intl.NumberFormatOptions, number]> = [
      ["en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2, maximumFractionDigits: 2 }, 1234.5],
      ["en-GB", { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol" }, 167.59],
      ["en-GB", { minimumFractionDigits: 0, maximumFractionDigits: 4 }, 25_303.451_234],
      ["fr-CA", { style: "currency", currency: "CAD" }, -1234.5],
    ];
    for (const [locale, options, value] of cases) {
      expect(numberFormat(locale, options).format(value)).toBe(new Intl.NumberFormat(locale, options).format(value));
    }
  });

  it("throws for options Intl refuses, as the constructor does, and keeps nothing", () => {
    const before = keptFormats();
    expect(() => numberFormat("en-GB", { style: "currency", currency: "NOT A CURRENCY" })).toThrow(RangeError);
    expect(keptFormats()).toBe(before);
  });

  it(`keeps at most ${MAX_KEPT}, the least recently used going first`, () => {
    const first = numberFormat("en-GB", { minimumFractionDigits: 0, maximumFractionDigits: 1 });
    // 21 × 21 × 2 different options
    for (let i = 0; i < MAX_KEPT + 20; i++) {
      numberFormat("en-GB", {
        minimumIntegerDigits: 1 + (i % 21),
        maximumFractionDigits: Math.floor(i / 21) % 21,
        useGrouping: i < 441,
      });
    }
    expect(keptFormats()).toBe(MAX_KEPT);
    expect(numberFormat("en-GB", { minimumFractionDigits: 0, maximumFractionDigits: 1 })).not.toBe(first);
  });
});
