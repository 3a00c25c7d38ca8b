import { describe, expect, it } from "vitest";
import { analysisSettings } from "./settings";

describe("analysisSettings: defaults (spec 001 §9)", () => {
  const settings = analysisSettings({});

  it("takes the portfolio defaults", () => {
    expect(settings).toMatchObject({
      profitAnalysisType: "twrr",
      grouping: "split",
      useHistoricData: false,
      holdBack: false,
      feesAndTaxes: 1,
    });
  });

  it("starts on the percentage chart with every date range and every benchmark", () => {
    expect(settings.chartTab).toBe("percentage");
    expect([...settings.disabledRanges]).toEqual([]);
    expect(settings.benchmarks).toEqual([]);
  });

  it("publishes the investments, allocation and transactions sections", () => {
    expect([...settings.sections]).toEqual(["investments", "allocation", "transactions"]);
  });

  it("hides no fee, tax or value after them", () => {
    expect(settings.hide).toEqual({ fees: "Do Not Hide", taxes: "Do Not Hide", valueAfter: "Do Not Hide" });
  });

  it("shows the gain and income figures on every row", () => {
    expect(settings.investmentColumns).toEqual({
      gainValue: "all",
      gainPercent: "all",
      incomeValue: "all",
      yieldPercent: "all",
    });
  });

  it("enables every allocation type in the tab's order, by the detailed method", () => {
    expect(settings.allocationTypes).toEqual(["asset_class", "sector", "region"]);
    expect(settings.allocationMethod).toBe("detailed");
  });
});

describe("analysisSettings: reading the site's settings", () => {
  it("keeps the allocation types listed, in the tab's order, whatever their case and spacing", () => {
    expect(analysisSettings({ allocationTypes: " Region, sector " }).allocationTypes).toEqual(["sector", "region"]);
    expect(analysisSettings({ allocationTypes: "asset_class,unknown" }).allocationTypes).toEqual(["asset_class"]);
    expect(analysisSettings({ allocationTypes: "region,region" }).allocationTypes).toEqual(["region"]);
  });

  it("enables no allocation type for none", () => {
    expect(analysisSettings({ allocationTypes: "none" }).allocationTypes).toEqual([]);
    expect(analysisSettings({ allocationTypes: "None" }).allocationTypes).toEqual([]);
  });

  it("uses every allocation type when the setting is not text", () => {
    expect(analysisSettings({ allocationTypes: 3 }).allocationTypes).toEqual(["asset_class", "sector", "region"]);
    expect(analysisSettings({ allocationTypes: null }).allocationTypes).toEqual(["asset_class", "sector", "region"]);
  });

  it("reads principal asset class view as Principal, anything else as Detailed (spec 001 §5)", () => {
    expect(analysisSettings({ assetAllocationMethod: "principal asset class view" }).allocationMethod).toBe(
      "principal",
    );
    expect(analysisSettings({ assetAllocationMethod: " Principal Asset Class View " }).allocationMethod).toBe(
      "principal",
    );
    for (const value of ["principal", "detailed asset class view", "Detailed", "", 1, true]) {
      expect(analysisSettings({ assetAllocationMethod: value }).allocationMethod, String(value)).toBe("detailed");
    }
  });

  it("reads the gain and income column levels", () => {
    expect(
      analysisSettings({
        unrealisedGainValue: "none",
        unrealisedGainPercent: "SecurityLevelOnly",
        annualIncomeValue: "all",
        annualIncomeYield: "everywhere",
      }).investmentColumns,
    ).toEqual({ gainValue: "none", gainPercent: "SecurityLevelOnly", incomeValue: "all", yieldPercent: "all" });
    expect(
      analysisSettings({
        unrealisedGainValue: "all",
        unrealisedGainPercent: "none",
        annualIncomeValue: "SecurityLevelOnly",
        annualIncomeYield: "none",
      }).investmentColumns,
    ).toEqual({
      gainValue: "all",
      gainPercent: "none",
      incomeValue: "SecurityLevelOnly",
      yieldPercent: "none",
    });
  });

  it("reads the fee, tax and value-after hide settings (spec 001 §5)", () => {
    expect(
      analysisSettings({
        hideFees: "Hide For All Transactions",
        hideTaxes: "Hide For Income Transactions Only",
        hideValueAfterFeesAndTaxes: "hide",
      }).hide,
    ).toEqual({
      fees: "Hide For All Transactions",
      taxes: "Hide For Income Transactions Only",
      valueAfter: "Do Not Hide",
    });
    expect(analysisSettings({ hideValueAfterFeesAndTaxes: "Hide For All Transactions" }).hide.valueAfter).toBe(
      "Hide For All Transactions",
    );
  });

  it("reads the published sections, lower-cased", () => {
    const sections = analysisSettings({ analysisSections: "Investments, transactions,," }).sections;
    expect([...sections]).toEqual(["investments", "transactions"]);
    expect(sections.has("allocation")).toBe(false);
  });

  it("reads the chart tab, the benchmarks and the disabled date ranges", () => {
    const settings = analysisSettings({
      analysisChartTab: "value",
      analysisBenchmarks: " FTASX , ,SPX",
      disabledDateRanges: "2 years,Custom",
    });
    expect(settings.chartTab).toBe("value");
    expect(settings.benchmarks).toEqual(["FTASX", "SPX"]);
    expect([...settings.disabledRanges].sort()).toEqual(["2Y", "custom"]);
    expect(analysisSettings({ analysisChartTab: "pie" }).chartTab).toBe("percentage");
  });

  it("passes the portfolio settings through", () => {
    expect(
      analysisSettings({ profitAnalysisType: "irr", portfolioGrouping: "consolidated", feesAndTaxes: "0" }),
    ).toMatchObject({ profitAnalysisType: "irr", grouping: "consolidated", feesAndTaxes: 0 });
  });
});
