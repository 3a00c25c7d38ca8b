import { describe, expect, it } from "vitest";
import { sanitiseTextPage } from "./text-pages.server";

describe('text pages from site content (design "HTML from the platform")', () => {
  it("keeps the allowed tags and links, and drops scripts, styles, handlers and other schemes", () => {
    const html = sanitiseTextPage(
      '<h2 style="color:red">Terms</h2><p onclick="x()">Read <a href="https://example.test/t" target="_blank">this</a>.</p>' +
        '<script>alert(1)</script><a href="javascript:alert(1)">bad</a><a href="//evil.test">rel</a><img src="x.png"><ul><li>one</li></ul>',
    );
    expect(html).toBe(
      '<h2>Terms</h2><p>Read <a href="https://example.test/t">this</a>.</p><a>bad</a><a>rel</a><ul><li>one</li></ul>',
    );
  });

  it("keeps mailto and tel links", () => {
    expect(sanitiseTextPage('<a href="mailto:a@b.test">m</a><a href="tel:+441234">t</a>')).toBe(
      '<a href="mailto:a@b.test">m</a><a href="tel:+441234">t</a>',
    );
  });
});
