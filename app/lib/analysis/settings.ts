// The analysis page's site settings (spec 001 §2.2, §2.3, §4, §5), read once into the portal's
// terms. Pure: the page and its downloads read the same settings.
import { type DateRangeName, disabledDateRanges } from "~/lib/date-range";
import { type PortfolioSettings, portfolioSettings, type Settings } from "~/lib/performance";
import { type AllocationType, type InvestmentColumnSettings, readColumnLevel } from "./investments";
import type { ChartTab } from "./query";
import { type HideSettings, readHideSetting } from "./transactions";

export type AnalysisSettings = PortfolioSettings & {
  /** spec 001 §4 "Chart tab": the initial tab. */
  chartTab: ChartTab;
  /** spec 001 §4: options disabled by the configuration. */
  disabledRanges: ReadonlySet<DateRangeName>;
  /** The benchmark codes or names drawn on the percentage chart; empty: every benchmark the platform lists. */
  benchmarks: string[];
  /** spec 001 §2.2: the sections the content publishes (investments, allocation, transactions). */
  sections: ReadonlySet<string>;
  /** spec 001 §5: the fees, taxes and value-after-fees-and-taxes hide settings. */
  hide: HideSettings;
  /** spec 001 §5: unrealised gain and annual income columns (none, SecurityLevelOnly, all). */
  investmentColumns: InvestmentColumnSettings;
  /** spec 001 §2.3: the allocation types enabled, in the tab's order. */
  allocationTypes: AllocationType[];
  /** spec 001 §5: Principal when the setting reads principal asset class view, else Detailed. */
  allocationMethod: "principal" | "detailed";
};

const ALLOCATION_TYPES: AllocationType[] = ["asset_class", "sector", "region"];

const list = (value: unknown, fallback: string) =>
  (typeof value === "string" ? value : fallback)
    .split(",")
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);

export function analysisSettings(settings: Settings): AnalysisSettings {
  const enabled = new Set(list(settings.allocationTypes, ALLOCATION_TYPES.join(",")));
  return {
    ...portfolioSettings(settings),
    chartTab: settings.analysisChartTab === "value" ? "value" : "percentage",
    disabledRanges: disabledDateRanges(settings.disabledDateRanges),
    benchmarks: (typeof settings.analysisBenchmarks === "string" ? settings.analysisBenchmarks : "")
      .split(",")
      .map((b) => b.trim())
      .filter(Boolean),
    sections: new Set(list(settings.analysisSections, "investments,allocation,transactions")),
    hide: {
      fees: readHideSetting(settings.hideFees),
      taxes: readHideSetting(settings.hideTaxes),
      valueAfter: readHideSetting(settings.hideValueAfterFeesAndTaxes),
    },
    investmentColumns: {
      gainValue: readColumnLevel(settings.unrealisedGainValue),
      gainPercent: readColumnLevel(settings.unrealisedGainPercent),
      incomeValue: readColumnLevel(settings.annualIncomeValue),
      yieldPercent: readColumnLevel(settings.annualIncomeYield),
    },
    allocationTypes: ALLOCATION_TYPES.filter((type) => enabled.has(type)),
    allocationMethod:
      String(settings.assetAllocationMethod ?? "")
        .trim()
        .toLowerCase() === "principal asset class view"
        ? "principal"
        : "detailed",
  };
}
