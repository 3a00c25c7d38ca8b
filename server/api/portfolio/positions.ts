// spec 001 §3 "Position", §7 "Positions and allocation": the holdings of a selection of accounts on
// a date, their allocation by asset class, sector and region, and FX pairs (docs/platform-api.md
// "Portfolio").
import { and, desc, eq, lte } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { fxRates, securities } from "../../db/schema";
import {
  ASSET_CLASS_NAMES,
  assetClassKey,
  assetClassSplit,
  categorise,
  type HeldParcel,
  type Holding,
  holdingsOn,
  incomeMinor,
  regionalSplit,
  type Slice,
  weightOf,
} from "../../domain/holdings";
import { holdBackEnd, type Measure, previousBusinessDay, pricingDate } from "../../domain/performance";
import { wireDate } from "../../lib/wire";
import { clientEntityOf } from "../access";
import { ApiError, notFound, validate } from "../http";
import { json, type Route, type SignedInContext, signedIn } from "../router";
import { loadBook } from "./book";
import {
  absent,
  Bool,
  CodeParams,
  Currency,
  IdList,
  IsoDate,
  measureFor,
  opt,
  ownAccountsOfGroup,
  Pricing,
  scope,
} from "./requests";
import { minorOf, sumMinor } from "../../domain/money";
import { moneyMinor, round } from "./views";
import { accountsOfView, isManaged, todayOf, type VisibleAccount } from "./visibility";
import { compareNames } from "../../lib/collation";

const selection = {
  accountid: IdList,
  portfolioid: opt(z.coerce.number().int().positive()),
  date: opt(IsoDate),
  hold_back_period: Bool,
  pricing_type: z.preprocess(absent, Pricing.default("close")),
  currency: opt(Currency),
  /** An alias of `currency`. */
  report_currency: opt(Currency),
  fields: opt(z.string().max(1000)),
};

const PositionQuery = z.object({
  ...selection,
  aggregation: z.preprocess(absent, z.enum(["account"]).default("account")),
});

const TYPES = ["asset_class", "sector", "region"] as const;
type AllocationType = (typeof TYPES)[number];

const AllocationQuery = z.object({
  ...selection,
  allocation_method: z.preprocess(absent, z.enum(["principal", "detailed"]).default("detailed")),
  types: z.preprocess(
    (v) => (typeof v === "string" && v !== "" ? v.split(",").map((t) => t.trim()) : absent(v)),
    z.array(z.enum(TYPES)).min(1).optional(),
  ),
});

const FxParams = z.object({ pair: z.string().regex(/^[A-Za-z]{6}$/, "Expected two currency codes, e.g. USDGBP") });
const FxQuery = z.object({ date: opt(IsoDate), fields: opt(z.string().max(1000)) });

type SelectionQuery = z.output<z.ZodObject<typeof selection>>;

/** 4 decimal places: weights and percentages on the wire. */
const pct = (x: number) => round(x, 4);

/**
 * The managed accounts a position or allocation call covers: those in `accountid`, else (as the
 * profit analysis' total) the view's accounts (`accountsOfView`); a portfolio's when
 * `portfolioid` is given; on the group path the client's own accounts of the group.
 */
function selectionOf(context: SignedInContext, query: SelectionQuery, groupCode?: string) {
  const { entityId, all, selected } = scope(context, query.accountid);
  if (query.portfolioid !== undefined && !all.some((a) => a.account.portfolioId === query.portfolioid))
    throw notFound(`Portfolio ${query.portfolioid}`);
  let list: readonly VisibleAccount[];
  if (groupCode !== undefined) {
    const members = ownAccountsOfGroup(all, groupCode);
    const asked = query.accountid ? new Set(query.accountid) : null;
    list = members.filter((a) => !asked || asked.has(a.account.id));
  } else if (query.accountid || query.portfolioid !== undefined) {
    list = selected;
  } else {
    list = accountsOfView(selected);
  }
  list = list.filter(
    (a) => isManaged(a) && (query.portfolioid === undefined || a.account.portfolioId === query.portfolioid),
  );
  return { entityId, list };
}

export type SecurityRow = typeof securities.$inferSelect;

/**
 * The holdings of some accounts at the end of `date` (already capped at today), with their
 * securities: what the position and allocation calls answer, and what a valuation report prints.
 */
