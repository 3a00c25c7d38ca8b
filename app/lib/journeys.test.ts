import { describe, expect, it } from "vitest";
import { journeyPageOf, journeyUrl } from "./journeys";

const site = {
  pages: { "journey-factfind": { title: "Fact find", html: "<p>About you.</p>" } },
  settings: { factFindUrl: "https://journeys.example/factfind", apaUrl: "javascript:alert(1)", roboUrl: "/robo" },
};

describe("the journey pages (spec 002 §2)", () => {
  it("takes the title and text from content and the address from the settings", () => {
    expect(journeyPageOf(site, "factfind")).toEqual({
      title: "Fact find",
      html: "<p>About you.</p>",
      url: "https://journeys.example/factfind",
    });
  });

  it("has no page when the content has none", () => {
    expect(journeyPageOf(site, "apa")).toBeUndefined();
  });

  it("links only to an absolute http or https address", () => {
    expect(journeyUrl(site.settings, "apa")).toBeNull();
    expect(journeyUrl(site.settings, "robo")).toBeNull();
    expect(journeyUrl({}, "factfind")).toBeNull();
    expect(journeyUrl({ factFindUrl: 3 }, "factfind")).toBeNull();
  });
});
