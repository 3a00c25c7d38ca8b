import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callLoader, type Portal, signInDemoUsers, startPortal, thrown } from "./portal-harness";

// ASVS 4.0.3 V7.2.2 (docs/decisions/185): a page the portal's guards refuse to a signed-in user is
// one `access refused` line with the user's id, the path and why (the request's id from the
// logger); the user still sees Access Denied (403).

let portal: Portal;
let users: Awaited<ReturnType<typeof signInDemoUsers>>;
let logger: typeof import("~/runtime/logger.server").logger;

beforeAll(async () => {
  portal = await startPortal();
  users = await signInDemoUsers(portal);
  ({ logger } = await import("~/runtime/logger.server"));
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The `access refused` lines logged while `work` runs, and its thrown or answered Response. */
async function refusals(work: () => Promise<Response>) {
  const warn = vi.spyOn(logger, "warn");
  const response = await thrown(work());
  const lines = warn.mock.calls.filter(([message]) => message === "access refused").map(([, fields]) => fields);
  return { status: response.status, lines };
}

async function userIdOf(cookie: string) {
  return ((await portal.sessionUser(cookie)) as { id: number }).id;
}

describe("the guards log what they refuse", () => {
  it("a client on an adviser's page", async () => {
    const route = await import("~/routes/advisers._index/route");
    const { status, lines } = await refusals(() => callLoader(route, "/advisers?name=Hartley", users.client));
    expect(status).toBe(403);
    expect(lines).toEqual([
      {
        userId: await userIdOf(users.client),
        role: "ClientUser",
        path: "/advisers",
        status: 403,
        reason: "advisers only",
      },
    ]);
  });

  it("an adviser on a client's own page", async () => {
    const route = await import("~/routes/clients.sessions/route");
    const { status, lines } = await refusals(() => callLoader(route, "/clients/sessions", users.adviser));
    expect(status).toBe(403);
    expect(lines).toEqual([
      expect.objectContaining({ userId: await userIdOf(users.adviser), role: "User", reason: "clients only" }),
    ]);
  });

  it("a client whose site access level does not reach the page", async () => {
    const route = await import("~/routes/clients.balance-sheet/route");
    const { status, lines } = await refusals(() => callLoader(route, "/clients/balance-sheet", users.messages));
    expect(status).toBe(403);
    expect(lines).toEqual([
      expect.objectContaining({
        userId: await userIdOf(users.messages),
        path: "/clients/balance-sheet",
        reason: expect.stringMatching(/^site access level Messages not in /),
      }),
    ]);
  });

  it("a page that is allowed logs no refusal", async () => {
    const route = await import("~/routes/clients.preferences/route");
    const { status, lines } = await refusals(() => callLoader(route, "/clients/preferences", users.client));
    expect(status).toBe(200);
    expect(lines).toEqual([]);
  });
});
