import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { landingPath, safeRedirectPath } from "./redirect-to";

const SITE = "https://portal.example";

/** Where a browser goes with `location` as a redirect's Location, from a page of the site. */
const followed = (location: string) => new URL(location, `${SITE}/login?redirectTo=x`);

// The pieces of a path an attacker combines: dot segments, empty segments, slashes and
// backslashes (plain, percent-encoded, doubled), whitespace the URL parser drops, schemes, hosts.
const piece = fc.constantFrom(
  "",
  ".",
  "..",
  "/",
  "//",
  "\\",
  "\\\\",
  "%2e",
  "%2E",
  "%2e%2e",
  "%2f",
  "%2F",
  "%5c",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "@",
  ":",
  "?",
  "#",
  "evil.example",
  "evil.example:443",
  "https:",
  "javascript:",
  "clients",
  "home",
);
const crafted = fc
  .tuple(
    fc.constantFrom("/", "//", "/\\", "\\", " /", "\t/", ""),
    fc.array(piece, { maxLength: 10 }),
    fc.array(fc.constantFrom("/", "\\", ""), { maxLength: 10 }),
  )
  .map(([start, pieces, glue]) => start + pieces.map((p, i) => p + (glue[i] ?? "/")).join(""));

// Paths the portal itself sends to the login: plain segments, a query, a hash.
const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/);
const normalPath = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 5 }),
    fc.option(fc.array(fc.tuple(segment, segment), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    fc.option(segment, { nil: undefined }),
  )
  .map(([segments, query, hash]) => {
    const search = query ? `?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
    return `/${segments.join("/")}${search}${hash ? `#${hash}` : ""}`;
  });

describe("safeRedirectPath", () => {
  it("keeps same-origin relative paths with their query", () => {
    expect(safeRedirectPath("/clients/personal-details?x=1")).toBe("/clients/personal-details?x=1");
    // a search for a backslash is a search (only the path reads it as a slash)
    expect(safeRedirectPath("/clients/documents-and-messages?search=a\\b")).toBe(
      "/clients/documents-and-messages?search=a\\b",
    );
  });

  it("refuses other origins and tricks", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "clients",
      "",
      null,
      "/a\nb",
    ]) {
      expect(safeRedirectPath(bad)).toBeNull();
    }
  });

  it("refuses a path whose dot segments leave a protocol-relative address (finding 4)", () => {
    for (const bad of [
      "/.//evil.example/x",
      "/..//evil.example/x",
      "/./\\evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "/./%2e//evil.example",
    ]) {
      const out = safeRedirectPath(bad);
      if (out !== null) expect(followed(out).origin, `${JSON.stringify(bad)} → ${out}`).toBe(SITE);
    }
    expect(safeRedirectPath("/.//evil.example/x")).toBeNull();
    expect(safeRedirectPath("/..//evil.example/x")).toBeNull();
  });

  it("never answers a path that takes the browser to another site", () => {
    fc.assert(
      fc.property(fc.oneof(crafted, fc.string(), fc.webPath(), fc.webUrl()), (value) => {
        const out = safeRedirectPath(value);
        if (out === null) return;
        expect(out.startsWith("/")).toBe(true);
        expect(out.startsWith("//") || out.startsWith("/\\")).toBe(false);
        expect(followed(out).origin).toBe(SITE);
        // Used again (a redirect to the login and back), it stays what it is.
        expect(safeRedirectPath(out)).toBe(out);
      }),
      { numRuns: 5_000 },
    );
  });

  it("gives back the portal's own paths unchanged", () => {
    fc.assert(
      fc.property(normalPath, (path) => {
        expect(safeRedirectPath(path)).toBe(path);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("landingPath", () => {
  const client = { role: "ClientUser" as const, siteAccessLevel: "Portfolio" };
  const adviser = { role: "User" as const, siteAccessLevel: null };
  it("sends each user to their own landing page at once by default", () => {
    expect(landingPath(client, null)).toBe("/clients/home");
    expect(landingPath({ role: "ClientUser", siteAccessLevel: "Assets" }, null)).toBe("/clients/home");
    expect(landingPath({ role: "ClientUser", siteAccessLevel: "Messages" }, null)).toBe(
      "/clients/documents-and-messages",
    );
    expect(landingPath({ role: "ClientUser", siteAccessLevel: "NotAssigned" }, "/")).toBe(
      "/clients/documents-and-messages",
    );
    // a level the portal does not know: the clients' index, whose guard says why
    expect(landingPath({ role: "ClientUser", siteAccessLevel: null }, null)).toBe("/clients");
    expect(landingPath({ role: "ClientUser", siteAccessLevel: "Gold" }, null)).toBe("/clients");
    expect(landingPath(adviser, null)).toBe("/advisers/clients");
    expect(landingPath(adviser, "/login?reason=LostSession")).toBe("/advisers/clients");
  });
  it("honours a requested page of the user's own area only", () => {
    expect(landingPath(client, "/clients/personal-details")).toBe("/clients/personal-details");
    expect(landingPath(client, "/advisers/clients")).toBe("/clients/home");
    expect(landingPath(adviser, "/advisers/clients?name=smith")).toBe("/advisers/clients?name=smith");
    expect(landingPath(adviser, "/clients/home")).toBe("/advisers/clients");
    expect(landingPath(adviser, "/core/site-terms")).toBe("/core/site-terms");
  });
  it("never lands a user on another site, whatever it is given", () => {
    expect(landingPath(client, "//evil.example/x")).toBe("/clients/home");
    expect(landingPath(adviser, "https://evil.example/")).toBe("/advisers/clients");
    fc.assert(
      fc.property(fc.constantFrom(client, adviser), fc.oneof(crafted, fc.string()), (user, requested) => {
        expect(followed(landingPath(user, requested)).origin).toBe(SITE);
      }),
      { numRuns: 2_000 },
    );
  });
});
