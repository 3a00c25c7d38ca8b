import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "~/lib/user";
import { logger } from "~/runtime/logger.server";
import { pageViewOf, recordPageView } from "./page-view.server";

const client: SessionUser = {
  id: 101,
  entityId: 1,
  role: "ClientUser",
  displayName: "Eleanor Hartley",
  firstName: "Ellie",
  locale: "en-GB",
  loginMethod: "Basic",
  siteAccessLevel: "Portfolio",
  partnerEntityId: null,
  lastLogin: null,
  userTimezone: null,
  clientInContext: null,
};

const adviser: SessionUser = {
  ...client,
  id: 9,
  entityId: 10,
  role: "User",
  displayName: "Sarah Whitfield",
  siteAccessLevel: null,
  clientInContext: {
    id: 1,
    entityId: 1,
    displayName: "Eleanor Hartley",
    siteAccessLevel: "Assets",
    isPreviewMode: true,
  },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("pageViewOf (spec 000 §1 analytics monitor)", () => {
  it("records the path, the query's names only, the route and the user's id, role and level", () => {
    const view = pageViewOf(
      new URL("http://portal.test/advisers/clients?name=Hartley&dob=14%2F03%2F1972&postcode=EC2R&name=x"),
      200,
      "routes/advisers.clients",
      adviser,
    );
    expect(view).toEqual({
      path: "/advisers/clients",
      queryKeys: ["dob", "name", "postcode"],
      route: "routes/advisers.clients",
      status: 200,
      userId: 9,
      role: "User",
      siteAccessLevel: "Assets",
    });
    const line = JSON.stringify(view);
    for (const personal of ["Hartley", "1972", "EC2R", "Sarah", "Whitfield", "Eleanor"])
      expect(line).not.toContain(personal);
  });

  it("gives a client's own level, and nulls for a signed-out visitor", () => {
    expect(pageViewOf(new URL("http://portal.test/clients/home"), 200, "routes/clients.home", client)).toMatchObject({
      userId: 101,
      role: "ClientUser",
      siteAccessLevel: "Portfolio",
    });
    expect(pageViewOf(new URL("http://portal.test/nowhere"), 404, "routes/$", null)).toEqual({
      path: "/nowhere",
      queryKeys: [],
      route: "routes/$",
      status: 404,
      userId: null,
      role: null,
      siteAccessLevel: null,
    });
  });
});

describe("recordPageView", () => {
  it("logs one record for a page opened with GET", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    await recordPageView(
      new Request("http://portal.test/login?userType=adviser"),
      { status: 200, route: "routes/login" },
      true,
    );
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith(
      "page view",
      expect.objectContaining({ path: "/login", queryKeys: ["userType"], userId: null }),
    );
  });

  it("logs nothing when switched off, or for a form post answered with its page", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    await recordPageView(new Request("http://portal.test/login"), { status: 200, route: "routes/login" }, false);
    await recordPageView(
      new Request("http://portal.test/login", { method: "POST", body: "x" }),
      { status: 400, route: "routes/login" },
      true,
    );
    expect(info).not.toHaveBeenCalled();
  });
});
