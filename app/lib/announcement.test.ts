import { describe, expect, it } from "vitest";
import { announcementHash, announcementShownAt, isAnnouncementHash } from "./announcement";

describe("the announcement panel's rule (spec 002 §2)", () => {
  it("shows for unset, Messages and Not Assigned, not for Portfolio or Assets", () => {
    expect(announcementShownAt("unset")).toBe(true);
    expect(announcementShownAt("Messages")).toBe(true);
    expect(announcementShownAt("NotAssigned")).toBe(true);
    expect(announcementShownAt("Portfolio")).toBe(false);
    expect(announcementShownAt("Assets")).toBe(false);
  });
});

describe("the announcement hash (spec 002 §9)", () => {
  it("is short and stable for the same title and text", () => {
    const hash = announcementHash("Our offices", "<p>Closed on Monday.</p>");
    expect(hash).toBe(announcementHash("Our offices", "<p>Closed on Monday.</p>"));
    expect(isAnnouncementHash(hash)).toBe(true);
    expect(hash.length).toBeLessThanOrEqual(7);
  });

  it("changes when the title or the text changes, so a new announcement shows again", () => {
    const hash = announcementHash("Our offices", "<p>Closed on Monday.</p>");
    expect(announcementHash("Our offices", "<p>Closed on Tuesday.</p>")).not.toBe(hash);
    expect(announcementHash("Our office", "<p>Closed on Monday.</p>")).not.toBe(hash);
    // the title and the text do not run into each other
    expect(announcementHash("ab", "c")).not.toBe(announcementHash("a", "bc"));
  });

  it("accepts only what the hash can be", () => {
    for (const bad of ["", "ABC", "a-b", "12345678", "../x", null, 5]) expect(isAnnouncementHash(bad)).toBe(false);
  });
});
