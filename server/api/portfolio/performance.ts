// spec 001 §7 summaries, profit analysis and historic time series (docs/decisions/073-performance-endpoints.md).
import { eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { DerivedCache } from "../../db/derived";
import { prepared } from "../../db/prepared";
import { benchmarkPrices, benchmarks } from "../../db/schema";
import { type Book, benchmarkSeries, holdBackEnd, type Measure, seriesDates } from "../../domain/performance";
import { benchmarkFrequency, seriesFrequency } from "../../domain/frequency";
import { wireDate } from "../../lib/wire";
import { clientEntityOf } from "../access";
import { ApiError, notFound, validate } from "../http";
import { json, type Route, type SignedInContext, signedIn } from "../router";
import { accountsOfView, type VisibleAccount, isManaged, todayOf } from "./visibility";
import { bookOfAccounts, performanceOf, seriesOf } from "./book";
import { moneyMinor, round, summaryData } from "./views";
import {
  CodeParams,
  DetailQuery,
  IdParams,
  SeriesQuery,
  requestedPeriod,
  SummaryQuery,
  Timeframe,
  basisOf,
  earliestInception,
  measureFor,
  periodMeasure,
  ownAccountsOfGroup,
  scope,
  summaryItems,
  timeframeStart,
} from "./requests";

/** A benchmark's levels by date, kept until a benchmark's level is written (decision 123). */
const benchmarkLevels = new DerivedCache<Array<{ date: string; micros: number }>>(32);

// the series' statements, prepared once per database (decision 131)
const benchmarkNamed = (db: Db) =>
  db
    .select()
    .from(benchmarks)
    .where(or(eq(benchmarks.code, sql.placeholder("name")), eq(benchmarks.name, sql.placeholder("name"))))
    .prepare();
const benchmarkById = (db: Db) =>
  db
    .select()
    .from(benchmarks)
    .where(eq(benchmarks.id, sql.placeholder("id")))
    .prepare();

type BenchmarkRow = typeof benchmarks.$inferSelect;

/** The benchmarks named (codes or names, comma separated; 404 for one unknown), else the fallback's. */
function requestedBenchmarks(db: Db, names: string | undefined, fallback: number | null): BenchmarkRow[] {
  if (names) {
    return names
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => {
        const found = prepared(db, benchmarkNamed).get({ name });
        if (!found) throw new ApiError(404, `Benchmark ${name} not found`);
        return found;
      });
  }
  return fallback != null ? prepared(db, benchmarkById).all({ id: fallback }) : [];
}

/** A benchmark's cumulative return at each of the series' dates. */
function benchmarkView(db: Db, b: BenchmarkRow, dates: string[]) {
  const levels = benchmarkLevels.get(db, String(b.id), () =>
    db
      .select({
        date: benchmarkPrices.date,
        micros: benchmarkPrices.levelMicros,
      })
      .from(benchmarkPrices)
      .where(eq(benchmarkPrices.benchmarkId, b.id))
      .orderBy(benchmarkPrices.date)
      .all(),
  );
  return {
    name: b.name,
    code: b.code,
    points: benchmarkSeries(levels, dates).map((p) => ({
      date: wireDate(p.date),
      cumulative: p.cumulative === null ? null : round(p.cumulative),
    })),
  };
}

