// spec 001 §7 "benchmark names and benchmark data" and cash flows: the benchmarks a chart can be
// drawn against, and the money paid into and taken out of a selection of accounts
// (docs/decisions/091-benchmarks-and-cash-flows.md).
import { asc, eq, min } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { prepared } from "../../db/prepared";
import { benchmarkPrices, benchmarks } from "../../db/schema";
import { sumMinor } from "../../domain/money";
import { externalFlows } from "../../domain/performance";
import { wireDate } from "../../lib/wire";
import { clientEntityOf } from "../access";
import { validate } from "../http";
import { json, type Route, signedIn } from "../router";
import { accountsOfView, isManaged, todayOf } from "./visibility";
import { bookOfAccounts, subBook } from "./book";
import { moneyMinor } from "./views";
import {
  absent,
  Bool,
  Currency,
  earliestInception,
  FeesAndTaxes,
  IdList,
  IsoDate,
  opt,
  periodMeasure,
  Pricing,
  requestedPeriod,
  scope,
  TIMEFRAMES,
} from "./requests";

const CashflowQuery = z
  .object({
    start_date: opt(IsoDate),
    end_date: opt(IsoDate),
    timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).optional()),
    hold_back_period: Bool,
    to_pricing_type: z.preprocess(absent, Pricing.default("close")),
    fees_and_taxes: FeesAndTaxes,
    report_currency: opt(Currency),
    accountid: IdList,
  })
  .refine((q) => q.timeframe !== undefined || (q.start_date !== undefined && q.end_date !== undefined), {
    message: "start_date and end_date, or timeframe, are required",
  });

// prepared once per database (decision 131)
const benchmarkList = (db: Db) =>
  db
    .select({
      code: benchmarks.code,
      name: benchmarks.name,
      currency: benchmarks.currency,
      first: min(benchmarkPrices.date),
    })
    .from(benchmarks)
    .leftJoin(benchmarkPrices, eq(benchmarkPrices.benchmarkId, benchmarks.id))
    .groupBy(benchmarks.id)
    .orderBy(asc(benchmarks.id))
    .prepare();

export const benchmarkRoutes: Route[] = [
  // every benchmark a chart may be drawn against, with the first date of its levels
  signedIn("GET", "/resourceful/portfolio/benchmark", (_request, context) => {
    clientEntityOf(context.caller);
    const rows = prepared(context.db, benchmarkList).all();
    return json(
      rows.map((b) => ({
        code: b.code,
        name: b.name,
        currency: b.currency,
        start_date: b.first ? wireDate(b.first) : null,
      })),
    );
  }),

  // the external flows (transfers in and out; fees and taxes too before them) of a selection over a period
  signedIn("GET", "/resourceful/portfolio/profit_analysis/cashflow", (request, context) => {
    const query = validate(CashflowQuery, request.query, "query");
    const { entityId, selected } = scope(context, query.accountid);
    const list = query.accountid ? selected.filter(isManaged) : accountsOfView(selected);
    const today = todayOf(context);
    const { start, end } = requestedPeriod(query, today, earliestInception(list));
    const measure = periodMeasure(context, entityId, query);
    const book = bookOfAccounts(context.db, list, today, start);
    const flows = list
      .flatMap((a) =>
        externalFlows(subBook(book, new Set([a.account.id])), start, end, measure).map((f) => ({
          ...f,
          accountid: a.account.id,
        })),
      )
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.accountid - b.accountid));
    // each flow rounded once; the sums are exact in minor units (decision 106)
    const inflows = sumMinor(flows.filter((f) => f.minor > 0).map((f) => f.minor));
    const outflows = sumMinor(flows.filter((f) => f.minor < 0).map((f) => f.minor));
    return json({
      start_date: wireDate(start),
      end_date: wireDate(end),
      report_currency: measure.currency,
      flows: flows.map((f) => ({
        date: wireDate(f.date),
        accountid: f.accountid,
        amount: moneyMinor(measure.currency, f.minor),
      })),
      inflows: moneyMinor(measure.currency, inflows),
      outflows: moneyMinor(measure.currency, outflows),
      net: moneyMinor(measure.currency, inflows + outflows),
    });
  }),
];