// prepared once per database, for any number of securities (decision 131)
const securitiesByIds = (db: Db) => db.select().from(securities).where(inJsonList(securities.id, "ids")).prepare();

export function holdingsOfAccounts(
  db: Db,
  list: readonly VisibleAccount[],
  date: string,
  today: string,
  measure: Measure,
) {
  const ids = list.map((a) => a.account.id);
  const book = loadBook(db, ids, today, pricingDate(date, today, measure.pricing));
  const securityIds = [...book.prices.keys()];
  const rows = securityIds.length ? prepared(db, securitiesByIds).all({ ids: jsonList(securityIds) }) : [];
  const securityOf = new Map<number, SecurityRow>(rows.map((s) => [s.id, s]));
  const result = holdingsOn(
    book,
    date,
    measure,
    new Map(rows.map((s) => [s.id, { code: s.code, exchange: s.exchange, currency: s.currency, yieldBp: s.yieldBp }])),
    new Map(list.map((a) => [a.account.id, a.account.taxStructure ?? ""])),
  );
  return { result, securityOf };
}

/** The holdings of a selection on the requested date, with their securities and accounts. */
function holdingsOf(context: SignedInContext, query: SelectionQuery, groupCode?: string) {
  const { entityId, list } = selectionOf(context, query, groupCode);
  const today = todayOf(context);
  const measure = measureFor(context, entityId, query.pricing_type, "after", query.currency ?? query.report_currency);
  const date = holdBackEnd(query.date ?? today, today, query.hold_back_period ?? false);
  const { result, securityOf } = holdingsOfAccounts(context.db, list, date, today, measure);
  const accountOf = new Map(list.map((a) => [a.account.id, a]));
  return { measure, date, list, result, securityOf, accountOf };
}

const rowIdOf = (h: Holding) => `${h.accountId}-${h.securityId}`;

/** Holdings ordered by account, then the security's description (then id). */
export function inDisplayOrder(holdings: readonly Holding[], securityOf: ReadonlyMap<number, SecurityRow>): Holding[] {
  const name = (h: Holding) => securityOf.get(h.securityId)?.description ?? "";
  return [...holdings].sort(
    (a, b) => a.accountId - b.accountId || compareNames(name(a), name(b)) || a.securityId - b.securityId,
  );
}

/** One position as sent: its security, price, values in three currencies, cost, gain, income and parcels. */
function positionView(h: Holding, s: SecurityRow, report: string, total: number) {
  const rowId = rowIdOf(h);
  const gain = h.costMinor === null ? null : h.nativeMinor - h.costMinor;
  return {
    row_id: rowId,
    position_id: h.accountId * 1_000_000 + h.securityId,
    accountid: h.accountId,
    security_id: h.securityId,
    security: {
      code: s.code,
      exchange: s.exchange,
      isin: s.isin,
      sector_name: s.sectorName,
      asset_class_code: s.assetClassCode,
      region: s.region,
    },
    description: s.description,
    cash: h.cash,
    volume: h.quantityMicros / 1_000_000,
    native_currency: h.nativeCurrency,
    native_marketprice: h.nativePrice,
    price_date: wireDate(h.priceDate),
    native_value: moneyMinor(h.nativeCurrency, h.nativeMinor),
    plan_currency: h.planCurrency,
    plan_currency_marketprice: round(h.nativePrice * h.fxToPlan, 6),
    plan_currency_value: moneyMinor(h.planCurrency, h.planMinor),
    value: moneyMinor(report, h.valueMinor),
    weight: pct(weightOf(h.valueMinor, total)),
    native_cost: h.costMinor === null ? null : moneyMinor(h.nativeCurrency, h.costMinor),
    native_unrealised_gain: gain === null ? null : moneyMinor(h.nativeCurrency, gain),
    percent_gain_loss:
      gain === null || h.costMinor === null || h.costMinor === 0 ? null : pct((gain / h.costMinor) * 100),
    annual_income: moneyMinor(report, incomeMinor(h.valueMinor, h.netYieldPpm)),
    plan_currency_annual_income: moneyMinor(h.planCurrency, incomeMinor(h.planMinor, h.netYieldPpm)),
    native_annual_income: moneyMinor(h.nativeCurrency, incomeMinor(h.nativeMinor, h.netYieldPpm)),
    gross_annual_income: moneyMinor(report, incomeMinor(h.valueMinor, h.grossYieldPpm)),
    native_gross_annual_income: moneyMinor(h.nativeCurrency, incomeMinor(h.nativeMinor, h.grossYieldPpm)),
    percent_yield: pct(h.netYield),
    gross_percent_yield: pct(h.grossYield),
    fx_rate_to_plan: round(h.fxToPlan),
    fx_rate_to_report: round(h.fxToReport),
    asset_class_allocation: assetClassSplit(s.assetClassCode, s.assetClassAllocation),
    regional_allocation: regionalSplit(s.region, s.regionalAllocation),
    sub_positions: h.parcels.map((p, i) => subPositionView(h, p, `${rowId}-${i + 1}`, report)),
  };
}

