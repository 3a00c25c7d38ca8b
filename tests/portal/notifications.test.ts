import type { ActionFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { siteSettings } from "../../server/db/schema";
import { openClientInContext, type Portal, startPortal, thrown, callLoader, type LoaderModule } from "./portal-harness";

// The notification and postponement panels (spec 002 §4 "Notification flow", "Postponement panel",
// §6, §7) on the clients home and the documents and messages page, and their posts to
// /notifications, against a real platform: what each page shows to whom, what each button stores
// on the platform (read back through it), the older platform's 400 'invalid field name' fallback,
// and a failed call that leaves the page working.

type ActionModule = { action: (args: ActionFunctionArgs) => Promise<Response>; loader?: () => Response };
type Item = { type: string; redirectUrl: string; inProgress: boolean };
type SpeakToAdviser =
  | { offered: true }
  | {
      offered: false;
      contact: {
        name: string | null;
        phone: { text: string; href: string } | null;
        email: { text: string; href: string } | null;
      } | null;
    };
type Panels = { notifications: Item[]; postponed: Item[]; speakToAdviser: SpeakToAdviser } | null;

const HOME = "/clients/home";
const MESSAGES = "/clients/documents-and-messages";

let portal: Portal;
let home: LoaderModule;
let messages: LoaderModule;
let route: ActionModule;
let adviserWithClient: string;

async function panels(path: string, cookie: string): Promise<Panels> {
  const module = path.startsWith(MESSAGES) ? messages : home;
  const response = await callLoader(module, path, cookie);
  expect(response.status).toBe(200);
  return ((await response.json()) as { notificationPanels: Panels }).notificationPanels;
}
const types = (items: Item[] | undefined) => (items ?? []).map((item) => item.type);

/** A post to /notifications as the panels' forms make it; answers the redirect and the browser's cookies after it. */
async function post(cookie: string, fields: Record<string, string>, options: { csrf?: boolean } = {}) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const body = new URLSearchParams({ ...(options.csrf === false ? {} : { csrf: token }), returnTo: HOME, ...fields });
  const response = await thrown(
    route.action({
      request: new Request("http://portal.test/notifications", {
        method: "POST",
        body,
        headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
      }),
      params: {},
      context: {},
    }),
  );
  const set = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const marks = set.find((c) => c.startsWith("__notifications="));
  // the browser replaces its marks cookie
  const kept = cookie
    .split("; ")
    .filter((c) => !c.startsWith("__notifications="))
    .join("; ");
  return {
    response,
    location: response.headers.get("Location"),
    cookie: marks ? `${kept}; ${marks}` : cookie,
    toastCookie: set.find((c) => c.startsWith("__toast=")) ?? null,
  };
}

async function toastOf(toastCookie: string | null) {
  const { readToast } = await import("~/session/toast.server");
  return (await readToast(new Request("http://portal.test/", { headers: { Cookie: toastCookie ?? "" } }))).toast;
}

/** A fresh copy of a demo login (its notification fields copied), signed in to the portal. */
async function copyOf(
  template: string,
  name: string,
  options: { adviser?: string } = {},
): Promise<{ cookie: string; token: string; entityId: number }> {
  const copied = await portal.platform.call(`/dev/users/${template}/copy`, {
    method: "POST",
    body: { username: name, review: true, ...options },
  });
  expect(copied.status).toBe(201);
  const token = await portal.platform.session(name);
  const user = (await portal.platform.call<{ entity_id: number }>("/resourceful/session/user", { token })).body;
  return { cookie: await portal.signIn(name), token, entityId: user.entity_id };
}

/** The statuses as the platform stores them. */
async function statuses(who: { token: string; entityId: number }) {
  const answer = await portal.platform.call<Record<string, unknown>>(`/resourceful/entity/client-v4/${who.entityId}`, {
    token: who.token,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

function setUnsupportedFields(value: string) {
  portal.platform.db
    .insert(siteSettings)
    .values({ key: "notificationFieldsUnsupported", valueJson: JSON.stringify(value) })
    .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson: JSON.stringify(value) } })
    .run();
}

