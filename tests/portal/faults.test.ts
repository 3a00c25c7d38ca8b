import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, type TestContext, vi } from "vitest";
import type { Failure } from "~/lib/error-catalogue";
import { type Portal, startPortal, thrown } from "./portal-harness";

// Issue 16 "Faults": the portal when the planning platform misbehaves (spec 000 §7 retries, §8 the
// error catalogue; docs/decisions/003). Each case sends one page load or one form post through
// the portal's own loader or action against the real platform, except for the one call under
// test, which a fetch stub sends to a fake upstream that misbehaves on purpose: it answers too
// late, is not listening, answers 500 with a stack trace, answers 200 with broken JSON, or cuts
// the connection off mid-body. The stub counts the attempts: page data is tried up to 3 times
// (500 ms × attempt apart, none on 404); a post that is not idempotent exactly once.
// A fault belongs to one platform session (or, for the sign-in, one username), so the cases run
// side by side: the retries' waits overlap instead of adding up.

// The portal reads its environment once, when its modules are first imported (startPortal).
// long enough that a fake upstream's quick fault is not taken for a timeout on a busy machine
const TIMEOUT_MS = 1_000;
process.env.PLANNING_TIMEOUT_MS = String(TIMEOUT_MS);

type Behaviour = "slow" | "refused" | "500" | "malformed" | "drop" | "404" | "broken-item";
const BEHAVIOURS = ["slow", "refused", "500", "malformed", "drop"] as const satisfies readonly Behaviour[];

/** What the platform's call is, for the stub: its method and path, alone or as an item of a batch. */
type Target = { method: string; path: RegExp };
/** `who`: the platform session (XPLANID) or, for the sign-in, the username whose call misbehaves. */
type Fault = Target & { who: string; behaviour: Behaviour; times: number; attempts: number };

let portal: Portal;
let upstream: Server;
let upstreamOrigin: string;
let refusedOrigin: string;
const faults = new Set<Fault>();
let address = 0;

/** A 500 page as a crashed upstream writes it: a stack trace, which must never reach the user. */
const CRASH_PAGE = `<html><body><h1>500 Internal Server Error</h1><pre>TypeError: Cannot read properties of undefined (reading 'id')
    at handler (/srv/platform/api/entity.js:144:21)
    at Layer.handle (/srv/platform/node_modules/router/lib/layer.js:95:5)</pre></body></html>`;

/** The fake upstream: the first path segment says how it misbehaves. */
function startUpstream(): Promise<Server> {
  const server = createServer(async (request, response) => {
    const behaviour = request.url!.split("/")[1] as Behaviour;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    switch (behaviour) {
      case "slow":
        // never answers: only the portal's timeout ends the call
        return;
      case "500":
        response.writeHead(500, { "Content-Type": "text/html" });
        response.end(CRASH_PAGE);
        return;
      case "404":
        response.writeHead(404, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ api_message: "Record not found", user_message: "Record not found" }));
        return;
      case "malformed":
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end('{"id": 1, "subject": "unterminated');
        return;
      case "drop":
        // the status and a part of the body, then the connection goes
        response.writeHead(200, { "Content-Type": "application/json", "Content-Length": "4096" });
        response.write('[{"name":"details","code":200,"body":"{\\"first_name\\":', () => response.socket?.destroy());
        return;
      case "broken-item": {
        // a batch that answers every item, the first one's body being broken JSON
        const items = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { batch: Array<{ name: string }> }).batch;
        const answers = items.map((item, i) => ({
          name: item.name,
          code: 200,
          body: i === 0 ? '{"first_name": "Elea' : "[]",
        }));
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify(answers));
        return;
      }
      default:
        response.writeHead(418).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** An address where nothing listens: a server is started and stopped to free its port. */
async function closedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Whose call it is: the platform session it carries, or the username a sign-in sends. */
function whoCalls(init: RequestInit | undefined): string | null {
  const token = /XPLANID=([^;]+)/.exec(new Headers(init?.headers).get("Cookie") ?? "")?.[1];
  if (token) return token;
  if (typeof init?.body !== "string") return null;
  const username = (JSON.parse(init.body) as { username?: unknown }).username;
  return typeof username === "string" ? username : null;
}