/** One parcel of a position (a sub-position): its trade date, units, cost, value and gain. */
function subPositionView(h: Holding, p: HeldParcel, rowId: string, report: string) {
  const cost = p.cost === null ? null : minorOf(p.cost);
  const nativeValue = minorOf(p.nativeValue);
  const parcelGain = cost === null ? null : nativeValue - cost;
  return {
    row_id: rowId,
    trade_date: wireDate(p.tradeDate),
    volume: p.quantityMicros / 1_000_000,
    native_cost: cost === null ? null : moneyMinor(h.nativeCurrency, cost),
    native_value: moneyMinor(h.nativeCurrency, nativeValue),
    native_unrealised_gain: parcelGain === null ? null : moneyMinor(h.nativeCurrency, parcelGain),
    plan_currency_value: moneyMinor(h.planCurrency, minorOf(p.planValue)),
    value: moneyMinor(report, minorOf(p.value)),
  };
}

/** One account's figures: the exact sums of its positions' figures as sent. */
function accountTotalsView(a: VisibleAccount, holdings: readonly Holding[], report: string, total: number) {
  const mine = holdings.filter((h) => h.accountId === a.account.id);
  const sum = (f: (h: Holding) => number) => sumMinor(mine.map(f));
  const value = sum((h) => h.valueMinor);
  return {
    accountid: a.account.id,
    description: a.account.description,
    plan_currency: a.account.planCurrency,
    value: moneyMinor(report, value),
    plan_currency_value: moneyMinor(
      a.account.planCurrency,
      sum((h) => h.planMinor),
    ),
    annual_income: moneyMinor(
      report,
      sum((h) => incomeMinor(h.valueMinor, h.netYieldPpm)),
    ),
    plan_currency_annual_income: moneyMinor(
      a.account.planCurrency,
      sum((h) => incomeMinor(h.planMinor, h.netYieldPpm)),
    ),
    weight: pct(weightOf(value, total)),
  };
}

function positionsAnswer(context: SignedInContext, query: z.output<typeof PositionQuery>, groupCode?: string) {
  const { measure, date, list, result, securityOf } = holdingsOf(context, query, groupCode);
  const report = measure.currency;
  const total = result.totalMinor;
  // decision 106: every figure is a whole number of minor units, rounded once; sums are exact
  const positions = inDisplayOrder(result.holdings, securityOf).map((h) =>
    positionView(h, securityOf.get(h.securityId) as SecurityRow, report, total),
  );
  const accounts = [...list]
    .sort((a, b) => a.account.id - b.account.id)
    .map((a) => accountTotalsView(a, result.holdings, report, total));
  return json({
    date: wireDate(date),
    pricing_type: measure.pricing,
    report_currency: report,
    total_value: moneyMinor(report, total),
    accounts,
    positions,
  });
}

