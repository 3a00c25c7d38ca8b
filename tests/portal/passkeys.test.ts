import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed";
import { SoftwareAuthenticator } from "../webauthn-authenticator";
import { freshClient, type Portal, signedInPost, startPortal, thrown, withCookies } from "./portal-harness";

// Issue 15 (docs/decisions/101): the biometric permission page's loader and posts, and the login
// page's passkey sign-in, against a real platform. A software authenticator plays the browser's
// part (the origin the platform allows by default, http://localhost:3000).

let portal: Portal;
type PermissionRoute = typeof import("~/routes/clients.biometric-permission/route");
type OptionsRoute = typeof import("~/routes/clients.biometric-permission_.options/route");
type LoginRoute = typeof import("~/routes/login/route");
type LoginOptionsRoute = typeof import("~/routes/login_.passkey/route");
let permission: PermissionRoute;
let registrationOptions: OptionsRoute;
let login: LoginRoute;
let loginOptions: LoginOptionsRoute;

const PAGE = "http://portal.test/clients/biometric-permission";
const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

beforeAll(async () => {
  portal = await startPortal();
  permission = await import("~/routes/clients.biometric-permission/route");
  registrationOptions = await import("~/routes/clients.biometric-permission_.options/route");
  login = await import("~/routes/login/route");
  loginOptions = await import("~/routes/login_.passkey/route");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The platform answers 503 to the calls to `path` (by `method`), as when it is failing. */
function failPlatform(method: string, path: RegExp) {
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" || input instanceof URL ? input.toString() : input.url;
    if ((init?.method ?? "GET").toUpperCase() !== method || !path.test(new URL(url).pathname))
      return realFetch(input, init);
    const message = "The platform could not complete the request";
    return new Response(JSON.stringify({ api_message: message }), {
      status: 503,
      headers: { "Content-Type": "application/json" },
    });
  });
}

/** A fresh client of its own (copy of demo.client) and its portal session cookie. */
const newClient = () => freshClient(portal, "passkey", "demo.client");

const post = (
  route: { action: (args: never) => Promise<Response> },
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) => signedInPost(portal, route.action, url, cookie, fields, headers);