function seriesAnswer(
  context: SignedInContext,
  list: readonly VisibleAccount[],
  query: z.output<typeof SeriesQuery>,
  benchmarkFallback: number | null,
) {
  const entityId = clientEntityOf(context.caller);
  const today = todayOf(context);
  const managed = list.filter(isManaged);
  const inception = earliestInception(managed);
  const { start, end } = requestedPeriod(query, today, inception);
  const frequency = query.frequency === "auto" ? seriesFrequency(start, end) : query.frequency;
  const measure = periodMeasure(context, entityId, query);
  const book = bookOfAccounts(context.db, managed, today, start);
  const points = seriesDates(start, end, frequency);
  const series = managed.length ? seriesOf(book, start, end, frequency, measure) : [];
  const benchmarkPoints = query.frequency === "auto" ? seriesDates(start, end, benchmarkFrequency(start, end)) : points;
  const benchmarkList = requestedBenchmarks(context.db, query.benchmark_name, benchmarkFallback).map((b) =>
    benchmarkView(context.db, b, benchmarkPoints),
  );
  return json({
    start_date: wireDate(start),
    end_date: wireDate(end),
    frequency,
    report_currency: measure.currency,
    inception_date: managed.length ? wireDate(inception) : null,
    accountids: managed.map((a) => a.account.id),
    points: series.map((p) => ({
      date: wireDate(p.date),
      value: moneyMinor(measure.currency, p.valueMinor),
      cumulative_twrr: p.cumulative === null ? null : round(p.cumulative),
      net_flows: moneyMinor(measure.currency, p.netFlowsMinor),
    })),
    benchmark: benchmarkList[0] ?? null,
    benchmarks: benchmarkList,
  });
}

type SummaryRequest = z.output<typeof SummaryQuery>;
type SummaryItem = ReturnType<typeof summaryItems>[number];

/** The managed accounts a summary covers: of the portfolio or the group asked for (a group's own, not linked). */
function summaryAccounts(context: SignedInContext, query: SummaryRequest) {
  const { entityId, all, selected } = scope(context, query.accountid);
  if (query.portfolioid !== undefined && !all.some((a) => a.account.portfolioId === query.portfolioid)) {
    throw notFound(`Portfolio ${query.portfolioid}`);
  }
  if (query.group_code !== undefined && !all.some((a) => a.group?.groupCode === query.group_code)) {
    throw notFound(`Account group ${query.group_code}`);
  }
  const list = selected.filter(
    (a) =>
      isManaged(a) &&
      (query.portfolioid === undefined || a.account.portfolioId === query.portfolioid) &&
      (query.group_code === undefined || (a.group?.groupCode === query.group_code && !a.portfolio.isLinked)),
  );
  return { entityId, list };
}

const planFields = (data: ReturnType<typeof summaryData>) => ({
  plan_currency_value: data.value,
  plan_currency_movement: data.movement,
  plan_currency_twrr: data.twrr,
  plan_currency_twrr_period: data.twrr_period,
  plan_currency_irr: data.irr,
  plan_currency_irr_period: data.irr_period,
});

/** The summary's figures of a set of accounts over a timeframe ending at `end`, all from one book. */
function timeframePerformance(book: Book, end: string, measure: Measure) {
  const perform = (members: VisibleAccount[], timeframe: Timeframe) => {
    const start = timeframeStart(timeframe, end, earliestInception(members));
    const result = performanceOf(
      book,
      members.map((m) => m.account.id),
      start,
      end,
      measure,
    );
    return {
      timeframe,
      ...summaryData(result, measure.currency),
      accounts: result.accounts,
    };
  };
  /** A single account's value and movement in its plan currency (spec 001 §4 currency toggle). */
  const inPlan = (account: VisibleAccount, timeframe: Timeframe) => {
    const currency = account.account.planCurrency;
    if (currency === measure.currency) return null;
    const start = timeframeStart(timeframe, end, account.account.inceptionDate);
    const result = performanceOf(book, [account.account.id], start, end, {
      ...measure,
      currency,
    });
    return planFields(summaryData(result, currency));
  };
  return { perform, inPlan };
}

/** One summary item: its default and secondary timeframes, with a single account's plan-currency figures. */
function summaryItemView(
  item: SummaryItem,
  query: SummaryRequest,
  { perform, inPlan }: ReturnType<typeof timeframePerformance>,
) {
  const defaultData = perform(item.accounts, query.default_timeframe);
  const secondaryData = perform(item.accounts, query.secondary_timeframe);
  const single = item.accounts.length === 1 ? item.accounts[0] : undefined;
  const plan = single ? defaultData.accounts.get(single.account.id) : undefined;
  const { accounts: _d, ...defaultWire } = defaultData;
  const { accounts: _s, ...secondaryWire } = secondaryData;
  const planOf = (timeframe: Timeframe, wire: typeof defaultWire) => {
    if (!single) return {};
    return inPlan(single, timeframe) ?? planFields(wire);
  };
  return {
    key: item.key,
    ...item.head,
    accountids: item.accounts.map((a) => a.account.id),
    plan_currency: single?.account.planCurrency ?? null,
    plan_currency_value: single ? moneyMinor(single.account.planCurrency, plan?.planMinor ?? 0) : null,
    defaultData: {
      ...defaultWire,
      ...planOf(query.default_timeframe, defaultWire),
    },
    secondaryData: {
      ...secondaryWire,
      ...planOf(query.secondary_timeframe, secondaryWire),
    },
  };
}

