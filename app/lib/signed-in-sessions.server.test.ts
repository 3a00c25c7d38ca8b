import { describe, expect, it } from "vitest";
import { browserNameOf, sessionRows } from "./signed-in-sessions.server";

// ASVS V3.3.4 (docs/decisions/170): the rows of 'Where you're signed in'.
describe("browserNameOf", () => {
  it("names the browser and the system as people know them", () => {
    expect(
      browserNameOf(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Chrome", os: "Windows" });
    expect(
      browserNameOf(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ browser: "Safari", os: "iOS" });
    expect(browserNameOf("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toEqual({
      browser: "Firefox",
      os: "Linux",
    });
  });

  it("says nothing it does not know", () => {
    expect(browserNameOf(null)).toEqual({ browser: null, os: null });
    expect(browserNameOf("")).toEqual({ browser: null, os: null });
    expect(browserNameOf("curl/8.5.0").os).toBeNull();
  });
});

describe("sessionRows", () => {
  const row = (id: number, current: boolean, lastActiveAt: string) => ({
    id,
    userAgent: null,
    address: "203.0.113.1",
    signedInAt: "2026-05-01T09:05:00Z",
    lastActiveAt,
    current,
  });

  it("puts this browser first, the others as the platform ordered them, times in the user's zone", () => {
    const rows = sessionRows(
      [
        row(3, false, "2026-05-01T12:00:00Z"),
        row(7, true, "2026-05-01T11:00:00Z"),
        row(5, false, "2026-05-01T10:00:00Z"),
      ],
      "Europe/London",
      "en-GB",
    );
    expect(rows.map((r) => r.id)).toEqual([7, 3, 5]);
    expect(rows[0]).toMatchObject({
      current: true,
      signedInAt: "1 May 2026 10:05 BST",
      lastActiveAt: "1 May 2026 12:00 BST",
    });
  });
});
