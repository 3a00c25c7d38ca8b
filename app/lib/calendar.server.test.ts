import { afterEach, describe, expect, it } from "vitest";
import { isOverAYear, parseIsoDate, shiftDays, shiftYears } from "./calendar.server";

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

describe("the portal's calendar arithmetic (decision 149)", () => {
  it("reads only strict YYYY-MM-DD dates that name a real day", () => {
    expect(parseIsoDate("2024-02-29")).not.toBeNull();
    for (const text of ["2023-02-29", "2024-13-01", "2024-1-01", "01/02/2024", "2024-02-29T10:00:00Z", ""]) {
      expect(parseIsoDate(text), text).toBeNull();
    }
    expect(() => shiftDays("2023-02-30", 1)).toThrow(RangeError);
  });

  it("shifts by calendar days and years in every time zone", () => {
    for (const timeZone of ["UTC", "Europe/London", "Pacific/Auckland"]) {
      process.env.TZ = timeZone;
      expect(shiftDays("2026-03-29", 1), timeZone).toBe("2026-03-30");
      expect(shiftDays("2026-03-01", -1), timeZone).toBe("2026-02-28");
      expect(shiftYears("2024-02-29", -1), timeZone).toBe("2023-02-28");
      expect(shiftYears("2026-11-25", -3), timeZone).toBe("2023-11-25");
    }
  });

  it("is over a year only after the start's anniversary (29 February's is 28 February)", () => {
    expect(isOverAYear("2024-01-01", "2025-01-01")).toBe(false);
    expect(isOverAYear("2024-01-01", "2025-01-02")).toBe(true);
    expect(isOverAYear("2024-02-29", "2025-02-28")).toBe(false);
    expect(isOverAYear("2024-02-29", "2025-03-01")).toBe(true);
    expect(isOverAYear("soon", "2025-03-01")).toBe(false);
  });
});
