import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMoney } from "./format";
import { formatLastLogin } from "./format-date.server";
import { dateTimeFormat, keptIn, numberFormat } from "./format";
import { formatPercentLabel } from "./percent";
import { performanceOf } from "./performance.server";

// Intl separates some symbols from the number with a no-break space: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("one Intl formatter per locale and options (decision 124)", () => {
  it("gives the same formatter for the same locale and options, another for others", () => {
    const percent = numberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });
    expect(numberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 })).toBe(percent);
    expect(numberFormat("fr-CA", { style: "percent", maximumFractionDigits: 1 })).not.toBe(percent);
    expect(numberFormat("en-GB", { style: "percent", maximumFractionDigits: 2 })).not.toBe(percent);
    expect(numberFormat("en-GB", { style: "percent", maximumFractionDigits: 2 }).format(0.12345)).toBe("12.35%");
    const zone = dateTimeFormat("en-US", { timeZone: "Europe/London" });
    expect(dateTimeFormat("en-US", { timeZone: "Europe/London" })).toBe(zone);
    expect(dateTimeFormat("en-US", { timeZone: "Australia/Sydney" })).not.toBe(zone);
  });

  it("keeps no formatter whose making throws, so an unknown currency still falls back", () => {
    expect(() => numberFormat("en-GB", { style: "currency", currency: "NOT-A-CODE" })).toThrow(RangeError);
    expect(() => numberFormat("en-GB", { style: "currency", currency: "NOT-A-CODE" })).toThrow(RangeError);
    expect(formatMoney(12, "XYZ1", "en-GB")).toBe("12.00 XYZ1");
    expect(formatMoney(12, "XYZ1", "en-GB")).toBe("12.00 XYZ1");
  });

  it("makes no new Intl.NumberFormat for a figure formatted again in the same locale and style", () => {
    // a combination no other test uses, so the first call below makes its formatters
    formatMoney(1, "CHF", "en-AU", { decimals: 3 });
    formatPercentLabel(7, true, "en-AU");
    performanceOf(
      {
        start_date: "2024-01-01",
        end_date: "2024-06-30",
        twrr: 0.1,
        twrr_period: 0.05,
        irr: null,
        irr_period: null,
        over_a_year: false,
      },
      "twrr",
      "en-AU",
    );
    const made = vi.spyOn(Intl, "NumberFormat");
    expect(plain(formatMoney(1234.5678, "CHF", "en-AU", { decimals: 3 }))).toBe("CHF 1,234.568");
    expect(plain(formatMoney(-2, "CHF", "en-AU", { decimals: 3 }))).toBe("-CHF 2.000");
    expect(formatPercentLabel(0, true, "en-AU")).toBe("<1%");
    expect(
      performanceOf(
        {
          start_date: "2024-01-01",
          end_date: "2024-06-30",
          twrr: 0.1,
          twrr_period: -0.05,
          irr: null,
          irr_period: null,
          over_a_year: false,
        },
        "twrr",
        "en-AU",
      )?.period.text,
    ).toBe("-5.00%");
    expect(made).not.toHaveBeenCalled();
  });

  it("makes no new Intl.DateTimeFormat for another last login in the same zone", () => {
    formatLastLogin("2024-05-01T09:05:00Z", "Europe/Paris", "en-GB");
    const made = vi.spyOn(Intl, "DateTimeFormat");
    expect(formatLastLogin("2024-06-01T09:05:00Z", "Europe/Paris", "en-GB")).toBe("1 Jun 2024 11:05 CEST");
    expect(made).not.toHaveBeenCalled();
  });

  it("keeps at most 500 of a kind, the oldest going first", () => {
    const kept = new Map<string, number>();
    let made = 0;
    for (let i = 0; i < 600; i++) keptIn(kept, `key ${i}`, () => ++made);
    expect(kept.size).toBe(500);
    expect(kept.has("key 99")).toBe(false);
    expect(keptIn(kept, "key 599", () => ++made)).toBe(600);
    expect(made).toBe(600);
  });
});
