// The allocation tab's CSV download (docs/decisions/208-balance-sheet-and-allocation-downloads.md):
// each breakdown the tab shows (asset class, sector, region), its categories with their amounts
// and percentages, each category's investments, and the breakdown's total. Pure: unit tested
// without a server.
import type { TFunction } from "i18next";
import type { AllocationAnswer, AllocationType } from "~/lib/analysis/investments";
import type { CsvCell } from "~/lib/csv.server";
import { allocationPercentages } from "~/lib/analysis/allocation-percentages";
import type { CsvTable } from "./csv-rows";

const pounds = (amount: number) => Math.round(amount * 100) / 100;

/**
 * spec 001 §2.3 allocation: one block of rows per breakdown shown, in the tab's order. A category
 * row has its amount and its whole percentage as the page shows it (spec 001 §2.1: they add up to
 * 100); its investments follow, largest first as on the page, with their amounts; a last row has
 * the breakdown's total. Amounts are to the penny (the page rounds them to whole units, spec 001
 * §9), so the rows of a breakdown add up to its total.
 */
export function allocationCsv(answer: AllocationAnswer, types: readonly AllocationType[], t: TFunction): CsvTable {
  const column = (key: string) => t(`analysis.allocation.csv.columns.${key}`);
  const header = [
    column("breakdown"),
    column("category"),
    column("investment"),
    column("account"),
    column("currency"),
    column("amount"),
    column("percentage"),
  ];
  // the page's rule: nothing to show without a category or a positive total (allocationView)
  const shown = types.filter((type) => answer.types[type].length);
  if (!shown.length || answer.total.amount <= 0) return { header, rows: [] };
  // the page's percentages: one map across the panels, in the page's order (decision 207)
  const shownBefore = new Map<string, number>();
  const rows = shown.flatMap((type): CsvCell[][] => {
    const breakdown = t(`analysis.allocation.types.${type}`);
    const categories = answer.types[type];
    const shares = allocationPercentages(categories, answer.total, shownBefore);
    const blocks = categories.flatMap((c, i): CsvCell[][] => [
      [breakdown, c.name, null, null, c.value.currency, pounds(c.value.amount), shares[i]!],
      ...[...c.positions]
        .sort((a, b) => b.value.amount - a.value.amount)
        .map((p): CsvCell[] => [
          breakdown,
          c.name,
          p.description?.trim() || t("analysis.investments.invalidName"),
          p.account,
          p.value.currency,
          pounds(p.value.amount),
          null,
        ]),
    ]);
    const percent = shares.reduce((sum, share) => sum + share, 0);
    return [
      ...blocks,
      [
        breakdown,
        t("analysis.allocation.csv.total"),
        null,
        null,
        answer.total.currency,
        pounds(answer.total.amount),
        percent,
      ],
    ];
  });
  return { header, rows };
}
