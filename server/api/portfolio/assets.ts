// spec 001 §3 balance-sheet assets of one member: investments, pensions, annuities, liabilities.
import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { entities, fxRates, otherAssetOwners, otherAssets, portfolioVisibility } from "../../db/schema";
import { holdBackEnd, type Measure } from "../../domain/performance";
import { wireDate } from "../../lib/wire";
import { assertCanSeeClient, isClientUser } from "../access";
import { validate } from "../http";
import { json, type Route, signedIn } from "../router";
import {
  assertPricingAllowed,
  isManaged,
  preferredCurrencyOf,
  todayOf,
  type VisibleAccount,
  visibleAccounts,
} from "./visibility";
import { bookOfAccounts, performanceOf } from "./book";
import { money, moneyMinor, summaryData } from "./views";
import { Bool, Currency, IdParams, opt, Pricing } from "./requests";

const ASSET_KINDS = {
  asset: "investment",
  pension: "pension",
  annuity: "annuity",
  liability: "liability",
} as const;

// the balance sheet's statements, prepared once per database (decisions 123, 131)
const lastRatePerGbp = (db: Db) =>
  db
    .select({ r: fxRates.rateMicros })
    .from(fxRates)
    .where(and(eq(fxRates.currency, sql.placeholder("currency")), lte(fxRates.date, sql.placeholder("date"))))
    .orderBy(desc(fxRates.date))
    .limit(1)
    .prepare();
const ownedAssetsOfKind = (db: Db) =>
  db
    .select({ asset: otherAssets })
    .from(otherAssetOwners)
    .innerJoin(otherAssets, eq(otherAssets.id, otherAssetOwners.assetId))
    .where(
      and(eq(otherAssetOwners.entityId, sql.placeholder("memberId")), eq(otherAssets.kind, sql.placeholder("kind"))),
    )
    .orderBy(asc(otherAssets.id))
    .prepare();
const ownersOfAssets = (db: Db) =>
  db
    .select({ o: otherAssetOwners, e: entities })
    .from(otherAssetOwners)
    .innerJoin(entities, eq(entities.id, otherAssetOwners.entityId))
    .where(inJsonList(otherAssetOwners.assetId, "assetIds"))
    .orderBy(asc(otherAssetOwners.assetId), asc(otherAssetOwners.entityId))
    .prepare();
const holdersOfPortfolios = (db: Db) =>
  db
    .select({ v: portfolioVisibility, e: entities })
    .from(portfolioVisibility)
    .innerJoin(entities, eq(entities.id, portfolioVisibility.entityId))
    .where(inJsonList(portfolioVisibility.portfolioId, "portfolioIds"))
    .prepare();

/** How many `to` one `from` buys on `date` (the last rates on or before it; null when there is none). */
function fxOnDate(db: Db, from: string, to: string, date: string): number | null {
  if (from === to) return 1;
  const perGbp = (c: string) =>
    c === "GBP" ? 1 : (prepared(db, lastRatePerGbp).get({ currency: c, date })?.r ?? 0) / 1e6 || null;
  const a = perGbp(from);
  const b = perGbp(to);
  return a && b ? b / a : null;
}

type OtherAsset = typeof otherAssets.$inferSelect;
type Money = ReturnType<typeof money>;
/** An optional amount of an asset's record (whole minor units), on the wire or null. */
const moneyOrNull = (currency: string, minor: number | null): Money | null =>
  minor == null ? null : moneyMinor(currency, minor);
/** What has been paid into and taken out of an asset or a pension, where known. */
const flowTotals = (r: OtherAsset) => ({
  contribution_total: moneyOrNull(r.currency, r.contributionTotalMinor),
  withdrawal_total: moneyOrNull(r.currency, r.withdrawalTotalMinor),
});

/** An owner of an asset as sent: who, and the percentage owned. */
const ownerView = (o: { o: typeof otherAssetOwners.$inferSelect; e: typeof entities.$inferSelect }) => ({
  owner_id: o.e.id,
  owner_first_name: o.e.firstName,
  owner_last_name: o.e.lastName,
  owner_name: o.e.displayName,
  percentage: o.o.percentageBp / 100,
});