function targets(target: Target, method: string, url: URL, body: unknown): boolean {
  const matches = (m: string, path: string) => target.method === m && target.path.test(path);
  if (matches(method, url.pathname)) return true;
  // a batch (POST /resourceful) carrying the call
  if (
    method === "POST" &&
    url.pathname === "/resourceful" &&
    typeof body === "string" &&
    !target.path.test("/resourceful")
  ) {
    const items = (JSON.parse(body) as { batch?: Array<{ method?: string; url: string }> }).batch ?? [];
    return items.some((item) =>
      matches((item.method ?? "GET").toUpperCase(), new URL(item.url, "http://platform/resourceful/").pathname),
    );
  }
  return false;
}

/**
 * `who`'s targeted call misbehaves (the first `times` attempts; every attempt by default) until the
 * test ends.
 */
function misbehave(test: TestContext, who: string, target: Target, behaviour: Behaviour, times = Infinity): Fault {
  const fault: Fault = { ...target, who, behaviour, times, attempts: 0 };
  faults.add(fault);
  // the case's own hook: the cases run side by side
  test.onTestFinished(() => {
    faults.delete(fault);
  });
  return fault;
}

/** A signed-in demo.client of its own (a portal cookie and its platform session), for one case. */
async function signedInClient(): Promise<{ cookie: string; token: string }> {
  const { sessionStorage } = await import("~/session/session.server");
  const cookie = await portal.signIn("demo.client");
  const token = (await sessionStorage.getSession(cookie)).get("token");
  if (!token) throw new Error("no platform session in the cookie");
  return { cookie, token };
}

beforeAll(async () => {
  [upstream, refusedOrigin] = await Promise.all([startUpstream(), closedOrigin()]);
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    const method = (init?.method ?? "GET").toUpperCase();
    const who = whoCalls(init);
    const fault = [...faults].find((f) => f.who === who && targets(f, method, url, init?.body));
    if (fault) {
      fault.attempts++;
      if (fault.attempts <= fault.times) {
        const origin = fault.behaviour === "refused" ? refusedOrigin : upstreamOrigin;
        return realFetch(`${origin}/${fault.behaviour}${url.pathname}${url.search}`, init);
      }
    }
    // The healthy platform answers without the portal's short timeout, so a busy machine cannot
    // turn one of its answers into a fault.
    return realFetch(input, { ...init, signal: undefined });
  });
  portal = await startPortal();
  // imported once here, so no case's timing includes a first import
  await Promise.all([
    import("~/routes/clients.preferences/route"),
    import("~/routes/clients.personal-details/route"),
    import("~/routes/login/route"),
    import("~/routes/clients.documents-and-messages/route"),
    import("~/session/toast.server"),
  ]);
}, 60_000);

afterAll(async () => {
  vi.unstubAllGlobals();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  await portal?.close();
});

