// Income received (issue 41, docs/decisions/199-income-received.md): whose tax year the site uses,
// how a tax year is named, and the platform's cells added up per account and holding for a period
// in whole minor units, so that every total is the exact sum of the rows shown. Pure: unit tested
// without a server.
import { byName } from "~/lib/collation";
import { toMinor } from "~/lib/money";

/** Whose tax year: the UK's (6 April to 5 April), Australia's (1 July to 30 June), Canada's (the calendar year). */
export type Jurisdiction = "GB" | "AU" | "CA";

/** The site's jurisdiction, from its locale's country (decision 120): Australia, Canada, else the UK. */
export function jurisdictionOf(locale: string): Jurisdiction {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).region;
  } catch {
    region = undefined;
  }
  return region === "AU" ? "AU" : region === "CA" ? "CA" : "GB";
}

/**
 * A tax year as its country writes it, from the year it starts in: the UK's 2024/25, Australia's
 * 2024–25 (a financial year), Canada's 2024 (the calendar year).
 */
export function taxYearLabel(year: number, jurisdiction: Jurisdiction): string {
  if (jurisdiction === "CA") return String(year);
  const next = String((year + 1) % 100).padStart(2, "0");
  return jurisdiction === "AU" ? `${year}–${next}` : `${year}/${next}`;
}

type Money = { currency: string; amount: number };

/** What the income view reads of the platform's answer (app/planning/income.server.ts). */
export type IncomeCells = {
  report_currency: string;
  tax_year: Jurisdiction;
  months: Array<{ month: string; start_date: string; end_date: string; income: Money }>;
  tax_years: Array<{ tax_year: number; start_date: string; end_date: string; income: Money }>;
  holdings: Array<{
    accountid: number;
    security_id: number;
    description: string;
    code: string;
    isin: string | null;
    currency: string;
  }>;
  rows: Array<{
    accountid: number;
    security_id: number;
    month: string;
    tax_year: number;
    native_income: Money;
    income: Money;
  }>;
};

export type HoldingIncome = {
  securityId: number;
  name: string;
  code: string;
  isin: string | null;
  /** The holding's own currency, and what it paid in it. */
  currency: string;
  nativeMinor: number;
  /** In the report currency. */
  minor: number;
};
export type AccountIncome = { accountId: number; name: string; minor: number; holdings: HoldingIncome[] };
export type IncomeTotals = {
  accounts: AccountIncome[];
  /** The period's total in the report currency: the sum of the accounts', which are their holdings'. */
  minor: number;
  /** What was paid in each currency, before conversion (the transactions tab's values), by currency code. */
  byCurrency: Array<{ currency: string; nativeMinor: number }>;
};

/** Which of the answer's cells a period holds: the last months listed, or one tax year. */
export function cellsOf(answer: IncomeCells, taxYear: number | null): IncomeCells["rows"] {
  if (taxYear !== null) return answer.rows.filter((r) => r.tax_year === taxYear);
  const months = new Set(answer.months.map((m) => m.month));
  return answer.rows.filter((r) => months.has(r.month));
}

/**
 * A period's income per account (in `accountOrder`, the page's order; an account not named last, by
 * id) and per holding (by name), in whole minor units: each holding's sum of its cells, each
 * account's of its holdings, the total of the accounts.
 */
export function incomeTotals(
  answer: IncomeCells,
  taxYear: number | null,
  accountNames: ReadonlyMap<number, string>,
  locale: string,
): IncomeTotals {
  const holdingOf = new Map(answer.holdings.map((h) => [`${h.accountid}:${h.security_id}:${h.currency}`, h]));
  const accounts = new Map<number, Map<string, HoldingIncome>>();
  const byCurrency = new Map<string, number>();
  for (const cell of cellsOf(answer, taxYear)) {
    const key = `${cell.accountid}:${cell.security_id}:${cell.native_income.currency}`;
    const h = holdingOf.get(key);
    const holdings = accounts.get(cell.accountid) ?? new Map<string, HoldingIncome>();
    accounts.set(cell.accountid, holdings);
    const holding = holdings.get(key) ?? {
      securityId: cell.security_id,
      name: h?.description.trim() ?? "",
      code: h?.code ?? "",
      isin: h?.isin ?? null,
      currency: cell.native_income.currency,
      nativeMinor: 0,
      minor: 0,
    };
    holding.nativeMinor += toMinor(cell.native_income.amount);
    holding.minor += toMinor(cell.income.amount);
    holdings.set(key, holding);
    const currency = cell.native_income.currency;
    byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + toMinor(cell.native_income.amount));
  }
  const order = [...accountNames.keys()];
  const rank = (id: number) => (order.includes(id) ? order.indexOf(id) : order.length);
  const list: AccountIncome[] = [...accounts.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a - b)
    .map(([accountId, holdings]) => {
      const rows = [...holdings.values()].sort(byName(locale, (x) => x.name));
      return {
        accountId,
        name: accountNames.get(accountId) ?? String(accountId),
        minor: rows.reduce((sum, x) => sum + x.minor, 0),
        holdings: rows,
      };
    });
  return {
    accounts: list,
    minor: list.reduce((sum, a) => sum + a.minor, 0),
    byCurrency: [...byCurrency.entries()]
      .sort(([a], [b]) => (a === answer.report_currency ? -1 : b === answer.report_currency ? 1 : a.localeCompare(b)))
      .map(([currency, nativeMinor]) => ({ currency, nativeMinor })),
  };
}

/** The chart's bars: the months of the last 24 (oldest first), or the tax years (oldest first). */
export function incomeBars(
  answer: IncomeCells,
  taxYear: number | null,
): Array<{ key: string; start: string; end: string; minor: number }> {
  if (taxYear === null)
    return answer.months.map((m) => ({
      key: m.month,
      start: m.start_date,
      end: m.end_date,
      minor: toMinor(m.income.amount),
    }));
  return [...answer.tax_years]
    .reverse()
    .map((y) => ({ key: String(y.tax_year), start: y.start_date, end: y.end_date, minor: toMinor(y.income.amount) }));
}
