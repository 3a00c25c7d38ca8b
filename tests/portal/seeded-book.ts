// The seeded platform database read directly, to recompute what the portfolio pages show
// (spec 001 §2.1, §2.2): positions from the transactions, prices and FX rates of the valuation date,
// time-weighted returns revalued at every transfer in or out. Shared by the home and analysis tests.
import { type CashFlow, twr } from "../../server/domain/returns";
import { START } from "../server/harness";
import { afterAll, beforeAll } from "vitest";
import { type Portal, signInDemoUsers, startPortal } from "./portal-harness";

export const TODAY = START.slice(0, 10); // the platform's fixed clock: Friday 14 March 2025
export const ONE_YEAR_BEFORE = `${Number(TODAY.slice(0, 4)) - 1}${TODAY.slice(4)}`;
export const PREVIOUS_BUSINESS_DAY = "2025-03-13";

const MICROS = 1_000_000;
const MICROS_PER_MINOR = 10_000;

export type Statement = {
  all: (...params: unknown[]) => unknown[];
  get: (...params: unknown[]) => unknown;
  run: (...params: unknown[]) => unknown;
};
export type Account = {
  id: number;
  description: string;
  portfolioId: number;
  portfolio: string;
  planCurrency: string;
  inception: string;
  isLinked: boolean;
};
export type Tx = {
  accountId: number;
  securityId: number;
  type: string;
  tradeDate: string;
  quantity: number;
  net: number;
  cashId: number | null;
};
/** `since`: the date the returns are measured from, the start or the accounts' later first value (decision 109). */
export type Expected = {
  start: string;
  since: string | null;
  value: number;
  movement: number;
  period: number;
  annualised: number | null;
};

export const sinceInception = (accounts: readonly Account[]) => accounts.map((a) => a.inception).sort()[0]!;