/** Nothing of a stack trace or of a raw error reaches the browser. */
async function expectNothingRaw(response: Response) {
  const text = await response.clone().text();
  for (const raw of [
    /Error\b/,
    /\bat \S+ \(/,
    /\n\s+at /,
    /\/srv\//,
    /ECONN|EPIPE|UND_ERR/,
    /Unexpected (token|end)/,
    /fetch failed/,
    /terminated/,
    /aborted/i,
    /JSON/,
    /Internal Server Error/i,
  ]) {
    expect(text, `answer leaks ${raw}`).not.toMatch(raw);
  }
}

const network: Failure = { kind: "network", status: 503, detail: null };
const generic = (status: number): Failure => ({ kind: "generic", status, detail: null });

/** What the user is told for each behaviour of a call that reads JSON through the planning client. */
const FAILURE_OF: Record<(typeof BEHAVIOURS)[number], Failure> = {
  slow: network,
  refused: network,
  500: generic(500),
  // the answer broke the contract: a bad answer from the platform (docs/decisions/003)
  malformed: generic(502),
  // the answer was cut off: the platform did not answer
  drop: network,
};

/** Page data is retried (spec 000 §7) when the platform did not answer or failed itself. */
const PAGE_ATTEMPTS: Record<(typeof BEHAVIOURS)[number], number> = {
  slow: 3,
  refused: 3,
  500: 3,
  malformed: 1,
  drop: 3,
};

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

function expectRetryTiming(attempts: number, ms: number) {
  // 500 ms × attempt between attempts: 500 + 1000 before the third
  if (attempts === 3) expect(ms).toBeGreaterThanOrEqual(1_450);
  // bounded by the attempts' timeouts and waits (with room for a busy machine): never a hang
  expect(ms).toBeLessThan(3 * TIMEOUT_MS + 1_500 + 6_000);
}

// ── page loads ───────────────────────────────────────────────────────────────────────────────────

describe.concurrent("a page load of one GET: the preferences page (GET resourceful/entity/client-v3/{id})", () => {
  const PREFERENCES: Target = { method: "GET", path: /^\/resourceful\/entity\/client-v3\/\d+$/ };

  async function preferencesPage(cookie: string) {
    const route = await import("~/routes/clients.preferences/route");
    const request = new Request("http://portal.test/clients/preferences", { headers: { Cookie: cookie } });
    return thrown(route.loader({ request, params: {}, context: {} }));
  }

  it.for(BEHAVIOURS)(
    "platform %s: the page's own load failure, after the attempts the spec allows",
    async (behaviour, test) => {
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, PREFERENCES, behaviour);
      const { value: page, ms } = await timed(preferencesPage(cookie));
      expect(page.status).toBe(200);
      expect(await page.clone().json()).toMatchObject({ loadFailed: true, preferences: null });
      await expectNothingRaw(page);
      expect(called.attempts).toBe(PAGE_ATTEMPTS[behaviour]);
      expectRetryTiming(called.attempts, ms);
    },
  );

  it("platform 404: the load failure at once, never retried", async (test) => {
    const { cookie, token } = await signedInClient();
    const called = misbehave(test, token, PREFERENCES, "404");
    const page = await preferencesPage(cookie);
    expect(await page.json()).toMatchObject({ loadFailed: true, preferences: null });
    expect(called.attempts).toBe(1);
  });

  it("platform 500 once: the second attempt shows the page", async (test) => {
    const { cookie, token } = await signedInClient();
    const called = misbehave(test, token, PREFERENCES, "500", 1);
    const page = await preferencesPage(cookie);
    expect(await page.json()).toMatchObject({ loadFailed: false, preferences: { email: expect.any(Boolean) } });
    expect(called.attempts).toBe(2);
  });
});

describe.concurrent(
  "a page load of one batch of GETs: personal details (POST resourceful, items GET entity/client-v3/{id}…)",
  () => {
    const DETAILS: Target = { method: "GET", path: /^\/resourceful\/entity\/client-v3\/\d+$/ };

    async function personalDetails(cookie: string) {
      const route = await import("~/routes/clients.personal-details/route");
      const request = new Request("http://portal.test/clients/personal-details", { headers: { Cookie: cookie } });
      return thrown(route.loader({ request, params: {}, context: {} }));
    }

    it.for(BEHAVIOURS)(
      "platform %s: the catalogue failure, after the attempts the spec allows",
      async (behaviour, test) => {
        const { cookie, token } = await signedInClient();
        const called = misbehave(test, token, DETAILS, behaviour);
        const { value: page, ms } = await timed(personalDetails(cookie));
        const failure = FAILURE_OF[behaviour];
        expect(page.status).toBe(failure.status);
        expect(await page.clone().json()).toEqual({ failure });
        await expectNothingRaw(page);
        expect(called.attempts).toBe(PAGE_ATTEMPTS[behaviour]);
        expectRetryTiming(called.attempts, ms);
      },
    );

    it("platform 404: Page Not Found at once, never retried", async (test) => {
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, DETAILS, "404");
      const page = await personalDetails(cookie);
      expect(page.status).toBe(404);
      expect(((await page.json()) as { failure: Failure }).failure.kind).toBe("not-found");
      expect(called.attempts).toBe(1);
    });

    it("a batch whose item carries broken JSON: a bad answer (502), not a crash, not retried", async (test) => {
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, DETAILS, "broken-item");
      const page = await personalDetails(cookie);
      expect(page.status).toBe(502);
      expect(await page.clone().json()).toEqual({ failure: generic(502) });
      await expectNothingRaw(page);
      expect(called.attempts).toBe(1);
    });

    it("platform 500 once: the second attempt shows the page", async (test) => {
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, DETAILS, "500", 1);
      const page = await personalDetails(cookie);
      expect(page.status).toBe(200);
      expect(await page.json()).toMatchObject({ personal: expect.any(Array) });
      expect(called.attempts).toBe(2);
    });
  },
);

