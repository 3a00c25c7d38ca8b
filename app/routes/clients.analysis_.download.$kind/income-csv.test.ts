import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { IncomeCells } from "~/lib/analysis/income";
import { incomeCsv } from "./income-csv";

const t = ((key: string, options?: Record<string, unknown>) =>
  options?.currency ? `${key} (${String(options.currency)})` : key) as unknown as TFunction;
const gbp = (amount: number) => ({ currency: "GBP", amount });

const answer: IncomeCells = {
  report_currency: "GBP",
  tax_year: "AU",
  months: [
    { month: "2025-02", start_date: "2025-02-01", end_date: "2025-02-28", income: gbp(0) },
    { month: "2025-03", start_date: "2025-03-01", end_date: "2025-03-31", income: gbp(40.2) },
  ],
  tax_years: [{ tax_year: 2024, start_date: "2024-07-01", end_date: "2025-06-30", income: gbp(70.3) }],
  holdings: [
    { accountid: 2, security_id: 7, description: "Vanguard US", code: "VUS", isin: "US9229087690", currency: "USD" },
    { accountid: 1, security_id: 5, description: "  ", code: "IGL", isin: null, currency: "GBP" },
  ],
  rows: [
    {
      accountid: 2,
      security_id: 7,
      month: "2025-03",
      tax_year: 2024,
      native_income: { currency: "USD", amount: 50.01 },
      income: gbp(40.1),
    },
    { accountid: 1, security_id: 5, month: "2025-03", tax_year: 2024, native_income: gbp(0.1), income: gbp(0.1) },
    { accountid: 1, security_id: 5, month: "2024-08", tax_year: 2024, native_income: gbp(30.1), income: gbp(30.1) },
  ],
};
const names = new Map([
  [1, "ISA"],
  [2, "GIA"],
]);

describe("the income CSV (issue 41)", () => {
  it("has a row per month, account and holding of a tax year, as numbers, adding up to the year's total", () => {
    const table = incomeCsv(answer, 2024, names, t);
    expect(table.header).toEqual([
      "analysis.income.columns.taxYear",
      "analysis.income.columns.month",
      "analysis.csv.columns.account",
      "analysis.csv.columns.security",
      "analysis.csv.columns.code",
      "analysis.csv.columns.isin",
      "analysis.income.columns.currency",
      "analysis.income.columns.native",
      "analysis.income.columns.income (GBP)",
    ]);
    expect(table.rows).toEqual([
      ["2024–25", "2024-08", "ISA", "analysis.investments.invalidName", "IGL", null, "GBP", 30.1, 30.1],
      ["2024–25", "2025-03", "ISA", "analysis.investments.invalidName", "IGL", null, "GBP", 0.1, 0.1],
      ["2024–25", "2025-03", "GIA", "Vanguard US", "VUS", "US9229087690", "USD", 50.01, 40.1],
    ]);
    const pence = table.rows.reduce((sum, r) => sum + Math.round((r[8] as number) * 100), 0);
    expect(pence).toBe(7030);
  });

  it("keeps only the listed months for the last 24 months", () => {
    expect(incomeCsv(answer, null, names, t).rows.map((r) => r[1])).toEqual(["2025-03", "2025-03"]);
  });
});
