// spec 001 §3 "Transaction", §7 "Transactions": the transactions of the accounts asked for (else of
// the view's accounts: own and managed, decision 107), or of the client's own managed accounts of a group, newest first, paged with an opaque bookmark
// (docs/platform-api.md "Paging"); the page size is the spec's 200 by default (up to 2,000), a
// shorter page being the last.
import { and, desc, eq, gte, lt, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { securities, transactions } from "../../db/schema";
import { decodeBookmark, encodeBookmark } from "../../lib/bookmark";
import { wireDate } from "../../lib/wire";
import { ApiError, MESSAGES, validate } from "../http";
import { json, type Route, type SignedInContext, signedIn } from "../router";
import { accountsOfView, isManaged, todayOf, type VisibleAccount } from "./visibility";
import { money, moneyMinor } from "./views";
import {
  absent,
  Bool,
  CodeParams,
  Currency,
  earliestInception,
  IdList,
  IsoDate,
  measureFor,
  opt,
  ownAccountsOfGroup,
  Pricing,
  requestedPeriod,
  scope,
  TIMEFRAMES,
} from "./requests";
import { type LedgerTransaction, type Measure, transactionValueMinor } from "../../domain/performance";
import { bookOfAccounts } from "./book";

const SORT = "trade_date_desc";
/** spec 001 §9: transactions are asked for 200 at a time from 1900-01-01. */
const DEFAULT_PAGE_SIZE = 200;
const FIRST_DATE = "1900-01-01";

const TransactionQuery = z.object({
  accountid: IdList,
  start_date: opt(IsoDate),
  stop_date: opt(IsoDate),
  /** Instead of the dates: a named period as the performance calls date it (decision 091). */
  timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).optional()),
  hold_back_period: Bool,
  page_size: z.preprocess(absent, z.coerce.number().int().min(1).max(2000).default(DEFAULT_PAGE_SIZE)),
  page_bookmark: opt(z.string().max(500)),
  /** Accepted as the spec's callers send it (2, 7); the order is always newest first. */
  sort_type: opt(z.string().max(10)),
  /**
   * Decision 207: each transaction's value in this currency at its trade date too
   * (`reportTransactionValue`), priced as `to_pricing_type` prices (default close).
   */
  report_currency: opt(Currency),
  to_pricing_type: opt(Pricing),
});

/** What a transaction type is called on screen. */
const TYPE_DESCRIPTIONS: Record<string, string> = {
  buy: "Purchase",
  sell: "Sale",
  income: "Income",
  fee: "Fee",
  tax: "Tax",
  transfer_in: "Transfer in",
  transfer_out: "Transfer out",
};

type TransactionQuery = z.output<typeof TransactionQuery>;

