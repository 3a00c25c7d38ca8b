// spec 001 §7 portfolios, accounts, summaries, profit analysis and time series; §3 balance-sheet
// assets (docs/decisions/073-performance-endpoints.md, docs/platform-api.md "Portfolio").
import { and, desc, eq, inArray, lte, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import {
  accountGroups,
  accounts,
  benchmarkPrices,
  benchmarks,
  capabilities,
  entities,
  fxRates,
  otherAssetOwners,
  otherAssets,
  portfolios,
  portfolioVisibility,
  users,
} from "../db/schema";
import {
  benchmarkSeries,
  type Book,
  type FeesBasis,
  holdBackEnd,
  type LedgerTransaction,
  type Measure,
  type PeriodPerformance,
  periodPerformance,
  type PricingType,
  seriesDates,
  timeSeries,
} from "../domain/performance";
import { benchmarkFrequency, seriesFrequency } from "../domain/frequency";
import type { PricePoint, SecurityPricing } from "../domain/valuation";
import { wireDate, wireMoney } from "../lib/wire";
import { assertCanSeeClient, clientEntityOf, isClientUser, reachableEntities } from "./access";
import { ApiError, forbidden, MESSAGES, validate } from "./http";
import { json, type Route, type SignedInContext, signedIn } from "./router";

// ── who sees what (spec 001 §1, §4, §6) ───────────────────────────────────────────────────────

export type VisiblePortfolio = {
  portfolio: typeof portfolios.$inferSelect;
  reasonForVisibility: string;
  sortOrder: number;
  isLinked: boolean;
};

/**
 * The portfolios an entity sees: its own single, joint and shared ones, and linked ones only when
 * their owner is a login-accessible member of its client group. Ordered by sortOrder, then name.
 */
export function visiblePortfolios(db: Db, entityId: number): VisiblePortfolio[] {
  const reachable = reachableEntities(db, entityId);
  return db
    .select({ portfolio: portfolios, v: portfolioVisibility })
    .from(portfolioVisibility)
    .innerJoin(portfolios, eq(portfolios.id, portfolioVisibility.portfolioId))
    .where(eq(portfolioVisibility.entityId, entityId))
    .all()
    .filter((r) => !r.v.isLinked || reachable.has(r.portfolio.entityId))
    .map((r) => ({ portfolio: r.portfolio, reasonForVisibility: r.v.reasonForVisibility, sortOrder: r.v.sortOrder, isLinked: r.v.isLinked }))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.portfolio.name.localeCompare(b.portfolio.name) || a.portfolio.id - b.portfolio.id);
}

export type VisibleAccount = {
  account: typeof accounts.$inferSelect;
  group: typeof accountGroups.$inferSelect | null;
  portfolio: VisiblePortfolio;
};

export function visibleAccounts(db: Db, entityId: number): VisibleAccount[] {
  const seen = visiblePortfolios(db, entityId);
  if (seen.length === 0) return [];
  const byId = new Map(seen.map((p) => [p.portfolio.id, p]));
  const order = new Map(seen.map((p, i) => [p.portfolio.id, i]));
  return db
    .select({ account: accounts, group: accountGroups })
    .from(accounts)
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.accountGroupId))
    .where(inArray(accounts.portfolioId, [...byId.keys()]))
    .all()
    .map((r) => ({ account: r.account, group: r.group, portfolio: byId.get(r.account.portfolioId) as VisiblePortfolio }))
    .sort((a, b) => (order.get(a.portfolio.portfolio.id) as number) - (order.get(b.portfolio.portfolio.id) as number) || a.account.id - b.account.id);
}

/** spec 001 §5: accounts with service type 'Not managed' are left out of summaries and performance. */
const isManaged = (a: VisibleAccount) => a.account.serviceType !== "Not managed";

const portfolioType = (ptype: string) => (ptype === "PT_JOINT" ? "joint" : ptype === "PT_SHARED" ? "shared" : "single");

/** spec 001 §6: close prices, delayed with view_marketdata, live with live_marketdata_access. */
function assertPricingAllowed(db: Db, entityId: number, pricing: PricingType): void {
  if (pricing === "close") return;
  const names = new Set(
    db.select({ name: capabilities.name }).from(capabilities).where(eq(capabilities.entityId, entityId)).all().map((c) => c.name),
  );
  const allowed = pricing === "live" ? names.has("live_marketdata_access") : names.has("view_marketdata") || names.has("live_marketdata_access");
  if (!allowed) throw forbidden(`Permission Error: ${pricing} prices are not available to this client`);
}

/** The client's preferred (session) currency: its user's, else GBP. */
function preferredCurrencyOf(db: Db, entityId: number): string {
  return db.select({ c: users.preferredCurrency }).from(users).where(eq(users.entityId, entityId)).get()?.c ?? "GBP";
}

