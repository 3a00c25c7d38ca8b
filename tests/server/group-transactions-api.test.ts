import { describe, expect, it } from "vitest";
import { withDemoPlatform, type ErrorAnswer, START } from "./harness";

// spec 001 §7 "Transactions", §9 (docs/platform-api.md "Portfolio"): the group form
// `group/account/code/{code}/transaction` answers the transactions of the client's own managed
// accounts of an account group (decision 107: 'Not managed' accounts are in no view) with the same query, rows and bookmark paging as `portfolio/transaction`; an
// unknown code, or one whose accounts the client sees only as linked, is not found.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type WireDate = { _type: "Date"; _val: string };
type Transaction = {
  id: number;
  accountId: number;
  tradeDate: WireDate;
  type: string;
  netAmount: Money;
  bookmark: string;
};

const TODAY = START.slice(0, 10); // 2025-03-14, a Friday
const CLIENT = 1;
const PARTNER = 2;

const demo = withDemoPlatform();

const sql = (query: string, ...params: unknown[]) =>
  demo.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const get = <T>(path: string, token: string) => demo.platform.call<T>(path, { token });
const ok = async <T>(path: string, token = demo.sessions.client): Promise<T> => {
  const answer = await get<T>(path, token);
  expect(answer.status, path).toBe(200);
  return answer.body;
};
const group = (code: string, query: string) => `/resourceful/portfolio/group/account/code/${code}/transaction?${query}`;
const plain = (ids: readonly number[], query: string) =>
  `/resourceful/portfolio/transaction?accountid=${ids.join(",")}&${query}`;

/** The ids of the managed accounts of a group that an entity sees as its own (not linked), from the seeded rows. */
const ownOfGroup = (code: string, entityId = CLIENT) =>
  sql(
    `SELECT a.id FROM accounts a JOIN account_groups g ON g.id = a.account_group_id
     JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
     WHERE g.group_code = ? AND v.entity_id = ? AND v.is_linked = 0 AND a.service_type <> 'Not managed' ORDER BY a.id`,
    code,
    entityId,
  ).map((r) => Number(r.id));

