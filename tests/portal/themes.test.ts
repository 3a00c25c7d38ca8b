import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openClientInContext,
  freshClient,
  type Portal,
  signedInPost,
  startPortal,
  withCookies,
} from "./portal-harness";

// docs/decisions/203: the theme chosen on the Preferences page, a plain form for every signed-in
// user who reaches the page (advisers too, for themselves), kept on the platform and in the session,
// and written by the root loader onto every page.

type PreferencesRoute = typeof import("~/routes/clients.preferences/route");
type RootLoader = typeof import("~/root.server");
let portal: Portal;
let page: PreferencesRoute;
let root: RootLoader;

const PAGE = "http://portal.test/clients/preferences";

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.preferences/route");
  root = await import("~/root.server");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

const newClient = () => freshClient(portal, "theme");

const post = (cookie: string, fields: Record<string, string>) =>
  signedInPost(portal, page.action, PAGE, cookie, fields);

async function themeOnPages(cookie: string): Promise<string> {
  const answer = await root.loader({
    request: new Request("http://portal.test/clients/home", { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });
  return ((await answer.json()) as { theme: string }).theme;
}

const platformTheme = async (cookie: string) =>
  ((await portal.sessionUser(cookie)) as { theme?: string }).theme ?? "(none)";

describe("the theme on the Preferences page", () => {
  it("is the device's setting for a signed-out visitor and at first", async () => {
    expect(await themeOnPages("")).toBe("system");
    const { cookie: client } = await newClient();
    expect(await themeOnPages(client)).toBe("system");
    const loaded = await page.loader({
      request: new Request(PAGE, { headers: { Cookie: client } }),
      params: {},
      context: {},
    });
    expect(await loaded.json()).toMatchObject({ theme: "system", readOnly: false });
  });

  it("saves the client's choice on the platform and in the session, then every page has it", async () => {
    const { username, cookie: client } = await newClient();
    const saved = await post(client, { intent: "theme", theme: "dark" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/clients/preferences");
    const after = withCookies(client, saved);
    expect(await platformTheme(after)).toBe("dark");
    expect(await themeOnPages(after)).toBe("dark");
    // the platform keeps it: a new sign-in (another browser) reads it
    expect(await themeOnPages(await portal.signIn(username))).toBe("dark");
  });

  it("takes only its three options: anything else is refused and changes nothing", async () => {
    const { cookie: client } = await newClient();
    for (const theme of ["blue", "", "Dark"]) {
      const refused = await post(client, { intent: "theme", theme });
      expect(refused.status, theme).toBe(400);
    }
    const missing = await post(client, { intent: "theme" });
    expect(missing.status).toBe(400);
    expect(await themeOnPages(client)).toBe("system");
  });

  it("is an adviser's own: saved with a client in context, the client's stays as it was", async () => {
    const adviser = await portal.signIn("demo.adviser", "adviser");
    const inContext = await openClientInContext(portal, adviser, "Hartley", "Hartley, Eleanor");
    const cookie = withCookies(adviser, new Response(null, { headers: { "Set-Cookie": inContext } }));
    const saved = await post(cookie, { intent: "theme", theme: "light" });
    expect(saved.status).toBe(302);
    const after = withCookies(cookie, saved);
    expect(await themeOnPages(after)).toBe("light");
    // the communication preferences stay the client's, read only: a post without the theme's intent is refused
    const refused = await post(after, { email: "on" });
    expect(refused.status).toBe(403);
    const client = await portal.signIn("demo.client");
    expect(await themeOnPages(client)).toBe("system");
    // put back for the other tests of this platform
    await post(after, { intent: "theme", theme: "system" });
  });
});