const todayOf = (context: SignedInContext) => context.clock.now().toISOString().slice(0, 10);

// ── the book of a set of accounts ───────────────────────────────────────────────────────────

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

/**
 * The transactions, prices, FX rates and plan currencies of some accounts, for valuations from
 * `from` (default: all history) up to today: the prices and rates of those dates and the last one
 * before `from`. Raw statements answering arrays: a book holds some ten thousand price rows, and
 * mapping them to objects row by row costs more than the performance arithmetic itself.
 */
export function loadBook(db: Db, accountIds: readonly number[], today: string, from = "0000-01-01"): Book {
  const ids = [...new Set(accountIds)];
  const sqlite = db.$client;
  const marks = ids.map(() => "?").join(",");
  const rows = ids.length
    ? (sqlite
        .prepare(
          `SELECT account_id, security_id, type, trade_date, quantity_micros, net_minor, cash_security_id, currency, fee_minor, tax_minor
           FROM transactions WHERE account_id IN (${marks}) ORDER BY trade_date, id`,
        )
        .raw()
        .all(...ids) as LedgerRow[])
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
  const securityIds = [...new Set(ledger.flatMap((t) => (t.cashSecurityId == null ? [t.securityId] : [t.securityId, t.cashSecurityId])))];
  const prices = new Map<number, SecurityPricing>();
  if (securityIds.length) {
    const securityMarks = securityIds.map(() => "?").join(",");
    const currencies = sqlite.prepare(`SELECT id, currency FROM securities WHERE id IN (${securityMarks})`).raw().all(...securityIds) as Array<[number, string]>;
    const currencyOf = new Map(currencies);
    const series = new Map<number, PricePoint[]>();
    for (const id of securityIds) {
      const points: PricePoint[] = [];
      series.set(id, points);
      prices.set(id, { currency: currencyOf.get(id) ?? "GBP", series: points });
    }
    const priceRows = sqlite
      .prepare(
        `SELECT security_id, MAX(date), price_micros FROM security_prices WHERE security_id IN (${securityMarks}) AND date < ? GROUP BY security_id
         UNION ALL
         SELECT security_id, date, price_micros FROM security_prices WHERE security_id IN (${securityMarks}) AND date >= ? AND date <= ?
         ORDER BY 1, 2`,
      )
      .raw()
      .all(...securityIds, from, ...securityIds, from, today) as Array<[number, string, number]>;
    for (const [id, date, micros] of priceRows) series.get(id)?.push({ date, micros });
  }
  const fx: Record<string, PricePoint[]> = {};
  const fxRows = sqlite
    .prepare(
      `SELECT currency, MAX(date), rate_micros FROM fx_rates WHERE date < ? GROUP BY currency
       UNION ALL
       SELECT currency, date, rate_micros FROM fx_rates WHERE date >= ? AND date <= ?
       ORDER BY 1, 2`,
    )
    .raw()
    .all(from, from, today) as Array<[string, string, number]>;
  for (const [currency, date, micros] of fxRows) (fx[currency] ??= []).push({ date, micros });
  const planCurrencies = new Map(
    ids.length ? (sqlite.prepare(`SELECT id, plan_currency FROM accounts WHERE id IN (${marks})`).raw().all(...ids) as Array<[number, string]>) : [],
  );
  return { transactions: ledger, prices, fx, planCurrencies, today };
}

/** The same book restricted to some of its accounts. */
function subBook(book: Book, accountIds: ReadonlySet<number>): Book {
  return { ...book, transactions: book.transactions.filter((t) => accountIds.has(t.accountId)) };
}

// ── wire shapes ───────────────────────────────────────────────────────────────────────────────

const round = (x: number, places = 10) => Math.round(x * 10 ** places) / 10 ** places;
const money = (currency: string, amount: number) => wireMoney(currency, (Math.round(amount * 100) / 100 + 0).toFixed(2));

function accountView(a: VisibleAccount) {
  const { account, group, portfolio } = a;
  return {
    accountid: account.id,
    description: account.description,
    portfolioid: account.portfolioId,
    portfolioName: portfolio.portfolio.name,
    group_code: group?.groupCode ?? null,
    group_name: group?.groupName ?? null,
    account_group_code: group?.groupCode ?? null,
    plan_currency: account.planCurrency,
    report_currency: account.reportCurrency,
    service_type: account.serviceType,
    tax_structure: account.taxStructure,
    product: account.product,
    external_account_id: account.externalAccountId,
    subfund: account.subfund,
    tax_type: account.taxType,
    tax_type_title: account.taxTypeTitle,
    active_date: wireDate(account.activeDate),
    inception_date: wireDate(account.inceptionDate),
    vendor_id: account.vendorId,
    account_owner: account.accountOwner,
    type: portfolioType(portfolio.portfolio.ptype),
    isLinked: portfolio.isLinked,
  };
}

