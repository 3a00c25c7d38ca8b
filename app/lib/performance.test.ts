import { describe, expect, it } from "vitest";
import {
  chartShown,
  figure,
  type PeriodFigures,
  type PortfolioSettings,
  portfolioSettings,
  type SettingValue,
  startsBeforeOpening,
} from "./performance";
import { isOverAYear } from "./calendar.server";
import { measuredPeriod, performanceOf } from "./performance.server";

const SETTINGS: PortfolioSettings = {
  profitAnalysisType: "twrr",
  grouping: "split",
  useHistoricData: false,
  holdBack: false,
  feesAndTaxes: 1,
  defaultTimeframe: "1Y",
  secondaryTimeframe: "SI",
};

describe("portfolioSettings (spec 001 §5, §9 defaults)", () => {
  it("answers the defaults when nothing is configured", () => {
    expect(portfolioSettings({})).toEqual(SETTINGS);
  });

  it("accepts the profit analysis type only as twrr, irr or none, otherwise twrr", () => {
    const type = (v: SettingValue) => portfolioSettings({ profitAnalysisType: v }).profitAnalysisType;
    expect(type("twrr")).toBe("twrr");
    expect(type("irr")).toBe("irr");
    expect(type("none")).toBe("none");
    for (const other of ["mwrr", "", "twr", null, 3, true]) expect(type(other), String(other)).toBe("twrr");
  });

  it("maps the grouping: consolidated, account group, anything else split", () => {
    const grouping = (v: SettingValue) => portfolioSettings({ portfolioGrouping: v }).grouping;
    expect(grouping("consolidated")).toBe("consolidated");
    expect(grouping("Consolidated")).toBe("consolidated");
    expect(grouping("accountgroup")).toBe("accountgroup");
    expect(grouping("AccountGroup")).toBe("accountgroup");
    expect(grouping("account group")).toBe("accountgroup");
    for (const other of ["split", "Split", "", "mine", "portfolio", null])
      expect(grouping(other), String(other)).toBe("split");
  });

  it("reads fees and taxes as 0 (before) only when set to 0, else 1 (after)", () => {
    const fees = (v: SettingValue) => portfolioSettings({ feesAndTaxes: v }).feesAndTaxes;
    expect(fees(0)).toBe(0);
    expect(fees("0")).toBe(0);
    for (const other of [1, "1", null, "", "no", false]) expect(fees(other), String(other)).toBe(1);
  });

  it("takes timeframe codes it knows, else falls back to 1 year and since inception", () => {
    const known = portfolioSettings({
      defaultTimeFrame: "YTD",
      secondaryTimeFrame: "3Y",
    });
    expect([known.defaultTimeframe, known.secondaryTimeframe]).toEqual(["YTD", "3Y"]);
    for (const code of ["2Y", "5Y", "SI", "1Y"])
      expect(portfolioSettings({ defaultTimeFrame: code }).defaultTimeframe).toBe(code);
    const unknown = portfolioSettings({
      defaultTimeFrame: "10Y",
      secondaryTimeFrame: "si",
    });
    expect([unknown.defaultTimeframe, unknown.secondaryTimeframe]).toEqual(["1Y", "SI"]);
    const wrongType = portfolioSettings({
      defaultTimeFrame: 1,
      secondaryTimeFrame: true,
    });
    expect([wrongType.defaultTimeframe, wrongType.secondaryTimeframe]).toEqual(["1Y", "SI"]);
  });

  it("reads the historic-data and hold-back flags as true only for true, 'true' or 1", () => {
    for (const on of [true, "true", 1]) {
      const s = portfolioSettings({
        useHistoricData: on,
        enableHoldBackPeriod: on,
      });
      expect([s.useHistoricData, s.holdBack], String(on)).toEqual([true, true]);
    }
    for (const off of [false, "false", 0, "yes", null]) {
      const s = portfolioSettings({
        useHistoricData: off,
        enableHoldBackPeriod: off,
      });
      expect([s.useHistoricData, s.holdBack], String(off)).toEqual([false, false]);
    }
  });
});

