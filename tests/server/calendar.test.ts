import { describe, expect, it } from "vitest";
import {
  calendarDaysBetween,
  endOfPreviousYear,
  isIsoDate,
  isWeekendDate,
  longDate,
  parseIsoDate,
  shiftInstant,
  shiftDays,
  shiftMonths,
  shiftYears,
  toIsoDate,
} from "../../server/domain/calendar";

describe("ISO calendar dates", () => {
  it("reads only strict YYYY-MM-DD dates that name a real day", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("0099-03-01")).toBe(true);
    for (const text of [
      "2023-02-29",
      "2023-02-30",
      "2023-13-01",
      "2023-1-01",
      "2023-01-01T00:00:00Z",
      "2023-W01",
      "",
    ]) {
      expect(isIsoDate(text), text).toBe(false);
    }
    expect(parseIsoDate("2023-02-30")).toBeNull();
  });

  it("writes a date back as the same calendar day, years below 100 included", () => {
    for (const iso of ["0001-01-01", "0099-12-31", "1970-01-01", "2024-02-29", "9999-12-31"]) {
      expect(toIsoDate(parseIsoDate(iso) as Date)).toBe(iso);
    }
  });

  it("shifts by days across months, years and the clocks changing", () => {
    expect(shiftDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(shiftDays("2023-12-31", 1)).toBe("2024-01-01");
    expect(shiftDays("2024-03-31", 1)).toBe("2024-04-01");
    expect(shiftDays("2024-10-27", -1)).toBe("2024-10-26");
    expect(shiftDays("2024-01-01", -366)).toBe("2022-12-31");
  });

  it("shifts by months and years to the month's last day when the day is missing", () => {
    expect(shiftMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(shiftMonths("2023-01-31", 1)).toBe("2023-02-28");
    expect(shiftMonths("2023-03-31", -1)).toBe("2023-02-28");
    expect(shiftMonths("2023-11-15", 3)).toBe("2024-02-15");
    expect(shiftYears("2024-02-29", -1)).toBe("2023-02-28");
    expect(shiftYears("2024-02-29", 4)).toBe("2028-02-29");
    expect(shiftYears("2020-06-30", -5)).toBe("2015-06-30");
  });

  it("finds the end of the previous year and counts whole calendar days", () => {
    expect(endOfPreviousYear("2024-06-15")).toBe("2023-12-31");
    expect(endOfPreviousYear("2024-01-01")).toBe("2023-12-31");
    expect(calendarDaysBetween("2024-01-01", "2025-01-01")).toBe(366);
    expect(calendarDaysBetween("2024-03-30", "2024-04-01")).toBe(2);
    expect(calendarDaysBetween("2024-04-01", "2024-03-30")).toBe(-2);
  });

  it("knows weekends and refuses what is not a date", () => {
    expect(isWeekendDate("2024-06-15")).toBe(true);
    expect(isWeekendDate("2024-06-16")).toBe(true);
    expect(isWeekendDate("2024-06-17")).toBe(false);
    expect(() => shiftDays("2023-02-30", 1)).toThrow(RangeError);
    expect(() => calendarDaysBetween("2023-01-01", "soon")).toThrow(RangeError);
  });
});

describe("the long date the PDFs and the demo documents print", () => {
  it("names the UTC calendar day of a date, a date-time or a Date", () => {
    expect(longDate("2025-03-05")).toBe("5 March 2025");
    expect(longDate("2024-12-31T23:30:00Z")).toBe("31 December 2024");
    expect(longDate(new Date(Date.UTC(2024, 0, 1)))).toBe("1 January 2024");
  });
});

describe("the demo data's instants ('3 days and 5 hours ago')", () => {
  it("counts days of 24 hours in UTC, in every time zone and across a change of the clocks", () => {
    const before = process.env.TZ;
    try {
      for (const timeZone of ["UTC", "Europe/London", "America/Toronto"]) {
        process.env.TZ = timeZone;
        const now = new Date("2026-03-30T00:30:00.000Z");
        expect(shiftInstant(now, -3, -5).toISOString(), timeZone).toBe("2026-03-26T19:30:00.000Z");
        expect(shiftInstant(now, -400).toISOString(), timeZone).toBe("2025-02-23T00:30:00.000Z");
        expect(shiftInstant(now, 14).toISOString(), timeZone).toBe("2026-04-13T00:30:00.000Z");
        expect(shiftInstant(now, 0).getTime(), timeZone).toBe(now.getTime());
      }
    } finally {
      process.env.TZ = before;
    }
  });
});
