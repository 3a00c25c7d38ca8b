// The book of a set of accounts: their securities, prices, FX rates and ledger, for valuations and
// returns (docs/decisions/071-portfolio-book.md).
import type Database from "better-sqlite3";
import type { Db } from "../../db/connection";
import { DerivedCache } from "../../db/derived";
import {
  type Book,
  type Frequency,
  type LedgerTransaction,
  type Measure,
  type PeriodPerformance,
  periodPerformance,
  type SeriesPoint,
  seriesDates,
  timeSeries,
} from "../../domain/performance";
import type { PricePoint, SecurityPricing } from "../../domain/valuation";
import type { VisibleAccount } from "./visibility";

type LedgerRow = [
  accountId: number,
  securityId: number,
  type: LedgerTransaction["type"],
  tradeDate: string,
  quantityMicros: number,
  netMinor: number,
  cashSecurityId: number | null,
  currency: string,
  feeMinor: number,
  taxMinor: number,
];

/** Books kept per database: a client's pages ask for a few (all history, a period's start...). */
const books = new DerivedCache<Book>(64);

/**
 * The transactions, prices, FX rates and plan currencies of some accounts, for valuations from
 * `from` (default: all history) up to today: the prices and rates of those dates and the last one
 * before `from`. Kept (docs/decisions/123-platform-derived-figures.md) by accounts, today and
 * `from` until a transaction, price, rate, security or account is written; shared, so never
 * changed by its readers.
 */
export function loadBook(db: Db, accountIds: readonly number[], today: string, from = "0000-01-01"): Book {
  const key = `${[...new Set(accountIds)].sort((a, b) => a - b).join(",")}|${today}|${from}`;
  return books.get(db, key, () => readBook(db, accountIds, today, from));
}

/** The book of some visible accounts (`loadBook` of their ids), for valuations from `from` up to today. */
export function bookOfAccounts(db: Db, list: readonly VisibleAccount[], today: string, from?: string): Book {
  return loadBook(
    db,
    list.map((a) => a.account.id),
    today,
    from,
  );
}

/**
 * The figures derived from a book (a period's performance, a series), kept with it: `key` names
 * everything else they depend on (accounts of the sub-book, dates, measure). Bounded per book; gone
 * with the book when it is dropped.
 */
const derivedOfBook = new WeakMap<Book, Map<string, unknown>>();
const DERIVED_PER_BOOK = 256;

export function deriveFrom<T>(book: Book, key: string, compute: () => T): T {
  let figures = derivedOfBook.get(book);
  if (!figures) {
    figures = new Map();
    derivedOfBook.set(book, figures);
  }
  if (figures.has(key)) return figures.get(key) as T;
  const value = compute();
  figures.set(key, value);
  if (figures.size > DERIVED_PER_BOOK) figures.delete(figures.keys().next().value as string);
  return value;
}

/**
 * Raw statements answering arrays: a book holds some ten thousand price rows, and mapping them to
 * objects row by row costs more than the performance arithmetic itself.
 */
const bookStatements = new WeakMap<Db["$client"], Map<string, Database.Statement<unknown[]>>>();

/**
 * A raw statement of the book, prepared once per database (decision 131): lists of ids are one JSON
 * array parameter read through `json_each`, so books of any number of accounts share it.
 */
function bookStatement(db: Db, source: string) {
  const sqlite = db.$client;
  let kept = bookStatements.get(sqlite);
  if (!kept) {
    kept = new Map();
    bookStatements.set(sqlite, kept);
  }
  let statement = kept.get(source);
  if (!statement) {
    statement = sqlite.prepare<unknown[]>(source).raw();
    kept.set(source, statement);
  }
  return statement;
}

const IDS = "(SELECT value FROM json_each(?))";