function portfolioView(p: VisiblePortfolio, accountCount: number) {
  return {
    portfolioid: p.portfolio.id,
    portfolio_name: p.portfolio.name,
    fullName: p.portfolio.fullName,
    report_currency: p.portfolio.reportCurrency,
    ptype: p.portfolio.ptype,
    entityid: p.portfolio.entityId,
    isLinked: p.isLinked,
    sortOrder: p.sortOrder,
    reasonForVisibility: p.reasonForVisibility,
    account_count: accountCount,
  };
}

/** spec 001 §3 summary item. */
function summaryData(p: PeriodPerformance, currency: string) {
  return {
    start_date: wireDate(p.start),
    end_date: wireDate(p.end),
    base_currency: currency,
    value: money(currency, p.valueTo),
    market_value_from: money(currency, p.valueFrom),
    market_value_to: money(currency, p.valueTo),
    net_flows: money(currency, p.netFlows),
    movement: money(currency, p.movement),
    twrr: p.twr ? round(p.twr.annualised ?? p.twr.period) : null,
    twrr_period: p.twr ? round(p.twr.period) : null,
    irr: p.irr ? round(p.overAYear ? p.irr.annual : p.irr.period) : null,
    irr_period: p.irr ? round(p.irr.period) : null,
    over_a_year: p.overAYear,
  };
}

// ── requests ──────────────────────────────────────────────────────────────────────────────────

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD").refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "Not a calendar date");
const absent = (v: unknown) => (v === "" ? undefined : v);
const opt = <S extends z.ZodTypeAny>(s: S) => z.preprocess(absent, s.optional());
const Bool = z.preprocess((v) => (v === "" || v === undefined ? undefined : v === "true" || v === "1" || v === true), z.boolean().optional());
const IdList = z.preprocess(
  (v) => (typeof v === "string" && v !== "" ? v.split(",") : v === "" ? undefined : v),
  z.array(z.coerce.number().int().positive()).max(200).optional(),
);
const Pricing = z.enum(["close", "delayed", "live"]);
const Currency = z.string().regex(/^[A-Z]{3}$/, "Expected a currency code");
const FeesAndTaxes = z.preprocess(absent, z.enum(["0", "1"]).optional());
const basisOf = (v: "0" | "1" | undefined): FeesBasis => (v === "0" ? "before" : "after");

const TIMEFRAMES = ["1Y", "2Y", "3Y", "5Y", "YTD", "SI"] as const;
type Timeframe = (typeof TIMEFRAMES)[number];

function addYears(date: string, years: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${String(y + years).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The start (a valuation at its close) of a named timeframe ending at `end`. */
export function timeframeStart(timeframe: Timeframe, end: string, inception: string): string {
  switch (timeframe) {
    case "1Y":
      return addYears(end, -1);
    case "2Y":
      return addYears(end, -2);
    case "3Y":
      return addYears(end, -3);
    case "5Y":
      return addYears(end, -5);
    case "YTD":
      return `${Number(end.slice(0, 4)) - 1}-12-31`;
    case "SI":
      return inception < end ? inception : end;
  }
}

const SummaryQuery = z.object({
  level: z.preprocess(absent, z.enum(["portfolio", "account", "group"]).default("portfolio")),
  end_date: opt(IsoDate),
  default_timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).default("1Y")),
  secondary_timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).default("SI")),
  pricing_type: z.preprocess(absent, Pricing.default("close")),
  report_currency: opt(Currency),
  hold_back_period: Bool,
  fees_and_taxes: FeesAndTaxes,
  portfolioid: opt(z.coerce.number().int().positive()),
  group_code: opt(z.string().max(50)),
  accountid: IdList,
});

const DetailQuery = z.object({
  start_date: IsoDate,
  end_date: IsoDate,
  grouping: z.preprocess(absent, z.enum(["portfolio,account", "portfolio", "account", "group", "group,account", "all"]).default("portfolio,account")),
  from_pricing_type: z.preprocess(absent, Pricing.default("close")),
  to_pricing_type: z.preprocess(absent, Pricing.default("close")),
  include_twrr: Bool,
  include_irr: Bool,
  fees_and_taxes: FeesAndTaxes,
  report_currency: opt(Currency),
  accountid: IdList,
  fields: opt(z.string().max(1000)),
});