beforeAll(async () => {
  portal = await startPortal();
  home = (await import("~/routes/clients.home/route")) as unknown as LoaderModule;
  messages = (await import("~/routes/clients.documents-and-messages/route")) as unknown as LoaderModule;
  route = (await import("~/routes/notifications/route")) as unknown as ActionModule;
  adviserWithClient = await openClientInContext(
    portal,
    await portal.signIn("demo.adviser", "adviser"),
    "Hartley",
    "Hartley, Eleanor",
  );
}, 60_000);
afterAll(() => portal?.close());
afterEach(() => {
  vi.unstubAllGlobals();
  portal.platform.db.delete(siteSettings).where(eq(siteSettings.key, "notificationFieldsUnsupported")).run();
});

describe("/notifications from the address bar", () => {
  it("goes home, as the other addresses that only take a form do (no 400 answer in JSON)", () => {
    const response = route.loader?.();
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe("/");
  });
});

describe("the panels (spec 002 §4 Notification flow)", () => {
  it("shows demo.client the review on the home and on the messages page, and no postponement notice", async () => {
    const client = await portal.signIn("demo.client");
    for (const path of [HOME, MESSAGES]) {
      const shown = await panels(path, client);
      expect(shown?.notifications).toEqual([{ type: "review", redirectUrl: "/core/review", inProgress: false }]);
      expect(shown?.postponed).toEqual([]);
    }
  });

  it("shows demo.factfind the fact find and the automated personal advice", async () => {
    const factfind = await portal.signIn("demo.factfind");
    for (const path of [HOME, MESSAGES]) {
      expect((await panels(path, factfind))?.notifications).toEqual([
        { type: "factFind", redirectUrl: "/core/factfind", inProgress: false },
        { type: "automatedPersonalAdvice", redirectUrl: "/core/apa", inProgress: false },
      ]);
    }
  });

  it("shows demo.robo the retirement health check in progress (the continue texts)", async () => {
    const robo = await portal.signIn("demo.robo");
    expect((await panels(HOME, robo))?.notifications).toEqual([
      { type: "roboAdvice", redirectUrl: "/core/robo", inProgress: true },
    ]);
  });

  it("offers 'Speak to adviser' to a client with an adviser only; one without is told whom to contact instead (issue 25 item 12)", async () => {
    expect((await panels(HOME, await portal.signIn("demo.client")))?.speakToAdviser).toEqual({ offered: true });
    const clientServices = {
      name: "Client Services",
      phone: { text: "020 7946 0800", href: "tel:02079460800" },
      email: {
        text: "clientservices@northbridgewealth.example",
        href: "mailto:clientservices@northbridgewealth.example",
      },
    };
    for (const username of ["demo.factfind", "demo.robo"]) {
      const cookie = await portal.signIn(username);
      for (const path of [HOME, MESSAGES])
        expect((await panels(path, cookie))?.speakToAdviser).toEqual({ offered: false, contact: clientServices });
    }
  });

  it("shows an adviser with a client in context no panels, and refuses their posts", async () => {
    expect(await panels(HOME, adviserWithClient)).toBeNull();
    expect(await panels(MESSAGES, adviserWithClient)).toBeNull();
    const { response } = await post(adviserWithClient, { intent: "close", type: "review" });
    expect(response.status).toBe(403);
  });
});

