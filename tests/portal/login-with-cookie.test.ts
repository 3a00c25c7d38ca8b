import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal, thrown } from "./portal-harness";

// The login page visited with a portal session cookie (docs/decisions/045): a live sign-in goes
// home; a cookie whose platform session has ended (a heartbeat's refreshed cookie that crossed the
// Log out, an old copy) is dropped, with a signed-out visitor's anti-forgery token (the ended
// session's no longer serves: docs/decisions/167), and the login page shows again, with its notice.

let portal: Portal;
let route: typeof import("~/routes/login/route");

beforeAll(async () => {
  portal = await startPortal();
  route = await import("~/routes/login/route");
}, 60_000);
afterAll(() => portal?.close());

const visit = (path: string, cookie: string) =>
  route.loader({
    request: new Request(`http://portal.test${path}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });

describe("the login page with a session cookie", () => {
  it("takes a signed-in client home", async () => {
    const cookie = await portal.signIn("demo.client");
    const answer = await thrown(visit("/login", cookie));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/clients/home");
  });

  it("takes a signed-in client to a requested page of the portal, never to another site (finding 4)", async () => {
    const cookie = await portal.signIn("demo.client");
    const kept = await thrown(
      visit(`/login?redirectTo=${encodeURIComponent("/clients/personal-details?x=1")}`, cookie),
    );
    expect(kept.headers.get("Location")).toBe("/clients/personal-details?x=1");
    for (const target of ["/.//evil.example/x", "/..//evil.example/x", "/./\\evil.example/x", "//evil.example/x"]) {
      const answer = await thrown(visit(`/login?redirectTo=${encodeURIComponent(target)}`, cookie));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location"), target).toBe("/clients/home");
    }
  });

  it("drops a cookie whose platform session has ended and shows the login page with its notice", async () => {
    const cookie = await portal.signIn("demo.partner");
    // the platform session ends (Log out) while the cookie lives on in the browser
    const { createPlanningClient } = await import("~/planning/client.server");
    const { getPortalSession } = await import("~/session/session.server");
    const session = await getPortalSession(new Request("http://portal.test/", { headers: { Cookie: cookie } }));
    if (!session) throw new Error("the cookie holds no session");
    await createPlanningClient({ token: session.token }).send("DELETE", "resourceful/session", { retry: false });

    const dropped = await thrown(visit("/login?reason=UserLoggedOut", cookie));
    expect(dropped.status).toBe(302);
    expect(dropped.headers.get("Location")).toBe("/login?reason=UserLoggedOut");
    const cleared = dropped.headers.getSetCookie();
    expect(cleared.find((c) => c.startsWith("__session="))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    const token = cleared.find((c) => c.startsWith("csrf="))!.split(";")[0]!;
    expect(token).toMatch(/^csrf=./);
    const { validateCsrf, csrf } = await import("~/session/csrf.server");
    const [formToken] = await csrf.commitToken(new Request("http://portal.test/login", { headers: { Cookie: token } }));
    const form = new FormData();
    form.set("csrf", formToken);
    await expect(
      validateCsrf(form, new Request("http://portal.test/login", { method: "POST", headers: { Cookie: token } })),
    ).resolves.toBeUndefined();

    const answer = await visit("/login?reason=UserLoggedOut", "");
    expect(answer.status).toBe(200);
    const data = (await answer.json()) as { notice: { key: string } | null };
    expect(data.notice?.key).toBe("login.loggedOut");
  });
});