async function view(cookie: string, query = "") {
  const response = await thrown(
    permission.loader({
      request: new Request(`${PAGE}${query}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    loadFailed: boolean;
    granted: boolean;
    renaming: number | null;
    removing: number | null;
    passkeys: Array<{ id: number; name: string; lastUsed: string | null; thisDevice: boolean }>;
  };
}

/** Ticks the box and saves, with the authenticator's answer as the page's script posts it. */
async function grant(cookie: string, authenticator: SoftwareAuthenticator) {
  const options = await post(registrationOptions, `${PAGE}/options`, cookie, { currentPassword: DEMO_PASSWORD });
  expect(options.status).toBe(200);
  const body = (await options.json()) as { challenge: string; user: { id: string }; excludeCredentials: unknown[] };
  const response = authenticator.register(body);
  return post(
    permission,
    PAGE,
    cookie,
    { intent: "save", granted: "on", response: JSON.stringify(response) },
    { "User-Agent": CHROME_LINUX },
  );
}

describe("the biometric permission page", () => {
  it("grants: registers the passkey, remembers it as this device's, and sets the session's flag", async () => {
    const { username, cookie } = await newClient();
    expect(await view(cookie)).toMatchObject({ loadFailed: false, granted: false, passkeys: [] });
    const saved = await grant(cookie, new SoftwareAuthenticator());
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/clients/biometric-permission");
    const after = withCookies(cookie, saved);
    expect(after).toMatch(/passkeys=/);
    expect(await portal.sessionUser(after)).toMatchObject({ hasPasskey: true });
    const page = await view(after);
    expect(page.granted).toBe(true);
    expect(page.passkeys).toEqual([
      expect.objectContaining({ name: "Chrome on Linux", thisDevice: true, lastUsed: null }),
    ]);
    // Another browser of the same client (no device cookie) sees the passkey, not the permission.
    const elsewhere = await view(await portal.signIn(username));
    expect(elsewhere.granted).toBe(false);
    expect(elsewhere.passkeys[0]).toMatchObject({ thisDevice: false });
  });

  it("refuses a grant without the browser's answer (no JavaScript), beside the checkbox", async () => {
    const { cookie } = await newClient();
    const response = await post(permission, PAGE, cookie, { intent: "save", granted: "on" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      intent: "save",
      granted: true,
      fieldError: "biometric.errors.needsScript",
    });
  });

  it("refuses an answer to a challenge it did not give", async () => {
    const { cookie } = await newClient();
    const forged = new SoftwareAuthenticator().register({ challenge: "bm90LWEtY2hhbGxlbmdl", user: { id: "dXNlcg" } });
    const response = await post(permission, PAGE, cookie, {
      intent: "save",
      granted: "on",
      response: JSON.stringify(forged),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ problem: "biometric.errors.expired" });
  });

  it("withdraws: removes this device's passkey and clears the flag", async () => {
    const { cookie } = await newClient();
    const granted = withCookies(cookie, await grant(cookie, new SoftwareAuthenticator()));
    const withdrawn = await post(permission, PAGE, granted, { intent: "save", currentPassword: DEMO_PASSWORD });
    expect(withdrawn.status).toBe(302);
    const after = withCookies(granted, withdrawn);
    expect(after).not.toMatch(/passkeys=/);
    expect(await portal.sessionUser(after)).toMatchObject({ hasPasskey: false });
    expect(await view(after)).toMatchObject({ granted: false, passkeys: [] });
  });

  it("renames with the name checked, and keeps what was typed when refused", async () => {
    const { cookie } = await newClient();
    const granted = withCookies(cookie, await grant(cookie, new SoftwareAuthenticator()));
    const [passkey] = (await view(granted)).passkeys;
    expect((await view(granted, `?rename=${passkey!.id}`)).renaming).toBe(passkey!.id);
    expect((await view(granted, "?rename=999999")).renaming).toBeNull();

    const tooLong = await post(permission, `${PAGE}?rename=${passkey!.id}`, granted, {
      intent: "rename",
      id: String(passkey!.id),
      name: "x".repeat(65),
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      intent: "rename",
      id: passkey!.id,
      name: "x".repeat(65),
      fieldError: "biometric.errors.nameLength",
    });

    const renamed = await post(permission, PAGE, granted, {
      intent: "rename",
      id: String(passkey!.id),
      name: "  Work laptop ",
    });
    expect(renamed.status).toBe(302);
    expect((await view(granted)).passkeys[0]).toMatchObject({ name: "Work laptop" });
  });

  it("cannot touch another client's passkey", async () => {
    const owner = await newClient();
    const granted = withCookies(owner.cookie, await grant(owner.cookie, new SoftwareAuthenticator()));
    const [passkey] = (await view(granted)).passkeys;
    const other = await newClient();
    const renamed = await post(permission, PAGE, other.cookie, {
      intent: "rename",
      id: String(passkey!.id),
      name: "Mine now",
    });
    expect(renamed.status).toBe(404);
    expect(await renamed.json()).toMatchObject({ problem: "biometric.errors.notFound" });
    const removed = await post(permission, PAGE, other.cookie, {
      intent: "remove",
      id: String(passkey!.id),
      currentPassword: DEMO_PASSWORD,
    });
    expect(removed.status).toBe(404);
    expect((await view(granted)).passkeys).toHaveLength(1);
  });

  it("removes from the list, forgetting it as this device's", async () => {
    const { cookie } = await newClient();
    const granted = withCookies(cookie, await grant(cookie, new SoftwareAuthenticator()));
    const [passkey] = (await view(granted)).passkeys;
    const removed = await post(permission, PAGE, granted, {
      intent: "remove",
      id: String(passkey!.id),
      currentPassword: DEMO_PASSWORD,
    });
    expect(removed.status).toBe(302);
    const after = withCookies(granted, removed);
    expect(await portal.sessionUser(after)).toMatchObject({ hasPasskey: false });
    expect(await view(after)).toMatchObject({ granted: false, passkeys: [] });
  });

  it("asks for the current password before a passkey is added, withdrawn or removed (decision 179)", async () => {
    const { cookie } = await newClient();
    // no options, so no ceremony, without it or with a wrong one; the password is never answered back
    const none = await post(registrationOptions, `${PAGE}/options`, cookie, {});
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ fieldError: "security:changePassword.errors.current" });
    const wrong = await post(registrationOptions, `${PAGE}/options`, cookie, { currentPassword: "Not-the-password-4" });
    expect(wrong.status).toBe(400);
    const wrongText = await wrong.text();
    expect(JSON.parse(wrongText)).toEqual({ fieldError: "security:changePassword.errors.incorrect" });
    expect(wrongText).not.toContain("Not-the-password-4");

    const granted = withCookies(cookie, await grant(cookie, new SoftwareAuthenticator()));
    const [passkey] = (await view(granted)).passkeys;
    expect((await view(granted, `?remove=${passkey!.id}`)).removing).toBe(passkey!.id);
    const withdrawn = await post(permission, PAGE, granted, { intent: "save", currentPassword: "Not-the-password-4" });
    expect(withdrawn.status).toBe(400);
    expect(await withdrawn.json()).toEqual({
      intent: "save",
      granted: false,
      passwordError: "security:changePassword.errors.incorrect",
    });
    const unconfirmed = await post(permission, `${PAGE}?remove=${passkey!.id}`, granted, {
      intent: "remove",
      id: String(passkey!.id),
    });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.json()).toEqual({
      intent: "remove",
      id: passkey!.id,
      passwordError: "security:changePassword.errors.current",
    });
    expect((await view(granted)).passkeys).toHaveLength(1);
  });

  it("shows the load failure text when the passkeys cannot be read (spec 000 §8)", async () => {
    const { cookie } = await newClient();
    failPlatform("GET", /\/resourceful\/session\/passkey$/);
    expect(await view(cookie)).toMatchObject({ loadFailed: true, passkeys: [] });
  });

  it("answers the save failure, keeping the ticked box, when the platform fails to register", async () => {
    const { cookie } = await newClient();
    failPlatform("POST", /\/registration\/verify$/);
    const response = await grant(cookie, new SoftwareAuthenticator());
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      intent: "save",
      granted: true,
      failure: expect.objectContaining({ status: 503 }),
    });
    vi.unstubAllGlobals();
    expect(await view(cookie)).toMatchObject({ granted: false, passkeys: [] });
  });

  it("answers 503 to the page's script when the registration options cannot be had", async () => {
    const { cookie } = await newClient();
    failPlatform("POST", /\/registration\/options$/);
    const options = await post(registrationOptions, `${PAGE}/options`, cookie, { currentPassword: DEMO_PASSWORD });
    expect(options.status).toBe(503);
  });

  it("is the clients' own: an adviser gets Access Denied", async () => {
    const adviser = await portal.signIn("demo.adviser", "adviser");
    const response = await thrown(
      permission.loader({ request: new Request(PAGE, { headers: { Cookie: adviser } }), params: {}, context: {} }),
    );
    expect(response.status).toBe(403);
    const options = await post(registrationOptions, `${PAGE}/options`, adviser, { currentPassword: DEMO_PASSWORD });
    expect(options.status).toBe(403);
  });
});

describe("signing in with a passkey on the login page", () => {
  /** A signed-out visitor's post (CSRF token and honeypot) to one of the login page's actions. */
  async function anonymousPost(
    route: { action: (args: never) => Promise<unknown> },
    url: string,
    fields: Record<string, string>,
  ) {
    const { body, cookie } = await portal.anonymousForm(fields);
    const request = new Request(url, {
      method: "POST",
      body,
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    return thrown(
      (route.action as (args: { request: Request; params: object; context: object }) => Promise<unknown>)({
        request,
        params: {},
        context: {},
      }),
    );
  }
  const askOptions = () => anonymousPost(loginOptions, "http://portal.test/login/passkey", {});
  const answer = (fields: Record<string, string>) =>
    anonymousPost(login, "http://portal.test/login", { intent: "passkey", userType: "client", ...fields });

  async function signInWith(authenticator: SoftwareAuthenticator, tamper = false) {
    const optionsResponse = await askOptions();
    expect(optionsResponse.status).toBe(200);
    const options = (await optionsResponse.json()) as { challenge: string; allowCredentials: unknown[] };
    expect(options.allowCredentials).toEqual([]);
    return answer({ response: JSON.stringify(authenticator.authenticate(options, { tamper })) });
  }

  it("on a browser that has signed in as the user, clears the username's failed sign-ins (decision 173)", async () => {
    const { username, cookie } = await newClient();
    const authenticator = new SoftwareAuthenticator();
    await grant(cookie, authenticator);
    let next = 0;
    /** A post to the login action from an address of its own (so that the limits count), with `device`. */
    async function counted(fields: Record<string, string>, device = "") {
      const form = await portal.anonymousForm({ userType: "client", ...fields });
      const request = new Request("http://portal.test/login", {
        method: "POST",
        body: form.body,
        headers: { Cookie: `${form.cookie}; ${device}`, "Content-Type": "application/x-www-form-urlencoded" },
      });
      const context = { socketAddress: `198.20.0.${++next}` };
      return thrown(login.action({ request, params: {}, context }));
    }
    const deviceOf = (response: Response) =>
      response.headers
        .getSetCookie()
        .find((c) => c.startsWith("__device="))
        ?.split(";")[0] ?? "";
    const password = (value: string, device = "") => counted({ username, password: value }, device);

    const device = deviceOf(await password("Demo-pass-1"));
    expect(device).toMatch(/^__device=/);
    for (let attempt = 1; attempt <= 4; attempt++) expect((await password("not-the-password")).status).toBe(401);
    expect((await password("Demo-pass-1")).status).toBe(429);

    const options = (await (await askOptions()).json()) as { challenge: string };
    const response = JSON.stringify(authenticator.authenticate(options));
    const byPasskey = await counted({ intent: "passkey", response }, device);
    expect(byPasskey.status).toBe(302);
    expect(deviceOf(byPasskey)).toMatch(/^__device=/);
    // the owner has proven who they are: unknown browsers may try again
    expect((await password("Demo-pass-1")).status).toBe(302);
  });

  it("opens the same session as a password, without a username", async () => {
    const { cookie } = await newClient();
    const authenticator = new SoftwareAuthenticator();
    await grant(cookie, authenticator);
    const response = await signInWith(authenticator);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/clients/home");
    // a new anti-forgery token with the session, as after a password (docs/decisions/113)
    expect(response.headers.getSetCookie().filter((c) => c.startsWith("csrf="))).toHaveLength(1);
    const session = withCookies("", response);
    expect(await portal.sessionUser(session)).toMatchObject({ role: "ClientUser", hasPasskey: true });
  });

  it("answers a refusal to the passkey's own alert: not verified, not recognised", async () => {
    const { cookie } = await newClient();
    const authenticator = new SoftwareAuthenticator();
    const granted = withCookies(cookie, await grant(cookie, authenticator));
    const tampered = await signInWith(authenticator, true);
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ passkey: { alert: { kind: "error", key: "login.passkey.failed" } } });

    const [passkey] = (await view(granted)).passkeys;
    await post(permission, PAGE, granted, {
      intent: "remove",
      id: String(passkey!.id),
      currentPassword: DEMO_PASSWORD,
    });
    const removed = await signInWith(authenticator);
    expect(removed.status).toBe(401);
    expect(await removed.json()).toEqual({ passkey: { alert: { kind: "error", key: "login.passkey.notRecognised" } } });
  });

  it("answers 503 to the page's script when the platform cannot give options, and the catalogue's failure to a verification", async () => {
    failPlatform("POST", /\/auth\/passkey\/authentication\/options$/);
    const options = await askOptions();
    expect(options.status).toBe(503);
    vi.unstubAllGlobals();

    const { cookie: client } = await newClient();
    const authenticator = new SoftwareAuthenticator();
    await grant(client, authenticator);
    failPlatform("POST", /\/auth\/passkey\/authentication\/verify$/);
    const refused = await signInWith(authenticator);
    expect(refused.status).toBe(503);
    const answer = (await refused.json()) as { passkey: { alert?: unknown; failure?: { status: number } } };
    expect(answer.passkey.alert).toBeUndefined();
    expect(answer.passkey.failure).toMatchObject({ status: 503 });
  });

  it("refuses an answer that is not one", async () => {
    const response = await answer({ response: "not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ passkey: { alert: { kind: "error", key: "login.passkey.failed" } } });
  });
});