const SeriesQuery = z
  .object({
    start_date: opt(IsoDate),
    end_date: opt(IsoDate),
    /** Instead of start_date: the period of a named timeframe ending today (or end_date), as the summary's. */
    timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).optional()),
    hold_back_period: Bool,
    frequency: z.preprocess(absent, z.enum(["daily", "weekly", "monthly", "quarterly", "yearly", "auto"]).default("monthly")),
    from_pricing_type: z.preprocess(absent, Pricing.default("close")),
    to_pricing_type: z.preprocess(absent, Pricing.default("close")),
    fees_and_taxes: FeesAndTaxes,
    report_currency: opt(Currency),
    benchmark_name: opt(z.string().max(100)),
    accountid: IdList,
    fields: opt(z.string().max(1000)),
    apply_exclude_unless_FUM: opt(z.string().max(10)),
    show_hidden_positions: opt(z.string().max(10)),
  })
  .refine((q) => q.timeframe !== undefined || (q.start_date !== undefined && q.end_date !== undefined), {
    message: "start_date and end_date, or timeframe, are required",
  });

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const CodeParams = z.object({ code: z.string().min(1).max(50) });

/** The session's client and the accounts it sees, restricted to requested ids (403 for one it does not see). */
function scope(context: SignedInContext, requested?: number[]) {
  const entityId = clientEntityOf(context.caller);
  const all = visibleAccounts(context.db, entityId);
  if (!requested) return { entityId, all, selected: all };
  const byId = new Map(all.map((a) => [a.account.id, a]));
  for (const id of requested) if (!byId.has(id)) throw forbidden("Permission Error: You do not have access to this account");
  return { entityId, all, selected: requested.map((id) => byId.get(id) as VisibleAccount) };
}

const earliestInception = (list: readonly VisibleAccount[]) =>
  list.reduce((min, a) => (a.account.inceptionDate < min ? a.account.inceptionDate : min), "9999-12-31");

type Item = { key: string; accounts: VisibleAccount[]; head: Record<string, unknown> };

function summaryItems(level: "portfolio" | "account" | "group", list: VisibleAccount[]): Item[] {
  if (level === "account") {
    return list.map((a) => ({ key: `account-${a.account.id}`, accounts: [a], head: { ...accountView(a), name: a.account.description, sortOrder: a.portfolio.sortOrder } }));
  }
  const items = new Map<string, Item>();
  for (const a of list) {
    if (level === "portfolio") {
      const p = a.portfolio;
      const key = `portfolio-${p.portfolio.id}`;
      const item: Item = items.get(key) ?? { key, accounts: [], head: { name: p.portfolio.name, ...portfolioView(p, 0) } };
      item.accounts.push(a);
      items.set(key, item);
    } else {
      // account groups are the client's own; linked accounts stay in the linked section
      const key = a.portfolio.isLinked ? "group-linked" : a.group ? `group-${a.group.groupCode}` : "group-none";
      const head = a.portfolio.isLinked
        ? { name: null, group_code: null, group_name: null, isLinked: true }
        : { name: a.group?.groupName ?? null, group_code: a.group?.groupCode ?? null, group_name: a.group?.groupName ?? null, isLinked: false };
      const item: Item = items.get(key) ?? { key, accounts: [], head };
      item.accounts.push(a);
      items.set(key, item);
    }
  }
  return [...items.values()].map((i) => ({ ...i, head: { ...i.head, account_count: i.accounts.length } }));
}

/** The measure of a request; every pricing type asked for (from and to) must be allowed. */
function measureFor(
  context: SignedInContext,
  entityId: number,
  pricing: PricingType,
  basis: FeesBasis,
  currency?: string,
  fromPricing: PricingType = pricing,
): Measure {
  assertPricingAllowed(context.db, entityId, fromPricing);
  assertPricingAllowed(context.db, entityId, pricing);
  return { currency: currency ?? preferredCurrencyOf(context.db, entityId), pricing, basis };
}

/** A requested period: start not after end, the end capped at today, and the start not after that. */
function periodOf(startDate: string, endDate: string, today: string): { start: string; end: string } {
  if (startDate > endDate) throw new ApiError(400, "Invalid query: start_date is after end_date", MESSAGES.argumentsIncorrect);
  const end = endDate > today ? today : endDate;
  if (startDate > end) throw new ApiError(400, "Invalid query: start_date is after today", MESSAGES.argumentsIncorrect);
  return { start: startDate, end };
}

