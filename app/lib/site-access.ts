/** spec 000 §3: client_access_level to the site access level (the platform sends the index). */
export const SITE_ACCESS_LEVELS = ["NotAssigned", "Portfolio", "Assets", "Messages"] as const;
export type SiteAccessLevel = (typeof SITE_ACCESS_LEVELS)[number];

// spec 000 §4 "Session check and gates": the site access gate shows content if the level is valid,
// otherwise redirects to /login; §8 names the three site access errors (docs/decisions/038).

/** Why a client's site access level could not be had, as the login page's `error` value. */
export type SiteAccessProblem = "AccessLevelLookup" | "AccessLevelMapping" | "AccessLevelError";

export const SITE_ACCESS_PROBLEMS: readonly SiteAccessProblem[] = [
  "AccessLevelLookup",
  "AccessLevelMapping",
  "AccessLevelError",
];

/** The `auth` text of each problem: the spec's words. */
export const SITE_ACCESS_MESSAGE_KEYS: Record<SiteAccessProblem, string> = {
  // 'Unable to lookup mapping for client_access_level': no level to look up
  AccessLevelLookup: "login.siteAccess.lookup",
  // 'No mapping found for client_access_level': a level the portal does not know
  AccessLevelMapping: "login.siteAccess.mapping",
  // 'An error occurred getting client access level or choices': the call failed
  AccessLevelError: "login.siteAccess.error",
};

export type SiteAccessResult = { ok: true; level: SiteAccessLevel } | { ok: false; problem: SiteAccessProblem };

/**
 * spec 000 §3: client_access_level to the site access level (NotAssigned 0, ClientPortfolio 1,
 * ClientAssets 2, ClientMessages 3). A missing or non-numeric value cannot be looked up; a number
 * outside the four has no mapping.
 */
export function siteAccessLevelOf(clientAccessLevel: unknown): SiteAccessResult {
  if (typeof clientAccessLevel !== "number" || !Number.isFinite(clientAccessLevel)) {
    return { ok: false, problem: "AccessLevelLookup" };
  }
  const level = Number.isInteger(clientAccessLevel) ? SITE_ACCESS_LEVELS[clientAccessLevel] : undefined;
  return level ? { ok: true, level } : { ok: false, problem: "AccessLevelMapping" };
}

/** A level as kept in the session cookie: one of the four, or not valid. */
export function isSiteAccessLevel(value: unknown): value is SiteAccessLevel {
  return typeof value === "string" && (SITE_ACCESS_LEVELS as readonly string[]).includes(value);
}

/** spec 000 §2 "Index routing": documents and messages unless the level is Assets or Portfolio. */
export function clientsLandingPath(level: SiteAccessLevel): string {
  return level === "Assets" || level === "Portfolio" ? "/clients/home" : "/clients/documents-and-messages";
}

/** The landing page of a client's portal at this level; the clients' index (whose guard says why) when the level is not valid. */
export function clientsLandingPathOf(level: unknown): string {
  return isSiteAccessLevel(level) ? clientsLandingPath(level) : "/clients";
}

/** The problem named by the login page's `error` query value, if it is one of these. */
export function siteAccessProblemOf(value: string | null): SiteAccessProblem | null {
  return SITE_ACCESS_PROBLEMS.find((p) => p === value) ?? null;
}
