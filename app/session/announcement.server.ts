import { createCookie } from "@remix-run/node";
import { env } from "~/runtime/env.server";
import { ANNOUNCEMENT_PAGE, type Announcement, announcementHash, announcementShownAt } from "~/lib/announcement";
import type { SiteAccessLevel } from "~/lib/site-access";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import type { SessionUser } from "~/lib/user";
import { cookieName } from "./cookie-name.server";

// spec 002 §4 "Announcement and cookie notice": closing hides the announcement; ticking 'Don't show
// this again' stores a cookie keyed by the hash, valid to 2099 (§9), so it stays hidden. Both are
// cookies so that the panel works without JavaScript (docs/decisions/096).

/** spec 002 §9: "The cookie is valid until 2099." */
export const ANNOUNCEMENT_COOKIE_EXPIRES = new Date(Date.UTC(2099, 11, 31, 23, 59, 59));

const cookieOptions = { path: "/", sameSite: "lax" as const, httpOnly: true, secure: env.cookieSecure };

/** Closed without the tick: hidden for the rest of the browser session (a session cookie). */
const closedThisSession = createCookie(cookieName("announcement_closed"), cookieOptions);

/** 'Don't show this again': a cookie named after the hash, until 2099 (its expiry is set when sent). */
function hiddenForGood(hash: string) {
  return createCookie(cookieName(`announcement_hidden_${hash}`), cookieOptions);
}

/** The site access level the shell is showing: the client's own, or that of the adviser's client in context. */
function levelShown(user: SessionUser): SiteAccessLevel | "unset" | null {
  if (user.role === "ClientUser") return user.siteAccessLevel ?? "unset";
  return user.clientInContext?.siteAccessLevel ?? null;
}

/**
 * The announcement the shell shows, or null: none for this level, none in the site's content, or
 * closed this session, or hidden for good.
 */
export async function announcementFor(
  request: Request,
  user: SessionUser | null,
  pages: Record<string, { title: string; html: string }>,
): Promise<Announcement | null> {
  if (!user) return null;
  const level = levelShown(user);
  if (!level || !announcementShownAt(level)) return null;
  const page = Object.hasOwn(pages, ANNOUNCEMENT_PAGE) ? pages[ANNOUNCEMENT_PAGE] : undefined;
  if (!page) return null;
  const hash = announcementHash(page.title, page.html);
  const cookies = request.headers.get("Cookie");
  if ((await closedThisSession.parse(cookies)) === hash) return null;
  if ((await hiddenForGood(hash).parse(cookies)) === "hidden") return null;
  return { title: page.title, html: sanitiseTextPage(page.html), hash };
}

/** The Set-Cookie that closes the announcement of `hash`: for this session, or for good. */
export async function closeAnnouncementHeader(hash: string, forGood: boolean): Promise<string> {
  return forGood
    ? hiddenForGood(hash).serialize("hidden", { expires: ANNOUNCEMENT_COOKIE_EXPIRES })
    : closedThisSession.serialize(hash);
}
