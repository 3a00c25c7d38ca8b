// spec 000 §2 "Main bar": the mobile Back button. It steps back through the views the user visited
// on pages that keep one (the analysis page's account filters), and goes to the clients home when
// there is none. Pure: the shell asks it where the button leads and whether to step back instead.
import { PAGE_PATHS } from "./navigation";

/**
 * Where Back leads without JavaScript: the page's own previous level (`backHref`, from its loader),
 * else the clients home; null where there is no Back button (outside the clients pages, and on the
 * clients home itself).
 */
export function mobileBackHref(pathname: string, backHref: unknown): string | null {
  const path = pathname.replace(/\/+$/, "");
  if (!path.startsWith("/clients/") || path === PAGE_PATHS.home) return null;
  return typeof backHref === "string" && backHref.startsWith("/clients/") ? backHref : PAGE_PATHS.home;
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
