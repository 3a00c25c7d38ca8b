import { describe, expect, it } from "vitest";
import { ERROR_TITLE_KEYS, errorPageKind, errorPageTitle, type ErrorTitles, rootFailureTitle } from "./error-title";

const titles: ErrorTitles = {
  accessDenied: "Access Denied",
  notFound: "Page Not Found",
  tooLarge: "Too much was sent",
  network: "Network unavailable",
  generic: "An error has occurred",
};
const matches = [{ id: "root", data: { errorTitles: titles } }, { id: "routes/clients.home" }];
const answer = (status: number, data: unknown = null) => ({ status, statusText: "", internal: false, data });

describe("an error page's title (issue 40)", () => {
  it("says what happened, then the site", () => {
    expect(errorPageTitle(answer(404), matches)).toBe("Page Not Found | Client Online");
    expect(errorPageTitle(answer(404, { notFound: true }), matches)).toBe("Page Not Found | Client Online");
    expect(errorPageTitle(answer(403), matches)).toBe("Access Denied | Client Online");
    expect(errorPageTitle(answer(413), matches)).toBe("Too much was sent | Client Online");
    expect(errorPageTitle(new Error("boom"), matches)).toBe("An error has occurred | Client Online");
    expect(errorPageTitle(answer(500), matches)).toBe("An error has occurred | Client Online");
  });

  it("follows the boundary's cases for a failed platform call", () => {
    expect(errorPageKind(answer(403, { failure: { kind: "forbidden" } }))).toBe("accessDenied");
    expect(errorPageKind(answer(404, { failure: { kind: "not-found" } }))).toBe("notFound");
    expect(errorPageKind(answer(503, { failure: { kind: "network" } }))).toBe("network");
    expect(errorPageKind(answer(403, { failure: { kind: "api" } }))).toBe("generic");
    expect(errorPageKind(answer(502, { failure: { kind: "generic" } }))).toBe("generic");
  });

  it("is the site's name alone without an error or without the root's words", () => {
    expect(errorPageTitle(undefined, matches)).toBe("Client Online");
    expect(errorPageTitle(undefined, [{ id: "root", data: undefined }])).toBe("Client Online");
    expect(errorPageTitle(answer(404), [{ id: "root", data: {} }])).toBe("Client Online");
  });

  it("is in the page's language", () => {
    const french = [{ id: "root", data: { errorTitles: { ...titles, notFound: "Page introuvable" } } }];
    expect(errorPageTitle(answer(404), french)).toBe("Page introuvable | Client Online");
  });

  it("when the root's own loader failed, is written where the page is rendered, in its heading's words", () => {
    // the root's meta gives no title then: the Layout writes it
    expect(errorPageTitle(new Error("boom"), [{ id: "root", data: undefined }])).toBeNull();
    expect(errorPageTitle(answer(500), [{ id: "root" }])).toBeNull();
    expect(errorPageTitle(answer(404), undefined)).toBeNull();

    // the translator's words for the boundary's heading (the keys its heading uses)
    const french: Record<string, string> = {
      [ERROR_TITLE_KEYS.generic]: "Une erreur s'est produite",
      [ERROR_TITLE_KEYS.notFound]: "Page introuvable",
    };
    const translate = (key: string) => french[key] ?? key;
    expect(rootFailureTitle(new Error("boom"), translate)).toBe("Une erreur s'est produite | Client Online");
    expect(rootFailureTitle(answer(503), translate)).toBe("Une erreur s'est produite | Client Online");
    expect(rootFailureTitle(answer(404), translate)).toBe("Page introuvable | Client Online");
  });
});