// ── form posts ───────────────────────────────────────────────────────────────────────────────────

describe.concurrent("the sign-in post (POST auth/login, never retried)", () => {
  const LOGIN: Target = { method: "POST", path: /^\/auth\/login$/ };
  const PASSWORD = "Typed-secret-9";

  /** A reply of the sign-in that cut off mid-body is a broken answer (the sign-in reads its own body). */
  const SIGN_IN_FAILURE: Record<(typeof BEHAVIOURS)[number], Failure> = { ...FAILURE_OF, drop: generic(502) };

  it.for(BEHAVIOURS)(
    "platform %s: the catalogue failure above the form, the username kept, the password not",
    async (behaviour, test) => {
      const route = await import("~/routes/login/route");
      const username = `fault.${behaviour}`;
      const { body, cookie } = await portal.anonymousForm({
        intent: "login",
        userType: "client",
        username,
        password: PASSWORD,
      });
      const request = new Request("http://portal.test/login", {
        method: "POST",
        body,
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      });
      const called = misbehave(test, username, LOGIN, behaviour);
      const answer = await thrown(
        route.action({ request, params: {}, context: { socketAddress: `203.0.113.${++address}` } }),
      );
      const failure = SIGN_IN_FAILURE[behaviour];
      expect(answer.status).toBe(failure.status);
      const data = (await answer.clone().json()) as {
        failure?: Failure;
        step: unknown;
        result: { initialValue?: Record<string, unknown> };
      };
      expect(data.failure).toEqual(failure);
      expect(data.step).toBeNull();
      expect(data.result.initialValue).toMatchObject({ username });
      expect(data.result.initialValue).not.toHaveProperty("password");
      expect(await answer.clone().text()).not.toContain(PASSWORD);
      // no session was started
      expect(answer.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
      await expectNothingRaw(answer);
      expect(called.attempts).toBe(1);
    },
  );
});

describe.concurrent("the compose post with an attachment (POST resourceful/docnote-v2, never retried)", () => {
  const CREATE: Target = { method: "POST", path: /^\/resourceful\/docnote-v2$/ };
  const UPLOAD: Target = { method: "POST", path: /^\/resourceful\/docnote-v2\/\d+\/attachment-v3$/ };
  type ComposeAnswer = {
    messageKey?: string;
    postedFiles: Array<{ name: string; problem: string | null }>;
    result: { initialValue?: Record<string, unknown> };
  };

  async function send(client: string, subject: string, text: string) {
    const route = await import("~/routes/clients.documents-and-messages/route");
    const { token, cookie } = await portal.csrf(client);
    const body = new FormData();
    body.append("csrf", token);
    body.append("subject", subject);
    body.append("body", text);
    body.append("attachments", new File(["%PDF-1.4 statement"], "statement.pdf", { type: "application/pdf" }));
    const request = new Request("http://portal.test/clients/documents-and-messages?compose=true", {
      method: "POST",
      body,
      headers: { Cookie: `${client}; ${cookie}` },
    });
    return thrown(route.action({ request, params: {}, context: {} }));
  }

  it.for(BEHAVIOURS)(
    "platform %s: the send failure on the form, with the subject, the message and the file named",
    async (behaviour, test) => {
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, CREATE, behaviour);
      const subject = `Fault ${behaviour}`;
      const text = "Dear Anna,\n\nPlease keep what I typed.";
      const answer = await send(cookie, subject, text);
      expect(answer.status).toBe(FAILURE_OF[behaviour].status);
      const data = (await answer.clone().json()) as ComposeAnswer;
      expect(data.messageKey).toBe("compose:errors.sendFailed");
      // a multipart body carries line breaks as CRLF, as a browser sends them
      expect(data.result.initialValue).toMatchObject({ subject, body: text.replace(/\n/g, "\r\n") });
      expect(data.postedFiles).toEqual([{ name: "statement.pdf", problem: null }]);
      await expectNothingRaw(answer);
      expect(called.attempts).toBe(1);
    },
  );

  it.for(["refused", "500"] as const)(
    "an upload that meets platform %s: sent, with the attachments message, the upload tried once",
    async (behaviour, test) => {
      const toasts = await import("~/session/toast.server");
      const { cookie, token } = await signedInClient();
      const called = misbehave(test, token, UPLOAD, behaviour);
      const answer = await send(cookie, `Upload ${behaviour}`, "See attached");
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/clients/documents-and-messages?folder=sent");
      const toast = answer.headers
        .getSetCookie()
        .find((c) => c.startsWith("__toast="))!
        .split(";")[0]!;
      expect(
        (await toasts.readToast(new Request("http://portal.test/", { headers: { Cookie: toast } }))).toast,
      ).toMatchObject({
        type: "error",
        title: "compose:toast.attachmentsFailed",
      });
      expect(called.attempts).toBe(1);
    },
  );
});

