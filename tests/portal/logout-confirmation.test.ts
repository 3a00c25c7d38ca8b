import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema";
import enAU from "~/locales/en-AU/common.json";
import enCA from "~/locales/en-CA/common.json";
import enGB from "~/locales/en-GB/common.json";
import frCA from "~/locales/fr-CA/common.json";
import { type Portal, startPortal, thrown } from "./portal-harness";

// spec 000 §2 "Log out menu item": while a review is in progress the user confirms 'Changes you
// have made will not be saved. Are you sure you want to log out?' before logging out. Without
// JavaScript the menu's form carries confirm=review and returnTo, and /logout asks on its own page
// (docs/decisions/096). The review page is not needed: these post what the menu's form posts.

type Route = typeof import("~/routes/logout/route");

let portal: Portal;
let route: Route;

beforeAll(async () => {
  portal = await startPortal();
  route = await import("~/routes/logout/route");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

async function postLogout(cookie: string, fields: Record<string, string>) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const request = new Request("http://portal.test/logout", {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(route.action({ request, params: {}, context: {} }));
}

async function openConfirmation(path: string, cookie?: string) {
  const request = new Request(`http://portal.test${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return thrown(route.loader({ request, params: {}, context: {} }));
}

/** demo.client's open platform sessions. */
function openSessions() {
  const user = portal.platform.db.select().from(users).where(eq(users.username, "demo.client")).get();
  return portal.platform.db.select().from(sessions).where(eq(sessions.userId, user!.id)).all().length;
}

describe("log out while a review is in progress", () => {
  it("goes to the confirmation page first, and the session stays", async () => {
    const client = await portal.signIn("demo.client");
    const open = openSessions();
    const returnTo = "/clients/annual-review?step=2";
    const answer = await postLogout(client, { confirm: "review", returnTo });
    expect(answer.status).toBe(302);
    const location = answer.headers.get("Location")!;
    expect(location).toBe(`/logout?${new URLSearchParams({ confirm: "review", returnTo })}`);
    expect(answer.headers.get("Set-Cookie")).toBeNull();
    expect(openSessions()).toBe(open);

    const page = await openConfirmation(location, client);
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ returnTo, title: "Log out" });
  });

  it("logs out once confirmed: the platform session ends and the cookie goes", async () => {
    const client = await portal.signIn("demo.client");
    const open = openSessions();
    const answer = await postLogout(client, { confirm: "review", confirmed: "yes" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/login?reason=UserLoggedOut");
    expect(answer.headers.get("Set-Cookie")).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(openSessions()).toBe(open - 1);
  });

  it("logs out at once without confirm=review, as before (the session timeout's own log out too)", async () => {
    const client = await portal.signIn("demo.client");
    const open = openSessions();
    const answer = await postLogout(client, {});
    expect(answer.headers.get("Location")).toBe("/login?reason=UserLoggedOut");
    expect(openSessions()).toBe(open - 1);
  });

  it("keeps Cancel on a local path", async () => {
    const client = await portal.signIn("demo.client");
    for (const returnTo of ["https://evil.example/", "//evil.example/x"]) {
      const answer = await postLogout(client, { confirm: "review", returnTo });
      expect(answer.headers.get("Location")).toBe("/logout?confirm=review");
      const page = await openConfirmation(`/logout?${new URLSearchParams({ confirm: "review", returnTo })}`, client);
      expect(((await page.json()) as { returnTo: string }).returnTo).toBe("/");
    }
  });

  it("shows the confirmation page only to a signed-in user; other visits to /logout go home", async () => {
    const signedOut = await openConfirmation("/logout?confirm=review&returnTo=%2Fclients");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe("/");
    const client = await portal.signIn("demo.client");
    const plain = await openConfirmation("/logout", client);
    expect(plain.headers.get("Location")).toBe("/");
  });

  it("has the spec's words in every locale", () => {
    const text = "Changes you have made will not be saved. Are you sure you want to log out?";
    for (const common of [enGB, enCA, enAU]) {
      expect(common["nav.logoutConfirm.text"]).toBe(text);
      expect(common["nav.loggingOut"]).toBe("Logging out...");
    }
    expect(frCA["nav.logoutConfirm.text"]).toBe(
      "Les modifications que vous avez apportées ne seront pas enregistrées. Voulez-vous vraiment vous déconnecter?",
    );
  });
});
