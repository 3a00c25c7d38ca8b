import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/lib/logger";
import { type ClientRow, type DemoSessions, demoSessions, type SessionUser, withPlatform } from "./harness";

// ASVS 4.0.3 V7.2.2 (docs/decisions/185): every refused access decision of a signed-in caller is
// one `access refused` line with the caller's user id, the request id, the route and what was
// refused; never personal data. The answer stays as it was (404 for another user's item).

const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});
const harness = withPlatform({ logger: createLogger("warn", destination) });

type RefusedLine = {
  message: string;
  level: string;
  requestId: string;
  userId: number;
  route: string;
  ids?: Record<string, string>;
  status: number;
  reason: string;
};

let sessions: DemoSessions;
const ids = new Map<string, number>();
beforeAll(async () => {
  sessions = await demoSessions(harness.platform);
  for (const [name, token] of Object.entries(sessions)) {
    const user = await harness.platform.call<SessionUser>("/resourceful/session/user", { token });
    ids.set(name, user.body.id);
  }
});

let sequence = 0;
/** One call with a request id of its own; answers its status and the `access refused` lines of that request. */
async function call(path: string, token: string) {
  const requestId = `access-log-${++sequence}`;
  const answer = await harness.platform.call(path, { token, headers: { "X-Request-Id": requestId } });
  const refused = lines
    .map((line) => JSON.parse(line) as RefusedLine)
    .filter((line) => line.requestId === requestId && line.message === "access refused");
  return { status: answer.status, body: answer.body, refused, text: lines.filter((l) => l.includes(requestId)) };
}

describe("a refused access decision is logged", () => {
  it("another user's item: 404 as before, and a line with the caller's id and the item's id", async () => {
    const mine = await harness.platform.call<Array<{ id: number }>>("/resourceful/docnote-v2", {
      token: sessions.client,
    });
    const documentId = mine.body[0]!.id;
    const foreign = await call(`/resourceful/docnote-v2/${documentId}`, sessions.assets);
    expect(foreign.status).toBe(404);
    expect(foreign.refused).toEqual([
      expect.objectContaining({
        level: "warn",
        userId: ids.get("assets"),
        route: "GET /resourceful/docnote-v2/:id",
        ids: { id: String(documentId) },
        status: 404,
      }),
    ]);
    // the owner's own call is not refused, and not logged
    const own = await call(`/resourceful/docnote-v2/${documentId}`, sessions.client);
    expect(own.status).toBe(200);
    expect(own.refused).toEqual([]);
  });

  it("a role not allowed: 403 with the reason", async () => {
    const answer = await call("/resourceful/entity/client-v3", sessions.client);
    expect(answer.status).toBe(403);
    expect(answer.refused).toEqual([
      expect.objectContaining({
        userId: ids.get("client"),
        route: "GET /resourceful/entity/client-v3",
        status: 403,
        reason: "Permission Error: This feature is only available to advisers",
      }),
    ]);
  });

  it("an adviser outside their clients: 403, with the client's id, never the client's name", async () => {
    // a client of the other adviser's book only
    const book = async (token: string) =>
      (await harness.platform.call<ClientRow[]>("/resourceful/entity/client-v3?page_size=100", { token })).body;
    const own = new Set((await book(sessions.adviser)).map((c) => c.id));
    const other = (await book(sessions.otherAdviser)).find((c) => !own.has(c.id))!;
    const entityId = other.id;
    const answer = await call(`/resourceful/entity/client/${entityId}/client_group/member`, sessions.adviser);
    expect(answer.status).toBe(403);
    expect(answer.refused).toEqual([
      expect.objectContaining({
        userId: ids.get("adviser"),
        route: "GET /resourceful/entity/client/:id/client_group/member",
        ids: { id: String(entityId) },
        status: 403,
        reason: "Permission Error: You do not have access to this entity",
      }),
    ]);
    for (const text of answer.text) {
      expect(text).not.toContain(other.last_name);
      expect(text).not.toContain(other.display_name);
    }
  });

  it("a path's value that is not an id (a file's name) is left out", async () => {
    const answer = await call("/resourceful/docnote/files/999999/1/Jane%20Smith%20passport.pdf", sessions.client);
    expect(answer.status).toBe(404);
    expect(answer.refused).toEqual([
      expect.objectContaining({ ids: { documentId: "999999", docpartid: "1" }, status: 404 }),
    ]);
    for (const text of answer.text) expect(text).not.toContain("passport");
  });
});