describe.concurrent("the preferences post (PATCH resourceful/entity/client-v3/{id}, never retried)", () => {
  const SAVE: Target = { method: "PATCH", path: /^\/resourceful\/entity\/client-v3\/\d+$/ };
  const chosen = { email: true, post: false, sms: true };

  it.for(BEHAVIOURS)(
    "platform %s: the save failure, with the boxes as the user ticked them",
    async (behaviour, test) => {
      const route = await import("~/routes/clients.preferences/route");
      const client = await signedInClient();
      const { token, cookie } = await portal.csrf(client.cookie);
      const body = new URLSearchParams({ csrf: token, email: "on", sms: "on" });
      const request = new Request("http://portal.test/clients/preferences", {
        method: "POST",
        body,
        headers: { Cookie: `${client.cookie}; ${cookie}`, "Content-Type": "application/x-www-form-urlencoded" },
      });
      const called = misbehave(test, client.token, SAVE, behaviour);
      const answer = await thrown(route.action({ request, params: {}, context: {} }));
      expect(answer.status).toBe(FAILURE_OF[behaviour].status);
      expect(await answer.clone().json()).toEqual({ saveFailed: true, values: chosen });
      await expectNothingRaw(answer);
      expect(called.attempts).toBe(1);
    },
  );
});

describe("what the user reads (spec 000 §8, en-GB)", () => {
  it("the catalogue's texts for no answer and for a failed one; the pages' own failure texts", async () => {
    const { getFixedT } = await import("~/session/i18next.server");
    const request = new Request("http://portal.test/", { headers: { "Accept-Language": "en-GB" } });
    const [common, compose, security] = await Promise.all([
      getFixedT(request, "common"),
      getFixedT(request, "compose"),
      getFixedT(request, "security"),
    ]);
    expect(common("errors.network.title")).toBe("Network unavailable");
    expect(common("errors.network.text")).toBe("Please check you are connected to the internet and try again.");
    expect(common("errors.generic.title")).toBe("An error has occurred");
    expect(common("errors.generic.text")).toBe(
      "Please try again. If the problem persists, contact your Financial Adviser.",
    );
    expect(compose("errors.sendFailed")).toBe(
      "There was a problem sending your message. Please contact us for assistance.",
    );
    expect(security("preferences.errors.load")).toMatch(/^There has been a problem loading your preferences\./);
    expect(security("preferences.errors.save")).toMatch(/^There has been a problem saving your changes\./);
  });
});
