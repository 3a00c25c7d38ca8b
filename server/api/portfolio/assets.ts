// spec 001 §3 balance-sheet assets of one member: investments, pensions, annuities, liabilities.
import { and, desc, eq, inArray, lte } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import {
  entities,
  fxRates,
  otherAssetOwners,
  otherAssets,
} from "../../db/schema";
import { wireDate } from "../../lib/wire";
import { assertCanSeeClient, isClientUser } from "../access";
import { validate } from "../http";
import { json, type Route, signedIn } from "../router";
import { preferredCurrencyOf } from "./visibility";
import { money } from "./views";
import { Currency, IdParams, opt } from "./requests";

const ASSET_KINDS = {
  asset: "investment",
  pension: "pension",
  annuity: "annuity",
  liability: "liability",
} as const;

/** How many `to` one `from` buys on `date` (the last rates on or before it; null when there is none). */
function fxOnDate(
  db: Db,
  from: string,
  to: string,
  date: string
): number | null {
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

function assetsOf(
  db: Db,
  memberId: number,
  kind: keyof typeof ASSET_KINDS,
  reportCurrency: string
) {
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
    .where(
      and(
        inArray(otherAssets.id, owned),
        eq(otherAssets.kind, ASSET_KINDS[kind])
      )
    )
    .orderBy(otherAssets.id)
    .all();
  const owners = db
    .select({ o: otherAssetOwners, e: entities })
    .from(otherAssetOwners)
    .innerJoin(entities, eq(entities.id, otherAssetOwners.entityId))
    .where(
      inArray(
        otherAssetOwners.assetId,
        rows.map((r) => r.id)
      )
    )
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
    const percentOwned =
      kind === "pension"
        ? 100
        : assetOwners.find((o) => o.owner_id === memberId)?.percentage ?? 0;
    const common = {
      id: r.id,
      index: r.id,
      desc: r.description,
      type: r.type,
      owners: assetOwners,
      owner: assetOwners.map((o) => o.owner_name).join(", "),
      percentOwned,
      value_owned:
        inReport === null
          ? null
          : money(reportCurrency, (inReport * percentOwned) / 100),
      is_sipp_wrapper: r.isSippWrapper,
      under_advice: r.underAdvice,
      currency: r.currency,
    };
    const valued = money(r.currency, value);
    const reported = inReport === null ? null : money(reportCurrency, inReport);
    switch (kind) {
      case "asset":
        return {
          ...common,
          description: r.description,
          amount: valued,
          market_value: valued,
          amount_in_report_currency: reported,
          valuation_date: wireDate(r.valuationDate),
          status: r.status,
          provider: r.provider,
          supplier: r.provider,
          policy_number: r.policyNumber,
          contribution_total:
            r.contributionTotalMinor == null
              ? null
              : money(r.currency, r.contributionTotalMinor / 100),
          withdrawal_total:
            r.withdrawalTotalMinor == null
              ? null
              : money(r.currency, r.withdrawalTotalMinor / 100),
        };
      case "pension":
        return {
          ...common,
          description: r.description,
          fund_value: valued,
          fund_value_in_report_currency: reported,
          fund_value_in_plan_currency: valued,
          fund_valuation_date: wireDate(r.valuationDate),
          policy_status: r.status,
          fund_or_policy_num: r.policyNumber,
          product_provider: r.provider,
          contribution_total:
            r.contributionTotalMinor == null
              ? null
              : money(r.currency, r.contributionTotalMinor / 100),
          withdrawal_total:
            r.withdrawalTotalMinor == null
              ? null
              : money(r.currency, r.withdrawalTotalMinor / 100),
          crystallised_fund:
            r.crystallisedMinor == null
              ? null
              : money(r.currency, r.crystallisedMinor / 100),
          uncrystallised_fund:
            r.uncrystallisedMinor == null
              ? null
              : money(r.currency, r.uncrystallisedMinor / 100),
        };
      case "annuity":
        return {
          ...common,
          description: r.description,
          current_value: valued,
          current_value_in_report_currency: reported,
          income_value:
            r.incomeValueMinor == null
              ? null
              : money(r.currency, r.incomeValueMinor / 100),
          frequency: r.frequency,
          income_rate: r.rateBp == null ? null : r.rateBp / 100,
          product_provider: r.provider,
          policy_number: r.policyNumber,
          policy_status: r.status,
          valuation_date: wireDate(r.valuationDate),
          capital_content:
            r.capitalContentMinor == null
              ? null
              : money(r.currency, r.capitalContentMinor / 100),
        };
      case "liability":
        return {
          ...common,
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
  });
}

export const assetRoutes: Route[] = [
  // spec 001 §3/§7 balance-sheet assets of one member: asset (investments), pension, annuity, liability
  ...(Object.keys(ASSET_KINDS) as Array<keyof typeof ASSET_KINDS>).map((kind) =>
    signedIn(
      "GET",
      `/resourceful/entity/client/:id/${kind}`,
      (request, { db, caller }) => {
        const { id } = validate(IdParams, request.params, "path");
        const query = validate(
          z.object({ report_currency: opt(Currency) }),
          request.query,
          "query"
        );
        assertCanSeeClient(db, caller, id);
        // the session currency: the signed-in client's, or the client in context's (else the member's)
        const sessionEntity = isClientUser(caller)
          ? caller.user.entityId
          : caller.session.clientInContextId ?? id;
        return json(
          assetsOf(
            db,
            id,
            kind,
            query.report_currency ?? preferredCurrencyOf(db, sessionEntity)
          )
        );
      }
    )
  ),
];
