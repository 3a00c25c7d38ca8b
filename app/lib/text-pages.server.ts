import sanitizeHtml from "sanitize-html";

// design "HTML from the platform": text pages come from site content and are reduced to an
// allow-list before they reach the page.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "h2", "h3", "ul", "ol", "li", "a", "strong", "em", "br"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
};

export function sanitiseTextPage(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
