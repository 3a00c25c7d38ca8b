import sanitizeHtml from "sanitize-html";

// design "HTML from the platform" and spec 002 §5: a document's body is reduced to an allow-list
// before it reaches the page; relative image sources get the platform's base prefixed, unless they
// are https or data. Anything else (scripts, styles, event handlers, frames, forms) is dropped.

const ALLOWED_TAGS = [
  "p",
  "br",
  "div",
  "span",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "sub",
  "sup",
  "ul",
  "ol",
  "li",
  "blockquote",
  "pre",
  "code",
  "hr",
  "a",
  "img",
  "table",
  "caption",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
];

/** Data URLs only for images of the usual raster types (never SVG, which can carry script). */
const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i;

/**
 * An image source as the page may show it: https and image data URLs as they are, a relative
 * source on the platform's base (`imageBase`), anything else (http, javascript:, protocol-relative)
 * dropped. Answers null to drop it.
 */
export function imageSource(src: string, imageBase: string): string | null {
  const value = src.trim();
  if (!value) return null;
  if (/^data:/i.test(value)) return DATA_IMAGE.test(value) ? value : null;
  if (/^https:\/\//i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("//") || value.startsWith("\\")) return null;
  const base = imageBase.replace(/\/+$/, "");
  return `${base}/${value.replace(/^\/+/, "")}`;
}

/**
 * spec 002 §8–§9: whether a link leaves the portal, that is an http or https address on another
 * host than `portalHost` (the host the user reached the portal on, `host[:port]`). With no known
 * host (null) every absolute http(s) link counts as leaving: a warning too many is harmless, a
 * missing one is not. Relative, mailto and tel links never leave.
 */
export function isExternalLink(href: string, portalHost: string | null): boolean {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (!portalHost) return true;
  try {
    // URL lower-cases the name and drops a default port, on both sides alike
    return url.host !== new URL(`${url.protocol}//${portalHost.trim()}`).host;
  } catch {
    return true;
  }
}

/**
 * The body of a message, safe to put into the page. Links to another host than `portalHost` open
 * in a new tab without opener and carry `data-external`, which the reading pane's 'Leaving Site'
 * dialog listens for (spec 002 §8–§9).
 */
export function sanitiseMessageBody(html: string, imageBase: string, portalHost: string | null): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ["href", "title", "rel", "target", "data-external"],
      img: ["src", "alt", "width", "height", "title"],
      th: ["colspan", "rowspan", "scope"],
      td: ["colspan", "rowspan"],
    },
    allowedSchemes: ["http", "https", "mailto", "tel"],
    allowedSchemesByTag: { img: ["https", "data"] },
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    // a heading inside a message must not outrank the page's own headings
    transformTags: {
      h1: "h2",
      img: (tagName, attribs) => {
        const src = imageSource(attribs.src ?? "", imageBase);
        if (!src) return { tagName: "span", attribs: {} };
        return { tagName, attribs: { ...attribs, src } };
      },
      a: (tagName, attribs) => {
        // a body's own target or marker never survives: only the portal decides what leaves
        const { target: _target, "data-external": _external, ...rest } = attribs;
        const external = isExternalLink(rest.href ?? "", portalHost);
        return {
          tagName,
          attribs: external
            ? { ...rest, target: "_blank", rel: "noopener noreferrer", "data-external": "true" }
            : { ...rest, rel: "noopener noreferrer" },
        };
      },
    },
  }).trim();
}
