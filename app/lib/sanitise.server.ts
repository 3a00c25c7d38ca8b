import { LRUCache } from "lru-cache";
import sanitizeHtml from "sanitize-html";

// design "HTML from the platform": every piece of HTML that reaches a page is reduced to an
// allow-list first. The allow-lists are named profiles, kept here and nowhere else:
// - textPage: site content (text pages, announcements, journey pages, bases of figures, terms of a
//   signature, the annual review's introduction);
// - siteTerms: the site terms at sign-in (text pages' list with h4);
// - storedMessage: a message body as the portal stores it (spec 002 §5);
// - messageBody: a message or document body as the reading pane shows it (spec 002 §5, §8–§9).

/** Links may use these schemes only; a protocol-relative address never survives. */
const LINK_SCHEMES = ["http", "https", "mailto", "tel"];

/** What every profile shares: nothing outside the allow-list survives, not even its text. */
const STRICT: sanitizeHtml.IOptions = { allowProtocolRelative: false, disallowedTagsMode: "discard" };

const textPage: sanitizeHtml.IOptions = {
  ...STRICT,
  allowedTags: ["p", "h2", "h3", "ul", "ol", "li", "a", "strong", "em", "br"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: LINK_SCHEMES,
};

const siteTerms: sanitizeHtml.IOptions = {
  ...textPage,
  allowedTags: ["h2", "h3", "h4", "p", "ul", "ol", "li", "a", "strong", "em", "br"],
};

const storedMessage: sanitizeHtml.IOptions = {
  ...STRICT,
  allowedTags: ["p", "br", "strong", "em", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
};

const MESSAGE_TAGS = [
  ...["p", "br", "div", "span", "h2", "h3", "h4", "h5", "h6"],
  ...["strong", "b", "em", "i", "u", "s", "sub", "sup"],
  ...["ul", "ol", "li", "blockquote", "pre", "code", "hr", "a", "img"],
  ...["table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"],
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
 * spec 002 §5, §8–§9: relative image sources get the platform's base (`imageBase`) prefixed, unless
 * they are https or data; links to another host than `portalHost` open in a new tab without opener
 * and carry `data-external`, which the reading pane's 'Leaving Site' dialog listens for. Anything
 * else (scripts, styles, event handlers, frames, forms) is dropped.
 */
function messageBody(imageBase: string, portalHost: string | null): sanitizeHtml.IOptions {
  return {
    ...STRICT,
    allowedTags: MESSAGE_TAGS,
    allowedAttributes: {
      a: ["href", "title", "rel", "target", "data-external"],
      img: ["src", "alt", "width", "height", "title"],
      th: ["colspan", "rowspan", "scope"],
      td: ["colspan", "rowspan"],
    },
    allowedSchemes: LINK_SCHEMES,
    allowedSchemesByTag: { img: ["https", "data"] },
    transformTags: {
      // a heading inside a message must not outrank the page's own headings
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
  };
}

// The site's text pages and announcements are the same few on every page that shows them: each is
// sanitised once and kept (a pure function of the html; issue 38), up to about 2 MB of text.
const keptTextPages = new LRUCache<string, string>({
  max: 500,
  maxSize: 1_000_000,
  sizeCalculation: (clean, html) => clean.length + html.length || 1,
});

/** A text page, announcement, journey page, basis of figures or the like, from site content. */
export function sanitiseTextPage(html: string): string {
  let clean = keptTextPages.get(html);
  if (clean === undefined) {
    clean = sanitizeHtml(html, textPage);
    keptTextPages.set(html, clean);
  }
  return clean;
}

/** The site terms of the sign-in step, trimmed. */
export function sanitiseTerms(html: string): string {
  return sanitizeHtml(html, siteTerms).trim();
}

/** A message body as it is stored (the caller tidies its blank paragraphs). */
export function sanitiseStoredMessage(html: string): string {
  return sanitizeHtml(html, storedMessage);
}

/** The body of a message or document, safe to put into the page, trimmed. */
export function sanitiseMessageBody(html: string, imageBase: string, portalHost: string | null): string {
  return sanitizeHtml(html, messageBody(imageBase, portalHost)).trim();
}
