// The zod schemas of the account-security forms (rules in security.ts). The server parses posts
// with them; the browser imports this module only dynamically, after the page (issue 16).
// Messages are i18n keys ("namespace:key", docs/decisions/037).

import { z } from "zod";
import {
  chosenQuestion,
  lengthOf,
  MFA_METHODS,
  type MfaMethod,
  methodChanged,
  OTHER_QUESTION,
  SECURITY_TEXT_MAX,
  type SecurityQuestionsRules,
} from "./security";

const required = (message: string) => z.string({ required_error: message }).min(1, message);

/**
 * The current password asked again before a sensitive change (decision 179), with change
 * password's message.
 */
const CURRENT_PASSWORD_REQUIRED = "security:changePassword.errors.current";

/** Signing out another browser, or all others; removing a passkey (decision 179). */
export const CurrentPasswordSchema = z.object({ currentPassword: required(CURRENT_PASSWORD_REQUIRED) });

/** spec 002 §5: 'Please enter your current password', 'Please enter a password'. */
export const ChangePasswordSchema = z.object({
  currentPassword: required("security:changePassword.errors.current"),
  newPassword: required("security:changePassword.errors.new"),
});

/**
 * spec 002 §5, in the platform's order: a question for each ('Please enter a security question.'),
 * a custom question at most 256 ('Question needs to be at most 256 characters'), answers required
 * and at most 256 (and at least 8 on the platforms that ask it), and two different questions
 * (ignoring case).
 */
export function createSecurityQuestionsSchema(rules: SecurityQuestionsRules) {
  const pair = { question: z.string().optional(), custom: z.string().optional(), answer: z.string().optional() };
  return z
    .object({
      question1: pair.question,
      customQuestion1: pair.custom,
      answer1: pair.answer,
      question2: pair.question,
      customQuestion2: pair.custom,
      answer2: pair.answer,
      // decision 179: the current password, asked again
      currentPassword: z.string().optional(),
    })
    .superRefine((value, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
      const questions: string[] = [];
      for (const n of [1, 2] as const) {
        const selected = value[`question${n}`];
        const custom = value[`customQuestion${n}`];
        const question = chosenQuestion(selected, custom);
        questions.push(question);
        if (!selected) issue(`question${n}`, "security:questions.errors.question");
        else if (selected === OTHER_QUESTION && !question)
          issue(`customQuestion${n}`, "security:questions.errors.question");
        else if (lengthOf(question) > SECURITY_TEXT_MAX) {
          issue(
            selected === OTHER_QUESTION ? `customQuestion${n}` : `question${n}`,
            "security:questions.errors.questionLength",
          );
        }
        const answer = (value[`answer${n}`] ?? "").trim();
        if (!answer) issue(`answer${n}`, "security:questions.errors.answer");
        else if (lengthOf(answer) > SECURITY_TEXT_MAX) issue(`answer${n}`, "security:questions.errors.answerLength");
        else if (rules.answerMinLength > 0 && lengthOf(answer) < rules.answerMinLength) {
          issue(`answer${n}`, "security:questions.errors.answerMin");
        }
      }
      const [first, second] = questions;
      if (first && second && first.toLowerCase() === second.toLowerCase()) {
        issue(
          value.question2 === OTHER_QUESTION ? "customQuestion2" : "question2",
          "security:questions.errors.different",
        );
      }
      if (!value.currentPassword) issue("currentPassword", CURRENT_PASSWORD_REQUIRED);
    })
    .transform((value) => ({
      currentPassword: value.currentPassword ?? "",
      questions: [1, 2].map((n) => ({
        question: chosenQuestion(value[`question${n as 1 | 2}`], value[`customQuestion${n as 1 | 2}`]),
        answer: (value[`answer${n as 1 | 2}`] ?? "").trim(),
      })),
    }));
}

/** An unticked checkbox is not posted: absent means no. */
export const PreferencesSchema = z.object({
  email: z.boolean().optional().default(false),
  post: z.boolean().optional().default(false),
  sms: z.boolean().optional().default(false),
});

/**
 * spec 000 §5: a method is required ('MFA method required'); choosing the current one changes
 * nothing (said, for browsers without JavaScript where Save is not disabled); a password is required
 * when the method changes ('Password is required').
 */
export function createMethodChangeSchema(current: string | null) {
  return z
    .object({ method: z.string().optional(), password: z.string().optional() })
    .superRefine((value, ctx) => {
      if (!value.method || !(MFA_METHODS as readonly string[]).includes(value.method)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["method"], message: "security:verification.errors.method" });
        return;
      }
      if (!methodChanged(value.method, current)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["method"],
          message: "security:verification.errors.sameMethod",
        });
        return;
      }
      if (!value.password) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["password"],
          message: "security:verification.errors.password",
        });
      }
    })
    .transform((value) => ({ method: value.method as MfaMethod, password: value.password ?? "" }));
}

/** spec 000 §5: 'MFA Code required'. */
export const MfaCodeSchema = z.object({
  code: required("security:verification.errors.code").transform((s) => s.replace(/\s+/g, "")),
});
