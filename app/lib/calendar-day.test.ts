import { describe, expect, it } from "vitest";
import { calendarDayIso } from "./calendar-day";

describe("calendarDayIso (spec 000 §5, spec 001 §5: the typed date must exist)", () => {
  it("writes a day that exists as YYYY-MM-DD, for years 1 to 9999", () => {
    expect(calendarDayIso(2024, 2, 29)).toBe("2024-02-29");
    expect(calendarDayIso(2000, 2, 29)).toBe("2000-02-29");
    expect(calendarDayIso(2025, 12, 31)).toBe("2025-12-31");
    expect(calendarDayIso(1, 1, 1)).toBe("0001-01-01");
    expect(calendarDayIso(99, 3, 5)).toBe("0099-03-05");
    expect(calendarDayIso(9999, 12, 31)).toBe("9999-12-31");
  });

  it("refuses days that do not exist and years out of range", () => {
    for (const [year, month, day] of [
      [2025, 2, 29],
      [1900, 2, 29],
      [2025, 4, 31],
      [2025, 13, 1],
      [2025, 0, 1],
      [2025, 1, 0],
      [2025, 1, 32],
      [0, 1, 1],
      [10000, 1, 1],
      [2025, 1.5, 1],
      [Number.NaN, 1, 1],
    ] as const) {
      expect(calendarDayIso(year, month, day), `${year}-${month}-${day}`).toBeNull();
    }
  });
});
