import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { forgetKeptAnswers } from "~/planning/kept-answers.server";
import { type Portal, startPortal, thrown, callLoader } from "./portal-harness";

// spec 000 §1: "If the toggle call fails, the toggle list becomes empty (all off)." The pages that
// read the toggles, against a real platform whose toggle call is made to fail: alone, and as an
// item of a batch (docs/decisions/025-feature-toggles-all-off-on-failure.md).

let portal: Portal;
let client: string;

const TOGGLES_PATH = "/resourceful/feature_toggle/toggle_condition";
type Failure = { status: number; api_message: string };
const SERVER_ERROR: Failure = { status: 503, api_message: "The platform could not complete the request" };
const LOST_SESSION: Failure = { status: 401, api_message: "This feature is not available without a valid session" };

/** Makes the platform's toggle call answer `failure`, whether called alone or inside a batch. */
function failToggles(failure: Failure) {
  // the toggles of the call before are kept for a minute (decision 158): forgotten, so that the next page asks
  forgetKeptAnswers();
  const realFetch = globalThis.fetch;
  const body = { api_message: failure.api_message, user_message: failure.api_message };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    const method = init?.method ?? "GET";
    if (url.pathname === TOGGLES_PATH) {
      return new Response(JSON.stringify(body), {
        status: failure.status,
        headers: { "Content-Type": "application/json" },
      });
    }
    if (method === "POST" && url.pathname === "/resourceful" && typeof init?.body === "string") {
      const items = (JSON.parse(init.body) as { batch: Array<{ name: string; url: string }> }).batch;
      const failing = new Set(
        items
          .filter((i) => new URL(i.url, "http://platform/resourceful/").pathname === TOGGLES_PATH)
          .map((i) => i.name),
      );
      const response = await realFetch(input, init);
      if (!failing.size || !response.ok) return response;
      const answers = (await response.json()) as Array<{ name: string; code: number; msg: string; body: string }>;
      const rewritten = answers.map((a) =>
        failing.has(a.name) ? { ...a, code: failure.status, msg: "Failed", body: JSON.stringify(body) } : a,
      );
      return new Response(JSON.stringify(rewritten), { status: 200, headers: { "Content-Type": "application/json" } });
    }
    return realFetch(input, init);
  });
}

beforeAll(async () => {
  portal = await startPortal();
  client = await portal.signIn("demo.client");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

type Home = {
  portfolio: { state: string } | null;
  assets: { state: string };
  importantPanel: { toBeSigned: unknown } | null;
};
type Messages = { kind: string; view?: { folders: Array<{ key: string }>; composeHref: string | null } };

describe("a failing toggle call turns every toggle off (spec 000 §1)", () => {
  it("shows the home page's portfolio and assets, without the To be signed count", async () => {
    const home = await import("~/routes/clients.home/route");
    const working = (await (await callLoader(home, "/clients/home", client)).json()) as Home;
    expect(working.importantPanel?.toBeSigned).toBeTruthy();

    failToggles(SERVER_ERROR);
    const response = await callLoader(home, "/clients/home", client);
    expect(response.status).toBe(200);
    const data = (await response.json()) as Home;
    expect(data.portfolio?.state).toBe("ok");
    expect(data.assets.state).toBe("ok");
    // digital signatures are off: nothing is counted as to be signed
    expect(data.importantPanel?.toBeSigned ?? null).toBeNull();
  });

  it("shows the messages page without the To be signed folder, and still offers a new message", async () => {
    const page = await import("~/routes/clients.documents-and-messages/route");
    const working = (await (await callLoader(page, "/clients/documents-and-messages", client)).json()) as Messages;
    expect(working.view?.folders.map((f) => f.key)).toContain("signature");

    failToggles(SERVER_ERROR);
    const response = await callLoader(page, "/clients/documents-and-messages", client);
    expect(response.status).toBe(200);
    const data = (await response.json()) as Messages;
    expect(data.kind).toBe("messages");
    expect(data.view?.folders.map((f) => f.key)).toEqual(expect.arrayContaining(["inbox", "sent"]));
    expect(data.view?.folders.map((f) => f.key)).not.toContain("signature");
    // one-way messaging is off too: the client may compose
    expect(data.view?.composeHref).toContain("compose=true");
  });

  it("opens the compose form", async () => {
    failToggles(SERVER_ERROR);
    const page = await import("~/routes/clients.documents-and-messages/route");
    const response = await callLoader(page, "/clients/documents-and-messages?compose=true", client);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Messages).kind).toBe("compose");
  });

  it("still sends a user whose session the toggle call finds lost to sign in again", async () => {
    failToggles(LOST_SESSION);
    const page = await import("~/routes/clients.documents-and-messages/route");
    for (const path of ["/clients/documents-and-messages", "/clients/documents-and-messages?compose=true"]) {
      const response = await thrown(callLoader(page, path, client));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login\?reason=LostSession/);
    }
    const home = await import("~/routes/clients.home/route");
    const response = await thrown(callLoader(home, "/clients/home", client));
    expect(response.headers.get("Location")).toMatch(/^\/login\?reason=LostSession/);
  });
});
