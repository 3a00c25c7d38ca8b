// spec 000 §2 "Main bar": the mobile Back button. It steps back through the views the user visited
// on pages that keep one (the analysis page's account filters), and goes to the user's own start
// page when there is none (the clients home, or documents and messages for a client who sees only
// those: the home would be Access Denied). Pure: the shell asks it where the button leads and
// whether to step back instead.
import { clientsLandingPathOf } from "./site-access";

const trimmed = (path: string) => path.replace(/\/+$/, "");

/**
 * Where Back leads without JavaScript: the page's own previous level (`backHref`, from its loader),
 * else the start page of the client's portal at `siteAccessLevel`; null where there is no Back
 * button (outside the clients pages, and on that start page itself).
 */
export function mobileBackHref(pathname: string, backHref: unknown, siteAccessLevel: unknown): string | null {
  const path = trimmed(pathname);
  const start = clientsLandingPathOf(siteAccessLevel);
  if (!path.startsWith("/clients/") || path === trimmed(start)) return null;
  return typeof backHref === "string" && backHref.startsWith("/clients/") ? backHref : start;
}

const pathOf = (location: string) => location.split(/[?#]/, 1)[0];

/**
 * With JavaScript, Back steps back in the browser's history when the entry before this one is the
 * same page in another state (an earlier account filter); otherwise it follows the link. `previous`
 * is that entry as it was visited in this page session (pathname and search), unknown after a
 * full page load.
 */
export function stepsBackInHistory(current: string, previous: string | null | undefined): boolean {
  return typeof previous === "string" && previous !== current && pathOf(previous) === pathOf(current);
}
