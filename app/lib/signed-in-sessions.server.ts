import Bowser from "bowser";
import { formatLastLogin } from "./format-date.server";

// ASVS V3.3.4 (docs/decisions/170): the rows of 'Where you're signed in'. The browser is named from
// the User-Agent the platform kept, by bowser (a maintained parser; the server only, so the page's
// scripts do not carry it), as a person knows it: 'Chrome on Windows', 'Safari on iOS'.

/** A browser and system as people name them, either null when the User-Agent does not say. */
export type BrowserName = { browser: string | null; os: string | null };

export function browserNameOf(userAgent: string | null | undefined): BrowserName {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}

export type SessionRow = {
  id: number;
  browser: BrowserName;
  address: string | null;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
};

/** The sessions as the page lists them: this browser first, then the most recently active; times in the user's zone. */
export function sessionRows(
  sessions: Array<{
    id: number;
    userAgent: string | null;
    address: string | null;
    signedInAt: string;
    lastActiveAt: string;
    current: boolean;
  }>,
  timeZone: string | null,
  locale: string,
): SessionRow[] {
  const ordered = [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
  return ordered.map((s) => ({
    id: s.id,
    browser: browserNameOf(s.userAgent),
    address: s.address,
    signedInAt: formatLastLogin(s.signedInAt, timeZone, locale),
    lastActiveAt: formatLastLogin(s.lastActiveAt, timeZone, locale),
    current: s.current,
  }));
}