/** spec 001 §7 summary: each item's figures for the default and the secondary timeframe, and the totals. */
function summaryAnswer(context: SignedInContext, query: SummaryRequest) {
  const { entityId, list } = summaryAccounts(context, query);
  const measure = measureFor(
    context,
    entityId,
    query.pricing_type,
    basisOf(query.fees_and_taxes),
    query.report_currency,
  );
  const today = todayOf(context);
  const end = holdBackEnd(query.end_date ?? today, today, query.hold_back_period ?? false);
  // every item's start is on or after the whole list's start for the same timeframe
  const inception = earliestInception(list);
  const earliest = [query.default_timeframe, query.secondary_timeframe]
    .map((t) => timeframeStart(t, end, inception))
    .sort()[0];
  const book = bookOfAccounts(context.db, list, today, earliest);
  const performance = timeframePerformance(book, end, measure);
  const items = summaryItems(query.level, list).map((item) => summaryItemView(item, query, performance));
  // the totals are the client's own (linked accounts of other members have their own section);
  // a client who sees only linked accounts gets their totals
  const own = accountsOfView(list);
  const totalOf = (timeframe: Timeframe) => {
    const { accounts: _a, ...wire } = performance.perform(own, timeframe);
    return wire;
  };
  return json({
    level: query.level,
    end_date: wireDate(end),
    report_currency: measure.currency,
    pricing_type: measure.pricing,
    fees_and_taxes: measure.basis === "after" ? 1 : 0,
    items,
    totals: own.length
      ? {
          defaultData: totalOf(query.default_timeframe),
          secondaryData: totalOf(query.secondary_timeframe),
        }
      : null,
  });
}

type DetailRequest = z.output<typeof DetailQuery>;

/** A profit analysis row builder: a set of accounts' figures over the period, the twrr and irr when asked for. */
function profitRowOf(book: Book, period: { start: string; end: string }, measure: Measure, query: DetailRequest) {
  const includeTwrr = query.include_twrr ?? true;
  const includeIrr = query.include_irr ?? true;
  return (level: string, members: VisibleAccount[], head: Record<string, unknown>) => {
    const result = performanceOf(
      book,
      members.map((m) => m.account.id),
      period.start,
      period.end,
      measure,
    );
    const data = summaryData(result, measure.currency);
    const single = members.length === 1 && level === "account" ? members[0] : undefined;
    const plan = single ? result.accounts.get(single.account.id) : undefined;
    return {
      level,
      ...head,
      ...data,
      twrr: includeTwrr ? data.twrr : null,
      twrr_period: includeTwrr ? data.twrr_period : null,
      irr: includeIrr ? data.irr : null,
      irr_period: includeIrr ? data.irr_period : null,
      native_currency: single?.account.planCurrency ?? measure.currency,
      plan_currency_value: single ? moneyMinor(single.account.planCurrency, plan?.planMinor ?? 0) : null,
    };
  };
}
type ProfitRow = ReturnType<ReturnType<typeof profitRowOf>>;

