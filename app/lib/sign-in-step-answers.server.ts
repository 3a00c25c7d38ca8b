// The platform's sign-in step answers (docs/platform-api.md "Sign-in steps"), parsed on the server
// alone; the steps and their rules are in sign-in-steps.ts, each step's form in
// sign-in-steps-schemas.ts. A platform answer, so zod 4 (docs/decisions/159).

import { z } from "zod/v4";
import { WholeNumber } from "./whole-number.server";
import { MFA_METHODS } from "./security";
import { type SignInProgress, toSignInProgress } from "./sign-in-steps";

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
  z.object({
    ...Ticketed,
    login_status: z.literal("ForceChangePassword"),
    // decision 180: the password signed in with is common or breached (another reason reads as none)
    reason: z.string().nullish(),
  }),
  z.object({
    ...Ticketed,
    login_status: z.literal("SiteTerms"),
    terms: z.object({ title: z.string(), html: z.string() }).nullish(),
  }),
  z.object({
    ...Ticketed,
    login_status: z.literal("SetSecurityQuestions"),
    default_questions: z.array(z.string()).prefault([]),
    answer_min_length: WholeNumber.min(0).default(0),
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
    mfa_methods: z.array(z.object({ method: Method, destination: z.string().nullish() })).prefault([]),
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
    memorableQuestions: z.array(WholeNumber.min(0)).prefault([]),
    memorableWordHint: z.string().nullish(),
  }),
]);
export type StepAnswer = z.output<typeof StepAnswer>;

/** Parses a platform body as a step answer; null when it is not one (an ordinary error body). */
export function parseStepAnswer(body: unknown): SignInProgress | null {
  const parsed = StepAnswer.safeParse(body);
  return parsed.success ? toSignInProgress(parsed.data) : null;
}
