import { z } from "zod/v4";
import type { ResetMethod } from "~/lib/recovery";
import { createPlanningClient } from "./client.server";

// spec 000 §4 "Forgotten password flow", §7 forgotten_password and forgot/username (no session);
// docs/platform-api.md "Forgotten password", docs/decisions/042 and 050.

const StartAnswer = z.union([
  z.object({
    reset_method: z.literal("questions"),
    user_id: z.string().min(1),
    questions: z.array(z.string()).length(2),
  }),
  z.object({ reset_method: z.literal("code"), user_id: z.string().min(1) }),
]);
const ChangedAnswer = z.object({ password_changed: z.literal(true) });
const SentAnswer = z.object({ sent: z.literal(true) });

export type ResetStart = { method: ResetMethod; reference: string; questions: string[] };

export async function startPasswordReset(username: string): Promise<ResetStart> {
  const answer = await createPlanningClient().post("resourceful/forgotten_password", StartAnswer, {
    body: { username },
  });
  return {
    method: answer.reset_method,
    reference: answer.user_id,
    questions: answer.reset_method === "questions" ? answer.questions : [],
  };
}

export async function completePasswordReset(input: {
  reference: string;
  resetCode?: string;
  answers?: [string, string];
  newPassword: string;
}): Promise<void> {
  await createPlanningClient().put("resourceful/forgotten_password", ChangedAnswer, {
    body: {
      user_id: input.reference,
      ...(input.resetCode !== undefined ? { reset_code: input.resetCode } : {}),
      ...(input.answers ? { answers: input.answers } : {}),
      new_password: input.newPassword,
    },
    // a repeated PUT could count a wrong secret twice towards the lockout
    retry: false,
  });
}

export async function sendForgottenUsername(input: { email: string; dob: string }): Promise<void> {
  await createPlanningClient().post("resourceful/forgot/username", SentAnswer, {
    body: { preferred_email: input.email, role_type: "client", dob: input.dob },
  });
}
