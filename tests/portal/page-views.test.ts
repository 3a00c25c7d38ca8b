import type { HandleDataRequestFunction } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openClientInContext, type Portal, startPortal } from "./portal-harness";

// spec 000 §1: "An analytics monitor records page views and the signed-in user's id, name, role and
// site access level." One log record per page rendered as a document (docs/decisions/029), with
// the users of a real platform's sessions.

let portal: Portal;
let logger: typeof import("~/runtime/logger.server").logger;
let recordPageView: typeof import("~/session/page-view.server").recordPageView;

beforeAll(async () => {
  portal = await startPortal();
  ({ logger } = await import("~/runtime/logger.server"));
  ({ recordPageView } = await import("~/session/page-view.server"));
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

function pageViews(info: ReturnType<typeof vi.spyOn>) {
  return info.mock.calls.filter((call) => call[0] === "page view").map((call) => call[1] as Record<string, unknown>);
}

describe("page views", () => {
  it("record a client's id, role and level, without the name", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const cookie = await portal.signIn("demo.client");
    const user = (await portal.sessionUser(cookie)) as { id: number; displayName: string };
    await recordPageView(new Request("http://portal.test/clients/home?accounts=12", { headers: { Cookie: cookie } }), {
      status: 200,
      route: "routes/clients.home",
    });
    expect(pageViews(info)).toEqual([
      {
        path: "/clients/home",
        queryKeys: ["accounts"],
        route: "routes/clients.home",
        status: 200,
        userId: user.id,
        role: "ClientUser",
        siteAccessLevel: "Portfolio",
      },
    ]);
    expect(JSON.stringify(info.mock.calls)).not.toContain(user.displayName);
  });

  it("record an adviser's level of the client in context, and no search values", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const adviser = await portal.signIn("demo.adviser", "adviser");
    const inContext = await openClientInContext(portal, adviser, "Hartley", "Hartley, Eleanor");
    await recordPageView(
      new Request("http://portal.test/advisers/clients?name=Hartley&dob=&postcode=SW1A", {
        headers: { Cookie: adviser },
      }),
      { status: 200, route: "routes/advisers.clients" },
    );
    await recordPageView(new Request("http://portal.test/clients/home", { headers: { Cookie: inContext } }), {
      status: 200,
      route: "routes/clients.home",
    });
    const [list, home] = pageViews(info);
    expect(list).toMatchObject({
      path: "/advisers/clients",
      queryKeys: ["dob", "name", "postcode"],
      role: "User",
      siteAccessLevel: null,
    });
    expect(home).toMatchObject({ path: "/clients/home", role: "User", siteAccessLevel: "Portfolio" });
    expect(list!.userId).toBe(home!.userId);
    expect(JSON.stringify(info.mock.calls)).not.toMatch(/Hartley|SW1A|Whitfield/);
  });

  it("are not recorded for loader data (a page's data fetched by the browser)", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const { handleDataRequest } = (await import("~/entry.server")) as { handleDataRequest: HandleDataRequestFunction };
    const cookie = await portal.signIn("demo.client");
    const request = new Request("http://portal.test/clients/home?_data=routes%2Fclients.home", {
      headers: { Cookie: cookie },
    });
    await handleDataRequest(new Response("{}"), { request, params: {}, context: {} });
    expect(pageViews(info)).toEqual([]);
  });

  it("are not recorded when switched off", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const { env } = await import("~/runtime/env.server");
    const was = env.analyticsPageViews;
    env.analyticsPageViews = false;
    try {
      await recordPageView(new Request("http://portal.test/login"), { status: 200, route: "routes/login" });
    } finally {
      env.analyticsPageViews = was;
    }
    expect(pageViews(info)).toEqual([]);
  });
});
