// spec 001 §3 "Target set", "Payment information per account", §7 "Targets and payment
// information": an account's investment instructions (its target sets and their securities'
// weights) and how to pay into it (BPAY and bank accounts); and a member's own registered bank
// accounts, where withdrawals are paid (`entity/client/{id}/bank`).
import { asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { clientBankAccounts, paymentMethods, securities, targetSetSecurities, targetSets } from "../../db/schema";
import { assertCanSeeClient } from "../access";
import { notFound, validate } from "../http";
import { json, type Route, type SignedInContext, signedIn } from "../router";
import { IdList, IdParams, scope } from "./requests";
import { compareNames } from "../../lib/collation";

/** A weight in basis points as a percentage with up to 2 decimals (3000 → 30). */
const percentOf = (bp: number) => bp / 100;

function securitiesOf(context: SignedInContext, targetSetId: number) {
  return context.db
    .select({ code: securities.code, name: securities.description, weightBp: targetSetSecurities.weightBp })
    .from(targetSetSecurities)
    .innerJoin(securities, eq(securities.id, targetSetSecurities.securityId))
    .where(eq(targetSetSecurities.targetSetId, targetSetId))
    .all()
    .sort((a, b) => compareNames(a.name, b.name) || compareNames(a.code, b.code))
    .map((s) => ({ code: s.code, name: s.name, weight: percentOf(s.weightBp) }));
}

/** The target sets of accounts the client sees (all of them without a list), in id order. */
function targetSetsOf(context: SignedInContext, accountIds: number[]) {
  if (!accountIds.length) return [];
  return context.db
    .select()
    .from(targetSets)
    .where(inArray(targetSets.accountId, accountIds))
    .orderBy(asc(targetSets.id))
    .all();
}

/** An account number as it may be shown: its last four characters after four stars ("****6655"); never the whole number. */
export function maskedAccountNumber(accountNumber: string): string {
  const plain = accountNumber.replace(/\s+/g, "");
  return plain.length > 4 ? `****${plain.slice(-4)}` : "****";
}

/** A target set the client may see, else 404 (as one that does not exist). */
function visibleTargetSet(context: SignedInContext, id: number) {
  const set = context.db.select().from(targetSets).where(eq(targetSets.id, id)).get();
  const { all } = scope(context);
  if (!set || !all.some((a) => a.account.id === set.accountId)) throw notFound(`Target set ${id}`);
  return set;
}

export const instructionRoutes: Route[] = [
  // all the target sets of the client's accounts, or of the accounts asked for, with their securities
  signedIn("GET", "/resourceful/portfolio/targetset", (request, context) => {
    const query = validate(z.object({ accountid: IdList }), request.query, "query");
    const { selected } = scope(context, query.accountid);
    return json(
      targetSetsOf(
        context,
        selected.map((a) => a.account.id),
      ).map((set) => ({
        id: set.id,
        accountid: set.accountId,
        description: set.description,
        securities: securitiesOf(context, set.id),
      })),
    );
  }),

  // the target sets linked to one account
  signedIn("GET", "/resourceful/portfolio/account/:id/targetlink", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    scope(context, [id]);
    return json(
      targetSetsOf(context, [id]).map((set) => ({
        targetsetid: set.id,
        accountid: set.accountId,
        description: set.description,
      })),
    );
  }),

  // one target set's securities and their weights (percent)
  signedIn("GET", "/resourceful/portfolio/targetset/:id/allocation/security", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    visibleTargetSet(context, id);
    return json(securitiesOf(context, id));
  }),

  // how to pay into one account: its BPAY billers and bank accounts
  signedIn("GET", "/resourceful/portfolio/account/:id/payment_information", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    scope(context, [id]);
    const methods = context.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.accountId, id))
      .orderBy(asc(paymentMethods.id))
      .all();
    return json({
      accountid: id,
      bpays: methods
        .filter((m) => m.kind === "bpay")
        .map((m) => ({ id: m.id, billerCode: m.billerCode, reference: m.reference })),
      bankAccounts: methods
        .filter((m) => m.kind === "bank")
        .map((m) => ({
          id: m.id,
          bank: m.bank,
          accountName: m.accountName,
          bsb: m.bsb,
          accountNumber: m.accountNumber,
        })),
    });
  }),

  // spec 001 §7 bank detail: the member's registered bank accounts, checked like every entity call
  signedIn("GET", "/resourceful/entity/client/:id/bank", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    return json(
      db
        .select()
        .from(clientBankAccounts)
        .where(eq(clientBankAccounts.entityId, id))
        .orderBy(desc(clientBankAccounts.isDefault), asc(clientBankAccounts.id))
        .all()
        .map((b) => ({
          id: b.id,
          bank_name: b.bankName,
          account_name: b.accountName,
          sort_code: b.sortCode,
          bsb: b.bsb,
          account_number_masked: maskedAccountNumber(b.accountNumber),
          is_default: b.isDefault,
        })),
    );
  }),
];
