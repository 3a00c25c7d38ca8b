import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed";
import { freshClient, type Portal, signedInPost, startPortal, thrown } from "./portal-harness";

// ASVS V3.3.4 (docs/decisions/170): 'Where you're signed in' against a real platform. The portal
// tells the platform who is asking with every call (X-Client-Address, X-Client-User-Agent), so the
// list shows each browser, its address and its times; the posts end one session or all the others.

type SessionsRoute = typeof import("~/routes/clients.sessions/route");
type RequestIds = typeof import("~/runtime/request-id.server");
let portal: Portal;
let page: SessionsRoute;
let requestIds: RequestIds;

const URL_OF_PAGE = "http://portal.test/clients/sessions";
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.sessions/route");
  requestIds = await import("~/runtime/request-id.server");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

/** A fresh client of its own (a copy of demo.assets) and its portal session cookie. */
const newClient = () => freshClient(portal, "sessions");

/** Another browser of the same user, signed in straight at the platform as the portal would forward it. */
async function otherBrowser(username: string, address: string, userAgent: string) {
  const answer = await portal.platform.call("/auth/login", {
    method: "POST",
    body: { username, password: DEMO_PASSWORD, user_type: "client" },
    headers: { "X-Client-Address": address, "X-Client-User-Agent": userAgent },
  });
  const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("XPLANID="))!;
  return decodeURIComponent(cookie.split(";")[0]!.slice("XPLANID=".length));
}

type Row = {
  id: number;
  browser: { browser: string | null; os: string | null };
  address: string | null;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
};

/** The page's loader as a request from this browser (Chrome on Windows at 203.0.113.40) asks for it. */
async function view(cookie: string) {
  const response = await requestIds.runWithRequestId(
    "sessions-view",
    () =>
      thrown(
        page.loader({
          request: new Request(URL_OF_PAGE, { headers: { Cookie: cookie } }),
          params: {},
          context: {},
        }),
      ),
    "/clients/sessions",
    { socketAddress: "::ffff:203.0.113.40", userAgent: CHROME_WINDOWS },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { loadFailed: boolean; sessions: Row[] };
}

const post = (cookie: string, fields: Record<string, string>) =>
  signedInPost(portal, page.action, URL_OF_PAGE, cookie, fields);

const alive = async (token: string) =>
  (await portal.platform.call("/resourceful/session/user", { token })).status === 200;

describe("where you're signed in", () => {
  it("lists this browser first, with the address and browser the portal forwarded, then the others", async () => {
    const { username, cookie } = await newClient();
    await otherBrowser(username, "198.51.100.7", SAFARI_IPHONE);
    const { loadFailed, sessions } = await view(cookie);
    expect(loadFailed).toBe(false);
    expect(sessions.map(({ browser, address, current }) => ({ browser, address, current }))).toEqual([
      // the dual-stack spelling of an IPv4 client is its IPv4 address
      { browser: { browser: "Chrome", os: "Windows" }, address: "203.0.113.40", current: true },
      { browser: { browser: "Safari", os: "iOS" }, address: "198.51.100.7", current: false },
    ]);
    // 'D MMM YYYY H:mm' and the zone, as the last login is shown (spec 000 §9)
    expect(sessions[1]!.signedInAt).toMatch(/^\d{1,2} \w{3} \d{4} \d{1,2}:\d{2} \S+$/);
  });

  it("signs out one other browser, and says so when it had gone already", async () => {
    const { username, cookie } = await newClient();
    const phone = await otherBrowser(username, "198.51.100.8", SAFARI_IPHONE);
    const { sessions } = await view(cookie);
    const other = sessions.find((s) => !s.current)!;
    const ended = await post(cookie, { end: String(other.id), currentPassword: DEMO_PASSWORD });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe("/clients/sessions");
    expect(ended.headers.get("Set-Cookie")).toMatch(/toast=/);
    expect(await alive(phone)).toBe(false);
    expect((await view(cookie)).sessions).toHaveLength(1);

    const again = await post(cookie, { end: String(other.id), currentPassword: DEMO_PASSWORD });
    expect(again.status).toBe(302);
    expect((await view(cookie)).sessions).toHaveLength(1);
  });

  it("signs out all the other browsers, this one carrying on", async () => {
    const { username, cookie } = await newClient();
    const phone = await otherBrowser(username, "198.51.100.9", SAFARI_IPHONE);
    const tablet = await otherBrowser(username, "198.51.100.10", SAFARI_IPHONE);
    expect((await view(cookie)).sessions).toHaveLength(3);
    const ended = await post(cookie, { intent: "endOthers", currentPassword: DEMO_PASSWORD });
    expect(ended.status).toBe(302);
    expect([await alive(phone), await alive(tablet)]).toEqual([false, false]);
    expect((await view(cookie)).sessions.map((s) => s.current)).toEqual([true]);
  });

  it("asks for the current password first: none or a wrong one ends nothing, and is not echoed (decision 179)", async () => {
    const { username, cookie } = await newClient();
    const phone = await otherBrowser(username, "198.51.100.12", SAFARI_IPHONE);
    const other = (await view(cookie)).sessions.find((s) => !s.current)!;
    type Answer = { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } };
    const missing = await post(cookie, { end: String(other.id), currentPassword: "" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Answer).result.error).toEqual({
      currentPassword: ["security:changePassword.errors.current"],
    });
    const wrong = await post(cookie, { intent: "endOthers", currentPassword: "Not-the-password-3" });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as Answer;
    expect(body.result.error).toEqual({ currentPassword: ["security:changePassword.errors.incorrect"] });
    expect(JSON.stringify(body)).not.toContain("Not-the-password-3");
    expect(await alive(phone)).toBe(true);
  });

  it("cannot end another client's session", async () => {
    const mine = await newClient();
    const theirs = await newClient();
    const theirToken = await otherBrowser(theirs.username, "198.51.100.11", SAFARI_IPHONE);
    const theirId = (await view(theirs.cookie)).sessions.find((s) => !s.current)!.id;
    await post(mine.cookie, { end: String(theirId), currentPassword: DEMO_PASSWORD });
    expect(await alive(theirToken)).toBe(true);
  });

  it("refuses a post without a session id or intent", async () => {
    const { cookie } = await newClient();
    expect((await post(cookie, { end: "x", currentPassword: DEMO_PASSWORD })).status).toBe(400);
    expect((await post(cookie, { intent: "other", currentPassword: DEMO_PASSWORD })).status).toBe(400);
  });

  it("is for clients only: an adviser, with a client in context or not, is denied", async () => {
    const adviser = await portal.signIn("demo.adviser", "adviser");
    const answer = await thrown(
      page.loader({ request: new Request(URL_OF_PAGE, { headers: { Cookie: adviser } }), params: {}, context: {} }),
    );
    expect(answer.status).toBe(403);
    expect((await post(adviser, { intent: "endOthers" })).status).toBe(403);
  });
});