function seriesAnswer(context: SignedInContext, list: VisibleAccount[], query: z.output<typeof SeriesQuery>, benchmarkFallback: number | null) {
  const entityId = clientEntityOf(context.caller);
  const today = todayOf(context);
  const managed = list.filter(isManaged);
  const inception = earliestInception(managed);
  let start: string;
  let end: string;
  if (query.timeframe) {
    end = holdBackEnd(query.end_date ?? today, today, query.hold_back_period ?? false);
    start = timeframeStart(query.timeframe, end, inception);
  } else {
    ({ start, end } = periodOf(query.start_date as string, query.end_date as string, today));
  }
  const frequency = query.frequency === "auto" ? seriesFrequency(start, end) : query.frequency;
  const measure = measureFor(context, entityId, query.to_pricing_type, basisOf(query.fees_and_taxes), query.report_currency, query.from_pricing_type);
  const book = loadBook(context.db, managed.map((a) => a.account.id), today, start);
  const points = seriesDates(start, end, frequency);
  const series = managed.length ? timeSeries(book, points, measure) : [];
  let benchmark = null;
  const wanted = query.benchmark_name
    ? context.db.select().from(benchmarks).where(or(eq(benchmarks.code, query.benchmark_name), eq(benchmarks.name, query.benchmark_name))).get()
    : benchmarkFallback != null
      ? context.db.select().from(benchmarks).where(eq(benchmarks.id, benchmarkFallback)).get()
      : undefined;
  if (query.benchmark_name && !wanted) throw new ApiError(404, `Benchmark ${query.benchmark_name} not found`);
  if (wanted) {
    const levels = context.db
      .select({ date: benchmarkPrices.date, micros: benchmarkPrices.levelMicros })
      .from(benchmarkPrices)
      .where(eq(benchmarkPrices.benchmarkId, wanted.id))
      .orderBy(benchmarkPrices.date)
      .all();
    benchmark = {
      name: wanted.name,
      code: wanted.code,
      points: benchmarkSeries(levels, query.frequency === "auto" ? seriesDates(start, end, benchmarkFrequency(start, end)) : points).map((p) => ({ date: wireDate(p.date), cumulative: p.cumulative === null ? null : round(p.cumulative) })),
    };
  }
  return json({
    start_date: wireDate(start),
    end_date: wireDate(end),
    frequency,
    report_currency: measure.currency,
    inception_date: managed.length ? wireDate(inception) : null,
    accountids: managed.map((a) => a.account.id),
    points: series.map((p) => ({
      date: wireDate(p.date),
      value: money(measure.currency, p.value),
      cumulative_twrr: p.cumulative === null ? null : round(p.cumulative),
      net_flows: money(measure.currency, p.netFlows),
    })),
    benchmark,
  });
}

// ── balance-sheet assets (spec 001 §3) ────────────────────────────────────────────────────────

const ASSET_KINDS = { asset: "investment", pension: "pension", annuity: "annuity", liability: "liability" } as const;

/** How many `to` one `from` buys on `date` (the last rates on or before it; null when there is none). */
function fxOnDate(db: Db, from: string, to: string, date: string): number | null {
  if (from === to) return 1;
  const perGbp = (c: string) =>
    c === "GBP"
      ? 1
      : (db
          .select({ r: fxRates.rateMicros })
          .from(fxRates)
          .where(and(eq(fxRates.currency, c), lte(fxRates.date, date)))
          .orderBy(desc(fxRates.date))
          .get()?.r ?? 0) / 1e6 || null;
  const a = perGbp(from);
  const b = perGbp(to);
  return a && b ? b / a : null;
}

