import { describe, expect, it } from "vitest";
import {
  checkCustomRange,
  disabledDateRanges,
  formatDisplayDate,
  parseDisplayDate,
  readDateRangeName,
} from "./date-range";

describe("disabledDateRanges (spec 001 §4)", () => {
  it("reads a comma list of names or codes, in any case and spacing", () => {
    expect([...disabledDateRanges("2 years, Year to date,custom")]).toEqual(["2Y", "YTD", "custom"]);
    expect([...disabledDateRanges("3Y,si , SINCE   INCEPTION")]).toEqual(["3Y", "SI"]);
  });

  it("never disables 1 year, and ignores what it does not know", () => {
    expect([...disabledDateRanges("1 year,1Y,5 years,,")]).toEqual([]);
    expect([...disabledDateRanges(null)]).toEqual([]);
    expect([...disabledDateRanges(3)]).toEqual([]);
  });
});

describe("readDateRangeName", () => {
  it("takes a known code, else the default, and a disabled one falls back too", () => {
    expect(readDateRangeName("SI")).toBe("SI");
    expect(readDateRangeName("custom")).toBe("custom");
    expect(readDateRangeName("5Y")).toBe("1Y");
    expect(readDateRangeName(null)).toBe("1Y");
    expect(readDateRangeName("YTD", new Set(["YTD"]))).toBe("1Y");
  });
});

describe("parseDisplayDate (spec 001 §5)", () => {
  it("reads DD-MM-YYYY, with / or . too and one-digit days and months", () => {
    expect(parseDisplayDate("01-03-2025")).toBe("2025-03-01");
    expect(parseDisplayDate(" 1/3/2025 ")).toBe("2025-03-01");
    expect(parseDisplayDate("29.02.2024")).toBe("2024-02-29");
    expect(parseDisplayDate("1-3-1")).toBe("0001-03-01");
  });

  it("refuses dates that do not exist, other orders and years over 4 digits", () => {
    for (const text of [
      "29-02-2025",
      "31-04-2025",
      "00-01-2025",
      "01-13-2025",
      "2025-03-01",
      "01-03-20255",
      "1 March 2025",
      "",
      "01-03-",
      "01-03-0000",
    ]) {
      expect(parseDisplayDate(text), text).toBeNull();
    }
  });

  it("formats back for the inputs", () => {
    expect(formatDisplayDate("2025-03-01")).toBe("01-03-2025");
  });
});

describe("checkCustomRange (spec 001 §5)", () => {
  it("answers the range of two valid dates in order, a single day included", () => {
    expect(checkCustomRange("01-01-2025", "31-03-2025")).toEqual({ ok: true, start: "2025-01-01", end: "2025-03-31" });
    expect(checkCustomRange("01-01-2025", "01-01-2025")).toEqual({ ok: true, start: "2025-01-01", end: "2025-01-01" });
  });

  it("says which date is missing or badly written", () => {
    expect(checkCustomRange("", " ")).toEqual({ ok: false, errors: { from: "required", to: "required" } });
    expect(checkCustomRange("32-01-2025", "")).toEqual({
      ok: false,
      errors: { from: "invalidFormat", to: "required" },
    });
    expect(checkCustomRange("01-01-2025", "2025-02-01")).toEqual({ ok: false, errors: { to: "invalidFormat" } });
  });

  it("puts a start after the end on the To date", () => {
    expect(checkCustomRange("02-01-2025", "01-01-2025")).toEqual({ ok: false, errors: { to: "startAfterEnd" } });
  });

  it("refuses a start before the since-inception date, the start's minimum, and takes that date itself", () => {
    expect(checkCustomRange("01-01-2020", "01-06-2025", "2023-03-15")).toEqual({
      ok: false,
      errors: { from: "beforeInception" },
    });
    expect(checkCustomRange("14-03-2023", "01-06-2025", "2023-03-15").ok).toBe(false);
    expect(checkCustomRange("15-03-2023", "01-06-2025", "2023-03-15")).toEqual({
      ok: true,
      start: "2023-03-15",
      end: "2025-06-01",
    });
    // both problems at once: each date says its own
    expect(checkCustomRange("01-01-2020", "01-01-2019", "2023-03-15")).toEqual({
      ok: false,
      errors: { from: "beforeInception", to: "startAfterEnd" },
    });
    // no inception known: no minimum
    expect(checkCustomRange("01-01-2020", "01-06-2025", null).ok).toBe(true);
  });
});
