import type Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { withPlatform, watchPrepares } from "./harness";

// Decision 123: every statement the portal's hot calls make (the session lookup and touch, the
// clients' home and analysis calls, documents, a batch) finds its rows through an index: none reads
// the whole of a table holding more than a few rows. The statements are the ones the platform
// really prepares while answering the calls; SQLite's EXPLAIN QUERY PLAN says how it reads each.

const HOT_CALLS = [
  "/resourceful/session/user",
  "/resourceful/session/capability",
  "/resourceful/portfolio/summary?level=portfolio",
  "/resourceful/portfolio/summary?level=account&report_currency=USD",
  "/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio,account",
  "/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=SI&frequency=auto",
  "/resourceful/portfolio/portfolio/1/profit_analysis/historic_time_series_twrr?timeframe=1Y",
  "/resourceful/portfolio/position",
  "/resourceful/portfolio/transaction?timeframe=1Y",
  "/resourceful/docnote-v2",
  "/resourceful/docnote-v2/999999",
  // decision 130: the list's other shapes (the folders' counts, the unread badge, a search) and the
  // document types and categories
  "/resourceful/docnote-v2?page_size=6&firstread.include_read_notes=false&doctype_exclude.0=SecureMessage",
  "/resourceful/docnote-v2?doctype.0=SecureMessage&docsubtype=Client%20Initiated&categories.0=1&entity_ids.0=1",
  "/resourceful/docnote-v2?page_sort=subject&subject=re*&docsubtype_exclude=x&digital_signature_status=Pending&created_date.start_date=2020-01-01&created_date.end_date=2030-01-01",
  // issue 38: the unread badge's count, the message being opened left out
  "/resourceful/docnote-v2/count?firstread.include_read_notes=false&docsubtype_exclude=Client%20Initiated&id_exclude.0=1",
  "/resourceful/docnote-v2/count?doctype.0=SecureMessage&categories.0=1&entity_ids.0=1&subject=re*",
  "/resourceful/docnote-v2/category",
  "/resourceful/docnote-v2/doctype?member_ids=1",
  // decision 209: a search of the words of the messages, with where each one matched
  "/resourceful/docnote-v2?text=isa%20transfer",
  // decision 131: the balance sheet, the pages' small calls, the signature list, advisers' contact
  ...["asset", "pension", "annuity", "liability"].map(
    (kind) => `/resourceful/entity/client/1/${kind}?report_currency=USD`,
  ),
  "/resourceful/session/feature_access?feature_names=documents,messages",
  "/resourceful/feature_toggle/toggle_condition",
  "/resourceful/site/contact_us",
  "/resourceful/portfolio/benchmark",
  "/resourceful/portfolio/account",
  "/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y&benchmark_name=FTSE All-Share",
  "/resourceful/digital_signature?status=1",
  "/resourceful/digital_signature",
  "/resourceful/session/user/adviser",
];

/** The adviser's calls: the client list (a page, the next, a search) and a client's contacts and addresses. */
const ADVISER_CALLS = [
  "/resourceful/entity/client-v3?page_size=20",
  "/resourceful/entity/client-v3?quicksearch=har%201950-01-01&postcode=SW",
  "/resourceful/entity/client?name=hartley",
  "/resourceful/entity/client-v3/1/contact",
  "/resourceful/entity/client-v3/1/address",
];

/** Tables small by nature (settings, lists of names), which SQLite may read whole. */
const SMALL_ROWS = 100;

const harness = withPlatform();
const statements = new Set<string>();