describe("group transactions (spec 001 §7 GET portfolio/group/account/code/{code}/transaction)", () => {
  it("answers for a group exactly the rows the plain call answers for the group's own account ids", async () => {
    for (const code of ["HARTLEY-ISA", "HARTLEY-GIA", "HARTLEY-PEN"]) {
      const ids = ownOfGroup(code);
      expect(ids.length, code).toBeGreaterThan(0);
      for (const query of [
        "start_date=1900-01-01&sort_type=7&page_size=2000",
        `start_date=2024-01-01&stop_date=${TODAY}&sort_type=7&page_size=200`,
        "timeframe=1Y&hold_back_period=true&page_size=2000",
        "timeframe=SI&page_size=2000",
      ]) {
        const rows = await ok<Transaction[]>(group(code, query));
        expect(rows, `${code} ${query}`).toEqual(await ok<Transaction[]>(plain(ids, query)));
        expect(
          rows.every((t) => ids.includes(t.accountId)),
          `${code} ${query}`,
        ).toBe(true);
      }
      const total = Number(sql(`SELECT COUNT(*) AS n FROM transactions WHERE account_id IN (${ids.join(",")})`)[0]!.n);
      expect(await ok<Transaction[]>(group(code, "sort_type=7&page_size=2000")), code).toHaveLength(total);
    }
  });

  it("leaves out 'Not managed' accounts: a group of only such accounts answers no rows", async () => {
    // HARTLEY-CASH holds only Ellie Premium Bonds and deposits, 'Not managed', which has transactions
    const bonds = Number(sql("SELECT id FROM accounts WHERE description = 'Ellie Premium Bonds and deposits'")[0]!.id);
    expect(Number(sql("SELECT COUNT(*) AS n FROM transactions WHERE account_id = ?", bonds)[0]!.n)).toBeGreaterThan(0);
    expect(ownOfGroup("HARTLEY-CASH")).toEqual([]);
    expect(await ok<Transaction[]>(group("HARTLEY-CASH", "page_size=2000"))).toEqual([]);
  });

  it("leaves out the accounts of the group the client sees only as linked", async () => {
    // HARTLEY-GIA holds the joint account and James's US dollar account (linked for Ellie)
    const linked = Number(sql("SELECT id FROM accounts WHERE description = 'James US dollar account'")[0]!.id);
    expect(ownOfGroup("HARTLEY-GIA")).not.toContain(linked);
    const rows = await ok<Transaction[]>(group("HARTLEY-GIA", "page_size=2000"));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((t) => t.accountId === linked)).toBe(false);
    // for James the same code is his own account of it
    const his = await ok<Transaction[]>(group("HARTLEY-GIA", "page_size=2000"), demo.sessions.partner);
    expect(new Set(his.map((t) => t.accountId))).toEqual(new Set(ownOfGroup("HARTLEY-GIA", PARTNER)));
  });

  it("pages through a group by bookmark, giving every row once, newest first", async () => {
    const ids = ownOfGroup("HARTLEY-GIA");
    const whole = await ok<Transaction[]>(group("HARTLEY-GIA", "sort_type=7&page_size=2000"));
    const seen: Transaction[] = [];
    let bookmark = "";
    let pages = 0;
    for (; pages < 200; pages++) {
      const rows = await ok<Transaction[]>(
        group(
          "HARTLEY-GIA",
          `sort_type=7&page_size=25${bookmark ? `&page_bookmark=${encodeURIComponent(bookmark)}` : ""}`,
        ),
      );
      seen.push(...rows);
      if (rows.length < 25) break;
      bookmark = rows[rows.length - 1]!.bookmark;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen.map((t) => t.id)).toEqual(whole.map((t) => t.id));
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length);
    expect(seen).toHaveLength(
      Number(sql(`SELECT COUNT(*) AS n FROM transactions WHERE account_id IN (${ids.join(",")})`)[0]!.n),
    );
    // newest first: trade date, then id, both descending
    const keys = seen.map((t) => `${t.tradeDate._val} ${String(t.id).padStart(10, "0")}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    // a bookmark of the plain call serves the group call as well: the same order
    const second = await ok<Transaction[]>(
      plain(ids, `page_size=25&page_bookmark=${encodeURIComponent(whole[24]!.bookmark)}`),
    );
    expect(second.map((t) => t.id)).toEqual(whole.slice(25, 50).map((t) => t.id));
  });

  it("filters by accountid within the group, as the group position call", async () => {
    const [joint] = ownOfGroup("HARTLEY-GIA");
    const rows = await ok<Transaction[]>(group("HARTLEY-GIA", `accountid=${joint}&page_size=2000`));
    expect(rows).toEqual(await ok<Transaction[]>(plain([joint!], "page_size=2000")));
    // an account the client sees outside the group: none of the group's
    const [isa] = ownOfGroup("HARTLEY-ISA");
    expect(await ok<Transaction[]>(group("HARTLEY-GIA", `accountid=${isa}`))).toEqual([]);
  });

  it("answers 404 for an unknown code, or a group the caller has no own account of", async () => {
    for (const [code, token] of [
      ["NOPE", demo.sessions.client],
      ["HARTLEY-ISA", demo.sessions.assets], // demo.assets sees no account at all
      ["HARTLEY-PEN", demo.sessions.partner], // Ellie's pension: James sees it only as linked
      ["HARTLEY-CASH", demo.sessions.partner],
    ] as const) {
      const answer = await get<ErrorAnswer>(group(code, "sort_type=7&page_size=200"), token);
      expect(answer.status, code).toBe(404);
      expect(answer.body.api_message, code).toBe(`Account group ${code} not found`);
    }
    const olivia = Number(sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'")[0]!.id);
    expect(
      (await get<ErrorAnswer>(group("HARTLEY-ISA", `accountid=${olivia}`), demo.sessions.client)).body.api_message,
    ).toBe(`Account ${olivia} not found`);
  });

  it("validates the query as the plain call, and needs a client (an adviser's in context)", async () => {
    for (const query of [
      "page_bookmark=nonsense",
      "page_size=0",
      "page_size=2001",
      "start_date=2025-02-30",
      "timeframe=7Y",
    ]) {
      expect((await get(group("HARTLEY-ISA", query), demo.sessions.client)).status, query).toBe(400);
    }
    expect((await get("/resourceful/portfolio/group/account/code/HARTLEY-ISA/transaction", "nobody")).status).toBe(401);
    const none = await get<ErrorAnswer>(group("HARTLEY-ISA", "page_size=5"), demo.sessions.adviser);
    expect(none.status).toBe(400);
    expect(none.body.api_message).toBe("I am not a clientUser and no client in context");
    const put = await demo.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: demo.sessions.adviser,
      body: { client_id: CLIENT, client_access_level: 1 },
    });
    expect(put.status).toBe(200);
    expect(await ok<Transaction[]>(group("HARTLEY-ISA", "page_size=50"), demo.sessions.adviser)).toEqual(
      await ok<Transaction[]>(group("HARTLEY-ISA", "page_size=50")),
    );
  });
});
