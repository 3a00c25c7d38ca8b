import { describe, expect, it } from "vitest";
import { imageSource, sanitiseMessageBody } from "./sanitise.server";

const BASE = "/clients/documents-and-messages/images";

describe("sanitiseMessageBody (design: allow-list; spec 002 §5 image sources)", () => {
  it("keeps text formatting and drops scripts, styles, handlers and frames", () => {
    const html = sanitiseMessageBody(
      '<h1>Hi</h1><p onclick="x()">Dear <strong>Anne</strong></p><script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe><a href="javascript:alert(1)">bad</a><a href="https://example.com">good</a>',
      BASE,
    );
    expect(html).toBe('<h2>Hi</h2><p>Dear <strong>Anne</strong></p><a rel="noopener noreferrer">bad</a><a href="https://example.com" rel="noopener noreferrer">good</a>');
  });

  it("prefixes relative image sources, keeps https and image data, drops the rest", () => {
    expect(sanitiseMessageBody('<img src="images/logo.png" alt="Logo">', BASE)).toBe(`<img src="${BASE}/images/logo.png" alt="Logo" />`);
    expect(sanitiseMessageBody('<img src="https://cdn.example.com/a.png">', BASE)).toBe('<img src="https://cdn.example.com/a.png" />');
    expect(sanitiseMessageBody('<img src="http://cdn.example.com/a.png">', BASE)).toBe("<span></span>");
    expect(imageSource("data:image/png;base64,iVBORw0KGgo=", BASE)).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageSource("data:image/svg+xml;base64,PHN2Zz4=", BASE)).toBeNull();
    expect(imageSource("javascript:alert(1)", BASE)).toBeNull();
    expect(imageSource("//evil.example/a.png", BASE)).toBeNull();
    expect(imageSource("/static/a.png", BASE)).toBe(`${BASE}/static/a.png`);
  });
});
