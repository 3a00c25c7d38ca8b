// spec 001 §1, §4, §6: which portfolios and accounts an entity sees, and the pricing it may ask for.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { DerivedCache } from "../../db/derived";
import { prepared } from "../../db/prepared";
import { accountGroups, accounts, capabilities, portfolios, portfolioVisibility, users } from "../../db/schema";
import type { PricingType } from "../../domain/performance";
import { reachableEntities } from "../access";
import { forbidden } from "../http";
import type { SignedInContext } from "../router";
import { compareNames } from "../../lib/collation";

export type VisiblePortfolio = {
  portfolio: typeof portfolios.$inferSelect;
  reasonForVisibility: string;
  sortOrder: number;
  isLinked: boolean;
};

// What an entity sees is asked for by nearly every call, several times by a batch's items: kept
// between calls, dropped when the portfolios, their visibility, accounts, account groups or client
// groups are written (derived_generation's triggers, decisions 123 and 158). Frozen: callers share them.
const portfoliosSeen = new DerivedCache<readonly VisiblePortfolio[]>(2_000);
const accountsSeen = new DerivedCache<readonly VisibleAccount[]>(2_000);

/**
 * The portfolios an entity sees: its own single, joint and shared ones, and linked ones only when
 * their owner is a login-accessible member of its client group. Ordered by sortOrder, then name.
 */
export function visiblePortfolios(db: Db, entityId: number): readonly VisiblePortfolio[] {
  return portfoliosSeen.get(db, String(entityId), () => Object.freeze(readVisiblePortfolios(db, entityId)));
}

function readVisiblePortfolios(db: Db, entityId: number): VisiblePortfolio[] {
  const reachable = reachableEntities(db, entityId);
  return prepared(db, portfoliosSeenBy)
    .all({ entityId })
    .filter((r) => !r.v.isLinked || reachable.has(r.portfolio.entityId))
    .map((r) => ({
      portfolio: r.portfolio,
      reasonForVisibility: r.v.reasonForVisibility,
      sortOrder: r.v.sortOrder,
      isLinked: r.v.isLinked,
    }))
    .sort(
      (a, b) =>
        a.sortOrder - b.sortOrder ||
        compareNames(a.portfolio.name, b.portfolio.name) ||
        a.portfolio.id - b.portfolio.id,
    );
}

// every portfolio call's statements, prepared once per database (decision 123)
const portfoliosSeenBy = (db: Db) =>
  db
    .select({ portfolio: portfolios, v: portfolioVisibility })
    .from(portfolioVisibility)
    .innerJoin(portfolios, eq(portfolios.id, portfolioVisibility.portfolioId))
    .where(eq(portfolioVisibility.entityId, sql.placeholder("entityId")))
    .prepare();
const accountsSeenBy = (db: Db) =>
  db
    .select({ account: accounts, group: accountGroups })
    .from(accounts)
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.accountGroupId))
    .where(
      inArray(
        accounts.portfolioId,
        db
          .select({ id: portfolioVisibility.portfolioId })
          .from(portfolioVisibility)
          .where(eq(portfolioVisibility.entityId, sql.placeholder("entityId"))),
      ),
    )
    .prepare();
const capabilitiesOf = (db: Db) =>
  db
    .select({ name: capabilities.name })
    .from(capabilities)
    .where(eq(capabilities.entityId, sql.placeholder("entityId")))
    .prepare();
const preferredCurrency = (db: Db) =>
  db
    .select({ c: users.preferredCurrency })
    .from(users)
    .where(eq(users.entityId, sql.placeholder("entityId")))
    .prepare();

export type VisibleAccount = {
  account: typeof accounts.$inferSelect;
  group: typeof accountGroups.$inferSelect | null;
  portfolio: VisiblePortfolio;
};

export function visibleAccounts(db: Db, entityId: number): readonly VisibleAccount[] {
  return accountsSeen.get(db, String(entityId), () => Object.freeze(readVisibleAccounts(db, entityId)));
}

function readVisibleAccounts(db: Db, entityId: number): VisibleAccount[] {
  const seen = visiblePortfolios(db, entityId);
  if (seen.length === 0) return [];
  const byId = new Map(seen.map((p) => [p.portfolio.id, p]));
  const order = new Map(seen.map((p, i) => [p.portfolio.id, i]));
  // the accounts of every portfolio the entity has a visibility row for, less the linked ones unseen
  return prepared(db, accountsSeenBy)
    .all({ entityId })
    .filter((r) => byId.has(r.account.portfolioId))
    .map((r) => ({
      account: r.account,
      group: r.group,
      portfolio: byId.get(r.account.portfolioId) as VisiblePortfolio,
    }))
    .sort(
      (a, b) =>
        (order.get(a.portfolio.portfolio.id) as number) - (order.get(b.portfolio.portfolio.id) as number) ||
        a.account.id - b.account.id,
    );
}

/** spec 001 §5: accounts with service type 'Not managed' are left out of summaries and performance. */
export const isManaged = (a: VisibleAccount) => a.account.serviceType !== "Not managed";

/**
 * One view, one set of accounts (docs/decisions/107-one-view-one-set-of-accounts.md; the portal's
 * `viewOf` in app/lib/analysis/view.ts): of some accounts, those a view's figures and lists cover —
 * the managed ones the client owns (alone, jointly or shared), or, when none of them is the
 * client's own, the managed linked ones. A call made without a list of accounts covers this set of
 * every account the client sees, and a total covers this set of what was asked; linked accounts
 * beside own ones are rows of their own section, in no total.
 */
export function accountsOfView(list: readonly VisibleAccount[]): VisibleAccount[] {
  const managed = list.filter(isManaged);
  const own = managed.filter((a) => !a.portfolio.isLinked);
  return own.length ? own : managed;
}

export const portfolioType = (ptype: string) =>
  ptype === "PT_JOINT" ? "joint" : ptype === "PT_SHARED" ? "shared" : "single";

/** spec 001 §6: close prices, delayed with view_marketdata, live with live_marketdata_access. */
export function assertPricingAllowed(db: Db, entityId: number, pricing: PricingType): void {
  if (pricing === "close") return;
  const names = new Set(
    prepared(db, capabilitiesOf)
      .all({ entityId })
      .map((c) => c.name),
  );
  const allowed =
    pricing === "live"
      ? names.has("live_marketdata_access")
      : names.has("view_marketdata") || names.has("live_marketdata_access");
  if (!allowed) throw forbidden(`Permission Error: ${pricing} prices are not available to this client`);
}

/** The client's preferred (session) currency: its user's, else GBP. */
export function preferredCurrencyOf(db: Db, entityId: number): string {
  return prepared(db, preferredCurrency).get({ entityId })?.c ?? "GBP";
}

export const todayOf = (context: SignedInContext) => context.clock.now().toISOString().slice(0, 10);
