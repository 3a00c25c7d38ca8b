import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import { DerivedCache, derivedGeneration } from "../../server/db/derived";
import { START, withDemoPlatform } from "./harness";

// Decision 123: the platform keeps books, period performance, series and benchmark levels between
// calls. Each is dropped as soon as what it derives from is written: the same call made again after
// a transaction, a price, an FX rate or a benchmark level is written answers the new figure, and
// answers the old one again once the write is undone. Writes go straight to the database, as the
// seed and other platform processes on the same file write them.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type Summary = { end_date: { _val: string }; totals: { defaultData: { value: Money; movement: Money } } };
type Series = {
  end_date: { _val: string };
  points: Array<{ value: Money; cumulative_twrr: number | null }>;
  benchmark: { points: Array<{ cumulative: number | null }> } | null;
};
type Positions = { total_value: Money };

const demo = withDemoPlatform();
const sql = (query: string, ...params: unknown[]) => demo.platform.db.$client.prepare(query).run(...params);
const ok = async <T>(path: string): Promise<T> => {
  const answer = await demo.platform.call<T>(path, { token: demo.sessions.client });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
};
const SUMMARY = "/resourceful/portfolio/summary?level=portfolio";
const SERIES =
  "/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y&frequency=monthly&benchmark_name=FTASX";
const POSITIONS = "/resourceful/portfolio/position";
const summaryValue = async () => (await ok<Summary>(SUMMARY)).totals.defaultData.value.value._val;
const seriesLast = async () => {
  const series = await ok<Series>(SERIES);
  return series.points[series.points.length - 1]?.value.value._val;
};

/** Ellie's account holding the most of one priced (non-cash) security, and that security. */
function aHolding() {
  return demo.platform.db.$client
    .prepare(
      `SELECT t.account_id AS accountId, t.security_id AS securityId, t.id AS transactionId FROM transactions t
        JOIN accounts a ON a.id = t.account_id JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
        JOIN users u ON u.entity_id = v.entity_id AND u.username = 'demo.client'
        WHERE t.type = 'buy' AND v.is_linked = 0 AND a.service_type <> 'Not managed'
        ORDER BY t.quantity_micros DESC LIMIT 1`,
    )
    .get() as { accountId: number; securityId: number; transactionId: number };
}

