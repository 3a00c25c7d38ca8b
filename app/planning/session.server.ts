import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import { type SiteAccessProblem, siteAccessLevelOf } from "~/lib/site-access";
import { type Theme, themeOf } from "~/lib/theme";
import type { SessionUser } from "~/lib/user";
import { type PlanningClient, PlanningError, isLostSession } from "./client.server";
import { AnyAnswer, ClientAccessLevel, WireDateTime } from "./wire";

const ClientInContextAnswer = z.object({
  id: z.number(),
  entity_id: z.number(),
  display_name: z.string(),
  is_preview_mode: z.boolean(),
  client_access_level: ClientAccessLevel,
});

export const SessionUserAnswer = z.object({
  id: z.number(),
  entity_id: z.number(),
  display_name: z.string(),
  first_name: z.string().nullish(),
  preferred_name: z.string().nullish(),
  role_name: z.enum(["ClientUser", "User"]),
  locale: z.string().nullish(),
  last_login: WireDateTime.nullish(),
  user_timezone: z.string().nullish(),
  partner_entity_id: z.number().nullish(),
  login_method: z.enum(["Basic", "MemorableWord", "MFA"]).default("Basic"),
  // Read as it comes: a level the portal cannot map is the site access gate's to refuse (spec 000
  // §4), not a broken contract.
  client_access_level: z.unknown().optional(),
  client_in_context: ClientInContextAnswer.nullish(),
  passkey_count: WholeNumber.min(0).default(0),
  // docs/decisions/203: a theme the portal does not know is the device's setting
  theme: z.unknown().optional(),
});

/** spec 000 §8 "Site access errors": a client whose site access level is unknown or unavailable. */
export class SiteAccessError extends Error {
  constructor(
    readonly problem: SiteAccessProblem,
    /** The level as the platform answered it (never personal data), for the log. */
    readonly clientAccessLevel: unknown = undefined,
    readonly userId: number | null = null,
    /** The status of the failed call, for AccessLevelError. */
    readonly status: number | null = null,
  ) {
    super(`site access level unavailable: ${problem}`);
    this.name = "SiteAccessError";
  }
}

export function toClientInContext(
  c: z.output<typeof ClientInContextAnswer>,
): NonNullable<SessionUser["clientInContext"]> {
  return {
    id: c.id,
    entityId: c.entity_id,
    displayName: c.display_name,
    siteAccessLevel: c.client_access_level,
    isPreviewMode: c.is_preview_mode,
  };
}

/** The user as the cookie keeps it; a client's site access level must map (SiteAccessError otherwise). */
export function toSessionUser(u: z.output<typeof SessionUserAnswer>): SessionUser {
  let siteAccessLevel: SessionUser["siteAccessLevel"] = null;
  if (u.role_name === "ClientUser") {
    const access = siteAccessLevelOf(u.client_access_level);
    if (!access.ok) throw new SiteAccessError(access.problem, u.client_access_level ?? null, u.id);
    siteAccessLevel = access.level;
  }
  return {
    id: u.id,
    entityId: u.entity_id,
    role: u.role_name,
    displayName: u.display_name,
    firstName: u.preferred_name || u.first_name || u.display_name,
    locale: u.locale ?? "en-GB",
    loginMethod: u.login_method,
    siteAccessLevel,
    partnerEntityId: u.partner_entity_id ?? null,
    lastLogin: u.last_login ?? null,
    userTimezone: u.user_timezone ?? null,
    clientInContext: u.client_in_context ? toClientInContext(u.client_in_context) : null,
    hasPasskey: u.passkey_count > 0,
    theme: themeOf(u.theme),
  };
}

export async function fetchSessionUser(planning: PlanningClient): Promise<SessionUser> {
  return toSessionUser(await planning.get("resourceful/session/user", SessionUserAnswer));
}

/**
 * Whether the platform has ended this session (signed out, expired, closed by a password change).
 * Any other failure says nothing about the session, so it counts as not ended.
 */
export async function platformSessionEnded(planning: PlanningClient): Promise<boolean> {
  try {
    await planning.get("resourceful/session/user", AnyAnswer);
    return false;
  } catch (error) {
    return isLostSession(error);
  }
}

const LoginProfileAnswer = z.object({ session_timeout: WholeNumber.positive() });
const DEFAULT_IDLE_MINUTES = 30; // spec 000 §9: the layout's 30 minutes until the server's value is known

/** spec 000 §4/§7: the session-timeout profile 1; a 403 or 404 is ignored silently. */
export async function fetchIdleMinutes(planning: PlanningClient): Promise<number> {
  try {
    const profile = await planning.get("resourceful/sysadmin/loginsetting/login_profile/1", LoginProfileAnswer);
    return profile.session_timeout;
  } catch (error) {
    if (error instanceof PlanningError && (error.status === 403 || error.status === 404)) return DEFAULT_IDLE_MINUTES;
    throw error;
  }
}

const ThemeAnswer = z.object({ theme: z.enum(["system", "light", "dark"]) });

/** docs/decisions/203: the signed-in user's own theme, kept on the platform with their other settings. */
export async function saveTheme(planning: PlanningClient, theme: Theme): Promise<Theme> {
  return (await planning.put("resourceful/session/user/theme", ThemeAnswer, { body: { theme } })).theme;
}
