// The zod schemas of the sign-in steps' forms (the steps and their rules in sign-in-steps.ts), which
// the server applies to the posts and the browser loads after the page (issue 16). Messages are
// i18n keys of `auth`. The platform's step answers are parsed on the server alone
// (sign-in-step-answers.server.ts).

import { z } from "zod";
import { MFA_METHODS, OTHER_QUESTION } from "./security";

/** spec 000 §5: 'A security code is required'; six digits, spaces ignored (the platform's rule). */
export const SecurityCodeSchema = z.object({
  code: z
    .string({ required_error: "auth:steps.code.required" })
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(
      z
        .string()
        .min(1, "auth:steps.code.required")
        .regex(/^\d{6}$/, "auth:steps.code.format"),
    ),
});

/** spec 000 §4 "Additional verification": 'MFA method required'. */
export const LinkDeviceSchema = z.object({
  method: z.enum(MFA_METHODS, { errorMap: () => ({ message: "auth:steps.linkDevice.required" }) }),
});

const oneCharacter = z
  .string({ required_error: "auth:steps.memorable.required" })
  .refine((v) => [...v].length === 1, "auth:steps.memorable.oneCharacter");

/** spec 000 §5 and §9: exactly one character per field, three fields. */
export const MemorableSchema = z.object({ char1: oneCharacter, char2: oneCharacter, char3: oneCharacter });

/** spec 002 §5 "Change password": the new password is required ('Please enter a password'). */
export const ForcedPasswordSchema = z.object({
  newPassword: z.string({ required_error: "auth:steps.password.required" }).min(1, "auth:steps.password.required"),
});

/**
 * spec 002 §5 "Security questions": both questions required, 'Other' needs a custom question of
 * at most 256 characters, answers required and at most 256 (at least `answerMinLength`), and the
 * two questions must differ (ignoring case, as the platform compares them).
 */
export function securityQuestionsSchema(answerMinLength: number) {
  const question = z.string({ required_error: "auth:steps.questions.questionRequired" });
  const custom = z.string().optional();
  const answer = z
    .string({ required_error: "auth:steps.questions.answerRequired" })
    .max(256, "auth:steps.questions.answerTooLong")
    .refine((v) => v.trim().length > 0, "auth:steps.questions.answerRequired")
    .refine((v) => v.trim().length >= answerMinLength, "auth:steps.questions.answerTooShort");
  return z
    .object({
      question1: question,
      question1Custom: custom,
      answer1: answer,
      question2: question,
      question2Custom: custom,
      answer2: answer,
    })
    .superRefine((value, ctx) => {
      const chosen: Array<string | null> = [];
      for (const n of [1, 2] as const) {
        const choice = value[`question${n}`];
        if (choice !== OTHER_QUESTION) {
          chosen.push(choice.trim());
          continue;
        }
        const text = value[`question${n}Custom`]?.trim() ?? "";
        if (!text) {
          ctx.addIssue({
            code: "custom",
            path: [`question${n}Custom`],
            message: "auth:steps.questions.questionRequired",
          });
          chosen.push(null);
        } else if (text.length > 256) {
          ctx.addIssue({
            code: "custom",
            path: [`question${n}Custom`],
            message: "auth:steps.questions.questionTooLong",
          });
          chosen.push(null);
        } else {
          chosen.push(text);
        }
      }
      const [first, second] = chosen;
      if (first && second && first.toLowerCase() === second.toLowerCase()) {
        ctx.addIssue({ code: "custom", path: ["question2"], message: "auth:steps.questions.different" });
      }
    });
}
export type SecurityQuestionsValue = z.output<ReturnType<typeof securityQuestionsSchema>>;
