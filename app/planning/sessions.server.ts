import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import type { PlanningClient } from "./client.server";
import { WireDateTime } from "./wire";

// ASVS V3.3.4 (docs/decisions/170): where the signed-in user is signed in, and ending those
// sessions. docs/platform-api.md "Session": always the caller's own.

const SessionAnswer = z.object({
  id: WholeNumber.positive(),
  user_agent: z.string().nullable(),
  client_address: z.string().nullable(),
  created_at: WireDateTime,
  last_active: WireDateTime,
  current: z.boolean(),
});
const SessionsAnswer = z.object({ sessions: z.array(SessionAnswer) });

export type SignedInSession = {
  id: number;
  userAgent: string | null;
  address: string | null;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
};

export async function listSessions(planning: PlanningClient): Promise<SignedInSession[]> {
  const { sessions } = await planning.get("resourceful/session/sessions", SessionsAnswer);
  return sessions.map((s) => ({
    id: s.id,
    userAgent: s.user_agent,
    address: s.client_address,
    signedInAt: s.created_at,
    lastActiveAt: s.last_active,
    current: s.current,
  }));
}

/**
 * Ends one of the user's sessions (a 404 when it has ended already), with the user's current
 * password (decision 179).
 */
export async function endSession(planning: PlanningClient, id: number, currentPassword: string): Promise<void> {
  await planning.delete(`resourceful/session/sessions/${id}`, {
    body: { current_password: currentPassword },
    retry: false,
  });
}

/** Ends all the user's other sessions, with the user's current password; this one carries on. */
export async function endOtherSessions(planning: PlanningClient, currentPassword: string): Promise<void> {
  await planning.delete("resourceful/session/sessions", { body: { current_password: currentPassword }, retry: false });
}
