import { clientsLandingPathOf } from "./site-access";

/** Any origin will do: the target is resolved against it to see where a browser would go. */
const SITE = "http://portal.invalid";

/** The path, query and hash of `value` resolved against the site, or null when it leaves it. */
function resolveOnSite(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value, SITE);
  } catch {
    return null;
  }
  if (url.origin !== SITE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * design "How a request flows": only same-origin relative paths are honoured as redirect targets.
 * Answers the path, or null when it is missing or points elsewhere.
 *
 * The answer is what a browser resolves the value to, and it is itself a Location: dot segments
 * (`/.//evil.example`, `/..//evil.example`) resolve to a protocol-relative `//evil.example` that
 * is on the site only until it is sent. So the resolved path must also start with exactly one
 * slash and resolve to itself (docs/decisions/112).
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return null;
  // Control characters (tabs and newlines are dropped by the URL parser) are never in a path the
  // portal makes, nor backslashes before the query (a browser reads them as slashes there).
  if (/[\u0000-\u001f\u007f]/.test(path) || /\\/.test(path.split(/[?#]/)[0]!)) return null;
  const resolved = resolveOnSite(path);
  if (resolved === null || !resolved.startsWith("/") || resolved.startsWith("//")) return null;
  if (resolveOnSite(resolved) !== resolved) return null;
  return resolved;
}

/** The user as the landing page needs it: the role, and a client's site access level. */
export type LandingUser = { role: "ClientUser" | "User"; siteAccessLevel?: string | null };

/**
 * A user's own landing page (spec 000 §2 "Index routing"): a client's by the site access level, an
 * adviser's client list. Sent there at once, not through the index routes' redirects, which would
 * cost a browser another round of requests (issue 38); a client whose level is not valid goes to
 * the clients' index, whose guard says why.
 */
function landingPageOf(user: LandingUser): string {
  if (user.role === "User") return "/advisers/clients";
  return clientsLandingPathOf(user.siteAccessLevel);
}

/** Where a signed-in user lands: the requested page if it belongs to their area, else their landing page. */
export function landingPath(user: LandingUser, requested: string | null): string {
  const home = landingPageOf(user);
  const path = safeRedirectPath(requested);
  if (!path || path === "/" || path.startsWith("/login")) return home;
  // A client must not be sent into the advisers' area (nor an adviser without a client into the
  // clients' area): they would only meet Access Denied.
  if (user.role === "ClientUser" && path.startsWith("/advisers")) return home;
  if (user.role === "User" && path.startsWith("/clients")) return home;
  return path;
}