// the page's two statements (first page, after a bookmark), prepared once per database for any
// number of accounts (decision 131)
const pageOf = (db: Db, afterBookmark: boolean) =>
  db
    .select({ t: transactions, s: securities })
    .from(transactions)
    .innerJoin(securities, eq(securities.id, transactions.securityId))
    .where(
      and(
        inJsonList(transactions.accountId, "ids"),
        gte(transactions.tradeDate, sql.placeholder("start")),
        lte(transactions.tradeDate, sql.placeholder("stop")),
        afterBookmark
          ? or(
              lt(transactions.tradeDate, sql.placeholder("key")),
              and(eq(transactions.tradeDate, sql.placeholder("key")), lt(transactions.id, sql.placeholder("id"))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(transactions.tradeDate), desc(transactions.id))
    .limit(sql.placeholder("limit"))
    .prepare();
const firstPage = (db: Db) => pageOf(db, false);
const pageAfterBookmark = (db: Db) => pageOf(db, true);

/**
 * One page of the transactions of `selected` (accounts the client sees), newest first (trade date,
 * then id), after the bookmark: the answer of the plain and the group path alike.
 */
function transactionPage(
  context: SignedInContext,
  entityId: number,
  selected: readonly VisibleAccount[],
  query: TransactionQuery,
) {
  const ids = selected.map((a) => a.account.id);
  const today = todayOf(context);
  const { start, end: stop } = query.timeframe
    ? requestedPeriod(query, today, earliestInception(selected))
    : { start: query.start_date ?? FIRST_DATE, end: query.stop_date ?? today };
  const bookmark = query.page_bookmark ? decodeBookmark(query.page_bookmark) : null;
  if (query.page_bookmark && (!bookmark || bookmark.sort !== SORT || typeof bookmark.key !== "string"))
    throw new ApiError(400, "Invalid page_bookmark", MESSAGES.argumentsIncorrect);
  if (!ids.length) return json([]);
  const asked = { ids: jsonList(ids), start, stop, limit: query.page_size };
  const rows = bookmark
    ? prepared(context.db, pageAfterBookmark).all({ ...asked, key: bookmark.key as string, id: bookmark.id })
    : prepared(context.db, firstPage).all(asked);
  if (!query.report_currency) return json(rows.map(({ t, s }) => transactionRow(t, s)));
  const measure: Pick<Measure, "currency" | "pricing"> = measureFor(
    context,
    entityId,
    query.to_pricing_type ?? "close",
    "after",
    query.report_currency,
  );
  const book = bookOfAccounts(context.db, selected, today);
  return json(
    rows.map(({ t, s }) => ({
      ...transactionRow(t, s),
      reportTransactionValue: moneyMinor(
        measure.currency,
        transactionValueMinor(book, { ...t, type: t.type as LedgerTransaction["type"] }, measure),
      ),
    })),
  );
}

function transactionRow(t: typeof transactions.$inferSelect, s: typeof securities.$inferSelect) {
  return {
    id: t.id,
    accountId: t.accountId,
    tradeDate: wireDate(t.tradeDate),
    settlementDate: wireDate(t.settlementDate),
    securityDescription: s.description,
    type: t.type,
    transactionTypeDesc: TYPE_DESCRIPTIONS[t.type] ?? t.type,
    nativeCurrency: t.currency,
    nativeTransactionValue: money(t.currency, t.grossMinor / 100),
    grossAmount: money(t.currency, t.grossMinor / 100),
    netAmount: money(t.currency, t.netMinor / 100),
    fee: money(t.currency, t.feeMinor / 100),
    tax: money(t.currency, t.taxMinor / 100),
    volume: t.quantityMicros / 1_000_000,
    pricePerUnit: t.priceMicros === null ? null : t.priceMicros / 1_000_000,
    code: s.code,
    exchange: s.exchange,
    securityIsin: s.isin,
    comment: t.narrative,
    // every row carries its bookmark; the last one's asks for the next page
    bookmark: encodeBookmark({ sort: SORT, key: t.tradeDate, id: t.id }),
  };
}

export const transactionRoutes: Route[] = [
  // spec 001 §7 the transactions of the accounts asked for (default the view's accounts)
  signedIn("GET", "/resourceful/portfolio/transaction", (request, context) => {
    const query = validate(TransactionQuery, request.query, "query");
    // without a list: the view's accounts (own and managed, decision 107), as the figures cover
    const { entityId, selected } = scope(context, query.accountid);
    return transactionPage(context, entityId, query.accountid ? selected : accountsOfView(selected), query);
  }),

  // ... and of the client's own managed accounts of a group (the spec's callers send sort_type 7)
  signedIn("GET", "/resourceful/portfolio/group/account/code/:code/transaction", (request, context) => {
    const { code } = validate(CodeParams, request.params, "path");
    const query = validate(TransactionQuery, request.query, "query");
    const { entityId, all } = scope(context, query.accountid);
    const asked = query.accountid ? new Set(query.accountid) : null;
    const members = ownAccountsOfGroup(all, code).filter((a) => isManaged(a) && (!asked || asked.has(a.account.id)));
    return transactionPage(context, entityId, members, query);
  }),
];