describe("chartShown (spec 001 §2.4)", () => {
  it("hides the chart for the type none, and for twrr with historic data", () => {
    expect(chartShown({ ...SETTINGS, profitAnalysisType: "none" })).toBe(false);
    expect(
      chartShown({
        ...SETTINGS,
        profitAnalysisType: "none",
        useHistoricData: true,
      }),
    ).toBe(false);
    expect(
      chartShown({
        ...SETTINGS,
        profitAnalysisType: "twrr",
        useHistoricData: true,
      }),
    ).toBe(false);
  });

  it("shows it for twrr without historic data and for irr", () => {
    expect(
      chartShown({
        ...SETTINGS,
        profitAnalysisType: "twrr",
        useHistoricData: false,
      }),
    ).toBe(true);
    expect(
      chartShown({
        ...SETTINGS,
        profitAnalysisType: "irr",
        useHistoricData: false,
      }),
    ).toBe(true);
    expect(
      chartShown({
        ...SETTINGS,
        profitAnalysisType: "irr",
        useHistoricData: true,
      }),
    ).toBe(true);
  });
});

function figures(fields: Partial<PeriodFigures> = {}): PeriodFigures {
  return {
    // two years: over a year when the platform says so
    start_date: "2023-01-10",
    end_date: "2025-01-10",
    since: "2023-01-10",
    twrr: 0.1111,
    twrr_period: 0.1095,
    irr: 0.2222,
    irr_period: 0.2034,
    over_a_year: false,
    ...fields,
  };
}
// Intl separates French groups and the percent sign with (narrow) no-break spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("performanceOf (spec 001 §2.1)", () => {
  it("shows the period's time-weighted figure for twrr, with a sign and 2 decimals", () => {
    expect(performanceOf(figures(), "twrr", "en-GB")).toEqual({
      period: { text: "+10.95%", negative: false },
      annual: null,
      since: null,
    });
  });

  it("shows the money-weighted figures for irr", () => {
    expect(performanceOf(figures(), "irr", "en-GB")).toEqual({
      period: { text: "+20.34%", negative: false },
      annual: null,
      since: null,
    });
    expect(performanceOf(figures({ over_a_year: true }), "irr", "en-GB")).toEqual({
      period: { text: "+20.34%", negative: false },
      annual: { text: "+22.22%", negative: false },
      since: null,
    });
  });

  it("adds the yearly figure only when the period is over a year", () => {
    expect(performanceOf(figures({ over_a_year: true, twrr_period: 0.2458, twrr: 0.0808 }), "twrr", "en-GB")).toEqual({
      period: { text: "+24.58%", negative: false },
      annual: { text: "+8.08%", negative: false },
      since: null,
    });
    expect(performanceOf(figures({ over_a_year: true, twrr: null }), "twrr", "en-GB")!.annual).toBeNull();
  });

  it("is null for the type none and when the platform has no figure", () => {
    expect(performanceOf(figures(), "none", "en-GB")).toBeNull();
    expect(performanceOf(figures({ twrr_period: null }), "twrr", "en-GB")).toBeNull();
    expect(performanceOf(figures({ irr_period: null }), "irr", "en-GB")).toBeNull();
    // the other measure's missing figure does not matter
    expect(performanceOf(figures({ irr_period: null, irr: null }), "twrr", "en-GB")).not.toBeNull();
  });

  it("marks losses negative and shows zero unsigned", () => {
    expect(performanceOf(figures({ twrr_period: -0.032, twrr: -0.0151, over_a_year: true }), "twrr", "en-GB")).toEqual({
      period: { text: "-3.20%", negative: true },
      annual: { text: "-1.51%", negative: true },
      since: null,
    });
    expect(performanceOf(figures({ twrr_period: 0 }), "twrr", "en-GB")!.period).toEqual({
      text: "0.00%",
      negative: false,
    });
  });

  it("formats for the locale", () => {
    expect(plain(performanceOf(figures({ twrr_period: 0.12345 }), "twrr", "fr-CA")!.period.text)).toBe("+12,35 %");
  });
});

describe("isOverAYear (decision 070)", () => {
  it("is over a year only after the start's anniversary", () => {
    expect(isOverAYear("2024-03-12", "2025-03-11")).toBe(false);
    expect(isOverAYear("2024-03-12", "2025-03-12")).toBe(false);
    expect(isOverAYear("2024-03-12", "2025-03-13")).toBe(true);
  });

  it("counts a leap calendar year (366 days) as one year, and 29 February's anniversary as 28 February", () => {
    expect(isOverAYear("2023-12-31", "2024-12-31")).toBe(false);
    expect(isOverAYear("2024-02-29", "2025-02-28")).toBe(false);
    expect(isOverAYear("2024-02-29", "2025-03-01")).toBe(true);
  });
});

