import type { SiteAccessLevel } from "./site-access";

// spec 002 §2 "Notification and postponement panels" and §4 "Announcement and cookie notice": the
// announcement panel, its hash (§9) and when it shows (docs/decisions/096).

/** What the shell shows: the content's title, its sanitised HTML and its hash. */
export type Announcement = { title: string; html: string; hash: string };

/** The site content's text page that holds the announcement's title and HTML. */
export const ANNOUNCEMENT_PAGE = "announcement";

/**
 * spec 002 §2: the panel shows only when the site access level is unset, Messages or Not Assigned.
 * "unset" is in the rule as the spec words it, but never reaches the shell: sign-in and the site
 * access gate refuse a client without a valid level (docs/decisions/038).
 */
export function announcementShownAt(level: SiteAccessLevel | "unset"): boolean {
  return level === "unset" || level === "Messages" || level === "NotAssigned";
}

/**
 * spec 002 §9 "Announcement hash": a short stable hash of the announcement's title and HTML, so that
 * 'Don't show this again' hides this announcement only and a new one shows again. FNV-1a, 32 bits,
 * in base 36 (at most 7 characters).
 */
export function announcementHash(title: string, html: string): string {
  let hash = 0x811c9dc5;
  const text = `${title}\n${html}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** A hash as the close form posts it: what announcementHash answers, nothing else. */
export function isAnnouncementHash(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-z]{1,7}$/.test(value);
}