/** The fields of each kind of other asset, after the fields they share. */
function otherAssetFields(kind: keyof typeof ASSET_KINDS, r: OtherAsset, valued: Money, reported: Money | null) {
  switch (kind) {
    case "asset":
      return {
        description: r.description,
        amount: valued,
        market_value: valued,
        amount_in_report_currency: reported,
        valuation_date: wireDate(r.valuationDate),
        status: r.status,
        provider: r.provider,
        supplier: r.provider,
        policy_number: r.policyNumber,
        ...flowTotals(r),
      };
    case "pension":
      return {
        description: r.description,
        fund_value: valued,
        fund_value_in_report_currency: reported,
        fund_value_in_plan_currency: valued,
        fund_valuation_date: wireDate(r.valuationDate),
        policy_status: r.status,
        fund_or_policy_num: r.policyNumber,
        product_provider: r.provider,
        ...flowTotals(r),
        crystallised_fund: moneyOrNull(r.currency, r.crystallisedMinor),
        uncrystallised_fund: moneyOrNull(r.currency, r.uncrystallisedMinor),
      };
    case "annuity":
      return {
        description: r.description,
        current_value: valued,
        current_value_in_report_currency: reported,
        income_value: moneyOrNull(r.currency, r.incomeValueMinor),
        frequency: r.frequency,
        income_rate: r.rateBp == null ? null : r.rateBp / 100,
        product_provider: r.provider,
        policy_number: r.policyNumber,
        policy_status: r.status,
        valuation_date: wireDate(r.valuationDate),
        capital_content: moneyOrNull(r.currency, r.capitalContentMinor),
      };
    case "liability":
      return {
        package_name: r.description,
        supplier: r.provider,
        rate: r.rateBp == null ? null : r.rateBp / 100,
        policy_number: r.policyNumber,
        valuation_date: wireDate(r.valuationDate),
        status: r.status,
        amount: valued,
        amount_in_report_currency: reported,
      };
  }
}

