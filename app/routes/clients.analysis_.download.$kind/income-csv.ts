// The income tab's CSV download (issue 41, docs/decisions/199-income-received.md), with the same
// rules as the other analysis files (csv-rows.ts): numbers as numbers, dates and months ISO. Pure:
// unit tested without a server.
import type { TFunction } from "i18next";
import { cellsOf, type IncomeCells, taxYearLabel } from "~/lib/analysis/income";
import type { CsvCell } from "~/lib/csv.server";
import { fromMinor, toMinor } from "~/lib/money";
import type { CsvTable } from "./csv-rows";

/**
 * Income received (issue 41, decision 199): one row per month, account and holding of the period
 * (the last 24 months, or a tax year), with what it paid in its own currency and in the report
 * currency, so that the column adds up to the page's total. Months are 'YYYY-MM' and tax years as
 * the page names them.
 */
export function incomeCsv(
  answer: IncomeCells,
  taxYear: number | null,
  accountNames: ReadonlyMap<number, string>,
  t: TFunction,
): CsvTable {
  const column = (key: string, values?: Record<string, string>) => t(`analysis.income.columns.${key}`, values);
  const jurisdiction = answer.tax_year;
  const holdings = new Map(answer.holdings.map((h) => [`${h.accountid}:${h.security_id}:${h.currency}`, h]));
  const order = [...accountNames.keys()];
  const rank = (id: number) => (order.includes(id) ? order.indexOf(id) : order.length);
  const rows = [...cellsOf(answer, taxYear)]
    .sort(
      (a, b) =>
        a.month.localeCompare(b.month) || rank(a.accountid) - rank(b.accountid) || a.security_id - b.security_id,
    )
    .map((r): CsvCell[] => {
      const h = holdings.get(`${r.accountid}:${r.security_id}:${r.native_income.currency}`);
      return [
        taxYearLabel(r.tax_year, jurisdiction),
        r.month,
        accountNames.get(r.accountid) ?? String(r.accountid),
        h?.description.trim() || t("analysis.investments.invalidName"),
        h?.code ?? "",
        h?.isin ?? null,
        r.native_income.currency,
        fromMinor(toMinor(r.native_income.amount)),
        fromMinor(toMinor(r.income.amount)),
      ];
    });
  return {
    header: [
      column("taxYear"),
      column("month"),
      t("analysis.csv.columns.account"),
      t("analysis.csv.columns.security"),
      t("analysis.csv.columns.code"),
      t("analysis.csv.columns.isin"),
      column("currency"),
      column("native"),
      column("income", { currency: answer.report_currency }),
    ],
    rows,
  };
}