/** The book of a running portal's platform; its ledgers are read once per account. */
export function seededBook(portal: Portal) {
  const sql = (text: string): Statement => portal.platform.db.$client.prepare(text) as unknown as Statement;

  /**
   * The managed accounts an entity sees (spec 001 §1, §5, §6): those of the portfolios it sees, linked
   * ones only when their owner is a login-accessible member of its client group.
   */
  function visibleManagedAccounts(entityId: number): Account[] {
    const reachable = new Set(
      (
        sql(
          `SELECT m.entity_id AS id FROM client_group_members m
           WHERE m.login_accessible = 1 AND m.group_id IN (SELECT group_id FROM client_group_members WHERE entity_id = ?)`,
        ).all(entityId) as Array<{ id: number }>
      ).map((r) => r.id),
    );
    const rows = sql(
      `SELECT a.id, a.description, a.portfolio_id AS portfolioId, p.name AS portfolio, a.plan_currency AS planCurrency,
              a.inception_date AS inception, v.is_linked AS linked, p.entity_id AS owner
       FROM portfolio_visibility v JOIN portfolios p ON p.id = v.portfolio_id JOIN accounts a ON a.portfolio_id = p.id
       WHERE v.entity_id = ? AND a.service_type <> 'Not managed' ORDER BY a.id`,
    ).all(entityId) as Array<Omit<Account, "isLinked"> & { linked: number; owner: number }>;
    return rows
      .filter((r) => r.linked === 0 || reachable.has(r.owner) || r.owner === entityId)
      .map(({ linked, owner: _owner, ...a }) => ({ ...a, isLinked: linked === 1 }));
  }

  const ledgers = new Map<number, Tx[]>();
  function ledgerOf(accountId: number): Tx[] {
    let txs = ledgers.get(accountId);
    if (!txs) {
      txs = sql(
        `SELECT account_id AS accountId, security_id AS securityId, type, trade_date AS tradeDate, quantity_micros AS quantity,
                net_minor AS net, cash_security_id AS cashId
         FROM transactions WHERE account_id = ? ORDER BY trade_date, id`,
      ).all(accountId) as Tx[];
      ledgers.set(accountId, txs);
    }
    return txs;
  }

  function securityCurrency(securityId: number): string {
    return (sql("SELECT currency FROM securities WHERE id = ?").get(securityId) as { currency: string }).currency;
  }
  /** The security's price (units) on `date`: the last one on or before it. */
  function price(securityId: number, date: string): number {
    const row = sql(
      "SELECT price_micros AS p FROM security_prices WHERE security_id = ? AND date <= ? ORDER BY date DESC LIMIT 1",
    ).get(securityId, date) as { p: number } | undefined;
    if (!row) throw new Error(`no price for security ${securityId} on ${date}`);
    return row.p / MICROS;
  }
  /** Units of `currency` for one GBP on `date`. */
  function perGbp(currency: string, date: string): number {
    if (currency === "GBP") return 1;
    const row = sql(
      "SELECT rate_micros AS r FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1",
    ).get(currency, date) as { r: number } | undefined;
    if (!row) throw new Error(`no ${currency} rate on ${date}`);
    return row.r / MICROS;
  }
  const convert = (amount: number, from: string, to: string, date: string) =>
    (amount / perGbp(from, date)) * perGbp(to, date);

  /**
   * Decision 106: `micros` units of a security on `date` in `currency`, as quantity × price × the
   * day's rates computed exactly (BigInt) and rounded once to the penny, half away from zero; in units.
   */
  function lineValue(securityId: number, micros: number, currency: string, date: string): number {
    const big = (x: number) => BigInt(Math.round(x * MICROS));
    const n = BigInt(micros) * big(price(securityId, date)) * big(perGbp(currency, date)) * 100n;
    const d = big(perGbp(securityCurrency(securityId), date)) * BigInt(MICROS) * BigInt(MICROS);
    const magnitude = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
    return Number(n < 0n ? -magnitude : magnitude) / 100;
  }
  /** Amounts in units that are whole pence, added in pence. */
  const addPence = (amounts: readonly number[]) => amounts.reduce((sum, a) => sum + Math.round(a * 100), 0) / 100;

  /** Quantities (micros) per security held by the accounts after the trades of `date`. */
  function holdings(accountIds: readonly number[], date: string): Map<number, number> {
    const held = new Map<number, number>();
    const add = (securityId: number | null, micros: number) => {
      if (securityId === null) return;
      held.set(securityId, (held.get(securityId) ?? 0) + micros);
    };
    for (const id of accountIds) {
      for (const t of ledgerOf(id)) {
        if (t.tradeDate > date) continue;
        const cash = t.net * MICROS_PER_MINOR;
        if (t.type === "buy") {
          add(t.securityId, t.quantity);
          add(t.cashId, -cash);
        } else if (t.type === "sell") {
          add(t.securityId, -t.quantity);
          add(t.cashId, cash);
        } else if (t.type === "income") add(t.cashId, cash);
        else if (t.type === "fee" || t.type === "tax") add(t.cashId, -cash);
        else if (t.type === "transfer_in") add(t.securityId, t.quantity);
        else if (t.type === "transfer_out") add(t.securityId, -t.quantity);
        else throw new Error(`unknown transaction type ${t.type}`);
      }
    }
    return held;
  }

  /**
   * The accounts' value at the end of `date` in `currency`, priced on `priceDate` (the date itself
   * unless said): each account's holding of each security rounded once to the penny, then added.
   */
  function valueOf(accountIds: readonly number[], date: string, currency = "GBP", priceDate = date): number {
    const lines: number[] = [];
    for (const account of accountIds) {
      for (const [securityId, micros] of holdings([account], date)) {
        if (micros !== 0) lines.push(lineValue(securityId, micros, currency, priceDate));
      }
    }
    return addPence(lines);
  }

  /** Transfers in (+) and out (−) after `from` up to `to`, valued on their trade date. */
  function flowsOf(accountIds: readonly number[], from: string, to: string, currency = "GBP"): CashFlow[] {
    const flows: CashFlow[] = [];
    for (const id of accountIds) {
      for (const t of ledgerOf(id)) {
        if (t.tradeDate <= from || t.tradeDate > to) continue;
        if (t.type !== "transfer_in" && t.type !== "transfer_out") continue;
        const amount = lineValue(t.securityId, t.quantity, currency, t.tradeDate);
        flows.push({ date: t.tradeDate, amount: t.type === "transfer_in" ? amount : -amount });
      }
    }
    return flows;
  }

  /** Value, change in value and time-weighted return of some accounts from the end of `start` to the end of `end` (today). */
  function performance(accountIds: readonly number[], start: string, currency = "GBP", end = TODAY): Expected {
    const flows = flowsOf(accountIds, start, end, currency);
    const dates = [...new Set([start, ...flows.map((f) => f.date), end])].sort();
    const values = dates.map((date) => ({ date, value: valueOf(accountIds, date, currency) }));
    const from = values[0]!.value;
    const to = values[values.length - 1]!.value;
    const result = twr(values, flows);
    const net = addPence(flows.map((f) => f.amount));
    const since = values.find((v) => v.value > 0)?.date ?? null;
    return {
      start,
      since,
      value: to,
      movement: addPence([to, -from, -net]),
      period: result.cumulative,
      annualised: result.annualised,
    };
  }

  return { sql, visibleManagedAccounts, ledgerOf, holdings, valueOf, flowsOf, performance, convert, lineValue };
}

/**
 * A portal on a fresh platform for one test file, with the seeded book read directly and the demo
 * users signed in: started before its tests, closed after them. Read `portal`, `book` and `users`
 * inside the tests (they are set once `beforeAll` ran).
 */
export function withSeededPortal(): {
  readonly portal: Portal;
  readonly book: ReturnType<typeof seededBook>;
  readonly users: Awaited<ReturnType<typeof signInDemoUsers>>;
} {
  const seeded = {} as {
    portal: Portal;
    book: ReturnType<typeof seededBook>;
    users: Awaited<ReturnType<typeof signInDemoUsers>>;
  };
  beforeAll(async () => {
    seeded.portal = await startPortal();
    seeded.book = seededBook(seeded.portal);
    seeded.users = await signInDemoUsers(seeded.portal);
  }, 60_000);
  afterAll(() => seeded.portal?.close());
  return seeded;
}