function assetsOf(db: Db, memberId: number, kind: keyof typeof ASSET_KINDS, reportCurrency: string) {
  // the member's own assets of the kind (an owner row per member and asset: no asset twice)
  const rows = prepared(db, ownedAssetsOfKind)
    .all({ memberId, kind: ASSET_KINDS[kind] })
    .map((r) => r.asset);
  if (rows.length === 0) return [];
  const owners = prepared(db, ownersOfAssets).all({
    assetIds: jsonList(rows.map((r) => r.id)),
  });
  return rows.map((r) => {
    const value = r.valueMinor / 100;
    const rate = fxOnDate(db, r.currency, reportCurrency, r.valuationDate);
    const inReport = rate === null ? null : value * rate;
    const assetOwners = owners.filter((o) => o.o.assetId === r.id).map(ownerView);
    const percentOwned = kind === "pension" ? 100 : (assetOwners.find((o) => o.owner_id === memberId)?.percentage ?? 0);
    const common = {
      id: r.id,
      index: r.id,
      source: "other" as const,
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
    return { ...common, ...otherAssetFields(kind, r, valued, reported) };
  });
}

type Valuation = Pick<Measure, "currency" | "pricing"> & {
  /** The platform's today and the valuation date (today, or the previous business day with the hold-back). */
  today: string;
  end: string;
};

/** 10000 basis points shared equally, the remainder to the first owners (3 owners: 33.34, 33.33, 33.33). */
function equalShares(count: number): number[] {
  const base = Math.floor(10_000 / count);
  return Array.from({ length: count }, (_, i) => (i < 10_000 - base * count ? base + 1 : base) / 100);
}

type Holder = { v: typeof portfolioVisibility.$inferSelect; e: typeof entities.$inferSelect };

/**
 * The owners of a portfolio account: a single portfolio's owner at 100%, a joint or shared one's
 * every owner in equal shares, the primary joint owner first.
 */
function portfolioOwners(holders: readonly Holder[], a: VisibleAccount) {
  const p = a.portfolio.portfolio;
  const people =
    p.ptype === "PT_SINGLE"
      ? holders.filter((h) => h.v.portfolioId === p.id && h.e.id === p.entityId)
      : holders
          .filter((h) => h.v.portfolioId === p.id)
          // the primary joint owner first, then by sort order and id
          .sort(
            (x, y) =>
              Number(x.v.reasonForVisibility !== "primary_joint_owner") -
                Number(y.v.reasonForVisibility !== "primary_joint_owner") || x.e.id - y.e.id,
          );
  const shares = equalShares(people.length);
  return people.map((h, i) => ({
    owner_id: h.e.id,
    owner_first_name: h.e.firstName,
    owner_last_name: h.e.lastName,
    owner_name: h.e.displayName,
    percentage: shares[i] as number,
  }));
}

/** The fields of a portfolio account as an investment or a pension, after the fields they share. */
function portfolioAccountFields(
  kind: "asset" | "pension",
  account: VisibleAccount["account"],
  inPlan: Money,
  reported: ReturnType<typeof summaryData>["value"],
  end: string,
) {
  if (kind === "pension") {
    return {
      fund_value: inPlan,
      fund_value_in_report_currency: reported,
      fund_value_in_plan_currency: inPlan,
      fund_valuation_date: wireDate(end),
      policy_status: "Active",
      fund_or_policy_num: account.externalAccountId,
      product_provider: account.product,
      crystallised_fund: null,
      uncrystallised_fund: null,
    };
  }
  return {
    amount: inPlan,
    market_value: inPlan,
    amount_in_report_currency: reported,
    valuation_date: wireDate(end),
    status: "Existing",
    provider: account.product,
    supplier: account.product,
    policy_number: account.externalAccountId,
  };
}

/**
 * The member's portfolio accounts under advice as balance-sheet items (docs/decisions/109): the
 * accounts of the portfolios the member owns (single, joint or shared; not a linked one), except
 * 'Not managed' ones; a pension account with the pensions, any other with the investments. Each is
 * valued as `profit_analysis/detail` values an account row on the same day with the same pricing:
 * `periodPerformance` of the account's own book, its `value` through `summaryData`, its plan-currency
 * value from the same valuation. Owners: single the owner at 100%, joint and shared every owner
 * (primary and secondary joint owners, shared owners) in equal shares.
 */
function portfolioAccountsOf(db: Db, memberId: number, kind: keyof typeof ASSET_KINDS, valuation: Valuation) {
  if (kind !== "asset" && kind !== "pension") return [];
  // the managed accounts of the portfolios the member owns (single, joint or shared; not linked)
  const accounts = visibleAccounts(db, memberId).filter(
    (a: VisibleAccount) =>
      !a.portfolio.isLinked && isManaged(a) && (a.account.taxType === "PEN") === (kind === "pension"),
  );
  if (accounts.length === 0) return [];
  const portfolioIds = [...new Set(accounts.map((a) => a.account.portfolioId))];
  const holders = prepared(db, holdersOfPortfolios)
    .all({ portfolioIds: jsonList(portfolioIds) })
    .filter((r) => !r.v.isLinked && r.v.reasonForVisibility !== "explicit_link");
  const book = bookOfAccounts(db, accounts, valuation.today, valuation.end);
  const measure: Measure = {
    currency: valuation.currency,
    pricing: valuation.pricing,
    basis: "after",
  };
  return accounts.map((a) => {
    const { account } = a;
    // the account row's figure of profit_analysis/detail, kept with the book (decision 123)
    const result = performanceOf(book, [account.id], valuation.end, valuation.end, measure);
    const reported = summaryData(result, measure.currency).value;
    const inPlan = money(account.planCurrency, result.accounts.get(account.id)?.planValue ?? 0);
    const assetOwners = portfolioOwners(holders, a);
    const percentOwned = kind === "pension" ? 100 : (assetOwners.find((o) => o.owner_id === memberId)?.percentage ?? 0);
    const common = {
      id: account.id,
      index: account.id,
      // a portfolio account, not one of the other assets (whose ids are another sequence)
      source: "portfolio" as const,
      accountid: account.id,
      portfolioid: account.portfolioId,
      desc: account.description,
      description: account.description,
      type: account.taxTypeTitle ?? account.taxType ?? "",
      owners: assetOwners,
      owner: assetOwners.map((o) => o.owner_name).join(", "),
      percentOwned,
      value_owned: money(measure.currency, (result.valueTo * percentOwned) / 100),
      is_sipp_wrapper: false,
      under_advice: true,
      currency: account.planCurrency,
      contribution_total: null,
      withdrawal_total: null,
    };
    return { ...common, ...portfolioAccountFields(kind, account, inPlan, reported, valuation.end) };
  });
}

export const assetRoutes: Route[] = [
  // spec 001 §3/§7 balance-sheet assets of one member: asset (investments), pension, annuity, liability
  ...(Object.keys(ASSET_KINDS) as Array<keyof typeof ASSET_KINDS>).map((kind) =>
    signedIn("GET", `/resourceful/entity/client/:id/${kind}`, (request, context) => {
      const { db, caller } = context;
      const { id } = validate(IdParams, request.params, "path");
      const query = validate(
        z.object({
          report_currency: opt(Currency),
          pricing_type: z.preprocess((v) => (v === "" ? undefined : v), Pricing.default("close")),
          hold_back_period: Bool,
        }),
        request.query,
        "query",
      );
      assertCanSeeClient(db, caller, id);
      // the session currency: the signed-in client's, or the client in context's (else the member's)
      const sessionEntity = isClientUser(caller) ? caller.user.entityId : (caller.session.clientInContextId ?? id);
      assertPricingAllowed(db, sessionEntity, query.pricing_type);
      const currency = query.report_currency ?? preferredCurrencyOf(db, sessionEntity);
      const today = todayOf(context);
      return json([
        ...portfolioAccountsOf(db, id, kind, {
          currency,
          pricing: query.pricing_type,
          today,
          end: holdBackEnd(today, today, query.hold_back_period ?? false),
        }),
        ...assetsOf(db, id, kind, currency),
      ]);
    }),
  ),
];