describe("derived figures are dropped when what they derive from is written (decision 123)", () => {
  it("answers a summary, a series and positions again after a price is written, and as before once undone", async () => {
    const { securityId } = aHolding();
    const [summary, series, positions] = [
      await summaryValue(),
      await seriesLast(),
      (await ok<Positions>(POSITIONS)).total_value.value._val,
    ];
    // the same answers from what was kept
    expect(await summaryValue()).toBe(summary);
    expect(await seriesLast()).toBe(series);
    sql("UPDATE security_prices SET price_micros = price_micros * 2 WHERE security_id = ?", securityId);
    expect(await summaryValue()).not.toBe(summary);
    expect(await seriesLast()).not.toBe(series);
    expect((await ok<Positions>(POSITIONS)).total_value.value._val).not.toBe(positions);
    sql("UPDATE security_prices SET price_micros = price_micros / 2 WHERE security_id = ?", securityId);
    expect(await summaryValue()).toBe(summary);
    expect(await seriesLast()).toBe(series);
    expect((await ok<Positions>(POSITIONS)).total_value.value._val).toBe(positions);
  });

  it("answers again after a transaction is written, and as before once it is deleted", async () => {
    const { transactionId } = aHolding();
    const summary = await summaryValue();
    const series = await seriesLast();
    const columns =
      "account_id, security_id, type, trade_date, settlement_date, quantity_micros, price_micros, currency, gross_minor, fee_minor, tax_minor, net_minor, cash_security_id, narrative";
    const copy = sql(
      `INSERT INTO transactions (${columns}) SELECT ${columns} FROM transactions WHERE id = ?`,
      transactionId,
    );
    expect(await summaryValue()).not.toBe(summary);
    expect(await seriesLast()).not.toBe(series);
    sql("DELETE FROM transactions WHERE id = ?", copy.lastInsertRowid);
    expect(await summaryValue()).toBe(summary);
    expect(await seriesLast()).toBe(series);
  });

  it("answers again after an FX rate or a benchmark level is written", async () => {
    const summary = await summaryValue();
    const usd = "/resourceful/portfolio/summary?level=portfolio&report_currency=USD";
    const inUsd = (await ok<Summary>(usd)).totals.defaultData.value.value._val;
    sql("UPDATE fx_rates SET rate_micros = rate_micros * 2 WHERE currency = 'USD'");
    expect((await ok<Summary>(usd)).totals.defaultData.value.value._val).not.toBe(inUsd);
    sql("UPDATE fx_rates SET rate_micros = rate_micros / 2 WHERE currency = 'USD'");
    expect((await ok<Summary>(usd)).totals.defaultData.value.value._val).toBe(inUsd);
    expect(await summaryValue()).toBe(summary);

    const benchmark = (await ok<Series>(SERIES)).benchmark?.points.at(-1)?.cumulative;
    expect(benchmark).not.toBeNull();
    sql(
      "UPDATE benchmark_prices SET level_micros = level_micros * 2 WHERE benchmark_id = (SELECT id FROM benchmarks WHERE code = 'FTASX') AND date = (SELECT MAX(date) FROM benchmark_prices WHERE date <= ?)",
      demo.platform.clock.now().toISOString().slice(0, 10),
    );
    expect((await ok<Series>(SERIES)).benchmark?.points.at(-1)?.cumulative).not.toBe(benchmark);
  });

  it("answers for the platform's new today when its clock moves", async () => {
    const clock = demo.platform.clock as ReturnType<typeof fixedClock>;
    const at = clock.now().getTime();
    const endDate = async () => {
      // a session of its own: a week's move outlasts any idle timeout
      const token = await demo.platform.session("demo.client");
      const answer = await demo.platform.call<Series>(SERIES, { token });
      expect(answer.status).toBe(200);
      return answer.body.end_date._val;
    };
    const before = await endDate();
    clock.advance(7 * 86_400_000);
    try {
      expect(await endDate()).not.toBe(before);
    } finally {
      clock.set(new Date(at));
    }
    expect(await endDate()).toBe(before);
  });
});

