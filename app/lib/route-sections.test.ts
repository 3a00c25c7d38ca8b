import { describe, expect, it } from "vitest";
import {
  everyRoutePath,
  matchedIds,
  portalManifest as manifest,
  remixTreeOf as treeOf,
} from "../../tests/route-manifest";
import { routeSections, sectionsOfTarget } from "./route-sections";

/** The paths Remix matches for a page: its own, and "/" and each parent path (the browser manifest's). */
function pathsMatchedFor(pathname: string): string[] {
  const segments = pathname.split("/").filter(Boolean);
  return [pathname, ...segments.slice(0, -1).map((_, i) => `/${segments.slice(0, i + 1).join("/")}`), "/"];
}

describe("the route tree's sections", () => {
  const sections = routeSections(manifest);
  const whole = treeOf(undefined);

  it("match every path of a section to the routes the whole tree matches", () => {
    const paths = [
      "/login",
      "/LOGIN",
      "/login/",
      "/login/help/reset",
      "/login/passkey",
      "/login/nothing",
      "/clients",
      "/Clients/Home",
      "/clients/analysis/download/csv",
      "/clients/documents-and-messages/images/a/b/c.png",
      "/clients/valuation-report/jobs/abc-123/report.pdf",
      "/clients/nothing/here",
      "/advisers",
      "/advisers/clients",
      "/core/anything",
      "/core/apa",
      "/locales/en-GB",
      "/session/heartbeat",
      "/healthz",
    ];
    paths.push(...everyRoutePath().filter((path) => path !== "/"));
    paths.push(...paths.map((path) => `${path}/more/segments`));
    let checked = 0;
    for (const path of paths) {
      // Every section the request may be answered in matches as the whole tree does, the narrowest too.
      for (const section of sectionsOfTarget(path, ["localhost:3000"])) {
        // Addresses of the catch-all's own kind ("/$") belong to no section: the whole tree takes them.
        if (!sections.has(section)) continue;
        const tree = treeOf(new Set(sections.get(section)));
        for (const matched of pathsMatchedFor(path)) {
          expect([section, matched, matchedIds(tree, matched)]).toEqual([section, matched, matchedIds(whole, matched)]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    // The pages' routes are found in their sections, the catch-all too.
    expect(matchedIds(treeOf(new Set(sections.get("clients"))), "/clients/home")).toEqual([
      "root",
      "routes/clients",
      "routes/clients.home",
    ]);
    expect(matchedIds(treeOf(new Set(sections.get("login"))), "/login/nothing")).toEqual(["root", "routes/$"]);
  });

  it("are the routes of one first segment, or two, with their parents, the index and the catch-all", () => {
    expect(sections.get("login")).toEqual(
      expect.arrayContaining(["root", "routes/_index", "routes/$", "routes/login", "routes/login_.help_.reset"]),
    );
    expect(sections.get("login")).toHaveLength(7);
    expect(sections.get("clients")).toContain("routes/clients.home");
    expect(sections.get("clients")).not.toContain("routes/login");
    expect(sections.get("clients/home")).toEqual([
      "root",
      "routes/clients._index",
      "routes/clients.home",
      "routes/clients",
      "routes/_index",
      "routes/$",
    ]);
    expect(sections.get("clients/documents-and-messages")).toHaveLength(11);
    expect(sections.get("login/help")).toEqual(
      expect.arrayContaining(["routes/login_.help", "routes/login_.help_.reset", "routes/login"]),
    );
    expect(sections.get("login/help")).not.toContain("routes/login_.passkey");
    expect(sections.has("")).toBe(false);
    // Every route is in a section, and none is in all of them but those that may match any path.
    const everywhere = Object.keys(manifest).filter((id) => [...sections.values()].every((ids) => ids.includes(id)));
    expect(everywhere.sort()).toEqual(["root", "routes/$", "routes/_index"]);
    const inSome = new Set([...sections.values()].flat());
    expect(Object.keys(manifest).filter((id) => !inSome.has(id))).toEqual([]);
  });

  it("see a route's first segment through its ancestors, and a dynamic one everywhere", () => {
    const nested = routeSections({
      root: { id: "root", path: "" },
      a: { id: "a", parentId: "root", path: "Reports" },
      b: { id: "b", parentId: "a", path: ":id" },
      layout: { id: "layout", parentId: "root" },
      c: { id: "c", parentId: "layout", path: "inside/page" },
      d: { id: "d", parentId: "root", path: ":lang?/about" },
    });
    expect(Object.fromEntries(nested)).toEqual({
      reports: ["root", "a", "b", "layout", "d"],
      inside: ["root", "layout", "c", "d"],
      "inside/page": ["root", "layout", "c", "d"],
    });
  });
});

describe("the sections of a request", () => {
  it("are its first two segments and its first, in lower case", () => {
    expect(sectionsOfTarget("/login", ["localhost"])).toEqual(["login"]);
    expect(sectionsOfTarget("/Clients/Home?tab=x#y", ["localhost"])).toEqual(["clients/home", "clients"]);
    expect(sectionsOfTarget("/login?next=/../x", ["localhost"])).toEqual(["login"]);
    expect(sectionsOfTarget("/clients/valuation-report/jobs/1/report.pdf", ["portal.example:443", undefined])).toEqual([
      "clients/valuation-report",
      "clients",
    ]);
    // a second segment that needs decoding leaves the first
    expect(sectionsOfTarget("/clients/ho%6De", ["localhost"])).toEqual(["clients"]);
    expect(sectionsOfTarget("/clients/report.pdf", ["localhost"])).toEqual(["clients"]);
  });

  it("are none, and so the whole tree's, when URL parsing could change the path", () => {
    for (const target of [
      "/",
      "//login",
      "/%6Cogin",
      "/log%20in",
      "/login/../clients/home",
      "/login/%2e%2E/clients",
      "/clients/.",
      "/login\\..\\clients",
      "/log\tin",
      "*",
      "http://elsewhere/login",
    ]) {
      expect([target, sectionsOfTarget(target, ["localhost"])]).toEqual([target, []]);
    }
    for (const host of ["evil/clients", "a@b", "a?b", "a#b", "a b"]) {
      expect([host, sectionsOfTarget("/login", ["localhost", host])]).toEqual([host, []]);
    }
  });
});
