// The zod schemas of the sign-in steps (the steps and their rules in sign-in-steps.ts): the
// platform's step answers, which the server parses, and each step's form, which the server applies
// to the posts and the browser loads after the page (issue 16). Messages are i18n keys of `auth`.

import { z } from "zod";
import { OTHER_QUESTION } from "./security";
import { MFA_METHODS, type SignInProgress, toSignInProgress } from "./sign-in-steps";

const Role = z.enum(["ClientUser", "User"]);
const Method = z.enum(MFA_METHODS);
const Ticketed = { login_ticket: z.string().min(1).max(200), role_name: Role };
const Device = {
  device_id: z.string().min(1),
  device_name: z.string().default(""),
  mfa_method: Method,
  destination: z.string().nullish(),
};

/** A step answer of the platform (auth/login and every auth/ step call, and 401 retry bodies). */
export const StepAnswer = z.discriminatedUnion("login_status", [
  z.object({ login_status: z.literal("LoginSuccess"), role_name: Role }),
  z.object({ ...Ticketed, login_status: z.literal("ForceChangePassword") }),
  z.object({
    ...Ticketed,
    login_status: z.literal("SiteTerms"),
    terms: z.object({ title: z.string(), html: z.string() }).nullish(),
  }),
  z.object({
    ...Ticketed,
    login_status: z.literal("SetSecurityQuestions"),
    default_questions: z.array(z.string()).default([]),
    answer_min_length: z.number().int().min(0).default(0),
  }),
  z.object({
    ...Ticketed,
    login_status: z.literal("MfaRequired"),
    mfa_method: Method.nullish(),
    destination: z.string().nullish(),
    enrolled: z.boolean().default(false),
  }),
  z.object({
    ...Ticketed,
    login_status: z.literal("MfaEnrolmentLinkDevice"),
    mfa_methods: z.array(z.object({ method: Method, destination: z.string().nullish() })).default([]),
  }),
  z.object({
    ...Ticketed,
    ...Device,
    login_status: z.literal("MfaEnrolmentValidateDevice"),
    token_secret: z.string().nullish(),
    otpauth_uri: z.string().nullish(),
  }),
  z.object({ ...Ticketed, ...Device, login_status: z.literal("MfaEnrolmentLinkDeviceInvalidOtp") }),
  z.object({
    ...Ticketed,
    login_status: z.literal("MemorableCharactersRequired"),
    memorableQuestions: z.array(z.number().int().min(0)).default([]),
    memorableWordHint: z.string().nullish(),
  }),
]);
export type StepAnswer = z.output<typeof StepAnswer>;

/** Parses a platform body as a step answer; null when it is not one (an ordinary error body). */
export function parseStepAnswer(body: unknown): SignInProgress | null {
  const parsed = StepAnswer.safeParse(body);
  return parsed.success ? toSignInProgress(parsed.data) : null;
}

// Form schemas (one per step).

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
