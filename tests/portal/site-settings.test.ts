import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "../../server/db/schema";
import { type Portal, startPortal } from "./portal-harness";

// spec 000 §3 "Site settings" the portal uses (docs/decisions/028): favicon, login background,
// usernameHint, forgotUsernameButtonText and the login failure message (spec 000 §8), read from
// a real platform. The portal keeps the settings for a few minutes, so this file's own values are
// written before the first page asks for them.

let portal: Portal;
const FAILURE = "Those details do not match our records. Please try again.";
const FAILURE_FR = "Ces renseignements ne correspondent pas à nos dossiers. Veuillez réessayer.";

function setSetting(key: string, value: string | null) {
  const db = portal.platform.db;
  db.insert(siteSettings)
    .values({ key, valueJson: JSON.stringify(value) })
    .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson: JSON.stringify(value) } })
    .run();
  expect(db.select().from(siteSettings).where(eq(siteSettings.key, key)).get()?.valueJson).toBe(JSON.stringify(value));
}

beforeAll(async () => {
  portal = await startPortal();
  setSetting("loginFailureMessage", FAILURE);
  setSetting("loginFailureMessage.fr-CA", FAILURE_FR);
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

const page = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://portal.test${path}`, { headers });

let address = 0;
async function postWrongPassword(headers: Record<string, string> = {}) {
  const route = await import("~/routes/login/route");
  const { body, cookie } = await portal.anonymousForm({
    intent: "login",
    userType: "client",
    username: "demo.client",
    password: "not-the-password",
  });
  const request = new Request("http://portal.test/login", {
    method: "POST",
    body,
    headers: {
      ...headers,
      Cookie: [cookie, headers.Cookie].filter(Boolean).join("; "),
      "Content-Type": "application/x-www-form-urlencoded",
    },
  });
  address += 1;
  return (await route.action({ request, params: {}, context: { socketAddress: `198.51.100.${address}` } })) as Response;
}

describe("the root's brand settings", () => {
  it("gives the site's favicon and login background to every page", async () => {
    const root = await import("~/root");
    const data = (await (await root.loader({ request: page("/login"), params: {}, context: {} })).json()) as {
      brand: { favicon: { href: string; type?: string }; loginBackground: Record<string, string | null> };
    };
    expect(data.brand.favicon).toEqual({ href: "/brand/favicon.svg", type: "image/svg+xml" });
    expect(data.brand.loginBackground).toEqual({
      colour: "#14284b",
      desktop: "/brand/login-bg.svg",
      tabletLandscape: null,
      tabletPortrait: "/brand/login-bg-portrait.svg",
    });
  });
});

describe("the login page", () => {
  type LoginData = { usernameHint: string | null };
  it("shows the site's username hint on the client tab, in the page's language", async () => {
    const route = await import("~/routes/login/route");
    const en = (await (await route.loader({ request: page("/login"), params: {}, context: {} })).json()) as LoginData;
    expect(en.usernameHint).toBe("Your username was sent to you in your welcome email, for example jane.smith.");
    const fr = (await (
      await route.loader({ request: page("/login", { "Accept-Language": "fr-CA" }), params: {}, context: {} })
    ).json()) as LoginData;
    expect(fr.usernameHint).toBe(
      "Votre nom d’utilisateur vous a été envoyé dans votre courriel de bienvenue, par exemple jane.smith.",
    );
    const adviser = (await (
      await route.loader({ request: page("/login?userType=adviser"), params: {}, context: {} })
    ).json()) as LoginData;
    expect(adviser.usernameHint).toBeNull();
  });

  it("answers a wrong password with the site's login failure message", async () => {
    type Refused = { alert?: { kind: string; key?: string; text?: string } };
    const en = await postWrongPassword();
    expect(en.status).toBe(401);
    expect(((await en.json()) as Refused).alert).toEqual({ kind: "error", text: FAILURE, field: "password" });
    const fr = await postWrongPassword({ "Accept-Language": "fr-CA" });
    expect(((await fr.json()) as Refused).alert).toEqual({ kind: "error", text: FAILURE_FR, field: "password" });
  });
});

describe("help with logging in", () => {
  it("names the forgotten username section with the site's text", async () => {
    const route = await import("~/routes/login_.help/route");
    type Help = { forgotUsernameLabel: string | null };
    const en = (await (await route.loader({ request: page("/login/help"), params: {}, context: {} })).json()) as Help;
    expect(en.forgotUsernameLabel).toBe("Forgotten your username?");
    const fr = (await (
      await route.loader({ request: page("/login/help", { "Accept-Language": "fr-CA" }), params: {}, context: {} })
    ).json()) as Help;
    expect(fr.forgotUsernameLabel).toBe("Nom d’utilisateur oublié?");
  });
});
