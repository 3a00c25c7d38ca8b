import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import {
  type AccountRow,
  type Cells,
  grandTotal,
  holdingsTotal,
  type InvestmentsTable,
  type Money,
  type PositionRow,
} from "~/lib/analysis/investments";
import type { HideSettings } from "~/lib/analysis/transactions";
import { type CsvTransaction, investmentsCsv, transactionsCsv } from "./csv-rows";

const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const money = (amount: number, currency = "GBP"): Money => ({ amount, currency });
const col = (key: string) => `analysis.csv.columns.${key}`;

const cells = (fields: Partial<Cells> = {}): Cells => ({
  currency: "GBP",
  price: 10.123456,
  cost: money(800.006),
  value: money(1012.3456),
  weight: 12.34567,
  gain: money(212.3349),
  gainPercent: 26.54321,
  income: money(50.499),
  yieldPercent: 4.98765,
  ...fields,
});

function position(key: string, fields: Partial<PositionRow> = {}): PositionRow {
  return {
    key: `p${key}`,
    name: `Security ${key}`,
    code: `SEC${key}`,
    isin: `GB000000000${key}`,
    cash: false,
    volume: 100.123456,
    nativeCurrency: "GBP",
    conversion: null,
    cells: cells(),
    costMissing: null,
    valueIn: { account: money(1012.3456), report: money(1012.3456) },
    gainShown: money(212.3349),
    parcels: [],
    ...fields,
  };
}

function account(accountId: number, positions: PositionRow[]): AccountRow {
  return {
    key: `a${accountId}`,
    accountId,
    name: `Account ${accountId}`,
    planCurrency: "GBP",
    converted: false,
    multiCurrency: false,
    cells: cells({ price: null }),
    positions,
    total: holdingsTotal(positions, "GBP", "account"),
  };
}

const table = (accounts: AccountRow[], columns = { gain: true, income: true }): InvestmentsTable => ({
  accounts,
  multiCurrency: false,
  sortable: new Set(["description"]),
  sort: "description",
  dir: "asc",
  columns,
  total: grandTotal(accounts, "GBP"),
});

describe("investmentsCsv (spec 001 §2.3 investments)", () => {
  const BASE = [
    col("account"),
    col("security"),
    col("code"),
    col("isin"),
    col("currency"),
    col("units"),
    col("price"),
    col("cost"),
    col("weight"),
    col("value"),
  ];

  it("has the gain and income columns when the table shows them", () => {
    expect(investmentsCsv(table([]), t).header).toEqual([
      ...BASE,
      col("gain"),
      col("gainPercent"),
      col("income"),
      col("yield"),
    ]);
  });

  it("leaves out a column the table hides", () => {
    expect(investmentsCsv(table([], { gain: false, income: true }), t).header).toEqual([
      ...BASE,
      col("income"),
      col("yield"),
    ]);
    expect(investmentsCsv(table([], { gain: true, income: false }), t).header).toEqual([
      ...BASE,
      col("gain"),
      col("gainPercent"),
    ]);
    expect(investmentsCsv(table([], { gain: false, income: false }), t).header).toEqual(BASE);
  });

  it("has one row per holding in the table's order, money at 2 places and units and prices at 4", () => {
    const csv = investmentsCsv(
      table([
        account(2, [position("1"), position("2", { cells: cells({ currency: "USD" }) })]),
        account(1, [position("3")]),
      ]),
      t,
    );
    expect(csv.rows.map((r) => [r[0], r[1]])).toEqual([
      ["Account 2", "Security 1"],
      ["Account 2", "Security 2"],
      ["Account 1", "Security 3"],
    ]);
    expect(csv.rows[1]).toEqual([
      "Account 2",
      "Security 2",
      "SEC2",
      "GB0000000002",
      "USD",
      100.1235,
      10.1235,
      800.01,
      12.35,
      1012.35,
      212.33,
      26.54,
      50.5,
      4.99,
    ]);
  });

  it("rows only the columns of the header", () => {
    const csv = investmentsCsv(table([account(1, [position("1")])], { gain: false, income: true }), t);
    expect(csv.rows[0]).toHaveLength(csv.header.length);
    expect(csv.rows[0]!.slice(10)).toEqual([50.5, 4.99]);
  });

  it("names an invalid security INVALID DATA", () => {
    const csv = investmentsCsv(table([account(1, [position("1", { name: null })])]), t);
    expect(csv.rows[0]![1]).toBe("analysis.investments.invalidName");
  });

  it("leaves empty the figures not available", () => {
    const csv = investmentsCsv(
      table([
        account(1, [
          position("1", {
            isin: null,
            cells: cells({
              price: null,
              cost: null,
              weight: null,
              gain: null,
              gainPercent: null,
              income: null,
              yieldPercent: null,
            }),
          }),
        ]),
      ]),
      t,
    );
    expect(csv.rows[0]).toEqual([
      "Account 1",
      "Security 1",
      "SEC1",
      null,
      "GBP",
      100.1235,
      null,
      null,
      null,
      1012.35,
      null,
      null,
      null,
      null,
    ]);
  });

  it("keeps negative and zero figures as numbers", () => {
    const csv = investmentsCsv(
      table([account(1, [position("1", { cells: cells({ gain: money(-12.346), gainPercent: -1.236, price: 0 }) })])]),
      t,
    );
    expect(csv.rows[0]![6]).toBe(0);
    expect(csv.rows[0]![10]).toBe(-12.35);
    expect(csv.rows[0]![11]).toBe(-1.24);
  });
});

