import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, signInDemoUsers, startPortal } from "./portal-harness";

// Issue 24 finding 7 (docs/decisions/113): the session cookie is sealed whole, so what the browser
// holds says nothing about who is signed in, and it stays well under a browser's 4 KiB per cookie.

let portal: Portal;
let cookies: Awaited<ReturnType<typeof signInDemoUsers>> & { partner: string };

beforeAll(async () => {
  portal = await startPortal();
  cookies = { ...(await signInDemoUsers(portal)), partner: await portal.signIn("demo.partner") };
}, 60_000);
afterAll(() => portal?.close());

/** Everything a reader of the cookie could make of it: the text, and its parts decoded from base64. */
function readable(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  const parts = value.split(/[.]/);
  return [
    value,
    ...parts.flatMap((p) => [
      Buffer.from(p, "base64").toString("latin1"),
      Buffer.from(p, "base64url").toString("latin1"),
    ]),
  ].join("\n");
}

async function sessionOf(cookie: string) {
  const { getPortalSession } = await import("~/session/session.server");
  return getPortalSession(new Request("http://portal.test/clients", { headers: { Cookie: cookie } }));
}

describe("the session cookie", () => {
  it("holds no readable name, id, role or date for any demo user", async () => {
    for (const [who, cookie] of Object.entries(cookies)) {
      const session = await sessionOf(cookie);
      if (!session) throw new Error(`${who}'s cookie holds no session`);
      const { user } = session;
      const text = readable(cookie);
      const secrets = [
        user.displayName,
        user.firstName,
        user.role,
        String(user.entityId),
        user.lastLogin,
        user.clientInContext?.displayName,
        session.token,
      ].filter((s): s is string => Boolean(s) && s!.length >= 3);
      for (const secret of secrets) expect(text, `${who}: ${secret}`).not.toContain(secret);
      expect(text, who).not.toMatch(/"(displayName|entityId|role|partnerEntityId|lastLogin|token)"/);
    }
  });

  it("stays well under 4 KiB, the adviser with a client in context included", () => {
    const lengths = Object.fromEntries(Object.entries(cookies).map(([who, cookie]) => [who, cookie.length]));
    for (const length of Object.values(lengths)) expect(length).toBeLessThan(2048);
  });

  it("reads as no session once a character of it is changed", async () => {
    const cookie = cookies.client;
    const at = cookie.length - 10;
    const changed = cookie.slice(0, at) + (cookie[at] === "A" ? "B" : "A") + cookie.slice(at + 1);
    expect(await sessionOf(cookie)).not.toBeNull();
    expect(await sessionOf(changed)).toBeNull();
  });
});