function readBook(db: Db, accountIds: readonly number[], today: string, from: string): Book {
  const ids = [...new Set(accountIds)];
  const idList = JSON.stringify(ids);
  const rows = ids.length
    ? (bookStatement(
        db,
        `SELECT account_id, security_id, type, trade_date, quantity_micros, net_minor, cash_security_id, currency, fee_minor, tax_minor
         FROM transactions WHERE account_id IN ${IDS} ORDER BY trade_date, id`,
      ).all(idList) as LedgerRow[])
    : [];
  const ledger: LedgerTransaction[] = rows.map((t) => ({
    accountId: t[0],
    securityId: t[1],
    type: t[2],
    tradeDate: t[3],
    quantityMicros: t[4],
    netMinor: t[5],
    cashSecurityId: t[6],
    currency: t[7],
    feeMinor: t[8],
    taxMinor: t[9],
  }));
  const securityIds = [
    ...new Set(ledger.flatMap((t) => (t.cashSecurityId == null ? [t.securityId] : [t.securityId, t.cashSecurityId]))),
  ];
  const prices = new Map<number, SecurityPricing>();
  if (securityIds.length) {
    const securityList = JSON.stringify(securityIds);
    const currencies = bookStatement(db, `SELECT id, currency FROM securities WHERE id IN ${IDS}`).all(
      securityList,
    ) as Array<[number, string]>;
    const currencyOf = new Map(currencies);
    const series = new Map<number, PricePoint[]>();
    for (const id of securityIds) {
      const points: PricePoint[] = [];
      series.set(id, points);
      prices.set(id, { currency: currencyOf.get(id) ?? "GBP", series: points });
    }
    const priceRows = bookStatement(
      db,
      `SELECT security_id, MAX(date), price_micros FROM security_prices WHERE security_id IN ${IDS} AND date < ? GROUP BY security_id
       UNION ALL
       SELECT security_id, date, price_micros FROM security_prices WHERE security_id IN ${IDS} AND date >= ? AND date <= ?
       ORDER BY 1, 2`,
    ).all(securityList, from, securityList, from, today) as Array<[number, string, number]>;
    for (const [id, date, micros] of priceRows) series.get(id)?.push({ date, micros });
  }
  const fx: Record<string, PricePoint[]> = {};
  const fxRows = bookStatement(
    db,
    // the rates before `from` by the date index (a range), not the whole table in currency order
    `SELECT currency, MAX(date), rate_micros FROM fx_rates INDEXED BY fx_rates_date_idx WHERE date < ? GROUP BY currency
     UNION ALL
     SELECT currency, date, rate_micros FROM fx_rates WHERE date >= ? AND date <= ?
     ORDER BY 1, 2`,
  ).all(from, from, today) as Array<[string, string, number]>;
  for (const [currency, date, micros] of fxRows) (fx[currency] ??= []).push({ date, micros });
  const planCurrencies = new Map(
    ids.length
      ? (bookStatement(db, `SELECT id, plan_currency FROM accounts WHERE id IN ${IDS}`).all(idList) as Array<
          [number, string]
        >)
      : [],
  );
  return { transactions: ledger, prices, fx, planCurrencies, today };
}

/** The same book restricted to some of its accounts. */
export function subBook(book: Book, accountIds: ReadonlySet<number>): Book {
  return {
    ...book,
    transactions: book.transactions.filter((t) => accountIds.has(t.accountId)),
  };
}

const measureKey = (measure: Measure) => `${measure.currency}|${measure.pricing}|${measure.basis}`;

/** A period's performance of some of a book's accounts, kept with the book. */
export function performanceOf(
  book: Book,
  accountIds: readonly number[],
  start: string,
  end: string,
  measure: Measure,
): PeriodPerformance {
  return deriveFrom(book, `period|${accountIds.join(",")}|${start}|${end}|${measureKey(measure)}`, () =>
    periodPerformance(subBook(book, new Set(accountIds)), start, end, measure),
  );
}

/** A book's value and cumulative return at each of a period's points, kept with the book. */
export function seriesOf(
  book: Book,
  start: string,
  end: string,
  frequency: Frequency,
  measure: Measure,
): SeriesPoint[] {
  return deriveFrom(book, `series|${start}|${end}|${frequency}|${measureKey(measure)}`, () =>
    timeSeries(book, seriesDates(start, end, frequency), measure),
  );
}
