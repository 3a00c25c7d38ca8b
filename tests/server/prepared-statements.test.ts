import type Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { TOUCH_PRECISION_MS } from "../../server/sessions";
import { withPlatform, watchPrepares } from "./harness";

// Decision 130: the documents' calls, the client list and a batch's items build and prepare their
// statements once (one per shape of a list's filters), and a batch's reading items use the session
// its own call found instead of looking it up and refreshing it again per item; a session's idle
// clock is written once per TOUCH_PRECISION_MS, not on every call.

const harness = withPlatform();
let client: string;
let adviser: string;
let clientEntity: number;
/** The statements prepared since the last reset, and the session lookups and touches run. */
const seen = { prepared: [] as string[], lookups: 0, touches: 0 };

/** Counts the calls of a statement's method (drizzle runs `raw().get()`, `run()`: the same object). */
function counting(statement: Database.Statement, method: "get" | "run", counter: "lookups" | "touches") {
  const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
  Object.assign(statement, {
    [method]: (...args: unknown[]) => {
      seen[counter]++;
      return original(...args);
    },
  });
}

beforeAll(async () => {
  watchPrepares(harness.platform, (source, statement) => {
    seen.prepared.push(source);
    if (/^select .* from "sessions" .*"sessions"\."token_hash" = \?/.test(source))
      counting(statement, "get", "lookups");
    if (/^update "sessions" set "last_seen_at" = \?/.test(source)) counting(statement, "run", "touches");
  });
  client = await harness.platform.session("demo.client");
  adviser = await harness.platform.session("demo.adviser", "adviser");
  clientEntity = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token: client }))
    .body.entity_id;
});

type Listed = { id: number; bookmark: string };

/** The documents and client list calls of one shape each, with the values given. */
async function documentAndClientCalls(values: {
  pageSize: number;
  doctype: string;
  subject: string;
  word: string;
  pick: number;
}) {
  const get = async <T>(path: string, token: string) => {
    const answer = await harness.platform.call<T>(path, { token });
    expect(answer.status, path).toBe(200);
    return answer.body;
  };
  const page = await get<Listed[]>(`/resourceful/docnote-v2?page_size=${values.pageSize}`, client);
  const bookmark = encodeURIComponent(page[values.pick]!.bookmark);
  await get(`/resourceful/docnote-v2?page_size=${values.pageSize}&page_bookmark=${bookmark}`, client);
  await get(
    `/resourceful/docnote-v2?page_size=${values.pageSize}&firstread.include_read_notes=false&doctype_exclude.0=${values.doctype}`,
    client,
  );
  await get(
    `/resourceful/docnote-v2?doctype.0=${values.doctype}&subject=${values.subject}&created_date.start_date=2020-01-01`,
    client,
  );
  await get(`/resourceful/docnote-v2/${page[values.pick]!.id}`, client);
  await get("/resourceful/docnote-v2/category", client);
  await get(`/resourceful/docnote-v2/doctype?member_ids=${clientEntity}`, client);
  const clients = await get<Array<{ id: number; bookmark: string }>>(
    `/resourceful/entity/client-v3?page_size=${values.pageSize}`,
    adviser,
  );
  await get(
    `/resourceful/entity/client-v3?page_size=${values.pageSize}&page_bookmark=${encodeURIComponent(clients[values.pick]!.bookmark)}`,
    adviser,
  );
  await get(`/resourceful/entity/client-v3?quicksearch=${values.word}`, adviser);
  await get(`/resourceful/entity/client-v3/${clientEntity}/contact`, client);
  await get(`/resourceful/entity/client-v3/${clientEntity}/address`, client);
}

describe("statements prepared once (decision 130)", () => {
  it("prepares nothing for the documents' and client list's calls once each shape has been asked", async () => {
    await documentAndClientCalls({ pageSize: 5, doctype: "SecureMessage", subject: "a", word: "ha", pick: 1 });
    seen.prepared = [];
    await documentAndClientCalls({ pageSize: 7, doctype: "Letter", subject: "re*", word: "ell", pick: 3 });
    expect(seen.prepared).toEqual([]);
  });

  it("looks the session up and refreshes it once for a batch of reading items", async () => {
    const items = ["session/user", "session/capability", "docnote-v2?page_size=3", "docnote-v2/category"].map(
      (url, i) => ({
        name: `item${i}`,
        method: "GET",
        url,
      }),
    );
    harness.platform.clock.advance(TOUCH_PRECISION_MS);
    seen.lookups = 0;
    seen.touches = 0;
    const answer = await harness.platform.call<Array<{ code: number }>>("/resourceful", {
      method: "POST",
      token: client,
      body: { batch: items },
    });
    expect(answer.body.map((item) => item.code)).toEqual([200, 200, 200, 200]);
    expect(seen).toMatchObject({ lookups: 1, touches: 1 });
  });

  it("writes a session's idle clock once per TOUCH_PRECISION_MS, and the session still ends when idle", async () => {
    const own = await harness.platform.session("demo.partner");
    const user = () => harness.platform.call("/resourceful/session/user", { token: own, authFailureAsError: true });
    harness.platform.clock.advance(TOUCH_PRECISION_MS);
    seen.touches = 0;
    expect((await user()).status).toBe(200);
    expect((await user()).status).toBe(200);
    expect(seen.touches).toBe(1);
    harness.platform.clock.advance(TOUCH_PRECISION_MS - 1);
    expect((await user()).status).toBe(200);
    expect(seen.touches).toBe(1);
    harness.platform.clock.advance(1);
    expect((await user()).status).toBe(200);
    expect(seen.touches).toBe(2);
    // the default profile's 30 idle minutes count from the last write
    harness.platform.clock.advance(30 * 60_000 - 1);
    expect((await user()).status).toBe(200);
    harness.platform.clock.advance(30 * 60_000 + 1);
    expect((await user()).status).toBe(401);
  });

  it("looks the session up again for the items after one that writes", async () => {
    const items = [
      { name: "read", method: "GET", url: "session/user" },
      { name: "write", method: "POST", url: "docnote-v2/1/firstread" },
      { name: "after", method: "GET", url: "session/user" },
    ];
    seen.lookups = 0;
    const answer = await harness.platform.call<Array<{ code: number }>>("/resourceful", {
      method: "POST",
      token: client,
      body: { batch: items },
    });
    expect(answer.status).toBe(200);
    expect(seen.lookups).toBe(3);
  });
});