beforeAll(async () => {
  // every statement prepared from now on, including the ones prepared once and kept
  const stopWatching = watchPrepares(harness.platform, (source) => statements.add(source));
  const token = await harness.platform.session("demo.client");
  for (const path of HOT_CALLS) {
    const answer = await harness.platform.call(path, { token });
    expect([200, 404], `${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
  }
  // a document of the client's, and the next page after the first (bookmarks of the list's answer)
  const list = await harness.platform.call<Array<{ id: number; bookmark: string }>>(
    "/resourceful/docnote-v2?page_size=2",
    {
      token,
    },
  );
  expect(list.body.length).toBe(2);
  expect((await harness.platform.call(`/resourceful/docnote-v2/${list.body[0]!.id}`, { token })).status).toBe(200);
  const next = `/resourceful/docnote-v2?page_size=2&page_bookmark=${encodeURIComponent(list.body[1]!.bookmark)}`;
  expect((await harness.platform.call(next, { token })).status).toBe(200);
  const adviser = await harness.platform.session("demo.adviser", "adviser");
  for (const path of ADVISER_CALLS) {
    const answer = await harness.platform.call(path, { token: adviser });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  }
  const clients = await harness.platform.call<Array<{ bookmark: string }>>(ADVISER_CALLS[0]!, { token: adviser });
  const nextClients = `/resourceful/entity/client-v3?page_size=20&page_bookmark=${encodeURIComponent(clients.body[19]!.bookmark)}`;
  expect((await harness.platform.call(nextClients, { token: adviser })).status).toBe(200);
  // the transactions' next page, after the first page's last bookmark
  const transactions = await harness.platform.call<Array<{ bookmark: string }>>(
    "/resourceful/portfolio/transaction?timeframe=3Y&page_size=5",
    { token },
  );
  const bookmark = transactions.body.at(-1)?.bookmark as string;
  const nextTransactions = await harness.platform.call(
    `/resourceful/portfolio/transaction?timeframe=3Y&page_size=5&page_bookmark=${encodeURIComponent(bookmark)}`,
    { token },
  );
  expect(nextTransactions.status).toBe(200);
  const batch = await harness.platform.call("/resourceful", {
    method: "POST",
    token,
    body: {
      batch: HOT_CALLS.slice(0, 4).map((path, i) => ({
        name: String(i),
        method: "GET",
        url: path.slice("/resourceful/".length),
      })),
    },
  });
  expect(batch.status).toBe(200);
  stopWatching();
});

/** The query plan of a statement, its parameters bound to null (the plan does not depend on them). */
function planOf(sqlite: Database.Database, source: string): string[] {
  const explain = sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`);
  for (let count = 0; count <= 500; count++) {
    try {
      return (explain.all(...new Array(count).fill(null)) as Array<{ detail: string }>).map((r) => r.detail);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  throw new Error(`could not bind the parameters of ${source}`);
}

describe("query plans of the hot calls (decision 123)", () => {
  it("reads no table of more than a few rows whole", () => {
    const sqlite = harness.platform.db.$client;
    const rows = new Map(
      (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (t) => [t.name, (sqlite.prepare(`SELECT count(*) AS n FROM "${t.name}"`).get() as { n: number }).n],
      ),
    );
    const reads = [...statements].filter((s) => /^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(s));
    // the session lookup, the book's statements and the summary's are among them
    expect(reads.some((s) => s.includes('"sessions"."token_hash"'))).toBe(true);
    expect(reads.some((s) => s.includes("FROM security_prices"))).toBe(true);
    expect(reads.some((s) => s.includes("FROM transactions"))).toBe(true);
    // the documents' and client list's (decision 130)
    expect(reads.some((s) => s.includes("FROM json_each(?) d"))).toBe(true);
    expect(reads.some((s) => s.includes('"adviser_clients"."adviser_user_id" = ?'))).toBe(true);
    // lists of ids of any length through json_each (decision 131), the balance sheet's among them
    expect(reads.some((s) => s.includes("json_each") && s.includes("FROM security_prices"))).toBe(true);
    expect(reads.some((s) => s.includes('from "other_asset_owners"'))).toBe(true);
    expect(reads.length).toBeGreaterThan(20);
    const wholeReads = reads.flatMap((source) =>
      planOf(sqlite, source)
        .map((detail) => /^SCAN (\w+)/.exec(detail)?.[1])
        .filter((table): table is string => table !== undefined && (rows.get(table) ?? 0) > SMALL_ROWS)
        .map((table) => `${table} (${rows.get(table)} rows): ${source}`),
    );
    expect(wholeReads).toEqual([]);
  });

  it("counts documents (issue 38) from the entities' index, never reading the whole of documents", () => {
    const sqlite = harness.platform.db.$client;
    const counts = [...statements].filter((s) => /^select count\(\*\) from "documents"/i.test(s));
    expect(counts).toHaveLength(2);
    for (const source of counts) {
      const plan = planOf(sqlite, source);
      // the seed's documents are few enough for the test above to let a whole read pass
      expect(
        plan.filter((detail) => /^SCAN documents\b/.test(detail)),
        source,
      ).toEqual([]);
      expect(plan, source).toContain("SEARCH documents USING INTEGER PRIMARY KEY (rowid=?)");
      expect(plan.some((detail) => detail.includes("USING INDEX document_entities_entity_idx (entity_id=?)"))).toBe(
        true,
      );
    }
  });
});
