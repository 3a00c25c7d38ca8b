import { describe, expect, it } from "vitest";
import {
  imageSource,
  isExternalLink,
  sanitiseMessageBody,
  sanitiseStoredMessage,
  sanitiseTerms,
  sanitiseTextPage,
} from "./sanitise.server";

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

describe("the site terms at sign-in (spec: terms shown as agreed to)", () => {
  it("keeps the text pages' list and h4, and trims", () => {
    expect(
      sanitiseTerms('  <h4 class="x">Terms</h4><p>Agree <a href="tel:+441234">call</a></p><script>x()</script> '),
    ).toBe('<h4>Terms</h4><p>Agree <a href="tel:+441234">call</a></p>');
  });

  it("is stricter than a message body: no images, tables or other schemes", () => {
    expect(
      sanitiseTerms('<img src="https://x.test/a.png"><table><tr><td>1</td></tr></table><a href="//e.test">r</a>'),
    ).toBe("1<a>r</a>");
  });
});

describe("a stored message body (spec 002 §5)", () => {
  it("keeps its short list, and drops tel links, images and the heading's tag (not its text)", () => {
    expect(
      sanitiseStoredMessage(
        '<h2>Hi</h2><p>Call <a href="tel:+441234">me</a> or <a href="mailto:a@b.c">write</a></p><img src="a.png">',
      ),
    ).toBe('Hi<p>Call <a>me</a> or <a href="mailto:a@b.c">write</a></p>');
  });
});

const BASE = "/clients/documents-and-messages/images";

describe("sanitiseMessageBody (design: allow-list; spec 002 §5 image sources)", () => {
  it("keeps text formatting and drops scripts, styles, handlers and frames", () => {
    const html = sanitiseMessageBody(
      '<h1>Hi</h1><p onclick="x()">Dear <strong>Anne</strong></p><script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe><a href="javascript:alert(1)">bad</a><a href="https://example.com">good</a>',
      BASE,
      "portal.example",
    );
    expect(html).toBe(
      '<h2>Hi</h2><p>Dear <strong>Anne</strong></p><a rel="noopener noreferrer">bad</a><a href="https://example.com" target="_blank" rel="noopener noreferrer" data-external="true">good</a>',
    );
  });

  it("prefixes relative image sources, keeps https and image data, drops the rest", () => {
    expect(sanitiseMessageBody('<img src="images/logo.png" alt="Logo">', BASE, null)).toBe(
      `<img src="${BASE}/images/logo.png" alt="Logo" />`,
    );
    expect(sanitiseMessageBody('<img src="https://cdn.example.com/a.png">', BASE, null)).toBe(
      '<img src="https://cdn.example.com/a.png" />',
    );
    expect(sanitiseMessageBody('<img src="http://cdn.example.com/a.png">', BASE, null)).toBe("<span></span>");
    expect(imageSource("data:image/png;base64,iVBORw0KGgo=", BASE)).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageSource("data:image/svg+xml;base64,PHN2Zz4=", BASE)).toBeNull();
    expect(imageSource("javascript:alert(1)", BASE)).toBeNull();
    expect(imageSource("//evil.example/a.png", BASE)).toBeNull();
    expect(imageSource("/static/a.png", BASE)).toBe(`${BASE}/static/a.png`);
  });
});

describe("external links (spec 002 §8 'Leaving Site', §9 new tab without opener)", () => {
  const HOST = "portal.example:3000";
  const link = (href: string, host: string | null = HOST) => sanitiseMessageBody(`<a href="${href}">x</a>`, BASE, host);

  it("opens http and https links to another host in a new tab without opener, marked external", () => {
    expect(link("https://www.gov.uk/budget")).toBe(
      '<a href="https://www.gov.uk/budget" target="_blank" rel="noopener noreferrer" data-external="true">x</a>',
    );
    expect(link("http://example.com/")).toBe(
      '<a href="http://example.com/" target="_blank" rel="noopener noreferrer" data-external="true">x</a>',
    );
    // the same name on another port is another host
    expect(link("https://portal.example/help")).toContain('data-external="true"');
  });

  it("leaves same-host, relative, mailto and tel links alone", () => {
    expect(link("http://portal.example:3000/clients/home")).toBe(
      '<a href="http://portal.example:3000/clients/home" rel="noopener noreferrer">x</a>',
    );
    expect(link("HTTP://Portal.Example:3000/x")).not.toContain("target");
    expect(link("https://portal.example/x", "PORTAL.example")).toBe(
      '<a href="https://portal.example/x" rel="noopener noreferrer">x</a>',
    );
    expect(link("/clients/documents-and-messages")).toBe(
      '<a href="/clients/documents-and-messages" rel="noopener noreferrer">x</a>',
    );
    expect(link("mailto:adviser@example.com")).toBe(
      '<a href="mailto:adviser@example.com" rel="noopener noreferrer">x</a>',
    );
    expect(link("tel:+441234567890")).toBe('<a href="tel:+441234567890" rel="noopener noreferrer">x</a>');
  });

  it("drops a body's own target and marker", () => {
    expect(sanitiseMessageBody('<a href="/x" target="_top" data-external="true">x</a>', BASE, HOST)).toBe(
      '<a href="/x" rel="noopener noreferrer">x</a>',
    );
    expect(sanitiseMessageBody('<a href="https://example.com" target="_self">x</a>', BASE, HOST)).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer" data-external="true">x</a>',
    );
  });

  it("counts every absolute http(s) link as external when the portal's host is not known", () => {
    expect(isExternalLink("https://portal.example/x", null)).toBe(true);
    expect(isExternalLink("/x", null)).toBe(false);
    expect(isExternalLink("mailto:a@b.example", null)).toBe(false);
    expect(isExternalLink("javascript:alert(1)", HOST)).toBe(false);
    expect(isExternalLink("  https://example.com  ", HOST)).toBe(true);
  });
});
