import { describe, expect, it } from "vitest";
import { textPageFor } from "./text-pages";

const terms = { title: "Terms of use", html: "<p>Terms</p>" };
const ownView = { title: "Terms, printable", html: "<p>Printable</p>" };

describe("textPageFor (spec 000 §2: legal pages with and without -view)", () => {
  it("answers the page of the segment", () => {
    expect(textPageFor({ "site-terms": terms }, "site-terms")).toBe(terms);
  });

  it("answers the base page for a -view segment", () => {
    expect(textPageFor({ "site-terms": terms }, "site-terms-view")).toBe(terms);
  });

  it("prefers a page the content defines under the -view segment itself", () => {
    expect(textPageFor({ "site-terms": terms, "site-terms-view": ownView }, "site-terms-view")).toBe(ownView);
  });

  it("answers nothing for unknown segments, a bare -view, or a base that is not a page", () => {
    const pages = { "site-terms": terms };
    expect(textPageFor(pages, "no-such-page")).toBeUndefined();
    expect(textPageFor(pages, "no-such-page-view")).toBeUndefined();
    expect(textPageFor(pages, "-view")).toBeUndefined();
    expect(textPageFor(pages, "site-terms-view-view")).toBeUndefined();
    expect(textPageFor(pages, "site-terms-viewer")).toBeUndefined();
    // inherited object keys are not pages
    expect(textPageFor(pages, "constructor-view")).toBeUndefined();
  });
});
