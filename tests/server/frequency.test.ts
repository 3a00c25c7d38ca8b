import { describe, expect, it } from "vitest";
import { benchmarkFrequency, seriesFrequency } from "../../server/domain/frequency";

describe("seriesFrequency (spec 001 §4 'Chart display')", () => {
  it("is daily up to exactly 1 month and weekly from 1 month and 1 day", () => {
    expect(seriesFrequency("2024-01-15", "2024-01-15")).toBe("daily");
    expect(seriesFrequency("2024-01-15", "2024-02-15")).toBe("daily");
    expect(seriesFrequency("2024-01-15", "2024-02-16")).toBe("weekly");
  });

  it("counts calendar months: 31 January plus a month is the end of February", () => {
    expect(seriesFrequency("2024-01-31", "2024-02-29")).toBe("daily");
    expect(seriesFrequency("2024-01-31", "2024-03-01")).toBe("weekly");
    expect(seriesFrequency("2023-01-31", "2023-02-28")).toBe("daily");
    expect(seriesFrequency("2023-01-31", "2023-03-01")).toBe("weekly");
  });

  it("is weekly up to exactly 8 months and monthly after", () => {
    expect(seriesFrequency("2024-01-15", "2024-09-15")).toBe("weekly");
    expect(seriesFrequency("2024-01-15", "2024-09-16")).toBe("monthly");
  });

  it("is monthly up to exactly 2 years and quarterly after", () => {
    expect(seriesFrequency("2022-03-01", "2024-03-01")).toBe("monthly");
    expect(seriesFrequency("2022-03-01", "2024-03-02")).toBe("quarterly");
    // 29 February plus 2 years is 28 February.
    expect(seriesFrequency("2024-02-29", "2026-02-28")).toBe("monthly");
    expect(seriesFrequency("2024-02-29", "2026-03-01")).toBe("quarterly");
  });

  it("is quarterly up to exactly 10 years and yearly after", () => {
    expect(seriesFrequency("2014-06-30", "2024-06-30")).toBe("quarterly");
    expect(seriesFrequency("2014-06-30", "2024-07-01")).toBe("yearly");
    expect(seriesFrequency("1900-01-01", "2024-12-31")).toBe("yearly");
  });

  it("treats an end before the start as the shortest range", () => {
    expect(seriesFrequency("2024-05-01", "2020-01-01")).toBe("daily");
  });

  it("refuses what is not a calendar date", () => {
    expect(() => seriesFrequency("2023-02-29", "2024-01-01")).toThrow(RangeError);
    expect(() => seriesFrequency("2024-01-01", "01/02/2024")).toThrow(RangeError);
  });
});

describe("benchmarkFrequency (spec 001 §4 'Chart display')", () => {
  it("is monthly up to exactly 2 years, also for short ranges", () => {
    expect(benchmarkFrequency("2024-01-15", "2024-02-15")).toBe("monthly");
    expect(benchmarkFrequency("2022-03-01", "2024-03-01")).toBe("monthly");
    expect(benchmarkFrequency("2022-03-01", "2024-03-02")).toBe("quarterly");
  });

  it("is quarterly up to exactly 10 years and yearly after", () => {
    expect(benchmarkFrequency("2014-06-30", "2024-06-30")).toBe("quarterly");
    expect(benchmarkFrequency("2014-06-30", "2024-07-01")).toBe("yearly");
  });
});
