// The portfolio endpoints' queries and the scope of a request: the accounts it may see, its
// measure and its period (docs/decisions/073-performance-endpoints.md).
import { z } from "zod";
import { endOfPreviousYear, shiftYears } from "../../domain/calendar";
import { type FeesBasis, holdBackEnd, type Measure, type PricingType } from "../../domain/performance";
import { clientEntityOf } from "../access";
import { ApiError, MESSAGES, notFound } from "../http";
import type { SignedInContext } from "../router";
import { type VisibleAccount, assertPricingAllowed, preferredCurrencyOf, visibleAccounts } from "./visibility";
import { accountView, portfolioView } from "./views";

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "Not a calendar date",
  );
export const absent = (v: unknown) => (v === "" ? undefined : v);
export const opt = <S extends z.ZodTypeAny>(s: S) => z.preprocess(absent, s.optional());
export const Bool = z.preprocess(
  (v) => (v === "" || v === undefined ? undefined : v === "true" || v === "1" || v === true),
  z.boolean().optional(),
);
export const IdList = z.preprocess(
  (v) => (typeof v === "string" && v !== "" ? v.split(",") : v === "" ? undefined : v),
  z.array(z.coerce.number().int().positive()).max(200).optional(),
);
export const Pricing = z.enum(["close", "delayed", "live"]);
export const Currency = z.string().regex(/^[A-Z]{3}$/, "Expected a currency code");
export const FeesAndTaxes = z.preprocess(absent, z.enum(["0", "1"]).optional());
export const basisOf = (v: "0" | "1" | undefined): FeesBasis => (v === "0" ? "before" : "after");

