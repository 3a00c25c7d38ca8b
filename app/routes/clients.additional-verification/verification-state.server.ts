import { z } from "zod";
import { MFA_METHODS } from "~/lib/security";
import { sealedState } from "~/session/sealed-state.server";

const Method = z.enum(MFA_METHODS);

/**
 * Where the page is between posts (docs/decisions/052): validating a device (with or without a
 * refused code), or the outcome of a change. Sealed in a cookie: the device id and a token secret
 * never reach a hidden field or the URL.
 */
const VerificationStateSchema = z.union([
  z.object({
    step: z.enum(["validate", "invalid"]),
    device: z.object({
      deviceId: z.string(),
      method: Method,
      name: z.string(),
      destination: z.string().nullable(),
      tokenSecret: z.string().nullable(),
      otpauthUri: z.string().nullable(),
    }),
  }),
  z.object({ step: z.literal("changed"), method: Method }),
]);
export type VerificationState = z.infer<typeof VerificationStateSchema>;

/** A pending device lives 10 minutes on the platform. */
const verificationState = sealedState(
  "__verification",
  { path: "/clients/additional-verification", maxAgeSeconds: 10 * 60 },
  VerificationStateSchema,
);

export function readVerificationState(request: Request): Promise<VerificationState | null> {
  return verificationState.read(request);
}

export function commitVerificationState(state: VerificationState): Promise<string> {
  return verificationState.commit(state);
}

export function clearVerificationState(): Promise<string> {
  return verificationState.clear();
}