function assetsOf(db: Db, memberId: number, kind: keyof typeof ASSET_KINDS, reportCurrency: string) {
  const owned = db
    .select({ assetId: otherAssetOwners.assetId })
    .from(otherAssetOwners)
    .where(eq(otherAssetOwners.entityId, memberId))
    .all()
    .map((r) => r.assetId);
  if (owned.length === 0) return [];
  const rows = db
    .select()
    .from(otherAssets)
    .where(and(inArray(otherAssets.id, owned), eq(otherAssets.kind, ASSET_KINDS[kind])))
    .orderBy(otherAssets.id)
    .all();
  const owners = db
    .select({ o: otherAssetOwners, e: entities })
    .from(otherAssetOwners)
    .innerJoin(entities, eq(entities.id, otherAssetOwners.entityId))
    .where(inArray(otherAssetOwners.assetId, rows.map((r) => r.id)))
    .all();
  return rows.map((r) => {
    const value = r.valueMinor / 100;
    const rate = fxOnDate(db, r.currency, reportCurrency, r.valuationDate);
    const inReport = rate === null ? null : value * rate;
    const assetOwners = owners
      .filter((o) => o.o.assetId === r.id)
      .map((o) => ({
        owner_id: o.e.id,
        owner_first_name: o.e.firstName,
        owner_last_name: o.e.lastName,
        owner_name: o.e.displayName,
        percentage: o.o.percentageBp / 100,
      }));
    const percentOwned = kind === "pension" ? 100 : (assetOwners.find((o) => o.owner_id === memberId)?.percentage ?? 0);
    const common = {
      id: r.id,
      index: r.id,
      desc: r.description,
      type: r.type,
      owners: assetOwners,
      owner: assetOwners.map((o) => o.owner_name).join(", "),
      percentOwned,
      value_owned: inReport === null ? null : money(reportCurrency, (inReport * percentOwned) / 100),
      is_sipp_wrapper: r.isSippWrapper,
      under_advice: r.underAdvice,
      currency: r.currency,
    };
    const valued = money(r.currency, value);
    const reported = inReport === null ? null : money(reportCurrency, inReport);
    switch (kind) {
      case "asset":
        return { ...common, description: r.description, amount: valued, market_value: valued, amount_in_report_currency: reported, valuation_date: wireDate(r.valuationDate), status: r.status, provider: r.provider, supplier: r.provider, policy_number: r.policyNumber, contribution_total: r.contributionTotalMinor == null ? null : money(r.currency, r.contributionTotalMinor / 100), withdrawal_total: r.withdrawalTotalMinor == null ? null : money(r.currency, r.withdrawalTotalMinor / 100) };
      case "pension":
        return { ...common, description: r.description, fund_value: valued, fund_value_in_report_currency: reported, fund_value_in_plan_currency: valued, fund_valuation_date: wireDate(r.valuationDate), policy_status: r.status, fund_or_policy_num: r.policyNumber, product_provider: r.provider, contribution_total: r.contributionTotalMinor == null ? null : money(r.currency, r.contributionTotalMinor / 100), withdrawal_total: r.withdrawalTotalMinor == null ? null : money(r.currency, r.withdrawalTotalMinor / 100), crystallised_fund: r.crystallisedMinor == null ? null : money(r.currency, r.crystallisedMinor / 100), uncrystallised_fund: r.uncrystallisedMinor == null ? null : money(r.currency, r.uncrystallisedMinor / 100) };
      case "annuity":
        return { ...common, description: r.description, current_value: valued, current_value_in_report_currency: reported, income_value: r.incomeValueMinor == null ? null : money(r.currency, r.incomeValueMinor / 100), frequency: r.frequency, income_rate: r.rateBp == null ? null : r.rateBp / 100, product_provider: r.provider, policy_number: r.policyNumber, policy_status: r.status, valuation_date: wireDate(r.valuationDate), capital_content: r.capitalContentMinor == null ? null : money(r.currency, r.capitalContentMinor / 100) };
      case "liability":
        return { ...common, package_name: r.description, supplier: r.provider, rate: r.rateBp == null ? null : r.rateBp / 100, policy_number: r.policyNumber, valuation_date: wireDate(r.valuationDate), status: r.status, amount: valued, amount_in_report_currency: reported };
    }
  });
}

// ── routes ────────────────────────────────────────────────────────────────────────────────────

