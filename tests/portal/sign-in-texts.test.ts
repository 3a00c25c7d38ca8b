import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { users } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/seed";
import { type Portal, startPortal, thrown } from "./portal-harness";

// Issue "Sign-in steps, recovery, additional verification…", Done means: wrong codes, wrong
// characters and locked accounts show the spec's texts (spec 000 §4 "Login flow", §8 "Sign-in and
// security messages"; spec 002 §8 for the preferences). Each case goes through the portal's own
// loaders and actions against a real platform; the texts are the en-GB locale's for the keys the
// page renders. The platform locks an account on the 5th consecutive wrong secret
// (docs/decisions/041).

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What the en-GB page shows for a key the portal answered (`ns:key`, or a key of `ns`). */
async function text(key: string, ns: string): Promise<string> {
  const { getFixedT } = await import("~/session/i18next.server");
  const [namespace, plain] = key.includes(":") ? (key.split(":", 2) as [string, string]) : [ns, key];
  const t = await getFixedT(new Request("http://portal.test/", { headers: { "Accept-Language": "en-GB" } }), namespace);
  return t(plain);
}

/** A login of its own, in the state of a seeded one (decision 005), so no other case meets it. */
async function copyOf(template: string, username: string): Promise<string> {
  const copied = await portal.platform.call(`/dev/users/${template}/copy`, { method: "POST", body: { username } });
  expect(copied.status).toBe(201);
  return username;
}

function userRow(username: string) {
  const user = portal.platform.db.select().from(users).where(eq(users.username, username)).get();
  if (!user) throw new Error(`no user ${username}`);
  return user;
}

// Each post comes from an address of its own, so the sign-in and recovery rate limits never join in.
let address = 0;
const connection = () => ({ socketAddress: `198.51.100.${(address++ % 250) + 1}` });

