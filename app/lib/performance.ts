// The portfolio side's settings and performance figures (spec 001 §2.1, §2.4, §5 "Display rules",
// §9 defaults), shared by the home dashboard and the analysis page. Pure: no platform access. The
// figures themselves are built by ./performance.server (decision 149).

export type SettingValue = string | number | boolean | null | undefined;
export type Settings = Record<string, SettingValue>;

export type ProfitAnalysisType = "twrr" | "irr" | "none";
export type Grouping = "split" | "consolidated" | "accountgroup";

export type PortfolioSettings = {
  profitAnalysisType: ProfitAnalysisType;
  grouping: Grouping;
  useHistoricData: boolean;
  holdBack: boolean;
  feesAndTaxes: 0 | 1;
  defaultTimeframe: string;
  secondaryTimeframe: string;
};

const TIMEFRAME_CODES = new Set(["1Y", "2Y", "3Y", "5Y", "YTD", "SI"]);

export const flagSetting = (v: SettingValue) => v === true || v === "true" || v === 1;

export function portfolioSettings(s: Settings): PortfolioSettings {
  const type = String(s.profitAnalysisType ?? "twrr");
  const grouping = String(s.portfolioGrouping ?? "split").toLowerCase();
  const code = (v: unknown, fallback: string) => (typeof v === "string" && TIMEFRAME_CODES.has(v) ? v : fallback);
  return {
    // spec 001 §5: accepted only as twrr, irr or none, otherwise twrr
    profitAnalysisType: type === "irr" || type === "none" ? type : "twrr",
    // spec 001 §5: consolidated, account group, anything else split
    grouping:
      grouping === "consolidated"
        ? "consolidated"
        : grouping === "accountgroup" || grouping === "account group"
          ? "accountgroup"
          : "split",
    useHistoricData: flagSetting(s.useHistoricData),
    holdBack: flagSetting(s.enableHoldBackPeriod),
    feesAndTaxes: s.feesAndTaxes === 0 || s.feesAndTaxes === "0" ? 0 : 1,
    defaultTimeframe: code(s.defaultTimeFrame, "1Y"),
    secondaryTimeframe: code(s.secondaryTimeFrame, "SI"),
  };
}

/** The collection a grouping lists (spec 001 §5 mapping): portfolios, account groups or accounts. */
export const COLLECTION: Record<Grouping, "portfolio" | "group" | "account"> = {
  split: "portfolio",
  accountgroup: "group",
  consolidated: "account",
};

export type Figure = { text: string; negative: boolean };
/**
 * A return as shown: the figure over the period, the yearly figure (only over more than a year) and,
 * when the selection began inside the range, the long date it is measured from ('12th March 2025').
 */
export type Performance = { period: Figure; annual: Figure | null; since: string | null };

/** The period's figures as the platform answers them (summary data or a profit-analysis row). */
export type PeriodFigures = {
  start_date: string;
  end_date: string;
  /** The date the returns are measured from (the start, or a later first funding); absent from older platforms. */
  since?: string | null;
  twrr: number | null;
  twrr_period: number | null;
  irr: number | null;
  irr_period: number | null;
  over_a_year: boolean;
};

export function figure(text: string, value: number): Figure {
  return { text, negative: value < 0 };
}

/** spec 001 §2.4: the performance chart is hidden for type none, and for twrr when stored historic data is used. */
export function chartShown(settings: Pick<PortfolioSettings, "profitAnalysisType" | "useHistoricData">): boolean {
  if (settings.profitAnalysisType === "none") return false;
  return !(settings.profitAnalysisType === "twrr" && settings.useHistoricData);
}

/**
 * spec 001 §2.4: a chart without data says why: 'The date range selected is earlier than the
 * portfolio / account opening date.' when the range starts before the accounts' opening date,
 * else 'No data available for this selection'.
 */
export type ChartNoData = { noData: true; beforeOpening: boolean };

/** Whether an empty series is empty because its range starts before the accounts opened. */
export function startsBeforeOpening(series: { start_date: string; inception_date: string | null }): boolean {
  return series.inception_date !== null && series.start_date < series.inception_date;
}