export const TIMEFRAMES = ["1Y", "2Y", "3Y", "5Y", "YTD", "SI"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** The start (a valuation at its close) of a named timeframe ending at `end`. */
export function timeframeStart(timeframe: Timeframe, end: string, inception: string): string {
  switch (timeframe) {
    case "1Y":
      return shiftYears(end, -1);
    case "2Y":
      return shiftYears(end, -2);
    case "3Y":
      return shiftYears(end, -3);
    case "5Y":
      return shiftYears(end, -5);
    case "YTD":
      return endOfPreviousYear(end);
    case "SI":
      return inception < end ? inception : end;
  }
}

export const SummaryQuery = z.object({
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

export const DetailQuery = z
  .object({
    start_date: opt(IsoDate),
    end_date: opt(IsoDate),
    /** Instead of start_date: the period of a named timeframe ending today (or end_date), as the series'. */
    timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).optional()),
    hold_back_period: Bool,
    grouping: z.preprocess(
      absent,
      z
        .enum(["portfolio,account", "portfolio", "account", "group", "group,account", "all"])
        .default("portfolio,account"),
    ),
    from_pricing_type: z.preprocess(absent, Pricing.default("close")),
    to_pricing_type: z.preprocess(absent, Pricing.default("close")),
    include_twrr: Bool,
    include_irr: Bool,
    fees_and_taxes: FeesAndTaxes,
    report_currency: opt(Currency),
    accountid: IdList,
    fields: opt(z.string().max(1000)),
  })
  .refine((q) => q.timeframe !== undefined || (q.start_date !== undefined && q.end_date !== undefined), {
    message: "start_date and end_date, or timeframe, are required",
  });

/**
 * The period a request asks for: a named timeframe ending today (or at its end date) with the
 * hold-back applied, `SI` from the earliest inception of the accounts measured; or its two dates,
 * the end capped at today and, with the hold-back, moved off today.
 */
export function requestedPeriod(
  query: { timeframe?: Timeframe; start_date?: string; end_date?: string; hold_back_period?: boolean },
  today: string,
  inception: string,
): { start: string; end: string } {
  const holdBack = query.hold_back_period ?? false;
  if (query.timeframe) {
    const end = holdBackEnd(query.end_date ?? today, today, holdBack);
    return { start: timeframeStart(query.timeframe, end, inception), end };
  }
  const { start, end } = periodOf(query.start_date as string, query.end_date as string, today);
  return periodOf(start, holdBackEnd(end, today, holdBack), today);
}

export const SeriesQuery = z
  .object({
    start_date: opt(IsoDate),
    end_date: opt(IsoDate),
    /** Instead of start_date: the period of a named timeframe ending today (or end_date), as the summary's. */
    timeframe: z.preprocess(absent, z.enum(TIMEFRAMES).optional()),
    hold_back_period: Bool,
    frequency: z.preprocess(
      absent,
      z.enum(["daily", "weekly", "monthly", "quarterly", "yearly", "auto"]).default("monthly"),
    ),
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

export const IdParams = z.object({ id: z.coerce.number().int().positive() });
export const CodeParams = z.object({ code: z.string().min(1).max(50) });

/** The session's client and the accounts it sees, restricted to requested ids (403 for one it does not see). */
export function scope(context: SignedInContext, requested?: number[]) {
  const entityId = clientEntityOf(context.caller);
  const all = visibleAccounts(context.db, entityId);
  if (!requested) return { entityId, all, selected: all };
  const byId = new Map(all.map((a) => [a.account.id, a]));
  for (const id of requested) if (!byId.has(id)) throw notFound(`Account ${id}`);
  return {
    entityId,
    all,
    selected: requested.map((id) => byId.get(id) as VisibleAccount),
  };
}

/**
 * The path form `group/account/code/{code}/...`: the client's own (not linked) accounts of an
 * account group, in the order they are seen; 404 when it has none (an unknown or foreign code).
 */
export function ownAccountsOfGroup(all: readonly VisibleAccount[], code: string): VisibleAccount[] {
  const members = all.filter((a) => a.group?.groupCode === code && !a.portfolio.isLinked);
  if (members.length === 0) throw notFound(`Account group ${code}`);
  return members;
}

export const earliestInception = (list: readonly VisibleAccount[]) =>
  list.reduce((min, a) => (a.account.inceptionDate < min ? a.account.inceptionDate : min), "9999-12-31");

type Item = {
  key: string;
  accounts: VisibleAccount[];
  head: Record<string, unknown>;
};

export function summaryItems(level: "portfolio" | "account" | "group", list: VisibleAccount[]): Item[] {
  if (level === "account") {
    return list.map((a) => ({
      key: `account-${a.account.id}`,
      accounts: [a],
      head: {
        ...accountView(a),
        name: a.account.description,
        sortOrder: a.portfolio.sortOrder,
      },
    }));
  }
  const items = new Map<string, Item>();
  for (const a of list) {
    if (level === "portfolio") {
      const p = a.portfolio;
      const key = `portfolio-${p.portfolio.id}`;
      const item: Item = items.get(key) ?? {
        key,
        accounts: [],
        head: { name: p.portfolio.name, ...portfolioView(p, 0) },
      };
      item.accounts.push(a);
      items.set(key, item);
    } else {
      // account groups are the client's own; linked accounts stay in the linked section
      const key = a.portfolio.isLinked ? "group-linked" : a.group ? `group-${a.group.groupCode}` : "group-none";
      const head = a.portfolio.isLinked
        ? { name: null, group_code: null, group_name: null, isLinked: true }
        : {
            name: a.group?.groupName ?? null,
            group_code: a.group?.groupCode ?? null,
            group_name: a.group?.groupName ?? null,
            isLinked: false,
          };
      const item: Item = items.get(key) ?? { key, accounts: [], head };
      item.accounts.push(a);
      items.set(key, item);
    }
  }
  return [...items.values()].map((i) => ({
    ...i,
    head: { ...i.head, account_count: i.accounts.length },
  }));
}

/** The measure of a request; every pricing type asked for (from and to) must be allowed. */
export function measureFor(
  context: SignedInContext,
  entityId: number,
  pricing: PricingType,
  basis: FeesBasis,
  currency?: string,
  fromPricing: PricingType = pricing,
): Measure {
  assertPricingAllowed(context.db, entityId, fromPricing);
  assertPricingAllowed(context.db, entityId, pricing);
  return {
    currency: currency ?? preferredCurrencyOf(context.db, entityId),
    pricing,
    basis,
  };
}

/**
 * The measure of a period's request (a series, a profit analysis, its cash flows): priced to its
 * `to_pricing_type` (from its `from_pricing_type` when it has one), on its fees basis, in its report
 * currency or the member's preferred one.
 */
export function periodMeasure(
  context: SignedInContext,
  entityId: number,
  query: {
    to_pricing_type: PricingType;
    from_pricing_type?: PricingType;
    fees_and_taxes?: "0" | "1";
    report_currency?: string;
  },
): Measure {
  return measureFor(
    context,
    entityId,
    query.to_pricing_type,
    basisOf(query.fees_and_taxes),
    query.report_currency,
    query.from_pricing_type,
  );
}

/** A requested period: start not after end, the end capped at today, and the start not after that. */
export function periodOf(startDate: string, endDate: string, today: string): { start: string; end: string } {
  if (startDate > endDate)
    throw new ApiError(400, "Invalid query: start_date is after end_date", MESSAGES.argumentsIncorrect);
  const end = endDate > today ? today : endDate;
  if (startDate > end) throw new ApiError(400, "Invalid query: start_date is after today", MESSAGES.argumentsIncorrect);
  return { start: startDate, end };
}
