// What the balance sheet's CSV download holds (docs/decisions/208-balance-sheet-and-allocation-downloads.md):
// every member's tables as the page shows them, one row per asset or liability and a total row per
// table, with numbers as numbers. Pure: unit tested without a server.
import type { TFunction } from "i18next";
import type { CsvCell } from "~/lib/csv.server";
import type { BalanceSheetExport, SheetExportTable } from "~/planning/balance-sheet.server";

export type CsvTable = { header: string[]; rows: CsvCell[][] };

/** To the penny, as the page's tables show money (spec 001 §9, 2 decimals). */
const pounds = (amount: number) => Math.round(amount * 100) / 100;

const COLUMNS = [
  "member",
  "assetType",
  "managed",
  "description",
  "owners",
  "type",
  "provider",
  "policyNumber",
  "interestRate",
  "income",
  "incomeCurrency",
  "incomeFrequency",
  "valuationDate",
  "currency",
  "value",
  "percentOwned",
  "valueOwned",
] as const;
type Column = (typeof COLUMNS)[number];

/** A row with the cells named; the others empty. */
function row(cells: Partial<Record<Column, CsvCell>>): CsvCell[] {
  return COLUMNS.map((c) => cells[c] ?? null);
}

function tableRows(member: string, table: SheetExportTable, t: TFunction): CsvCell[][] {
  const common = {
    member,
    assetType: t(`balanceSheet.csv.assetTypes.${table.tab}`),
    managed: t(`balanceSheet.csv.${table.kind}`),
  };
  const items = table.figures.map(({ asset: a, shown, share }) =>
    row({
      ...common,
      description: a.desc,
      owners: a.owners.length ? a.owners.join(", ") : null,
      type: a.type,
      provider: a.provider,
      policyNumber: a.policyNumber,
      interestRate: table.tab === "liabilities" ? a.rate : null,
      income: table.tab === "annuities" && a.income ? pounds(a.income.amount) : null,
      incomeCurrency: table.tab === "annuities" && a.income ? a.income.currency : null,
      incomeFrequency: table.tab === "annuities" ? a.frequency : null,
      valuationDate: a.valuationDate,
      // the value shown and the share are in one currency (both converted, or both the item's own)
      currency: (share ?? shown)?.currency ?? null,
      value: shown ? pounds(shown.amount) : null,
      percentOwned: a.percentOwned,
      valueOwned: share ? pounds(share.amount) : null,
    }),
  );
  const total = row({
    ...common,
    description: t("balanceSheet.total"),
    currency: table.total?.currency ?? null,
    valueOwned: table.total ? pounds(table.total.amount) : null,
  });
  return [...items, total];
}

/**
 * spec 001 §2.5 as a file: each member in the selector's order, each tab in the page's order
 * (investments, pensions, annuities, liabilities), its managed table before its non-managed one as
 * the view shows them, each followed by its total as the page shows it (liabilities negative, a
 * wrapped liability against the pensions). A figure the page cannot show ('Not available') is an
 * empty cell, as is a total of shares in several currencies.
 */
export function balanceSheetCsv(sheet: Extract<BalanceSheetExport, { state: "ok" }>, t: TFunction): CsvTable {
  const header = COLUMNS.map((c) => t(`balanceSheet.csv.columns.${c}`));
  const rows = sheet.members.flatMap(({ member, tables }) =>
    tables.flatMap((table) => tableRows(member.name, table, t)),
  );
  return { header, rows };
}
