// The analysis page's income tab (issue 41, docs/decisions/199-income-received.md): income received
// by the selection's accounts (decision 107's set, as every tab) in the last 24 months or a tax year
// of the site's jurisdiction, per account and holding, with its chart, built on the server from the
// platform's answer so that it reads the same without JavaScript.
import type { TFunction } from "i18next";
import type { ChartTable } from "~/components/charts/chart-data";
import { renderIncomeChartSvg } from "~/components/charts/income-chart-svg.server";
import { TABLE_DECIMALS } from "~/lib/dashboard";
import { formatMoney } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { fromMinor } from "~/lib/money";
import type { ChartSvg } from "~/lib/chart-svg";
import { incomeBars, incomeTotals, type Jurisdiction, taxYearLabel } from "~/lib/analysis/income";
import { analysisDownloadHref, analysisHref, type AnalysisQuery } from "~/lib/analysis/query";
import type { IncomeAnswer } from "~/planning/income.server";
import { chartSvgOfPage } from "~/runtime/chart-markup.server";

export const INCOME_CHART_SIZE = { width: 960, height: 320 } as const;
export const NARROW_INCOME_CHART_SIZE = { width: 360, height: 260 } as const;

export type IncomeHolding = { name: string; code: string; currency: string; native: string; converted: string };
export type IncomeAccount = { name: string; total: string; holdings: IncomeHolding[] };

export type IncomeView =
  | { state: "error" }
  | {
      state: "ok";
      /** Which tax year the page uses, in words (the site's jurisdiction). */
      yearRule: string;
      /** The last 24 months, then each tax year, newest first: links that keep the rest of the view. */
      periods: Array<{ href: string; text: string; current: boolean }>;
      /** What the figures below cover: the period, with its dates. */
      heading: string;
      total: string;
      /** What was paid in each currency before conversion, when any is not the report currency. */
      byCurrency: Array<{ currency: string; amount: string }>;
      chart: { caption: string; svg: ChartSvg; narrowSvg: ChartSvg; table: ChartTable };
      accounts: IncomeAccount[];
      csv: string;
      reportCurrency: string;
    };

type Context = { t: TFunction; locale: string; query: AnalysisQuery };

function monthLabel(month: string, locale: string, style: "short" | "long"): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return new Intl.DateTimeFormat(locale, { month: style, year: "numeric", timeZone: "UTC" }).format(date);
}

/** The year the page shows: the one asked for when the answer lists it, else none (the last 24 months). */
function shownTaxYear(answer: Pick<IncomeAnswer, "tax_years">, asked: number | null | undefined): number | null {
  return asked != null && answer.tax_years.some((y) => y.tax_year === asked) ? asked : null;
}

/** The chart of the months (the last 24) or of the tax years, wide and narrow, with its data table. */
function incomeChart(answer: IncomeAnswer, year: number | null, colour: string, c: Context) {
  const { t, locale } = c;
  const jurisdiction = answer.tax_year;
  const currency = answer.report_currency;
  const bars = incomeBars(answer, year).map((b) => ({
    ...b,
    label: year === null ? monthLabel(b.key, locale, "short") : taxYearLabel(Number(b.key), jurisdiction),
    long: year === null ? monthLabel(b.key, locale, "long") : taxYearLabel(Number(b.key), jurisdiction),
  }));
  const caption =
    year === null
      ? t("analysis.income.chart.captionMonths", { currency })
      : t("analysis.income.chart.captionYears", { currency });
  const chartInput = {
    bars: bars.map((b) => ({ key: b.key, label: b.label, value: fromMinor(b.minor) })),
    colour,
    currency,
    locale,
    title: caption,
  };
  return {
    caption,
    svg: chartSvgOfPage(renderIncomeChartSvg({ ...chartInput, ...INCOME_CHART_SIZE })),
    narrowSvg: chartSvgOfPage(renderIncomeChartSvg({ ...chartInput, ...NARROW_INCOME_CHART_SIZE })),
    table: {
      caption,
      columns: [
        t(year === null ? "analysis.income.columns.month" : "analysis.income.columns.taxYear"),
        t("analysis.income.columns.income", { currency }),
      ],
      rows: bars.map((b) => ({
        header: b.long,
        cells: [formatMoney(fromMinor(b.minor), currency, locale, { decimals: TABLE_DECIMALS })],
      })),
    },
  };
}

export function incomeView(
  answer: IncomeAnswer,
  accountNames: ReadonlyMap<number, string>,
  colour: string,
  c: Context,
): IncomeView {
  const { t, locale, query } = c;
  const jurisdiction: Jurisdiction = answer.tax_year;
  const year = shownTaxYear(answer, query.taxYear);
  const currency = answer.report_currency;
  const money = (minor: number, code = currency) =>
    formatMoney(fromMinor(minor), code, locale, { decimals: TABLE_DECIMALS });
  const totals = incomeTotals(answer, year, accountNames, locale);
  const selected = year === null ? null : answer.tax_years.find((y) => y.tax_year === year)!;
  const dates = selected
    ? { from: formatDate(selected.start_date, locale), to: formatDate(selected.end_date, locale) }
    : {
        from: formatDate(answer.months[0]!.start_date, locale),
        to: formatDate(answer.end_date, locale),
      };
  const heading = selected
    ? t("analysis.income.headingYear", { year: taxYearLabel(selected.tax_year, jurisdiction), ...dates })
    : t("analysis.income.headingMonths", dates);
  const here = (taxYear: number | null) => analysisHref(query, { tab: "income", taxYear, tx: null, pages: 1 });
  return {
    state: "ok",
    yearRule: t(`analysis.income.yearRule.${jurisdiction}`),
    periods: [
      { href: here(null), text: t("analysis.income.lastMonths"), current: year === null },
      ...answer.tax_years.map((y) => ({
        href: here(y.tax_year),
        text: taxYearLabel(y.tax_year, jurisdiction),
        current: y.tax_year === year,
      })),
    ],
    heading,
    total: money(totals.minor),
    byCurrency: totals.byCurrency.some((x) => x.currency !== currency)
      ? totals.byCurrency.map((x) => ({ currency: x.currency, amount: money(x.nativeMinor, x.currency) }))
      : [],
    chart: incomeChart(answer, year, colour, c),
    accounts: totals.accounts.map((a) => ({
      name: a.name,
      total: money(a.minor),
      holdings: a.holdings.map((h) => ({
        name: h.name || t("analysis.investments.invalidName"),
        code: h.code,
        currency: h.currency,
        native: money(h.nativeMinor, h.currency),
        converted: money(h.minor),
      })),
    })),
    csv: analysisDownloadHref("income", { ...query, taxYear: year }),
    reportCurrency: currency,
  };
}