describe("the posts (spec 002 §4 Notification flow, Postponement panel)", () => {
  it("Close dismisses a fact find for this session (its status stays) and then offers it as a postponement notice", async () => {
    const who = await copyOf("demo.factfind", "notif-close-factfind");
    const closed = await post(who.cookie, { intent: "close", type: "factFind", returnTo: MESSAGES });
    expect(closed.response.status).toBe(302);
    expect(closed.location).toBe(MESSAGES);
    const after = await panels(MESSAGES, closed.cookie);
    expect(types(after?.notifications)).toEqual(["automatedPersonalAdvice"]);
    expect(types(after?.postponed)).toEqual(["factFind"]);
    expect((await statuses(who)).fact_find_status).toBe("1");
    // without the session's cookie (a new browser session) it shows again
    expect(types((await panels(MESSAGES, who.cookie))?.notifications)).toEqual(["factFind", "automatedPersonalAdvice"]);

    // the postponement notice's button marks it updated and goes to its link
    const continued = await post(closed.cookie, { intent: "continue", type: "factFind" });
    expect(continued.location).toBe("/core/factfind");
    expect((await panels(MESSAGES, continued.cookie))?.postponed).toEqual([]);
  });

  it("reads back only its own, signed marks: another user's or a forged cookie counts as none", async () => {
    const who = await copyOf("demo.factfind", "notif-marks-owner");
    const closed = await post(who.cookie, { intent: "close", type: "factFind" });
    const marks = closed.cookie.split("; ").find((c) => c.startsWith("__notifications="))!;
    const other = await copyOf("demo.factfind", "notif-marks-other");
    expect(types((await panels(HOME, `${other.cookie}; ${marks}`))?.notifications)).toEqual([
      "factFind",
      "automatedPersonalAdvice",
    ]);
    const forged = `__notifications=${encodeURIComponent(btoa(JSON.stringify({ user: 1, dismissed: ["factFind"], closed: [], updated: [] })))}`;
    expect(types((await panels(HOME, `${who.cookie}; ${forged}`))?.notifications)).toEqual([
      "factFind",
      "automatedPersonalAdvice",
    ]);
  });

  it("Close on a robo journey also declines it on the platform", async () => {
    const who = await copyOf("demo.factfind", "notif-close-apa");
    const closed = await post(who.cookie, { intent: "close", type: "automatedPersonalAdvice" });
    expect(closed.location).toBe(HOME);
    expect((await statuses(who)).robo_journey_status).toBe("declined");
    expect(types((await panels(HOME, who.cookie))?.notifications)).toEqual(["factFind"]);
  });

  it("the primary button dismisses the review and goes to its page; the review stays in progress", async () => {
    const who = await copyOf("demo.client", "notif-open-review");
    const opened = await post(who.cookie, { intent: "open", type: "review" });
    expect(opened.location).toBe("/core/review");
    expect((await statuses(who)).xpt_review_status).toBe("In Progress");
    const after = await panels(HOME, opened.cookie);
    expect(after?.notifications).toEqual([]);
    expect(types(after?.postponed)).toEqual(["review"]);
  });

  it("the primary button on a robo journey sets its status to none", async () => {
    const who = await copyOf("demo.robo", "notif-open-robo");
    const opened = await post(who.cookie, { intent: "open", type: "roboAdvice" });
    expect(opened.location).toBe("/core/robo");
    expect((await statuses(who)).robo_journey_status).toBe("none");
  });

  it("'Speak to adviser' sets the review to Follow Up Required and confirms; the notification is gone", async () => {
    const who = await copyOf("demo.client", "notif-speak-review", { adviser: "demo.adviser2" });
    const spoken = await post(who.cookie, { intent: "speak", type: "review" });
    expect(spoken.location).toBe(HOME);
    expect(await toastOf(spoken.toastCookie)).toMatchObject({
      type: "success",
      title: "notifications:speak.confirmation",
    });
    expect((await statuses(who)).xpt_review_status).toBe("Follow Up Required");
    // gone for good: also without this session's marks
    const after = await panels(HOME, who.cookie);
    expect(after?.notifications).toEqual([]);
    expect(after?.postponed).toEqual([]);
  });

  it("'Speak to adviser' from a client without an adviser changes nothing: no one would call (issue 25 item 12)", async () => {
    const who = await copyOf("demo.factfind", "notif-speak-no-adviser");
    const before = await statuses(who);
    const spoken = await post(who.cookie, { intent: "speak", type: "factFind" });
    expect(spoken.location).toBe(HOME);
    expect(spoken.toastCookie).toBeNull();
    expect(await statuses(who)).toEqual(before);
    expect((await panels(HOME, who.cookie))?.notifications.map((n) => n.type)).toContain("factFind");
  });

  it("'Speak to adviser' sets a fact find to '0' and a robo journey to follow_up_requested", async () => {
    // an adviser for the copy (demo.factfind has none), who can then be asked to call
    const who = await copyOf("demo.factfind", "notif-speak-factfind", { adviser: "demo.adviser2" });
    await post(who.cookie, { intent: "speak", type: "factFind" });
    await post(who.cookie, { intent: "speak", type: "automatedPersonalAdvice" });
    const stored = await statuses(who);
    expect(stored.fact_find_status).toBe("0");
    expect(stored.robo_journey_status).toBe("follow_up_requested");
    expect((await panels(HOME, who.cookie))?.notifications).toEqual([]);
  });

  it("returns only to a local path, refuses an unknown item or intent, and a post without its form token", async () => {
    const who = await copyOf("demo.factfind", "notif-refusals");
    for (const returnTo of ["https://elsewhere.example/", "//elsewhere.example/x", "javascript:alert(1)"]) {
      expect((await post(who.cookie, { intent: "close", type: "factFind", returnTo })).location).toBe(HOME);
    }
    expect((await post(who.cookie, { intent: "close", type: "consent" })).response.status).toBe(400);
    expect((await post(who.cookie, { intent: "delete", type: "factFind" })).response.status).toBe(400);
    expect((await post(who.cookie, { intent: "close", type: "factFind" }, { csrf: false })).response.status).toBe(403);
  });

  it("a platform failure on a post shows the failure text and changes nothing", async () => {
    const who = await copyOf("demo.client", "notif-failure", { adviser: "demo.adviser2" });
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === "string" || input instanceof URL ? input.toString() : input.url;
      if (url.includes("/resourceful/entity/client-v4/") && init?.method === "PATCH") {
        return new Response(JSON.stringify({ api_message: "The platform is busy" }), {
          status: 500,
          headers: { "Content-Type": "application/json" },
        });
      }
      return realFetch(input, init);
    });
    const spoken = await post(who.cookie, { intent: "speak", type: "review" });
    vi.unstubAllGlobals();
    expect(spoken.location).toBe(HOME);
    expect(spoken.cookie).toBe(who.cookie);
    const toast = await toastOf(spoken.toastCookie);
    expect(toast).toMatchObject({ type: "error", title: "common:errors.generic.title" });
    expect(toast?.description).toBe(
      "The platform is busy. Please try again. If the problem persists, contact your Financial Adviser.",
    );
    expect((await statuses(who)).xpt_review_status).toBe("In Progress");
  });
});