export const portfolioRoutes: Route[] = [
  // the portfolios an entity sees, in sortOrder (spec 001 §4)
  signedIn("GET", "/resourceful/entity/client/:id/portfolio", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    const list = visibleAccounts(db, id);
    return json(
      visiblePortfolios(db, id).map((p) => portfolioView(p, list.filter((a) => a.portfolio.portfolio.id === p.portfolio.id).length)),
    );
  }),

  signedIn("GET", "/resourceful/portfolio/account", (request, context) => {
    const query = validate(z.object({ accountid: IdList, portfolioid: opt(z.coerce.number().int().positive()) }), request.query, "query");
    const { all, selected } = scope(context, query.accountid);
    if (query.portfolioid !== undefined && !all.some((a) => a.account.portfolioId === query.portfolioid)) {
      throw forbidden("Permission Error: You do not have access to this portfolio");
    }
    return json(selected.filter((a) => query.portfolioid === undefined || a.account.portfolioId === query.portfolioid).map(accountView));
  }),

  signedIn("GET", "/resourceful/portfolio/account/:id", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const { selected } = scope(context, [id]);
    return json(accountView(selected[0] as VisibleAccount));
  }),

  signedIn("GET", "/resourceful/portfolio/portfolio/:id", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const entityId = clientEntityOf(context.caller);
    const p = visiblePortfolios(context.db, entityId).find((v) => v.portfolio.id === id);
    if (!p) throw forbidden("Permission Error: You do not have access to this portfolio");
    return json(portfolioView(p, visibleAccounts(context.db, entityId).filter((a) => a.portfolio.portfolio.id === id).length));
  }),

  signedIn("GET", "/resourceful/portfolio/portfolio/:id/account", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const entityId = clientEntityOf(context.caller);
    if (!visiblePortfolios(context.db, entityId).some((v) => v.portfolio.id === id)) {
      throw forbidden("Permission Error: You do not have access to this portfolio");
    }
    return json(visibleAccounts(context.db, entityId).filter((a) => a.account.portfolioId === id).map(accountView));
  }),

  signedIn("GET", "/resourceful/portfolio/group/account", (_request, context) => {
    const { all } = scope(context);
    const groups = new Map<string, { group_code: string; group_name: string; report_currency: string; accounts: ReturnType<typeof accountView>[] }>();
    for (const a of all) {
      if (!a.group || a.portfolio.isLinked) continue;
      const g = groups.get(a.group.groupCode) ?? { group_code: a.group.groupCode, group_name: a.group.groupName, report_currency: a.group.reportCurrency, accounts: [] };
      g.accounts.push(accountView(a));
      groups.set(a.group.groupCode, g);
    }
    return json([...groups.values()]);
  }),

  // account, portfolio and group summaries for the default and secondary timeframe (spec 001 §7)
  signedIn("GET", "/resourceful/portfolio/summary", (request, context) => {
    const query = validate(SummaryQuery, request.query, "query");
    const { entityId, all, selected } = scope(context, query.accountid);
    if (query.portfolioid !== undefined && !all.some((a) => a.account.portfolioId === query.portfolioid)) {
      throw forbidden("Permission Error: You do not have access to this portfolio");
    }
    if (query.group_code !== undefined && !all.some((a) => a.group?.groupCode === query.group_code)) {
      throw forbidden("Permission Error: You do not have access to this account group");
    }
    const measure = measureFor(context, entityId, query.pricing_type, basisOf(query.fees_and_taxes), query.report_currency);
    const today = todayOf(context);
    const end = holdBackEnd(query.end_date ?? today, today, query.hold_back_period ?? false);
    const list = selected.filter(
      (a) =>
        isManaged(a) &&
        (query.portfolioid === undefined || a.account.portfolioId === query.portfolioid) &&
        (query.group_code === undefined || (a.group?.groupCode === query.group_code && !a.portfolio.isLinked)),
    );
    // every item's start is on or after the whole list's start for the same timeframe
    const inception = earliestInception(list);
    const earliest = [query.default_timeframe, query.secondary_timeframe].map((t) => timeframeStart(t, end, inception)).sort()[0];
    const book = loadBook(context.db, list.map((a) => a.account.id), today, earliest);
    const perform = (members: VisibleAccount[], timeframe: Timeframe) => {
      const start = timeframeStart(timeframe, end, earliestInception(members));
      const result = periodPerformance(subBook(book, new Set(members.map((m) => m.account.id))), start, end, measure);
      return { timeframe, ...summaryData(result, measure.currency), accounts: result.accounts };
    };
    /** A single account's value and movement in its plan currency (spec 001 §4 currency toggle). */
    const inPlan = (account: VisibleAccount, timeframe: Timeframe) => {
      const currency = account.account.planCurrency;
      if (currency === measure.currency) return null;
      const start = timeframeStart(timeframe, end, account.account.inceptionDate);
      const result = periodPerformance(subBook(book, new Set([account.account.id])), start, end, { ...measure, currency });
      const data = summaryData(result, currency);
      return planFields(data);
    };
    const planFields = (data: ReturnType<typeof summaryData>) => ({
      plan_currency_value: data.value,
      plan_currency_movement: data.movement,
      plan_currency_twrr: data.twrr,
      plan_currency_twrr_period: data.twrr_period,
      plan_currency_irr: data.irr,
      plan_currency_irr_period: data.irr_period,
    });
    const items = summaryItems(query.level, list).map((item) => {
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
        plan_currency_value: single ? money(single.account.planCurrency, plan?.planValue ?? 0) : null,
        defaultData: { ...defaultWire, ...planOf(query.default_timeframe, defaultWire) },
        secondaryData: { ...secondaryWire, ...planOf(query.secondary_timeframe, secondaryWire) },
      };
    });
    // the totals are the client's own (linked accounts of other members have their own section);
    // a client who sees only linked accounts gets their totals
    const own = list.some((a) => !a.portfolio.isLinked) ? list.filter((a) => !a.portfolio.isLinked) : list;
    const totalOf = (timeframe: Timeframe) => {
      const { accounts: _a, ...wire } = perform(own, timeframe);
      return wire;
    };
    return json({
      level: query.level,
      end_date: wireDate(end),
      report_currency: measure.currency,
      pricing_type: measure.pricing,
      fees_and_taxes: measure.basis === "after" ? 1 : 0,
      items,
      totals: own.length ? { defaultData: totalOf(query.default_timeframe), secondaryData: totalOf(query.secondary_timeframe) } : null,
    });
  }),

  // spec 001 §7 profit analysis: rows per portfolio and account (or group), and the total
  signedIn("GET", "/resourceful/portfolio/profit_analysis/detail", (request, context) => {
    const query = validate(DetailQuery, request.query, "query");
    const today = todayOf(context);
    const { end } = periodOf(query.start_date, query.end_date, today);
    const { entityId, selected } = scope(context, query.accountid);
    const measure = measureFor(context, entityId, query.to_pricing_type, basisOf(query.fees_and_taxes), query.report_currency, query.from_pricing_type);
    const list = selected.filter(isManaged);
    const book = loadBook(context.db, list.map((a) => a.account.id), today, query.start_date);
    const includeTwrr = query.include_twrr ?? true;
    const includeIrr = query.include_irr ?? true;
    const row = (level: string, members: VisibleAccount[], head: Record<string, unknown>) => {
      const result = periodPerformance(subBook(book, new Set(members.map((m) => m.account.id))), query.start_date, end, measure);
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
        plan_currency_value: single ? money(single.account.planCurrency, plan?.planValue ?? 0) : null,
      };
    };
    const levels = query.grouping.split(",");
    const rows: ReturnType<typeof row>[] = [];
    if (levels[0] === "portfolio" || levels[0] === "group") {
      for (const item of summaryItems(levels[0] as "portfolio" | "group", list)) {
        rows.push(row(levels[0], item.accounts, { key: item.key, ...item.head, accountid: null }));
        if (levels[1] === "account") {
          for (const a of item.accounts) rows.push(row("account", [a], { key: `account-${a.account.id}`, name: a.account.description, accountid: a.account.id, portfolioid: a.account.portfolioId }));
        }
      }
    } else if (levels[0] === "account") {
      for (const a of list) rows.push(row("account", [a], { key: `account-${a.account.id}`, name: a.account.description, accountid: a.account.id, portfolioid: a.account.portfolioId }));
    }
    return json({
      start_date: wireDate(query.start_date),
      end_date: wireDate(end),
      report_currency: measure.currency,
      grouping: query.grouping,
      rows,
      total: list.length ? row("all", list, { key: "all", name: null, accountid: null }) : null,
    });
  }),

  // spec 001 §7 historic time series: any set of the client's accounts, an account, a group, a portfolio
  signedIn("GET", "/resourceful/portfolio/profit_analysis/historic_time_series_twrr", (request, context) => {
    const query = validate(SeriesQuery, request.query, "query");
    const { selected } = scope(context, query.accountid);
    return seriesAnswer(context, query.accountid ? selected : selected.filter((a) => !a.portfolio.isLinked), query, null);
  }),

  signedIn("GET", "/resourceful/portfolio/account/:id/profit_analysis/historic_time_series_twrr", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const query = validate(SeriesQuery, request.query, "query");
    const { selected } = scope(context, [id]);
    return seriesAnswer(context, selected, query, (selected[0] as VisibleAccount).portfolio.portfolio.benchmarkId);
  }),

  signedIn("GET", "/resourceful/portfolio/group/account/code/:code/profit_analysis/historic_time_series_twrr", (request, context) => {
    const { code } = validate(CodeParams, request.params, "path");
    const query = validate(SeriesQuery, request.query, "query");
    const { all } = scope(context);
    const members = all.filter((a) => a.group?.groupCode === code && !a.portfolio.isLinked);
    if (members.length === 0) throw forbidden("Permission Error: You do not have access to this account group");
    return seriesAnswer(context, members, query, null);
  }),

  signedIn("GET", "/resourceful/portfolio/portfolio/:id/profit_analysis/historic_time_series_twrr", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const query = validate(SeriesQuery, request.query, "query");
    const { all } = scope(context);
    const members = all.filter((a) => a.account.portfolioId === id);
    if (members.length === 0) throw forbidden("Permission Error: You do not have access to this portfolio");
    return seriesAnswer(context, members, query, (members[0] as VisibleAccount).portfolio.portfolio.benchmarkId);
  }),

  // spec 001 §3/§7 balance-sheet assets of one member: asset (investments), pension, annuity, liability
  ...(Object.keys(ASSET_KINDS) as Array<keyof typeof ASSET_KINDS>).map((kind) =>
    signedIn("GET", `/resourceful/entity/client/:id/${kind}`, (request, { db, caller }) => {
      const { id } = validate(IdParams, request.params, "path");
      const query = validate(z.object({ report_currency: opt(Currency) }), request.query, "query");
      assertCanSeeClient(db, caller, id);
      // the session currency: the signed-in client's, or the client in context's (else the member's)
      const sessionEntity = isClientUser(caller) ? caller.user.entityId : (caller.session.clientInContextId ?? id);
      return json(assetsOf(db, id, kind, query.report_currency ?? preferredCurrencyOf(db, sessionEntity)));
    }),
  ),
];
