import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import { createPlanningClient, type PlanningClient } from "./client.server";

// docs/platform-api.md "Passkeys": the WebAuthn ceremonies run on the platform; the portal passes
// the options to the browser and its answer back, and manages the user's list.

/** The options as the browser's WebAuthn helpers take them (binary fields base64url). */
const CeremonyOptions = z.looseObject({ challenge: z.string().min(1) });
export type CeremonyOptions = z.infer<typeof CeremonyOptions>;

/** Sign-in: options for a discoverable passkey (no session, no username). */
export function authenticationOptions(): Promise<CeremonyOptions> {
  return createPlanningClient().post("auth/passkey/authentication/options", CeremonyOptions, {
    body: {},
    retry: false,
  });
}

/**
 * Registration: options for a new passkey of the signed-in user, given only with the user's
 * current password (decision 179); their challenge is the proof that it was given.
 */
export function registrationOptions(planning: PlanningClient, currentPassword: string): Promise<CeremonyOptions> {
  return planning.post("resourceful/session/passkey/registration/options", CeremonyOptions, {
    body: { current_password: currentPassword },
    retry: false,
  });
}

const PasskeyAnswer = z.object({
  id: WholeNumber.positive(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  transports: z.array(z.string()).prefault([]),
});
const PasskeyAnswers = z.array(PasskeyAnswer);

export type Passkey = { id: number; name: string; createdAt: string; lastUsedAt: string | null };

const toPasskey = (p: z.output<typeof PasskeyAnswer>): Passkey => ({
  id: p.id,
  name: p.name,
  createdAt: p.created_at,
  lastUsedAt: p.last_used_at,
});

/** The browser's answer to the registration options, stored under `name`. */
export async function registerPasskey(planning: PlanningClient, response: unknown, name: string): Promise<Passkey> {
  return toPasskey(
    await planning.post("resourceful/session/passkey/registration/verify", PasskeyAnswer, {
      body: { response, name },
      retry: false,
    }),
  );
}

export async function listPasskeys(planning: PlanningClient): Promise<Passkey[]> {
  return (await planning.get("resourceful/session/passkey", PasskeyAnswers)).map(toPasskey);
}

export async function renamePasskey(planning: PlanningClient, id: number, name: string): Promise<Passkey> {
  return toPasskey(
    await planning.patch(`resourceful/session/passkey/${id}`, PasskeyAnswer, { body: { name }, retry: false }),
  );
}

/** Removes a passkey, with the user's current password (decision 179). */
export async function removePasskey(planning: PlanningClient, id: number, currentPassword: string): Promise<void> {
  await planning.delete(`resourceful/session/passkey/${id}`, {
    body: { current_password: currentPassword },
    retry: false,
  });
}