function allocationAnswer(context: SignedInContext, query: z.output<typeof AllocationQuery>) {
  const { measure, date, result, securityOf, accountOf } = holdingsOf(context, query);
  const report = measure.currency;
  const total = result.totalMinor;
  const holdings = inDisplayOrder(result.holdings, securityOf);
  const detailed = query.allocation_method === "detailed";
  const slicesOf = (type: AllocationType, s: SecurityRow): Slice[] => {
    switch (type) {
      case "sector":
        return [{ key: s.sectorName, name: s.sectorName, weight: 100 }];
      case "asset_class":
        return detailed
          ? assetClassSplit(s.assetClassCode, s.assetClassAllocation).map((p) => ({
              key: assetClassKey(p.name),
              name: p.name,
              weight: p.weight,
            }))
          : [{ key: s.assetClassCode, name: ASSET_CLASS_NAMES[s.assetClassCode] ?? s.assetClassCode, weight: 100 }];
      case "region":
        return detailed
          ? regionalSplit(s.region, s.regionalAllocation).map((p) => ({ key: p.name, name: p.name, weight: p.weight }))
          : [{ key: s.region, name: s.region, weight: 100 }];
    }
  };
  const categoriesOf = (type: AllocationType) => {
    // each holding's value shared out in whole minor units: members add up to their category, categories to the total
    const categories = categorise(
      holdings.map((h) => ({
        item: h,
        value: h.valueMinor,
        slices: slicesOf(type, securityOf.get(h.securityId) as SecurityRow),
      })),
    );
    return categories.map((c) => ({
      key: c.key,
      name: c.name,
      value: moneyMinor(report, c.value),
      weight: pct(weightOf(c.value, total)),
      positions: c.members.map((m) => ({
        row_id: rowIdOf(m.item),
        accountid: m.item.accountId,
        account_name: accountOf.get(m.item.accountId)?.account.description ?? null,
        description: securityOf.get(m.item.securityId)?.description ?? "",
        value: moneyMinor(report, m.value),
        weight: pct(weightOf(m.value, total)),
      })),
    }));
  };
  const types = query.types ?? [...TYPES];
  const answer: Record<string, unknown> = {
    date: wireDate(date),
    report_currency: report,
    method: query.allocation_method,
    total: moneyMinor(report, total),
  };
  for (const type of TYPES) if (types.includes(type)) answer[type] = categoriesOf(type);
  return json(answer);
}

/** Units of `currency` for one GBP on or before `date`; null when it has no rate by then. */
function perGbpOn(db: Db, currency: string, date: string): number | null {
  if (currency === "GBP") return 1;
  const row = db
    .select({ r: fxRates.rateMicros })
    .from(fxRates)
    .where(and(eq(fxRates.currency, currency), lte(fxRates.date, date)))
    .orderBy(desc(fxRates.date))
    .get();
  return row ? row.r / 1_000_000 : null;
}

export const positionRoutes: Route[] = [
  // spec 001 §7 positions of a selection of accounts
  signedIn("GET", "/resourceful/portfolio/position", (request, context) =>
    positionsAnswer(context, validate(PositionQuery, request.query, "query")),
  ),

  // ... and of the client's own accounts of a group
  signedIn("GET", "/resourceful/portfolio/group/account/code/:code/position", (request, context) => {
    const { code } = validate(CodeParams, request.params, "path");
    return positionsAnswer(context, validate(PositionQuery, request.query, "query"), code);
  }),

  // spec 001 §2.3 allocation tab: by asset class, sector and region, principal or detailed
  signedIn("GET", "/resourceful/portfolio/allocation", (request, context) =>
    allocationAnswer(context, validate(AllocationQuery, request.query, "query")),
  ),

  // spec 001 §7 FX: how many of one currency one unit of another buys, on a date, today and at the last close
  signedIn("GET", "/resourceful/portfolio/security/:pair/FX", (request, context) => {
    const { pair: raw } = validate(FxParams, request.params, "path");
    const query = validate(FxQuery, request.query, "query");
    // as every /resourceful/portfolio/ call: the session's client (an adviser needs one in context)
    clientEntityOf(context.caller);
    const pair = raw.toUpperCase();
    const from = pair.slice(0, 3);
    const to = pair.slice(3);
    const today = todayOf(context);
    const date = query.date === undefined || query.date > today ? today : query.date;
    const rateOn = (day: string) => {
      if (from === to) return 1;
      const a = perGbpOn(context.db, from, day);
      const b = perGbpOn(context.db, to, day);
      if (a === null || b === null) throw new ApiError(404, `FX rate ${pair} not found`);
      return round(b / a);
    };
    return json({
      pair,
      from_currency: from,
      to_currency: to,
      date: wireDate(date),
      rate: rateOn(date),
      last_price: rateOn(today),
      prev_close_price: rateOn(previousBusinessDay(today)),
    });
  }),
];
