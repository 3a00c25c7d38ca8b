import { logger } from "~/runtime/logger.server";
import { setCookiesOf } from "~/lib/set-cookies";
import { createPlanningClient, type PlanningClient } from "./client.server";

/** The XPLANID session from the platform's Set-Cookie headers. */
export function platformTokenFrom(headers: Headers): string | null {
  for (const cookie of setCookiesOf(headers)) {
    const match = /^XPLANID=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return null;
}

/**
 * DELETE /resourceful/session: the platform forgets the session, so a replayed cookie gets nothing.
 * A failure is logged, not thrown: the caller clears the portal's cookie whatever the platform
 * says, and the platform's own idle timeout ends the rest.
 */
export async function logout(session: string | PlanningClient): Promise<void> {
  const planning = typeof session === "string" ? createPlanningClient({ token: session }) : session;
  try {
    await planning.delete("resourceful/session", { retry: false });
  } catch (error) {
    logger.error("platform logout failed", { error: String(error) });
  }
}