describe("transactionsCsv (spec 001 §2.3 transactions, §5 hide settings)", () => {
  const SHOW_ALL: HideSettings = { fees: "Do Not Hide", taxes: "Do Not Hide", valueAfter: "Do Not Hide" };
  const names = new Map([[1, "Ellie's ISA"]]);
  const HEADER = [
    col("tradeDate"),
    col("settlementDate"),
    col("account"),
    col("security"),
    col("code"),
    col("isin"),
    col("type"),
    col("narrative"),
    col("currency"),
    col("units"),
    col("price"),
    col("transactionValue"),
  ];

  function tx(fields: Partial<CsvTransaction> = {}): CsvTransaction {
    return {
      tradeDate: "2025-03-04",
      settlementDate: "2025-03-06",
      accountId: 1,
      securityDescription: "iShares Core FTSE 100",
      code: "ISF",
      exchange: "LSE",
      securityIsin: "IE0005042456",
      type: "buy",
      transactionTypeDesc: "Purchase",
      comment: "Monthly investment",
      nativeCurrency: "GBP",
      volume: 125.123456,
      pricePerUnit: 7.96814,
      nativeTransactionValue: money(1000.004),
      fee: money(10.255),
      tax: money(2.5),
      netAmount: money(1012.759),
      ...fields,
    };
  }
  const income = (fields: Partial<CsvTransaction> = {}) =>
    tx({ type: "income", transactionTypeDesc: "Dividend", comment: null, volume: 0, pricePerUnit: null, ...fields });

  it("has every detail column when nothing is hidden", () => {
    const csv = transactionsCsv([tx()], names, SHOW_ALL, t);
    expect(csv.header).toEqual([...HEADER, col("valueAfter"), col("fees"), col("taxes")]);
    expect(csv.rows).toEqual([
      [
        "2025-03-04",
        "2025-03-06",
        "Ellie's ISA",
        "iShares Core FTSE 100",
        "ISF",
        "IE0005042456",
        "analysis.transactions.types.purchase",
        "Monthly investment",
        "GBP",
        125.1235,
        7.9681,
        -1000,
        -1012.76,
        -10.26,
        -2.5,
      ],
    ]);
  });

  it("drops a column hidden for all transactions", () => {
    const csv = transactionsCsv([tx(), income()], names, { ...SHOW_ALL, fees: "Hide For All Transactions" }, t);
    expect(csv.header).toEqual([...HEADER, col("valueAfter"), col("taxes")]);
    expect(csv.rows.map((r) => r.slice(12))).toEqual([
      [-1012.76, -2.5],
      [1012.76, -2.5],
    ]);
    expect(
      transactionsCsv(
        [tx()],
        names,
        {
          fees: "Hide For All Transactions",
          taxes: "Hide For All Transactions",
          valueAfter: "Hide For All Transactions",
        },
        t,
      ).header,
    ).toEqual(HEADER);
  });

  it("empties a column hidden for income on income rows only", () => {
    const csv = transactionsCsv(
      [tx(), income()],
      names,
      { ...SHOW_ALL, taxes: "Hide For Income Transactions Only", valueAfter: "Hide For Income Transactions Only" },
      t,
    );
    expect(csv.header).toEqual([...HEADER, col("valueAfter"), col("fees"), col("taxes")]);
    expect(csv.rows.map((r) => r.slice(12))).toEqual([
      [-1012.76, -10.26, -2.5],
      [null, -10.26, null],
    ]);
  });

  it("follows each value with its value in the report currency at the trade date, signed alike (decision 207)", () => {
    const usd = { nativeCurrency: "USD", nativeTransactionValue: money(1000, "USD") };
    const csv = transactionsCsv(
      [
        tx({ ...usd, reportTransactionValue: money(781.2, "GBP") }),
        income({ ...usd, reportTransactionValue: money(780.55, "GBP") }),
        // a row the platform gave no value for in the report currency: empty, never a guess
        tx(usd),
      ],
      names,
      SHOW_ALL,
      t,
      "GBP",
    );
    expect(csv.header).toEqual([
      ...HEADER,
      'analysis.csv.columns.reportValue {"currency":"GBP"}',
      col("valueAfter"),
      col("fees"),
      col("taxes"),
    ]);
    expect(csv.rows.map((r) => r.slice(8, 13))).toEqual([
      ["USD", 125.1235, 7.9681, -1000, -781.2],
      ["USD", null, null, 1000, 780.55],
      ["USD", 125.1235, 7.9681, -1000, null],
    ]);
  });

  it("leaves units and price empty for income", () => {
    const csv = transactionsCsv([income({ volume: 12, pricePerUnit: 3.5 })], names, SHOW_ALL, t);
    expect(csv.rows[0]!.slice(9, 12)).toEqual([null, null, 1000]);
  });

  it("leaves an unknown price empty", () => {
    expect(transactionsCsv([tx({ pricePerUnit: null })], names, SHOW_ALL, t).rows[0]!.slice(9, 11)).toEqual([
      125.1235,
      null,
    ]);
  });

  it("takes the type's word as narrative when there is no comment", () => {
    const csv = transactionsCsv([income(), tx({ comment: "" })], names, SHOW_ALL, t);
    expect(csv.rows[0]![7]).toBe("analysis.transactions.types.income");
    // an empty comment is a comment: only a missing one falls back
    expect(csv.rows[1]![7]).toBe("");
  });

  it("names each type in the page's words and signs its amounts: money leaving the account negative", () => {
    const plain = { comment: null, volume: 0, pricePerUnit: null, fee: money(0), tax: money(0) };
    const rows = transactionsCsv(
      [
        tx({
          type: "sell",
          nativeTransactionValue: money(500),
          fee: money(9.99),
          tax: money(0),
          netAmount: money(490.01),
        }),
        tx({
          type: "transfer_in",
          code: "GBPCASH",
          exchange: "CASH",
          ...plain,
          nativeTransactionValue: money(2000),
          netAmount: money(2000),
        }),
        tx({
          type: "transfer_out",
          code: "GBPCASH",
          exchange: "CASH",
          ...plain,
          nativeTransactionValue: money(750),
          netAmount: money(750),
        }),
        tx({ type: "transfer_in", ...plain, nativeTransactionValue: money(300), netAmount: money(300) }),
        tx({ type: "transfer_out", ...plain, nativeTransactionValue: money(300), netAmount: money(300) }),
        income({ nativeTransactionValue: money(100), fee: money(0), tax: money(15), netAmount: money(85) }),
        tx({
          type: "fee",
          code: "GBPCASH",
          exchange: "CASH",
          ...plain,
          nativeTransactionValue: money(31.65),
          fee: money(31.65),
          netAmount: money(31.65),
        }),
        tx({
          type: "tax",
          code: "GBPCASH",
          exchange: "CASH",
          ...plain,
          nativeTransactionValue: money(12.4),
          tax: money(12.4),
          netAmount: money(12.4),
        }),
        tx({
          type: "split",
          transactionTypeDesc: "Stock split",
          ...plain,
          nativeTransactionValue: money(0),
          netAmount: money(0),
        }),
      ],
      names,
      SHOW_ALL,
      t,
    ).rows;
    const type = (key: string) => `analysis.transactions.types.${key}`;
    expect(rows.map((r) => [r[6], ...r.slice(11)])).toEqual([
      [type("sale"), 500, 490.01, -9.99, 0],
      [type("deposit"), 2000, 2000, 0, 0],
      [type("withdrawal"), -750, -750, 0, 0],
      [type("transferIn"), 300, 300, 0, 0],
      [type("transferOut"), -300, -300, 0, 0],
      [type("income"), 100, 85, 0, -15],
      // the fee is the cost: its value, not repeated as its own fee
      [type("fee"), -31.65, -31.65, null, null],
      [type("tax"), -12.4, -12.4, null, null],
      ["Stock split", 0, 0, 0, 0],
    ]);
  });

  it("names an account it has no name for by its id", () => {
    expect(transactionsCsv([tx({ accountId: 42 })], names, SHOW_ALL, t).rows[0]![2]).toBe("42");
  });

  it("names a security without a description INVALID DATA", () => {
    expect(transactionsCsv([tx({ securityDescription: "  " })], names, SHOW_ALL, t).rows[0]![3]).toBe(
      "analysis.investments.invalidName",
    );
  });

  it("keeps the transactions' order", () => {
    const csv = transactionsCsv(
      [tx({ tradeDate: "2025-01-01" }), tx({ tradeDate: "2025-03-01" }), tx({ tradeDate: "2025-02-01" })],
      names,
      SHOW_ALL,
      t,
    );
    expect(csv.rows.map((r) => r[0])).toEqual(["2025-01-01", "2025-03-01", "2025-02-01"]);
  });
});