/** A signed-out browser: its cookies, a CSRF token, and posts with the honeypot as the pages render it. */
async function signedOutBrowser() {
  const { token, cookie } = await portal.csrf();
  const jar = new Map<string, string>();
  const [csrfName, csrfValue] = cookie.split(/=(.*)/s) as [string, string];
  jar.set(csrfName, csrfValue);

  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  function keep(response: Response) {
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = setCookie.split(";");
      const [name, value] = pair!.split(/=(.*)/s) as [string, string];
      const expired = attributes.some((a) => /^\s*Max-Age=0\s*$/i.test(a) || /^\s*Expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || !value) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    return response;
  }

  async function post(path: string, fields: Record<string, string>) {
    const body = new URLSearchParams({ csrf: token, ...portal.honeypotFields(), ...fields });
    return new Request(`http://portal.test${path}`, {
      method: "POST",
      body,
      headers: { Cookie: cookieHeader(), "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  const get = (path: string) => new Request(`http://portal.test${path}`, { headers: { Cookie: cookieHeader() } });
  return { jar, keep, post, get };
}
type Browser = Awaited<ReturnType<typeof signedOutBrowser>>;

// ── the login page ──────────────────────────────────────────────────────────────────────────────

type LoginStepView = { status: string; positions?: number[]; method?: string | null };
type LoginAnswer = {
  step?: LoginStepView | null;
  alert?: { kind: string; key?: string; text?: string };
  result?: { error?: Record<string, string[] | null> };
};

async function postToLogin(browser: Browser, fields: Record<string, string>) {
  const route = await import("~/routes/login/route");
  const request = await browser.post("/login", fields);
  return browser.keep(await thrown(route.action({ request, params: {}, context: connection() })));
}

async function loginPage(browser: Browser) {
  const route = await import("~/routes/login/route");
  const response = await thrown(route.loader({ request: browser.get("/login"), params: {}, context: {} }));
  expect(response.status).toBe(200);
  return (await response.json()) as { step: LoginStepView | null; notice: unknown };
}

/** Signs in with the right password and answers the step the login page then shows. */
async function startSignIn(browser: Browser, username: string) {
  const started = await postToLogin(browser, {
    intent: "login",
    userType: "client",
    username,
    password: DEMO_PASSWORD,
  });
  expect(started.status).toBe(302);
  expect(started.headers.get("Location")).toBe("/login");
  expect(browser.jar.has("__login_state")).toBe(true);
  const page = await loginPage(browser);
  expect(page.step).not.toBeNull();
  return page.step!;
}

describe("wrong memorable-word characters (spec 000 §4 step 2, §8)", () => {
  it("asks again with new positions four times, then the fifth ends in 'Account deactivated' on the login form", async () => {
    const username = await copyOf("demo.memorable", "memorable-texts");
    const browser = await signedOutBrowser();
    let step = await startSignIn(browser, username);
    expect(step.status).toBe("MemorableCharactersRequired");
    expect(step.positions).toHaveLength(3);

    // 'chestnut' has no z: every character is wrong.
    const wrong = { intent: "memorable", char1: "z", char2: "z", char3: "z" };
    for (let attempt = 1; attempt <= 4; attempt++) {
      const answer = await postToLogin(browser, wrong);
      expect(answer.status).toBe(401);
      const data = (await answer.json()) as LoginAnswer;
      expect(data.step?.status).toBe("MemorableCharactersRequired");
      expect(data.step?.positions).toHaveLength(3);
      expect(data.step?.positions).not.toEqual(step.positions);
      expect(data.alert?.kind).toBe("error");
      expect(await text(data.alert!.key!, "auth")).toBe(
        "Incorrect memorable word characters. Please try again with the new positions.",
      );
      // The sign-in carries on at the same step, with the new positions.
      const page = await loginPage(browser);
      expect(page.step).toEqual(data.step);
      step = page.step!;
    }
    expect(userRow(username).failedAttempts).toBe(4);

    const locked = await postToLogin(browser, wrong);
    expect(locked.status).toBe(403);
    const data = (await locked.json()) as LoginAnswer;
    expect(data.step).toBeNull();
    expect(await text(data.alert!.key!, "auth")).toBe("Account deactivated");
    // The login state is reset: the login page shows the login form again.
    expect(browser.jar.has("__login_state")).toBe(false);
    expect((await loginPage(browser)).step).toBeNull();
    expect(userRow(username).disabled).toBe(true);

    // Disabled stays disabled, whatever the password.
    const again = await postToLogin(browser, {
      intent: "login",
      userType: "client",
      username,
      password: DEMO_PASSWORD,
    });
    expect(again.status).toBe(403);
    expect(await text(((await again.json()) as LoginAnswer).alert!.key!, "auth")).toBe("Account has been disabled.");
  });
});

describe("wrong security codes at sign-in (spec 000 §8)", () => {
  it("sends a new code after each of four wrong codes, then the fifth ends in 'Account has been disabled.'", async () => {
    const username = await copyOf("demo.mfa", "mfa-texts");
    const browser = await signedOutBrowser();
    const step = await startSignIn(browser, username);
    expect(step.status).toBe("MfaRequired");
    expect(step.method).toBe("sms");

    for (let attempt = 1; attempt <= 4; attempt++) {
      const sent = await portal.platform.latestCode(username);
      const answer = await postToLogin(browser, {
        intent: "validate-code",
        code: sent === "000000" ? "111111" : "000000",
      });
      expect(answer.status).toBe(401);
      const data = (await answer.json()) as LoginAnswer;
      expect(data.step?.status).toBe("MfaRequired");
      const [message] = data.result?.error?.code ?? [];
      expect(await text(message!, "auth")).toBe(
        "There was an error with the authentication code you entered. A new code has been sent to you. Please try again.",
      );
      // spec 000 §4 step 2: a bad one-time code resets with a new code sent.
      expect(await portal.platform.latestCode(username)).not.toBe(sent);
    }

    const sent = await portal.platform.latestCode(username);
    const locked = await postToLogin(browser, {
      intent: "validate-code",
      code: sent === "000000" ? "111111" : "000000",
    });
    expect(locked.status).toBe(403);
    const data = (await locked.json()) as LoginAnswer;
    expect(data.step).toBeNull();
    expect(data.alert?.kind).toBe("error");
    expect(await text(data.alert!.key!, "auth")).toBe("Account has been disabled.");
    expect(browser.jar.has("__login_state")).toBe(false);
    expect((await loginPage(browser)).step).toBeNull();
    expect(userRow(username).disabled).toBe(true);
  });
});

// ── password recovery ───────────────────────────────────────────────────────────────────────────

// Decision 163 (issue 39 finding 1): this test used to pin that the fifth wrong reset code locks
// the account ('Account has been disabled.'), which let a stranger lock any client out. The fifth
// now pauses the username's password reset, and the owner still signs in.
describe("a paused reset during password recovery (spec 000 §4 'Forgotten password flow', §8)", () => {
  type ResetAnswer = { messageKey?: string; result?: { error?: Record<string, string[] | null> } };

  async function resetPage(browser: Browser) {
    const route = await import("~/routes/login_.help_.reset/route");
    return thrown(route.loader({ request: browser.get("/login/help/reset"), params: {}, context: {} }));
  }

  it("counts four wrong reset codes, then the fifth says the reset is paused and ends it; the owner still signs in", async () => {
    // demo.partner has no security questions: its reset goes on with an emailed code.
    const username = await copyOf("demo.partner", "partner-texts");
    const browser = await signedOutBrowser();
    const help = await import("~/routes/login_.help/route");
    const started = browser.keep(
      await thrown(
        help.action({
          request: await browser.post("/login/help", { intent: "password", userType: "client", username }),
          params: {},
          context: connection(),
        }),
      ),
    );
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe("/login/help/reset");
    expect(browser.jar.has("__reset")).toBe(true);
    const sent = (await portal.platform.outbox(username))[0]?.code;
    expect(sent).toBeTruthy();
    const wrongCode = sent === "12345678" ? "87654321" : "12345678";

    const reset = await import("~/routes/login_.help_.reset/route");
    const postCode = async () =>
      browser.keep(
        await thrown(
          reset.action({
            request: await browser.post("/login/help/reset", {
              userType: "client",
              resetCode: wrongCode,
              newPassword: "Fresh-pass-42",
            }),
            params: {},
            context: connection(),
          }),
        ),
      );

    for (let attempt = 1; attempt <= 4; attempt++) {
      const answer = await postCode();
      expect(answer.status).toBe(400);
      const data = (await answer.json()) as ResetAnswer;
      const [message] = data.result?.error?.resetCode ?? [];
      expect(await text(message!, "recovery")).toBe("Reset code incorrect");
      // spec 000 §4: the code error count rises with each invalid code.
      const page = (await (await resetPage(browser)).json()) as { step: string; codeErrors: number };
      expect(page).toMatchObject({ step: "enterReset", codeErrors: attempt });
    }

    const paused = await postCode();
    expect(paused.status).toBe(429);
    const data = (await paused.json()) as ResetAnswer;
    expect(await text(data.messageKey!, "recovery")).toBe(
      "Too many incorrect reset codes or answers have been entered for this username, so password reset is paused for a while. Please try again later. You can still log in with your password.",
    );
    expect(userRow(username)).toMatchObject({ disabled: false, failedAttempts: 0 });
    // The reset is over: the step page sends the user back to the start.
    expect(browser.jar.has("__reset")).toBe(false);
    const after = await resetPage(browser);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/login/help?expired=true");
    // And the password is unchanged, and the owner signs in with it.
    const signIn = await postToLogin(browser, {
      intent: "login",
      userType: "client",
      username,
      password: DEMO_PASSWORD,
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("Location")).toMatch(/^\/clients\//);
  });
});

// ── signed-in pages whose platform calls fail ─────────────────────────────────────────────────

type Failing = { method?: string; path: RegExp };

/**
 * Makes the platform answer 503 to the calls matching `failing`, alone or inside a batch (the
 * whole batch then fails, as when the platform is down).
 */
function failPlatformCalls(failing: Failing) {
  const realFetch = globalThis.fetch;
  const matches = (method: string, url: string) =>
    (!failing.method || failing.method === method) &&
    failing.path.test(new URL(url, "http://platform/resourceful/").pathname);
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" || input instanceof URL ? input.toString() : input.url;
    const method = (init?.method ?? "GET").toUpperCase();
    let fails = matches(method, url);
    if (!fails && method === "POST" && new URL(url).pathname === "/resourceful" && typeof init?.body === "string") {
      const items = (JSON.parse(init.body) as { batch: Array<{ method?: string; url: string }> }).batch;
      fails = items.some((item) => matches((item.method ?? "GET").toUpperCase(), item.url));
    }
    if (!fails) return realFetch(input, init);
    const message = "The platform could not complete the request";
    return new Response(JSON.stringify({ api_message: message, user_message: message }), {
      status: 503,
      headers: { "Content-Type": "application/json" },
    });
  });
}

describe("the additional verification page's texts (spec 000 §4 step 2, §8)", () => {
  type View = { view: string; loadFailed: boolean; methods: unknown[]; contactAdviser: boolean };

  async function verificationPage(cookie: string) {
    const route = await import("~/routes/clients.additional-verification/route");
    const response = await route.loader({
      request: new Request("http://portal.test/clients/additional-verification", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    return (await response.json()) as View;
  }

  let client: string;
  let username: string;
  beforeAll(async () => {
    // demo.single: MFA by email, so the page is theirs; its copy is then left with no method at all.
    username = await copyOf("demo.single", "single-texts");
    client = await portal.signInWithCode(username);
  });

  it("says there is no available method when the client may use none", async () => {
    portal.platform.db.update(users).set({ mfaMethodsAllowed: "" }).where(eq(users.username, username)).run();
    try {
      const page = await verificationPage(client);
      expect(page).toMatchObject({ view: "none", loadFailed: false, methods: [] });
      expect(await text("verification.errors.noMethods", "security")).toBe(
        "There is no available additional verification method. Please contact your advisor for assistance.",
      );
    } finally {
      portal.platform.db.update(users).set({ mfaMethodsAllowed: "email" }).where(eq(users.username, username)).run();
    }
  });

  it("says there has been a problem loading the details when the platform fails", async () => {
    failPlatformCalls({ path: /^\/resourceful\/session\/mfa(\/methods)?$/ });
    const page = await verificationPage(client);
    expect(page).toMatchObject({ view: "none", loadFailed: true, methods: [] });
    expect(await text("verification.errors.load", "security")).toMatch(
      /^There has been a problem loading your details\./,
    );
    expect(await text("verification.errors.load", "security")).toBe(
      "There has been a problem loading your details. Please try again. If the problem persists please contact support.",
    );
  });
});

describe("the preferences page's failure texts (spec 002 §8)", () => {
  const PAGE = "http://portal.test/clients/preferences";
  const PREFERENCES = /^\/resourceful\/entity\/client-v3\/\d+$/;
  type Page = { loadFailed: boolean; preferences: { email: boolean; post: boolean; sms: boolean } | null };
  let client: string;
  beforeAll(async () => {
    client = await portal.signIn(await copyOf("demo.client", "client-texts"));
  });

  async function preferencesPage() {
    const route = await import("~/routes/clients.preferences/route");
    const response = await route.loader({
      request: new Request(PAGE, { headers: { Cookie: client } }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }

  it("shows the load failure text when the preferences cannot be read", async () => {
    expect((await preferencesPage()).loadFailed).toBe(false);

    failPlatformCalls({ method: "GET", path: PREFERENCES });
    expect(await preferencesPage()).toMatchObject({ loadFailed: true, preferences: null });
    expect(await text("preferences.errors.load", "security")).toBe(
      "There has been a problem loading your preferences. Please try again. If the problem persists please contact support.",
    );
  });

  it("shows the save failure text when the change cannot be saved, keeping the user's choice", async () => {
    const route = await import("~/routes/clients.preferences/route");
    const saved = (await preferencesPage()).preferences!;
    const wanted = { ...saved, email: !saved.email };
    const { token, cookie } = await portal.csrf(client);
    const body = new URLSearchParams({ csrf: token });
    for (const [field, on] of Object.entries(wanted)) if (on) body.set(field, "on");

    failPlatformCalls({ method: "PATCH", path: PREFERENCES });
    const response = await thrown(
      route.action({
        request: new Request(PAGE, {
          method: "POST",
          body,
          headers: { Cookie: `${client}; ${cookie}`, "Content-Type": "application/x-www-form-urlencoded" },
        }),
        params: {},
        context: {},
      }),
    );
    expect(response.status).toBe(503);
    const data = (await response.json()) as { saveFailed: boolean; values: unknown };
    expect(data).toEqual({ saveFailed: true, values: wanted });
    expect(await text("preferences.errors.save", "security")).toBe(
      "There has been a problem saving your changes. Please try again. If the problem persists please contact support.",
    );

    // Nothing was stored.
    vi.unstubAllGlobals();
    expect((await preferencesPage()).preferences).toEqual(saved);
  });
});
