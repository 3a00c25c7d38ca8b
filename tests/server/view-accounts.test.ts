import { describe, expect, it } from "vitest";
import { withDemoPlatform } from "./harness";

// One view, one set of accounts (docs/decisions/107-one-view-one-set-of-accounts.md): the calls made
// without a list of accounts all cover the same accounts, the view's (`accountsOfView`: the client's
// own managed accounts, the linked ones only when it has none of its own), and a total covers the
// view's accounts of those asked for. The sets are recomputed here from the seeded rows with SQL.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type Transaction = { id: number; accountId: number };
type Row = { level: string; key: string; accountid: number | null; value: Money; isLinked?: boolean };
type Detail = { rows: Row[]; total: Row | null };
type Positions = { accounts: Array<{ accountid: number; value: Money }> };
type Allocation = { asset_class: Array<{ positions: Array<{ accountid: number }> }> };
type Series = { accountids: number[] };
type Account = {
  accountid: number;
  description: string;
  service_type: string;
  isLinked: boolean;
  has_transactions: boolean;
};

const demo = withDemoPlatform();

const sql = (query: string, ...params: unknown[]) =>
  demo.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const ok = async <T>(path: string, token: string): Promise<T> => {
  const answer = await demo.platform.call<T>(path, { token });
  expect(answer.status, path).toBe(200);
  return answer.body;
};
const entityOf = (login: string) => Number(sql("SELECT entity_id AS id FROM users WHERE username = ?", login)[0]!.id);
/** The accounts an entity sees, from the seeded visibility rows (linked ones only of a login-accessible owner, as Olivia's is not). */
const seen = (entityId: number) =>
  sql(
    `SELECT a.id, a.service_type AS st, v.is_linked AS linked FROM accounts a JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
     JOIN portfolios p ON p.id = a.portfolio_id
     WHERE v.entity_id = ? AND (v.is_linked = 0 OR p.entity_id IN (SELECT entity_id FROM users)) ORDER BY a.id`,
    entityId,
  ).map((r) => ({ id: Number(r.id), managed: r.st !== "Not managed", linked: r.linked === 1 }));
const viewOf = (entityId: number) =>
  seen(entityId)
    .filter((a) => a.managed && !a.linked)
    .map((a) => a.id);
const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const cents = (m: Money) => Math.round(Number(m.value._val) * 100);

describe("the view's accounts, the same for every call without a list (decision 107)", () => {
  for (const login of ["demo.client", "demo.partner"] as const) {
    it(`${login}: transactions, positions, allocation, series and the detail's total cover the own managed accounts`, async () => {
      const token = login === "demo.client" ? demo.sessions.client : demo.sessions.partner;
      const entity = entityOf(login);
      const view = viewOf(entity);
      const all = seen(entity);
      // the demo has the three kinds beside each other: own managed, linked and (for Ellie) 'Not managed'
      expect(view.length).toBeGreaterThan(0);
      expect(all.some((a) => a.linked)).toBe(true);
      if (login === "demo.client") expect(all.some((a) => !a.managed)).toBe(true);

      const transactions = await ok<Transaction[]>(
        "/resourceful/portfolio/transaction?start_date=1900-01-01&page_size=2000",
        token,
      );
      expect(sorted(transactions.map((t) => t.accountId))).toEqual(view);
      const expected = Number(
        sql(`SELECT COUNT(*) AS n FROM transactions WHERE account_id IN (${view.join(",")})`)[0]!.n,
      );
      expect(transactions).toHaveLength(Math.min(expected, 2000));

      const positions = await ok<Positions>("/resourceful/portfolio/position", token);
      expect(sorted(positions.accounts.map((a) => a.accountid))).toEqual(view);

      const allocation = await ok<Allocation>("/resourceful/portfolio/allocation?types=asset_class", token);
      const allocated = allocation.asset_class.flatMap((c) => c.positions.map((p) => p.accountid));
      expect(sorted(allocated)).toEqual(view);

      const series = await ok<Series>(
        "/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y",
        token,
      );
      expect(sorted(series.accountids)).toEqual(view);

      // the detail lists linked portfolios as rows, but its total is the view's: the same as the explicit list of the view's accounts
      const detail = await ok<Detail>(
        "/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio",
        token,
      );
      expect(detail.rows.some((r) => r.isLinked)).toBe(true);
      const explicit = await ok<Detail>(
        `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=all&accountid=${view.join(",")}`,
        token,
      );
      expect(cents(detail.total!.value)).toBe(cents(explicit.total!.value));
      const positionsTotal = positions.accounts.reduce((sum, a) => sum + cents(a.value), 0);
      expect(Math.abs(positionsTotal - cents(detail.total!.value))).toBeLessThanOrEqual(positions.accounts.length);
    });
  }

  it("a total covers the own accounts of a list that also holds linked ones, and a linked-only list's own figures", async () => {
    const entity = entityOf("demo.client");
    const view = viewOf(entity);
    const linked = seen(entity)
      .filter((a) => a.linked && a.managed)
      .map((a) => a.id);
    expect(linked.length).toBeGreaterThan(0);
    const both = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio&accountid=${[...view, ...linked].join(",")}`,
      demo.sessions.client,
    );
    const own = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=all&accountid=${view.join(",")}`,
      demo.sessions.client,
    );
    const theirs = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio&accountid=${linked.join(",")}`,
      demo.sessions.client,
    );
    // rows for both sections, one total: the client's own
    expect(both.rows.some((r) => r.isLinked) && both.rows.some((r) => !r.isLinked)).toBe(true);
    expect(cents(both.total!.value)).toBe(cents(own.total!.value));
    // drilled into the linked portfolio: its own total, the sum of its rows
    expect(theirs.rows.every((r) => r.isLinked)).toBe(true);
    expect(cents(theirs.total!.value)).toBe(theirs.rows.reduce((sum, r) => sum + cents(r.value), 0));
  });

  it("the account list says which accounts have transactions (spec 001 §5)", async () => {
    const accounts = await ok<Account[]>("/resourceful/portfolio/account", demo.sessions.client);
    expect(accounts.length).toBeGreaterThan(0);
    for (const a of accounts) {
      const n = Number(sql("SELECT COUNT(*) AS n FROM transactions WHERE account_id = ?", a.accountid)[0]!.n);
      expect(a.has_transactions, a.description).toBe(n > 0);
    }
    // an account stripped of its transactions says so
    const [first] = accounts;
    demo.platform.db.$client.prepare("DELETE FROM transactions WHERE account_id = ?").run(first!.accountid);
    const after = await ok<Account[]>(
      `/resourceful/portfolio/account?accountid=${first!.accountid}`,
      demo.sessions.client,
    );
    expect(after.map((a) => a.has_transactions)).toEqual([false]);
  });
});
