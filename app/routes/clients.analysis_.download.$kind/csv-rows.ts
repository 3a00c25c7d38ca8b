// What the analysis page's CSV downloads hold (docs/decisions/094-investments-and-allocation.md):
// the rows and columns the investments and transactions tabs show, in the currency shown, with
// numbers as numbers. Pure: unit tested without a server.
import type { TFunction } from "i18next";
import type { InvestmentsTable, Money } from "~/lib/analysis/investments";
import { type HideSettings, shownUnder, signedAmounts, transactionKind } from "~/lib/analysis/transactions";
import type { CsvCell } from "~/lib/csv.server";

export type CsvTable = { header: string[]; rows: CsvCell[][] };

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
const amount = (m: Money | null) => (m ? round(m.amount, 2) : null);
const percent = (n: number | null) => (n === null ? null : round(n, 2));

/** spec 001 §2.3 investments: one row per holding, in the table's order and currency. */
export function investmentsCsv(table: InvestmentsTable, t: TFunction): CsvTable {
  const column = (key: string) => t(`analysis.csv.columns.${key}`);
  const header = [
    column("account"),
    column("security"),
    column("code"),
    column("isin"),
    column("currency"),
    column("units"),
    column("price"),
    column("cost"),
    column("weight"),
    column("value"),
    ...(table.columns.gain ? [column("gain"), column("gainPercent")] : []),
    ...(table.columns.income ? [column("income"), column("yield")] : []),
  ];
  const rows = table.accounts.flatMap((account) =>
    account.positions.map((p): CsvCell[] => [
      account.name,
      p.name ?? t("analysis.investments.invalidName"),
      p.code,
      p.isin,
      p.cells.currency,
      round(p.volume, 4),
      p.cells.price === null ? null : round(p.cells.price, 4),
      amount(p.cells.cost),
      percent(p.cells.weight),
      amount(p.cells.value),
      ...(table.columns.gain ? [amount(p.cells.gain), percent(p.cells.gainPercent)] : []),
      ...(table.columns.income ? [amount(p.cells.income), percent(p.cells.yieldPercent)] : []),
    ]),
  );
  return { header, rows };
}

const ZERO = { value: 0, valueAfter: 0, fees: 0, taxes: 0 };

export type CsvTransaction = {
  tradeDate: string;
  settlementDate: string;
  accountId: number;
  securityDescription: string;
  code: string;
  exchange: string;
  securityIsin: string | null;
  type: string;
  transactionTypeDesc: string;
  comment: string | null;
  nativeCurrency: string;
  volume: number;
  pricePerUnit: number | null;
  nativeTransactionValue: Money;
  fee: Money;
  tax: Money;
  netAmount: Money;
  /** Decision 207: the value in the report currency at the trade date, when the platform was asked for it. */
  reportTransactionValue?: Money;
};

/**
 * spec 001 §2.3 transactions with their detail fields; spec 001 §5: a column hidden for all
 * transactions is left out, one hidden for income only is empty on income rows, as is 'Number /
 * unit price'. Dates are ISO (YYYY-MM-DD), which every spreadsheet reads the same way. The type is
 * the page's word for it and the amounts are signed as the page signs them (decision 108): money
 * leaving the account negative; a fee or a tax has no fees or taxes of its own (empty).
 */
export function transactionsCsv(
  list: readonly CsvTransaction[],
  accountNames: ReadonlyMap<number, string>,
  hide: HideSettings,
  t: TFunction,
  /** Decision 207: the report currency, whose value at the trade date follows each value (when given). */
  reportCurrency?: string,
): CsvTable {
  const column = (key: string) => t(`analysis.csv.columns.${key}`);
  type Signed = ReturnType<typeof signedAmounts>;
  const optional = [
    { key: "valueAfter", setting: hide.valueAfter, value: (x: Signed) => x.valueAfter },
    { key: "fees", setting: hide.fees, value: (x: Signed) => x.fees },
    { key: "taxes", setting: hide.taxes, value: (x: Signed) => x.taxes },
  ].filter((c) => c.setting !== "Hide For All Transactions");
  const header = [
    column("tradeDate"),
    column("settlementDate"),
    column("account"),
    column("security"),
    column("code"),
    column("isin"),
    column("type"),
    column("narrative"),
    column("currency"),
    column("units"),
    column("price"),
    column("transactionValue"),
    ...(reportCurrency ? [t("analysis.csv.columns.reportValue", { currency: reportCurrency })] : []),
    ...optional.map((c) => column(c.key)),
  ];
  const rows = list.map((x): CsvCell[] => {
    const income = x.type === "income";
    const kind = transactionKind(x);
    const type = kind === "other" ? x.transactionTypeDesc : t(`analysis.transactions.types.${kind}`);
    // each amount rounded once, unsigned as the platform sends it, then given its sign: the same figure as the page's
    const signed = signedAmounts(kind, {
      value: amount(x.nativeTransactionValue) ?? 0,
      valueAfter: amount(x.netAmount) ?? 0,
      fees: amount(x.fee) ?? 0,
      taxes: amount(x.tax) ?? 0,
    });
    return [
      x.tradeDate,
      x.settlementDate,
      accountNames.get(x.accountId) ?? String(x.accountId),
      x.securityDescription.trim() || t("analysis.investments.invalidName"),
      x.code,
      x.securityIsin,
      type,
      x.comment ?? type,
      x.nativeCurrency,
      income ? null : round(x.volume, 4),
      income || x.pricePerUnit === null ? null : round(x.pricePerUnit, 4),
      signed.value,
      // signed as the value is: the same money, in the report currency at the day's rate
      ...(reportCurrency
        ? [
            x.reportTransactionValue
              ? signedAmounts(kind, { ...ZERO, value: amount(x.reportTransactionValue)! }).value
              : null,
          ]
        : []),
      ...optional.map((c) => (shownUnder(c.setting, income) ? c.value(signed) : null)),
    ];
  });
  return { header, rows };
}
