// Income received (issue 41, docs/decisions/199-income-received.md): the Income transactions
// (dividends, interest, distributions, coupons) of the accounts asked for, else of the view's
// accounts (decision 107, as the transactions call), by calendar month and by tax year of the
// jurisdiction asked for, per account and holding. Each transaction is converted to the report
// currency at its trade date's rates (cross rates via GBP, the last rate on or before it) and rounded
// once; every figure sent is an exact sum of those, so rows, months, tax years and totals add up,
// and the native amounts are the transactions call's `nativeTransactionValue`s summed.
import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { securities, transactions } from "../../db/schema";
import { convertMinor, sumMinor } from "../../domain/money";
import {
  JURISDICTIONS,
  type Jurisdiction,
  lastMonths,
  monthOf,
  sumByMonth,
  taxYearBounds,
  taxYearOf,
  taxYearsBetween,
} from "../../domain/tax-year";
import { perGbpMicros } from "../../domain/valuation";
import { wireDate } from "../../lib/wire";
import { validate } from "../http";
import { json, type Route, signedIn } from "../router";
import { loadBook } from "./book";
import { absent, Currency, IdList, opt, scope } from "./requests";
import { accountsOfView, preferredCurrencyOf, todayOf } from "./visibility";
import { moneyMinor } from "./views";

/** Issue 41: the last 24 months by default; at most ten years of months. */
const DEFAULT_MONTHS = 24;

const IncomeQuery = z.object({
  accountid: IdList,
  /** Whose tax year: GB (6 April), AU (1 July) or CA (1 January). */
  tax_year: z.preprocess(absent, z.enum(JURISDICTIONS).default("GB")),
  months: z.preprocess(absent, z.coerce.number().int().min(1).max(120).default(DEFAULT_MONTHS)),
  report_currency: opt(Currency),
});

// the income of some accounts up to a day, oldest first, prepared once per database (decision 131)
const incomeOf = (db: Db) =>
  db
    .select({
      accountId: transactions.accountId,
      securityId: transactions.securityId,
      tradeDate: transactions.tradeDate,
      currency: transactions.currency,
      grossMinor: transactions.grossMinor,
      description: securities.description,
      code: securities.code,
      isin: securities.isin,
    })
    .from(transactions)
    .innerJoin(securities, eq(securities.id, transactions.securityId))
    .where(
      and(
        inJsonList(transactions.accountId, "ids"),
        eq(transactions.type, "income"),
        gte(transactions.tradeDate, sql.placeholder("start")),
        lte(transactions.tradeDate, sql.placeholder("stop")),
      ),
    )
    .orderBy(asc(transactions.tradeDate), asc(transactions.id))
    .prepare();

type Cell = {
  accountId: number;
  securityId: number;
  currency: string;
  month: string;
  taxYear: number;
  nativeMinor: number;
  minor: number;
  count: number;
};

type IncomeRequest = {
  ids: number[];
  today: string;
  jurisdiction: Jurisdiction;
  months: number;
  currency: string;
};

type IncomeRow = ReturnType<ReturnType<typeof incomeOf>["all"]>[number];

/** Each income converted at its trade date's rates and rounded once, summed by holding, month and tax year. */
function incomeCells(db: Db, rows: readonly IncomeRow[], r: IncomeRequest) {
  const fx = loadBook(db, r.ids, r.today).fx;
  const holdings = new Map<
    string,
    { accountid: number; security_id: number; description: string; code: string; isin: string | null; currency: string }
  >();
  const cells = new Map<string, Cell>();
  for (const t of rows) {
    const minor = convertMinor(
      t.grossMinor,
      perGbpMicros(fx, t.currency, t.tradeDate),
      perGbpMicros(fx, r.currency, t.tradeDate),
    );
    const holding = `${t.accountId}:${t.securityId}:${t.currency}`;
    if (!holdings.has(holding))
      holdings.set(holding, {
        accountid: t.accountId,
        security_id: t.securityId,
        description: t.description,
        code: t.code,
        isin: t.isin,
        currency: t.currency,
      });
    const month = monthOf(t.tradeDate);
    const taxYear = taxYearOf(t.tradeDate, r.jurisdiction);
    const key = `${holding}:${month}:${taxYear}`;
    const cell = cells.get(key) ?? {
      accountId: t.accountId,
      securityId: t.securityId,
      currency: t.currency,
      month,
      taxYear,
      nativeMinor: 0,
      minor: 0,
      count: 0,
    };
    cell.nativeMinor = sumMinor([cell.nativeMinor, t.grossMinor]);
    cell.minor = sumMinor([cell.minor, minor]);
    cell.count += 1;
    cells.set(key, cell);
  }
  return { holdings, cells };
}

/** The answer of an income request: the months, the tax years, the holdings and their cells. */
function incomeAnswer(db: Db, r: IncomeRequest) {
  const months = lastMonths(r.today, r.months);
  const windowStart = months[0]!.start;
  // every income up to today: the tax years reach back to the first one
  const rows = r.ids.length
    ? prepared(db, incomeOf).all({ ids: jsonList(r.ids), start: "0000-01-01", stop: r.today })
    : [];
  const first = rows[0]?.tradeDate ?? r.today;
  const years = taxYearsBetween(first < windowStart ? first : windowStart, r.today, r.jurisdiction);
  const { holdings, cells } = incomeCells(db, rows, r);
  const all = [...cells.values()];
  const total = (keep: (c: Cell) => boolean) => moneyMinor(r.currency, sumMinor(all.filter(keep).map((c) => c.minor)));
  const byMonth = sumByMonth(
    months,
    all.map((c) => ({ date: `${c.month}-01`, minor: c.minor })),
  );
  return {
    report_currency: r.currency,
    tax_year: r.jurisdiction,
    end_date: wireDate(r.today),
    months: months.map((m) => ({
      month: m.month,
      start_date: wireDate(m.start),
      end_date: wireDate(m.end),
      income: moneyMinor(r.currency, byMonth.get(m.month) ?? 0),
    })),
    tax_years: years.map((year) => {
      const { start, end } = taxYearBounds(year, r.jurisdiction);
      return {
        tax_year: year,
        start_date: wireDate(start),
        end_date: wireDate(end),
        income: total((c) => c.taxYear === year),
      };
    }),
    holdings: [...holdings.values()],
    rows: all.map((c) => ({
      accountid: c.accountId,
      security_id: c.securityId,
      month: c.month,
      tax_year: c.taxYear,
      native_income: moneyMinor(c.currency, c.nativeMinor),
      income: moneyMinor(r.currency, c.minor),
      transactions: c.count,
    })),
  };
}

export const incomeRoutes: Route[] = [
  // issue 41: income received by month and tax year, per account and holding
  signedIn("GET", "/resourceful/portfolio/income", (request, context) => {
    const query = validate(IncomeQuery, request.query, "query");
    // without a list: the view's accounts (own and managed, decision 107), as the transactions call
    const { entityId, selected } = scope(context, query.accountid);
    const accounts = query.accountid ? selected : accountsOfView(selected);
    return json(
      incomeAnswer(context.db, {
        ids: accounts.map((a) => a.account.id),
        today: todayOf(context),
        jurisdiction: query.tax_year,
        months: query.months,
        currency: query.report_currency ?? preferredCurrencyOf(context.db, entityId),
      }),
    );
  }),
];
