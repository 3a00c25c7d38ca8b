import { describe, expect, it } from "vitest";
import { type IncomeCells, incomeBars, incomeTotals, jurisdictionOf, taxYearLabel } from "./income";

const gbp = (amount: number) => ({ currency: "GBP", amount });
const usd = (amount: number) => ({ currency: "USD", amount });

const answer: IncomeCells = {
  report_currency: "GBP",
  tax_year: "GB",
  months: [
    { month: "2025-02", start_date: "2025-02-01", end_date: "2025-02-28", income: gbp(0) },
    { month: "2025-03", start_date: "2025-03-01", end_date: "2025-03-31", income: gbp(80.3) },
  ],
  tax_years: [
    { tax_year: 2024, start_date: "2024-04-06", end_date: "2025-04-05", income: gbp(110.4) },
    { tax_year: 2023, start_date: "2023-04-06", end_date: "2024-04-05", income: gbp(5) },
  ],
  holdings: [
    { accountid: 2, security_id: 7, description: "Vanguard US", code: "VUS", isin: null, currency: "USD" },
    { accountid: 1, security_id: 5, description: "iShares Gilts", code: "IGL", isin: "GB00", currency: "GBP" },
    { accountid: 1, security_id: 6, description: "Apple", code: "AAPL", isin: null, currency: "USD" },
  ],
  rows: [
    { accountid: 2, security_id: 7, month: "2025-03", tax_year: 2024, native_income: usd(50.01), income: gbp(40.1) },
    { accountid: 1, security_id: 5, month: "2025-03", tax_year: 2024, native_income: gbp(0.1), income: gbp(0.1) },
    { accountid: 1, security_id: 6, month: "2025-03", tax_year: 2024, native_income: usd(50.2), income: gbp(40.1) },
    { accountid: 1, security_id: 5, month: "2024-06", tax_year: 2024, native_income: gbp(30.1), income: gbp(30.1) },
    { accountid: 1, security_id: 5, month: "2024-03", tax_year: 2023, native_income: gbp(5), income: gbp(5) },
  ],
};

describe("whose tax year (issue 41)", () => {
  it("is the site's country's: Australia's, Canada's (either language), else the UK's", () => {
    expect(jurisdictionOf("en-GB")).toBe("GB");
    expect(jurisdictionOf("en-AU")).toBe("AU");
    expect(jurisdictionOf("en-CA")).toBe("CA");
    expect(jurisdictionOf("fr-CA")).toBe("CA");
    expect(jurisdictionOf("en")).toBe("GB");
    expect(jurisdictionOf("not a locale")).toBe("GB");
  });

  it("names a tax year as its country writes it", () => {
    expect(taxYearLabel(2024, "GB")).toBe("2024/25");
    expect(taxYearLabel(2099, "GB")).toBe("2099/00");
    expect(taxYearLabel(2024, "AU")).toBe("2024–25");
    expect(taxYearLabel(2024, "CA")).toBe("2024");
  });
});

describe("income per account and holding", () => {
  const names = new Map([
    [1, "Ellie ISA"],
    [2, "Joint GIA"],
  ]);

  it("adds a tax year's cells up by holding and account in minor units, the total being the rows'", () => {
    const totals = incomeTotals(answer, 2024, names, "en-GB");
    expect(totals.accounts.map((a) => [a.name, a.minor])).toEqual([
      ["Ellie ISA", 7030],
      ["Joint GIA", 4010],
    ]);
    expect(totals.accounts[0]!.holdings.map((h) => [h.name, h.currency, h.nativeMinor, h.minor])).toEqual([
      ["Apple", "USD", 5020, 4010],
      ["iShares Gilts", "GBP", 3020, 3020],
    ]);
    // the answer's own figure for the year, to the penny (0.1 + 30.1 in floating point is not 30.2)
    expect(totals.minor).toBe(11040);
    expect(totals.byCurrency).toEqual([
      { currency: "GBP", nativeMinor: 3020 },
      { currency: "USD", nativeMinor: 10021 },
    ]);
  });

  it("keeps only the listed months for the last months, and nothing for a year with no income", () => {
    const months = incomeTotals(answer, null, names, "en-GB");
    expect(months.minor).toBe(8030);
    expect(incomeTotals(answer, 2020, names, "en-GB")).toEqual({ accounts: [], minor: 0, byCurrency: [] });
  });

  it("charts the months, an empty one as 0, or the tax years oldest first", () => {
    expect(incomeBars(answer, null).map((b) => [b.key, b.minor])).toEqual([
      ["2025-02", 0],
      ["2025-03", 8030],
    ]);
    expect(incomeBars(answer, 2024).map((b) => [b.key, b.minor])).toEqual([
      ["2023", 500],
      ["2024", 11040],
    ]);
  });
});
