import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { toCsv } from "~/lib/csv.server";
import type { SheetAsset, SheetFigure } from "~/planning/balance-sheet.server";
import { balanceSheetCsv } from "./csv-rows";

const t = ((key: string) => key) as unknown as TFunction;
const money = (amount: number, currency = "GBP") => ({ amount, currency });

function asset(fields: Partial<SheetAsset>): SheetAsset {
  return {
    id: 1,
    desc: "Cottage",
    type: "Property",
    status: "Existing",
    isSippWrapper: false,
    currency: "GBP",
    key: "other-1",
    source: "investments",
    managed: false,
    owners: ["Ellie Hartley", "James Hartley"],
    provider: "Self",
    policyNumber: "PROP-001",
    rate: null,
    income: null,
    frequency: null,
    value: money(485_000),
    valueInReport: money(485_000),
    valueOwnedMoney: money(242_500),
    percentOwned: 50,
    valuationDate: "2024-11-14",
    ...fields,
  } as SheetAsset;
}
const figure = (a: SheetAsset, shown: number | null, share: number | null, currency = "GBP"): SheetFigure => ({
  asset: a,
  shown: shown === null ? null : money(shown, currency),
  share: share === null ? null : money(share, currency),
});

describe("balanceSheetCsv (decision 208)", () => {
  const cottage = asset({});
  const annuity = asset({
    key: "other-2",
    desc: "Lifetime annuity",
    type: "Annuity",
    provider: "Aviva",
    policyNumber: "ANN-9",
    income: money(6_120.456, "EUR"),
    frequency: "Monthly",
    percentOwned: 100,
  });
  const mortgage = asset({
    key: "other-3",
    desc: "Mortgage",
    type: "Mortgage",
    provider: "Nationwide",
    policyNumber: "MORT-1",
    rate: 4.25,
    percentOwned: 50,
    valuationDate: null,
  });

  it("writes each member's tables in order, each asset with its figures and each table with the page's total", () => {
    const { header, rows } = balanceSheetCsv(
      {
        state: "ok",
        members: [
          {
            member: { id: 1, name: "Ellie Hartley" },
            tables: [
              {
                tab: "investments",
                kind: "nonManaged",
                figures: [figure(cottage, 485_000, 242_500.004)],
                total: money(242_500),
              },
              {
                tab: "annuities",
                kind: "managed",
                figures: [figure(annuity, 98_000.5, 98_000.5)],
                total: money(98_000.5),
              },
              {
                tab: "liabilities",
                kind: "nonManaged",
                figures: [figure(mortgage, 180_000, -90_000)],
                total: money(-90_000),
              },
            ],
          },
          {
            member: { id: 2, name: "James Hartley" },
            tables: [
              {
                tab: "investments",
                kind: "nonManaged",
                figures: [figure(cottage, 485_000, 242_500)],
                total: money(242_500),
              },
            ],
          },
        ],
      },
      t,
    );
    const col = (key: string) => `balanceSheet.csv.columns.${key}`;
    expect(header).toEqual([
      col("member"),
      col("assetType"),
      col("managed"),
      col("description"),
      col("owners"),
      col("type"),
      col("provider"),
      col("policyNumber"),
      col("interestRate"),
      col("income"),
      col("incomeCurrency"),
      col("incomeFrequency"),
      col("valuationDate"),
      col("currency"),
      col("value"),
      col("percentOwned"),
      col("valueOwned"),
    ]);
    const investments = ["balanceSheet.csv.assetTypes.investments", "balanceSheet.csv.nonManaged"];
    const total = "balanceSheet.total";
    expect(rows).toEqual([
      // prettier-ignore
      ["Ellie Hartley", ...investments, "Cottage", "Ellie Hartley, James Hartley", "Property", "Self", "PROP-001", null, null, null, null, "2024-11-14", "GBP", 485000, 50, 242500],
      [
        "Ellie Hartley",
        ...investments,
        total,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        "GBP",
        null,
        null,
        242500,
      ],
      // prettier-ignore
      ["Ellie Hartley", "balanceSheet.csv.assetTypes.annuities", "balanceSheet.csv.managed", "Lifetime annuity", "Ellie Hartley, James Hartley", "Annuity", "Aviva", "ANN-9", null, 6120.46, "EUR", "Monthly", "2024-11-14", "GBP", 98000.5, 100, 98000.5],
      // prettier-ignore
      ["Ellie Hartley", "balanceSheet.csv.assetTypes.annuities", "balanceSheet.csv.managed", total, null, null, null, null, null, null, null, null, null, "GBP", null, null, 98000.5],
      // prettier-ignore
      ["Ellie Hartley", "balanceSheet.csv.assetTypes.liabilities", "balanceSheet.csv.nonManaged", "Mortgage", "Ellie Hartley, James Hartley", "Mortgage", "Nationwide", "MORT-1", 4.25, null, null, null, null, "GBP", 180000, 50, -90000],
      // prettier-ignore
      ["Ellie Hartley", "balanceSheet.csv.assetTypes.liabilities", "balanceSheet.csv.nonManaged", total, null, null, null, null, null, null, null, null, null, "GBP", null, null, -90000],
      // prettier-ignore
      ["James Hartley", ...investments, "Cottage", "Ellie Hartley, James Hartley", "Property", "Self", "PROP-001", null, null, null, null, "2024-11-14", "GBP", 485000, 50, 242500],
      [
        "James Hartley",
        ...investments,
        total,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        "GBP",
        null,
        null,
        242500,
      ],
    ]);
  });

  it("leaves a figure the page cannot show empty, and a total of shares in several currencies", () => {
    const dollars = asset({ key: "other-4", desc: "Florida condo", currency: "USD", owners: [] });
    const { rows } = balanceSheetCsv(
      {
        state: "ok",
        members: [
          {
            member: { id: 1, name: "Ellie Hartley" },
            tables: [
              {
                tab: "investments",
                kind: "nonManaged",
                figures: [figure(cottage, null, null), figure(dollars, 100, 50, "USD"), figure(cottage, 10, 5)],
                total: null,
              },
            ],
          },
        ],
      },
      t,
    );
    expect(rows.map((r) => [r[3], r[4], r[13], r[14], r[16]])).toEqual([
      ["Cottage", "Ellie Hartley, James Hartley", null, null, null],
      ["Florida condo", null, "USD", 100, 50],
      ["Cottage", "Ellie Hartley, James Hartley", "GBP", 10, 5],
      ["balanceSheet.total", null, null, null, null],
    ]);
  });

  it("neutralises a description a spreadsheet would run and keeps a negative amount a number", () => {
    const risky = asset({ desc: '=HYPERLINK("http://example.invalid")', provider: "-Self", owners: ["@Ellie"] });
    const { header, rows } = balanceSheetCsv(
      {
        state: "ok",
        members: [
          {
            member: { id: 1, name: "+Ellie" },
            tables: [{ tab: "liabilities", kind: "managed", figures: [figure(risky, 10, -10)], total: money(-10) }],
          },
        ],
      },
      t,
    );
    const text = toCsv(header, rows);
    expect(text).toContain(`"'=HYPERLINK(""http://example.invalid"")"`);
    expect(text).toContain("'-Self");
    expect(text).toContain("'@Ellie");
    expect(text).toContain("'+Ellie");
    expect(text).toMatch(/,GBP,,,-10\r\n$/);
  });
});
