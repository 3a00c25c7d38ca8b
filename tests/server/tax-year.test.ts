import { describe, expect, it } from "vitest";
import { lastMonths, sumByMonth, taxYearBounds, taxYearOf, taxYearsBetween } from "../../server/domain/tax-year";

// Issue 41 (docs/decisions/199-income-received.md): the tax year is the site's jurisdiction's; each
// boundary day falls on its side, and income is bucketed by calendar month with empty months as 0.

describe("tax years by jurisdiction", () => {
  it("UK: 5 April is the last day of a tax year, 6 April the first of the next", () => {
    expect(taxYearOf("2025-04-05", "GB")).toBe(2024);
    expect(taxYearOf("2025-04-06", "GB")).toBe(2025);
    expect(taxYearOf("2025-01-01", "GB")).toBe(2024);
    expect(taxYearOf("2024-12-31", "GB")).toBe(2024);
    expect(taxYearBounds(2024, "GB")).toEqual({ start: "2024-04-06", end: "2025-04-05" });
  });

  it("Australia: 30 June ends the financial year, 1 July starts the next", () => {
    expect(taxYearOf("2025-06-30", "AU")).toBe(2024);
    expect(taxYearOf("2025-07-01", "AU")).toBe(2025);
    expect(taxYearBounds(2024, "AU")).toEqual({ start: "2024-07-01", end: "2025-06-30" });
  });

  it("Canada: the calendar year, 31 December and 1 January in different years", () => {
    expect(taxYearOf("2024-12-31", "CA")).toBe(2024);
    expect(taxYearOf("2025-01-01", "CA")).toBe(2025);
    expect(taxYearBounds(2024, "CA")).toEqual({ start: "2024-01-01", end: "2024-12-31" });
  });

  it("a leap year's 29 February is inside its tax year, and a year's bounds are a year less a day", () => {
    expect(taxYearOf("2024-02-29", "GB")).toBe(2023);
    expect(taxYearOf("2024-02-29", "AU")).toBe(2023);
    expect(taxYearBounds(2023, "GB")).toEqual({ start: "2023-04-06", end: "2024-04-05" });
    expect(taxYearBounds(2027, "CA").end).toBe("2027-12-31");
  });

  it("lists the tax years from the first date's to today's, newest first", () => {
    expect(taxYearsBetween("2022-04-05", "2025-04-06", "GB")).toEqual([2025, 2024, 2023, 2022, 2021]);
    expect(taxYearsBetween("2025-03-01", "2025-03-14", "GB")).toEqual([2024]);
    expect(taxYearsBetween("2023-07-01", "2025-06-30", "AU")).toEqual([2024, 2023]);
    // a first date after today: today's year alone
    expect(taxYearsBetween("2026-01-01", "2025-03-14", "CA")).toEqual([2025]);
  });
});

describe("months of income", () => {
  it("lists the last 24 calendar months ending with today's, oldest first, across a year's end", () => {
    const months = lastMonths("2025-03-14", 24);
    expect(months).toHaveLength(24);
    expect(months[0]).toEqual({ month: "2023-04", start: "2023-04-01", end: "2023-04-30" });
    expect(months[21]).toEqual({ month: "2025-01", start: "2025-01-01", end: "2025-01-31" });
    expect(months[22]).toEqual({ month: "2025-02", start: "2025-02-01", end: "2025-02-28" });
    expect(months[23]).toEqual({ month: "2025-03", start: "2025-03-01", end: "2025-03-31" });
    expect(lastMonths("2024-02-29", 1)).toEqual([{ month: "2024-02", start: "2024-02-01", end: "2024-02-29" }]);
    expect(lastMonths("2025-01-31", 2).map((m) => m.month)).toEqual(["2024-12", "2025-01"]);
  });

  it("sums amounts into their months, a month with nothing as 0, and leaves out what is outside", () => {
    const months = lastMonths("2025-03-14", 4);
    const sums = sumByMonth(months, [
      { date: "2024-12-01", minor: 150 },
      { date: "2024-12-31", minor: 1 },
      { date: "2025-03-14", minor: 250 },
      { date: "2024-11-30", minor: 999 },
      { date: "2025-04-01", minor: 999 },
    ]);
    expect([...sums]).toEqual([
      ["2024-12", 151],
      ["2025-01", 0],
      ["2025-02", 0],
      ["2025-03", 250],
    ]);
  });
});