/** The rows of a grouping ('portfolio', 'group' or 'account', the first two optionally with ',account'). */
function profitRows(grouping: string, list: VisibleAccount[], row: ReturnType<typeof profitRowOf>): ProfitRow[] {
  const levels = grouping.split(",");
  const accountRow = (a: VisibleAccount) =>
    row("account", [a], {
      key: `account-${a.account.id}`,
      name: a.account.description,
      accountid: a.account.id,
      portfolioid: a.account.portfolioId,
    });
  if (levels[0] === "account") return list.map(accountRow);
  if (levels[0] !== "portfolio" && levels[0] !== "group") return [];
  const level = levels[0];
  return summaryItems(level, list).flatMap((item) => [
    row(level, item.accounts, { key: item.key, ...item.head, accountid: null }),
    ...(levels[1] === "account" ? item.accounts.map(accountRow) : []),
  ]);
}

/** spec 001 §7 profit analysis: rows per portfolio and account (or group), and the total. */
function detailAnswer(context: SignedInContext, query: DetailRequest) {
  const today = todayOf(context);
  const { entityId, selected } = scope(context, query.accountid);
  const measure = periodMeasure(context, entityId, query);
  const list = selected.filter(isManaged);
  const inception = earliestInception(list);
  const { start, end } = requestedPeriod(query, today, inception);
  const book = bookOfAccounts(context.db, list, today, start);
  const row = profitRowOf(book, { start, end }, measure, query);
  const rows = profitRows(query.grouping, list, row);
  // the total is the client's own accounts of those asked for, as the summary's totals (the
  // linked ones are rows of their own section); only linked ones asked for: theirs
  const own = accountsOfView(list);
  return json({
    start_date: wireDate(start),
    end_date: wireDate(end),
    report_currency: measure.currency,
    grouping: query.grouping,
    inception_date: list.length ? wireDate(inception) : null,
    rows,
    total: own.length ? row("all", own, { key: "all", name: null, accountid: null }) : null,
  });
}

export const performanceRoutes: Route[] = [
  // account, portfolio and group summaries for the default and secondary timeframe (spec 001 §7)
  signedIn("GET", "/resourceful/portfolio/summary", (request, context) =>
    summaryAnswer(context, validate(SummaryQuery, request.query, "query")),
  ),

  // spec 001 §7 profit analysis: rows per portfolio and account (or group), and the total
  signedIn("GET", "/resourceful/portfolio/profit_analysis/detail", (request, context) =>
    detailAnswer(context, validate(DetailQuery, request.query, "query")),
  ),

  // spec 001 §7 historic time series: any set of the client's accounts, an account, a group, a portfolio
  signedIn("GET", "/resourceful/portfolio/profit_analysis/historic_time_series_twrr", (request, context) => {
    const query = validate(SeriesQuery, request.query, "query");
    const { selected } = scope(context, query.accountid);
    return seriesAnswer(context, query.accountid ? selected : accountsOfView(selected), query, null);
  }),

  signedIn(
    "GET",
    "/resourceful/portfolio/account/:id/profit_analysis/historic_time_series_twrr",
    (request, context) => {
      const { id } = validate(IdParams, request.params, "path");
      const query = validate(SeriesQuery, request.query, "query");
      const { selected } = scope(context, [id]);
      return seriesAnswer(context, selected, query, (selected[0] as VisibleAccount).portfolio.portfolio.benchmarkId);
    },
  ),

  signedIn(
    "GET",
    "/resourceful/portfolio/group/account/code/:code/profit_analysis/historic_time_series_twrr",
    (request, context) => {
      const { code } = validate(CodeParams, request.params, "path");
      const query = validate(SeriesQuery, request.query, "query");
      const members = ownAccountsOfGroup(scope(context).all, code);
      return seriesAnswer(context, members, query, null);
    },
  ),

  signedIn(
    "GET",
    "/resourceful/portfolio/portfolio/:id/profit_analysis/historic_time_series_twrr",
    (request, context) => {
      const { id } = validate(IdParams, request.params, "path");
      const query = validate(SeriesQuery, request.query, "query");
      const { all } = scope(context);
      const members = all.filter((a) => a.account.portfolioId === id);
      if (members.length === 0) throw notFound(`Portfolio ${id}`);
      return seriesAnswer(context, members, query, (members[0] as VisibleAccount).portfolio.portfolio.benchmarkId);
    },
  ),
];