describe("failing soft (spec 002 §7)", () => {
  it("an older platform's 400 'invalid field name' falls back to the default config (no review, no robo journey)", async () => {
    setUnsupportedFields("xpt_review_status,robo_journey_type,robo_journey_status");
    expect((await panels(HOME, await portal.signIn("demo.client")))?.notifications).toEqual([]);
    expect(types((await panels(HOME, await portal.signIn("demo.factfind")))?.notifications)).toEqual(["factFind"]);
  });

  it("a failed notification call leaves the page working, without panels", async () => {
    const client = await portal.signIn("demo.client");
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === "string" || input instanceof URL ? input.toString() : input.url;
      if (url.includes("/resourceful/entity/client-v4/")) return new Response("{}", { status: 503 });
      // the home sends its reads as one batch (docs/decisions/196): the call fails as an item of it
      const batch = url.endsWith("/resourceful") && typeof init?.body === "string" ? JSON.parse(init.body) : null;
      if (!batch?.batch) return realFetch(input, init);
      const failing = new Set(
        (batch.batch as Array<{ name: string; url: string }>)
          .filter((item) => item.url.startsWith("entity/client-v4/"))
          .map((item) => item.name),
      );
      const answer = await realFetch(input, init);
      const items = (await answer.json()) as Array<{ name: string; code: number; body: string }>;
      return Response.json(items.map((item) => (failing.has(item.name) ? { ...item, code: 503, body: "{}" } : item)));
    });
    const response = await callLoader(home, HOME, client);
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      notificationPanels: Panels;
      portfolio: { state: string } | null;
      firstName: string;
    };
    expect(page.notificationPanels).toBeNull();
    expect(page.portfolio?.state).toBe("ok");
    const list = await callLoader(messages, MESSAGES, client);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { notificationPanels: Panels }).notificationPanels).toBeNull();
  });
});
