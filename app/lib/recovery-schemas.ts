// spec 000 §4 "Forgotten password flow" and §5 "Forgotten username": the zod schemas of the Help
// with logging in page (rules in recovery.ts). The browser imports this module only dynamically.

import { z } from "zod";
import { messageWithValues } from "~/lib/client-search";
import { parseShortDate, shortDatePattern } from "~/lib/format";
import { EMAIL_PATTERN } from "~/lib/recovery";

/** The tab a Help with logging in page is for (`?userType=`): the client's unless it says adviser. */
export const RecoveryUserType = z.enum(["client", "adviser"]).catch("client");

const required = (message: string) => z.string({ required_error: message }).trim().min(1, message);

/** spec 000 §4 step main: 'Please enter a username'. */
export const ForgottenPasswordSchema = z.object({ username: required("recovery:errors.username") });

/** enterReset: the code ('Please enter your reset code') and the new password. */
export const ResetCodeSchema = z.object({
  resetCode: required("recovery:errors.resetCode").transform((s) => s.replace(/\s+/g, "")),
  newPassword: z.string({ required_error: "recovery:errors.password" }).min(1, "recovery:errors.password"),
});

/** secQNewPass: both answers ('Answer required') and the new password ('Password is required'). */
export const QuestionsResetSchema = z.object({
  answer1: required("recovery:errors.answer"),
  answer2: required("recovery:errors.answer"),
  newPassword: z.string({ required_error: "recovery:errors.password" }).min(1, "recovery:errors.password"),
});

/**
 * spec 000 §5 forgotten username: email required and basic; date of birth required and strict in
 * the locale's short format ('Please enter a date in a valid format of ' + format), sent as
 * YYYY-MM-DD.
 */
export function createForgottenUsernameSchema(locale: string) {
  const dobFormat = messageWithValues("recovery:errors.dobFormat", { format: shortDatePattern(locale) });
  return z.object({
    email: required("recovery:errors.email").refine((s) => EMAIL_PATTERN.test(s), "recovery:errors.emailFormat"),
    dob: required("recovery:errors.dob")
      .refine((s) => parseShortDate(s, locale) !== null, dobFormat)
      .transform((s) => parseShortDate(s, locale)!),
  });
}
