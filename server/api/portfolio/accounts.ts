// spec 001 §4, §7: the portfolios and accounts an entity sees, and its account groups.
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { transactions } from "../../db/schema";
import { assertCanSeeClient, clientEntityOf } from "../access";
import { notFound, validate } from "../http";
import { json, type Route, signedIn } from "../router";
import { type VisibleAccount, visibleAccounts, visiblePortfolios } from "./visibility";
import { accountView, portfolioView } from "./views";
import { IdList, IdParams, opt, scope } from "./requests";

// prepared once per database, for any number of accounts (decision 131)
const accountsWithAnyTransaction = (db: Db) =>
  db
    .selectDistinct({ id: transactions.accountId })
    .from(transactions)
    .where(inJsonList(transactions.accountId, "ids"))
    .prepare();

/** Which of some accounts have at least one transaction. */
function accountsWithTransactions(db: Db, ids: number[]): Set<number> {
  if (!ids.length) return new Set();
  return new Set(
    prepared(db, accountsWithAnyTransaction)
      .all({ ids: jsonList(ids) })
      .map((r) => r.id),
  );
}

export const accountRoutes: Route[] = [
  // the portfolios an entity sees, in sortOrder (spec 001 §4)
  signedIn("GET", "/resourceful/entity/client/:id/portfolio", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    const list = visibleAccounts(db, id);
    return json(
      visiblePortfolios(db, id).map((p) =>
        portfolioView(p, list.filter((a) => a.portfolio.portfolio.id === p.portfolio.id).length),
      ),
    );
  }),

  signedIn("GET", "/resourceful/portfolio/account", (request, context) => {
    const query = validate(
      z.object({
        accountid: IdList,
        portfolioid: opt(z.coerce.number().int().positive()),
      }),
      request.query,
      "query",
    );
    const { all, selected } = scope(context, query.accountid);
    const { db } = context;
    if (query.portfolioid !== undefined && !all.some((a) => a.account.portfolioId === query.portfolioid)) {
      throw notFound(`Portfolio ${query.portfolioid}`);
    }
    const list = selected.filter((a) => query.portfolioid === undefined || a.account.portfolioId === query.portfolioid);
    // spec 001 §5: an account is shown only if it has transactions (unless an option says
    // otherwise): the portal's view rule needs to know which have some (decision 107)
    const withTransactions = accountsWithTransactions(
      db,
      list.map((a) => a.account.id),
    );
    return json(
      list.map((a) => ({
        ...accountView(a),
        has_transactions: withTransactions.has(a.account.id),
      })),
    );
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
    if (!p) throw notFound(`Portfolio ${id}`);
    return json(
      portfolioView(p, visibleAccounts(context.db, entityId).filter((a) => a.portfolio.portfolio.id === id).length),
    );
  }),

  signedIn("GET", "/resourceful/portfolio/portfolio/:id/account", (request, context) => {
    const { id } = validate(IdParams, request.params, "path");
    const entityId = clientEntityOf(context.caller);
    if (!visiblePortfolios(context.db, entityId).some((v) => v.portfolio.id === id)) {
      throw notFound(`Portfolio ${id}`);
    }
    return json(
      visibleAccounts(context.db, entityId)
        .filter((a) => a.account.portfolioId === id)
        .map(accountView),
    );
  }),

  signedIn("GET", "/resourceful/portfolio/group/account", (_request, context) => {
    const { all } = scope(context);
    const groups = new Map<
      string,
      {
        group_code: string;
        group_name: string;
        report_currency: string;
        accounts: ReturnType<typeof accountView>[];
      }
    >();
    for (const a of all) {
      if (!a.group || a.portfolio.isLinked) continue;
      const g = groups.get(a.group.groupCode) ?? {
        group_code: a.group.groupCode,
        group_name: a.group.groupName,
        report_currency: a.group.reportCurrency,
        accounts: [],
      };
      g.accounts.push(accountView(a));
      groups.set(a.group.groupCode, g);
    }
    return json([...groups.values()]);
  }),
];
