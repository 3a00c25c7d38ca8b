// spec 002 §2 "Screens and routes": /core/factfind, /core/apa and /core/robo, the fact find,
// automated personal advice and robo advice journeys, which run on another system. The portal's
// page introduces one (a text page of the site's content) and links to the address the site's
// settings give it (docs/decisions/096).

export const JOURNEYS = {
  factfind: { page: "journey-factfind", setting: "factFindUrl" },
  apa: { page: "journey-apa", setting: "apaUrl" },
  robo: { page: "journey-robo", setting: "roboUrl" },
} as const;

export type JourneyKey = keyof typeof JOURNEYS;

type Content = {
  pages: Record<string, { title: string; html: string }>;
  settings: Record<string, string | number | boolean | null>;
};

/** A journey's page: its title and HTML from content, and its address (null when not configured). */
export type JourneyPage = { title: string; html: string; url: string | null };

/** The journey's address from the settings: an absolute http(s) URL, else none. */
export function journeyUrl(settings: Content["settings"], key: JourneyKey): string | null {
  const value = settings[JOURNEYS[key].setting];
  if (typeof value !== "string" || !value.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The journey's page, or undefined when the content has no text page for it. */
export function journeyPageOf(site: Content, key: JourneyKey): JourneyPage | undefined {
  const name = JOURNEYS[key].page;
  const page = Object.hasOwn(site.pages, name) ? site.pages[name] : undefined;
  return page ? { title: page.title, html: page.html, url: journeyUrl(site.settings, key) } : undefined;
}
