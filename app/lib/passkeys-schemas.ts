// The zod schema of a passkey's name (the rules in passkeys.ts), for the server's rename action: no
// page loads zod with its first load (issue 16).

import { z } from "zod";
import { PASSKEY_NAME_MAX } from "./passkeys";

export const PasskeyNameSchema = z
  .string({ required_error: "security:biometric.errors.nameRequired" })
  .trim()
  .min(1, "security:biometric.errors.nameRequired")
  .max(PASSKEY_NAME_MAX, "security:biometric.errors.nameLength");