describe("what an entity sees is kept, and dropped when what it is read from is written (decision 158)", () => {
  type Account = { accountid: number };
  const accountIds = async () =>
    (await ok<Account[]>("/resourceful/portfolio/account")).map((a) => a.accountid).sort((a, b) => a - b);
  /** demo.client's entity and one of her own (not linked) portfolios. */
  const own = () =>
    demo.platform.db.$client
      .prepare(
        `SELECT v.entity_id AS entityId, v.portfolio_id AS portfolioId FROM portfolio_visibility v
          JOIN users u ON u.entity_id = v.entity_id AND u.username = 'demo.client'
          WHERE v.is_linked = 0 ORDER BY v.portfolio_id LIMIT 1`,
      )
      .get() as { entityId: number; portfolioId: number };

  it("counts a write to a client group's members, a portfolio, its visibility or an account group", () => {
    const db = demo.platform.db;
    for (const write of [
      "UPDATE client_group_members SET login_accessible = login_accessible WHERE rowid = (SELECT min(rowid) FROM client_group_members)",
      "UPDATE portfolio_visibility SET sort_order = sort_order WHERE rowid = (SELECT min(rowid) FROM portfolio_visibility)",
      "UPDATE portfolios SET name = name WHERE id = (SELECT min(id) FROM portfolios)",
      "UPDATE account_groups SET group_name = group_name WHERE id = (SELECT min(id) FROM account_groups)",
    ]) {
      const generation = derivedGeneration(db);
      expect(db.$client.prepare(write).run().changes, write).toBe(1);
      expect(derivedGeneration(db), write).toBe(generation + 1);
    }
  });

  it("answers the accounts without a portfolio whose visibility row is deleted, and with it once restored", async () => {
    const before = await accountIds();
    expect(await accountIds()).toEqual(before);
    const { entityId, portfolioId } = own();
    const row = demo.platform.db.$client
      .prepare("SELECT * FROM portfolio_visibility WHERE entity_id = ? AND portfolio_id = ?")
      .get(entityId, portfolioId) as Record<string, unknown>;
    const hidden = demo.platform.db.$client
      .prepare("SELECT id FROM accounts WHERE portfolio_id = ?")
      .all(portfolioId)
      .map((r) => (r as { id: number }).id);
    expect(hidden.length).toBeGreaterThan(0);
    sql("DELETE FROM portfolio_visibility WHERE entity_id = ? AND portfolio_id = ?", entityId, portfolioId);
    try {
      const after = await accountIds();
      expect(after).toEqual(before.filter((id) => !hidden.includes(id)));
    } finally {
      const columns = Object.keys(row);
      sql(
        `INSERT INTO portfolio_visibility (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        ...columns.map((c) => row[c]),
      );
    }
    expect(await accountIds()).toEqual(before);
  });

  it("answers an account moved to another portfolio under the portfolio it is in now", async () => {
    const portfolioOf = async (accountId: number) =>
      (await ok<Array<Account & { portfolioid: number }>>("/resourceful/portfolio/account")).find(
        (a) => a.accountid === accountId,
      )?.portfolioid;
    const [first, second] = demo.platform.db.$client
      .prepare(
        `SELECT v.portfolio_id AS id FROM portfolio_visibility v
          JOIN users u ON u.entity_id = v.entity_id AND u.username = 'demo.client'
          WHERE v.is_linked = 0 ORDER BY v.portfolio_id LIMIT 2`,
      )
      .all() as Array<{ id: number }>;
    const account = demo.platform.db.$client
      .prepare("SELECT id FROM accounts WHERE portfolio_id = ? ORDER BY id LIMIT 1")
      .get(first!.id) as { id: number };
    expect(await portfolioOf(account.id)).toBe(first!.id);
    sql("UPDATE accounts SET portfolio_id = ? WHERE id = ?", second!.id, account.id);
    try {
      expect(await portfolioOf(account.id)).toBe(second!.id);
    } finally {
      sql("UPDATE accounts SET portfolio_id = ? WHERE id = ?", first!.id, account.id);
    }
    expect(await portfolioOf(account.id)).toBe(first!.id);
  });
});

describe("the documents' counts are kept, and dropped when what they count is written (decision 160)", () => {
  const UNREAD = "/resourceful/docnote-v2/count?docsubtype_exclude=Client+Initiated&firstread.include_read_notes=false";
  const IMPORTANT = "/resourceful/docnote-v2/count?categories.0=1";
  const count = async (path: string) => (await ok<{ count: number }>(path)).count;
  /** demo.client's entity and one of her documents she has not read (the badge counts it). */
  const unread = () =>
    demo.platform.db.$client
      .prepare(
        `SELECT u.entity_id AS entityId, d.id AS documentId FROM documents d
          JOIN document_entities e ON e.document_id = d.id
          JOIN users u ON u.entity_id = e.entity_id AND u.username = 'demo.client'
          WHERE d.is_client_access_accessible = 1 AND (d.docsubtype IS NULL OR d.docsubtype <> 'Client Initiated')
            AND NOT EXISTS (SELECT 1 FROM document_first_reads f WHERE f.document_id = d.id AND f.entity_id = u.entity_id)
          ORDER BY d.id LIMIT 1`,
      )
      .get() as { entityId: number; documentId: number };

  it("counts a write to the documents, their entities, categories, first reads or attachments, apart from the figures", () => {
    const db = demo.platform.db;
    for (const write of [
      "UPDATE documents SET subject = subject WHERE id = (SELECT min(id) FROM documents)",
      "UPDATE document_entities SET entity_id = entity_id WHERE rowid = (SELECT min(rowid) FROM document_entities)",
      "UPDATE document_category_links SET category_id = category_id WHERE rowid = (SELECT min(rowid) FROM document_category_links)",
      "UPDATE document_first_reads SET read_at = read_at WHERE rowid = (SELECT min(rowid) FROM document_first_reads)",
      // decision 209: a search's count depends on the attachments' names
      "UPDATE document_attachments SET filename = filename WHERE docpartid = (SELECT min(docpartid) FROM document_attachments)",
    ]) {
      const documents = derivedGeneration(db, "documents");
      const figures = derivedGeneration(db);
      expect(db.$client.prepare(write).run().changes, write).toBe(1);
      expect(derivedGeneration(db, "documents"), write).toBe(documents + 1);
      expect(derivedGeneration(db), write).toBe(figures);
    }
  });

  it("answers the unread count again at once after a first read, a hidden document or one taken from its entities", async () => {
    const before = await count(UNREAD);
    expect(await count(UNREAD)).toBe(before);
    const { entityId, documentId } = unread();
    sql(
      "INSERT INTO document_first_reads (document_id, entity_id, read_at) VALUES (?, ?, ?)",
      documentId,
      entityId,
      START,
    );
    expect(await count(UNREAD)).toBe(before - 1);
    sql("DELETE FROM document_first_reads WHERE document_id = ? AND entity_id = ?", documentId, entityId);
    expect(await count(UNREAD)).toBe(before);
    sql("UPDATE documents SET is_client_access_accessible = 0 WHERE id = ?", documentId);
    try {
      expect(await count(UNREAD)).toBe(before - 1);
    } finally {
      sql("UPDATE documents SET is_client_access_accessible = 1 WHERE id = ?", documentId);
    }
    expect(await count(UNREAD)).toBe(before);
    const owners = demo.platform.db.$client
      .prepare("SELECT entity_id FROM document_entities WHERE document_id = ?")
      .pluck()
      .all(documentId) as number[];
    sql("DELETE FROM document_entities WHERE document_id = ?", documentId);
    try {
      expect(await count(UNREAD)).toBe(before - 1);
    } finally {
      for (const owner of owners)
        sql("INSERT INTO document_entities (document_id, entity_id) VALUES (?, ?)", documentId, owner);
    }
    expect(await count(UNREAD)).toBe(before);
  });

  it("answers a category's count again at once after a document joins or leaves it", async () => {
    const before = await count(IMPORTANT);
    const { documentId } = unread();
    const linked = demo.platform.db.$client
      .prepare("SELECT count(*) FROM document_category_links WHERE document_id = ? AND category_id = 1")
      .pluck()
      .get(documentId) as number;
    if (linked) sql("DELETE FROM document_category_links WHERE document_id = ? AND category_id = 1", documentId);
    else sql("INSERT INTO document_category_links (document_id, category_id) VALUES (?, 1)", documentId);
    try {
      expect(await count(IMPORTANT)).toBe(linked ? before - 1 : before + 1);
    } finally {
      if (linked) sql("INSERT INTO document_category_links (document_id, category_id) VALUES (?, 1)", documentId);
      else sql("DELETE FROM document_category_links WHERE document_id = ? AND category_id = 1", documentId);
    }
    expect(await count(IMPORTANT)).toBe(before);
  });
});

describe("a derived cache", () => {
  let db: Db;
  beforeAll(() => {
    db = openDatabase(":memory:");
  });
  afterAll(() => closeDatabase(db));

  it("holds at most its limit, dropping the least recently used first", () => {
    const cache = new DerivedCache<number>(2);
    let computed = 0;
    const get = (key: string) => cache.get(db, key, () => ++computed);
    expect([get("a"), get("b"), get("a")]).toEqual([1, 2, 1]);
    get("c"); // drops b, used least recently
    expect(cache.size(db)).toBe(2);
    expect(get("a")).toBe(1);
    expect(get("b")).toBe(4);
  });

  it("drops everything when a write the triggers count is made", () => {
    const cache = new DerivedCache<number>(8);
    let computed = 0;
    const get = () => cache.get(db, "key", () => ++computed);
    expect([get(), get()]).toEqual([1, 1]);
    const generation = derivedGeneration(db);
    db.$client
      .prepare("INSERT INTO fx_rates (currency, date, rate_micros) VALUES ('USD', '2025-01-02', 1250000)")
      .run();
    expect(derivedGeneration(db)).toBe(generation + 1);
    expect(get()).toBe(2);
    // a write elsewhere (a session's idle clock) keeps it
    db.$client.prepare("INSERT INTO site_settings (key, value_json) VALUES ('derived-test', '1')").run();
    expect(get()).toBe(2);
  });
});