describe("measuredPeriod: what a return covers (decision 109, GIPS)", () => {
  const range = (start: string, end: string, since: string | null, overAYear: boolean) =>
    measuredPeriod({ start_date: start, end_date: end, since, over_a_year: overAYear });

  it("less than a year: no yearly figure, no label", () => {
    expect(range("2025-06-01", "2025-11-26", "2025-06-01", false)).toEqual({ since: null, yearly: false });
  });

  it("exactly a year: not annualised, even if a platform said it was over a year", () => {
    expect(range("2024-11-26", "2025-11-26", "2024-11-26", false)).toEqual({ since: null, yearly: false });
    expect(range("2024-11-26", "2025-11-26", "2024-11-26", true)).toEqual({ since: null, yearly: false });
  });

  it("over a year, the selection funded from the range's start: the yearly figure, no label", () => {
    expect(range("2022-11-26", "2025-11-26", "2022-11-26", true)).toEqual({ since: null, yearly: true });
  });

  it("a selection younger than the range: labelled since its start, yearly over that shorter period", () => {
    // the case: a 3-year range, an account opened 20 months ago (annualised over 1.67 years)
    expect(range("2022-11-26", "2025-11-26", "2024-03-26", true)).toEqual({ since: "2024-03-26", yearly: true });
    // opened eight months ago in a 3-year range: labelled, and never annualised
    expect(range("2022-11-26", "2025-11-26", "2025-03-12", false)).toEqual({ since: "2025-03-12", yearly: false });
    // a platform that said over a year from the range's start is overruled by the measured start
    expect(range("2022-11-26", "2025-11-26", "2025-03-12", true)).toEqual({ since: "2025-03-12", yearly: false });
    // funded exactly a year before the end
    expect(range("2022-11-26", "2025-11-26", "2024-11-26", true)).toEqual({ since: "2024-11-26", yearly: false });
  });

  it("a selection that began on the range's start is not labelled", () => {
    expect(range("2024-03-12", "2025-11-26", "2024-03-12", true)).toEqual({ since: null, yearly: true });
  });

  it("without a measured start (an older platform, or nothing to measure) trusts the range and the platform's flag", () => {
    expect(measuredPeriod({ start_date: "2022-11-26", end_date: "2025-11-26", over_a_year: true })).toEqual({
      since: null,
      yearly: true,
    });
    expect(range("2022-11-26", "2025-11-26", null, false)).toEqual({ since: null, yearly: false });
  });

  it("performanceOf labels the figure with the long date and drops a yearly figure under a year", () => {
    const young = figures({
      start_date: "2022-11-26",
      end_date: "2025-11-26",
      since: "2025-03-12",
      over_a_year: false,
      twrr: 0.05,
      twrr_period: 0.05,
    });
    expect(performanceOf(young, "twrr", "en-GB")).toEqual({
      period: { text: "+5.00%", negative: false },
      annual: null,
      since: "12th March 2025",
    });
    const older = figures({
      start_date: "2022-11-26",
      end_date: "2025-11-26",
      since: "2024-03-26",
      over_a_year: true,
      twrr_period: 0.1513,
      twrr: 0.0881,
    });
    expect(performanceOf(older, "twrr", "en-GB")).toEqual({
      period: { text: "+15.13%", negative: false },
      annual: { text: "+8.81%", negative: false },
      since: "26th March 2024",
    });
    expect(performanceOf(young, "twrr", "fr-CA")!.since).toBe("12 mars 2025");
  });
});

describe("figure", () => {
  it("is negative only below zero", () => {
    expect(figure("-£1", -0.01)).toEqual({ text: "-£1", negative: true });
    expect(figure("£0", 0)).toEqual({ text: "£0", negative: false });
    expect(figure("£5", 5)).toEqual({ text: "£5", negative: false });
  });
});

describe("startsBeforeOpening (spec 001 §2.4)", () => {
  it("is true only when the range starts before the accounts' opening date", () => {
    expect(startsBeforeOpening({ start_date: "2024-03-14", inception_date: "2024-03-15" })).toBe(true);
    // the same day, a later opening date or none at all is not 'earlier'
    expect(startsBeforeOpening({ start_date: "2024-03-14", inception_date: "2024-03-14" })).toBe(false);
    expect(startsBeforeOpening({ start_date: "2024-03-14", inception_date: "2022-05-16" })).toBe(false);
    expect(startsBeforeOpening({ start_date: "2024-03-14", inception_date: null })).toBe(false);
  });
});
