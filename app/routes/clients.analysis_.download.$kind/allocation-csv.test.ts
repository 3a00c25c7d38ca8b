import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { AllocationAnswer, AllocationCategory, Money } from "~/lib/analysis/investments";
import { toCsv } from "~/lib/csv.server";
import { allocationCsv } from "./allocation-csv";

const t = ((key: string) => key) as unknown as TFunction;
const money = (amount: number, currency = "GBP"): Money => ({ amount, currency });
const col = (key: string) => `analysis.allocation.csv.columns.${key}`;

function category(key: string, positions: Array<[string | null, string, number]>): AllocationCategory {
  return {
    key,
    name: key,
    value: money(positions.reduce((sum, [, , amount]) => sum + amount, 0)),
    weight: 0,
    positions: positions.map(([description, account, amount], i) => ({
      key: `${key}-${i}`,
      accountId: i + 1,
      account,
      description,
      value: money(amount),
      weight: 0,
    })),
  };
}

function answer(types: Partial<AllocationAnswer["types"]>, total: number): AllocationAnswer {
  return {
    date: "2026-11-27",
    total: money(total),
    types: { asset_class: [], sector: [], region: [], ...types },
  };
}

describe("allocationCsv (decision 208)", () => {
  const equities = category("Equities", [
    ["Apple Inc.", "ISA", 100.004],
    ["Vanguard", "GIA", 600.5],
  ]);
  const bonds = category("Bonds", [["Gilt 2030", "ISA", 200.25]]);
  const cash = category("Cash", [["Cash", "ISA", 2.5]]);
  const total = 100.004 + 600.5 + 200.25 + 2.5;

  it("writes each category with its whole percentage, its investments largest first, and the breakdown's total", () => {
    const { header, rows } = allocationCsv(answer({ asset_class: [equities, bonds, cash] }, total), ["asset_class"], t);
    expect(header).toEqual([
      col("breakdown"),
      col("category"),
      col("investment"),
      col("account"),
      col("currency"),
      col("amount"),
      col("percentage"),
    ]);
    const type = "analysis.allocation.types.asset_class";
    expect(rows).toEqual([
      [type, "Equities", null, null, "GBP", 700.5, 78],
      [type, "Equities", "Vanguard", "GIA", "GBP", 600.5, null],
      [type, "Equities", "Apple Inc.", "ISA", "GBP", 100, null],
      [type, "Bonds", null, null, "GBP", 200.25, 22],
      [type, "Bonds", "Gilt 2030", "ISA", "GBP", 200.25, null],
      // a share under 1 % that the largest remainder does not lift: 0, as the page's '<1%' is not a number
      [type, "Cash", null, null, "GBP", 2.5, 0],
      [type, "Cash", "Cash", "ISA", "GBP", 2.5, null],
      [type, "analysis.allocation.csv.total", null, null, "GBP", 903.25, 100],
    ]);
  });

  it("keeps the breakdowns in the tab's order, leaves out one without categories, and names an unnamed investment", () => {
    const unnamed = category("Technology", [[null, "ISA", 50]]);
    const { rows } = allocationCsv(
      answer({ sector: [unnamed], region: [category("UK", [["  ", "ISA", 50]])] }, 50),
      ["region", "asset_class", "sector"],
      t,
    );
    expect(rows.map((r) => r[0])).toEqual([
      "analysis.allocation.types.region",
      "analysis.allocation.types.region",
      "analysis.allocation.types.region",
      "analysis.allocation.types.sector",
      "analysis.allocation.types.sector",
      "analysis.allocation.types.sector",
    ]);
    expect(rows.filter((r) => r[2] !== null).map((r) => r[2])).toEqual([
      "analysis.investments.invalidName",
      "analysis.investments.invalidName",
    ]);
  });

  it("has only its header when the tab has nothing to show", () => {
    expect(allocationCsv(answer({}, 0), ["asset_class"], t).rows).toEqual([]);
    expect(allocationCsv(answer({ asset_class: [equities] }, 0), ["asset_class"], t).rows).toEqual([]);
    expect(allocationCsv(answer({ asset_class: [equities] }, 700.5), ["sector"], t).rows).toEqual([]);
  });

  it("neutralises a category or an investment a spreadsheet would run, and keeps amounts as numbers", () => {
    const risky = category("=cmd|' /C calc'!A0", [["@SUM(A1:A2)", "+ISA", 10]]);
    const { header, rows } = allocationCsv(answer({ sector: [risky] }, 10), ["sector"], t);
    const text = toCsv(header, rows);
    expect(text).toContain(`'=cmd|' /C calc'!A0`);
    expect(text).toContain("'@SUM(A1:A2)");
    expect(text).toContain("'+ISA");
    expect(text).toContain(",10,100\r\n");
  });
});
