import { MFA_METHODS, OTHER_QUESTION, strongestFirst } from "./security";
import type { StepAnswer } from "./sign-in-step-answers.server";
import type { SecurityQuestionsValue } from "./sign-in-steps-schemas";
import type { Worded } from "./site-words";

// spec 000 §2 "Login content swaps by login status", §4 "Login status values" and "Login flow",
// §5 and 002 §5: the sign-in steps as the platform answers them (docs/platform-api.md "Sign-in
// steps") and the step each status shows. Pure: used by the server (actions, the login-state
// cookie) and the browser; the zod schemas of the answers are in sign-in-step-answers.server.ts,
// those of each step's form in sign-in-steps-schemas.ts, which the browser loads only after the
// page (issue 16).

export type MfaMethod = (typeof MFA_METHODS)[number];
export type SignInRole = "ClientUser" | "User";

export type MfaDestination = { method: MfaMethod; destination: string | null };

/** The step the login page shows; what the page needs to render it, never the ticket. */
export type LoginStep =
  | { status: "ForceChangePassword"; reason: "common" | null }
  | { status: "SiteTerms"; terms: { title: string; html: string | null } }
  | {
      status: "SetSecurityQuestions";
      /** The platform's English list; the page's view words them in its language (decision 210). */
      defaultQuestions: Array<string | Worded>;
      answerMinLength: number;
    }
  | { status: "MfaRequired"; method: MfaMethod | null; destination: string | null; enrolled: boolean }
  | { status: "MfaEnrolmentLinkDevice"; methods: MfaDestination[] }
  | {
      status: "MfaEnrolmentValidateDevice";
      deviceId: string;
      deviceName: string;
      method: MfaMethod;
      destination: string | null;
      tokenSecret: string | null;
      otpauthUri: string | null;
    }
  | {
      status: "MfaEnrolmentLinkDeviceInvalidOtp";
      deviceId: string;
      deviceName: string;
      method: MfaMethod;
      destination: string | null;
    }
  | { status: "MemorableCharactersRequired"; positions: number[]; hint: string | null };

export type StepStatus = LoginStep["status"];

export type SignInProgress =
  { kind: "success"; role: SignInRole } | { kind: "step"; role: SignInRole; ticket: string; step: LoginStep };

/** Maps a platform step answer to what the portal keeps and shows (the ticket kept apart). */
export function toSignInProgress(answer: StepAnswer): SignInProgress {
  if (answer.login_status === "LoginSuccess") return { kind: "success", role: answer.role_name };
  const ticket = answer.login_ticket;
  const role = answer.role_name;
  const step = ((): LoginStep => {
    switch (answer.login_status) {
      case "ForceChangePassword":
        return { status: "ForceChangePassword", reason: answer.reason === "common" ? "common" : null };
      case "SiteTerms":
        return { status: "SiteTerms", terms: { title: answer.terms?.title ?? "", html: answer.terms?.html ?? null } };
      case "SetSecurityQuestions":
        return {
          status: "SetSecurityQuestions",
          defaultQuestions: answer.default_questions,
          answerMinLength: answer.answer_min_length,
        };
      case "MfaRequired":
        return {
          status: "MfaRequired",
          method: answer.mfa_method ?? null,
          destination: answer.destination ?? null,
          enrolled: answer.enrolled,
        };
      case "MfaEnrolmentLinkDevice":
        return {
          status: "MfaEnrolmentLinkDevice",
          methods: strongestFirst(
            answer.mfa_methods.map((m) => ({ method: m.method, destination: m.destination ?? null })),
          ),
        };
      case "MfaEnrolmentValidateDevice":
        return {
          status: "MfaEnrolmentValidateDevice",
          deviceId: answer.device_id,
          deviceName: answer.device_name,
          method: answer.mfa_method,
          destination: answer.destination ?? null,
          tokenSecret: answer.token_secret ?? null,
          otpauthUri: answer.otpauth_uri ?? null,
        };
      case "MfaEnrolmentLinkDeviceInvalidOtp":
        return {
          status: "MfaEnrolmentLinkDeviceInvalidOtp",
          deviceId: answer.device_id,
          deviceName: answer.device_name,
          method: answer.mfa_method,
          destination: answer.destination ?? null,
        };
      case "MemorableCharactersRequired":
        return {
          status: "MemorableCharactersRequired",
          positions: answer.memorableQuestions,
          hint: answer.memorableWordHint ?? null,
        };
    }
  })();
  return { kind: "step", role, ticket, step };
}

/** spec 000 §5 / §9: the memorable word asks exactly three characters, else it cannot be answered. */
export function memorableAnswerable(step: Extract<LoginStep, { status: "MemorableCharactersRequired" }>): boolean {
  return step.positions.length === 3;
}

// ---------------------------------------------------------------------------------------------
// The intents of the login page: every step is a plain form posting to /login with one of these.

export const INTENTS = [
  "login",
  "change-password",
  "agree-terms",
  "decline-terms",
  "security-questions",
  "validate-code",
  "resend-code",
  "link-device",
  "memorable",
  "cancel",
  // docs/decisions/101: the browser's answer to a passkey sign-in (the login page's script)
  "passkey",
] as const;
export type Intent = (typeof INTENTS)[number];

/** The intents each step accepts (anything else posted at that step is stale: the step is shown again). */
export const STEP_INTENTS: Record<StepStatus, readonly Intent[]> = {
  ForceChangePassword: ["change-password", "cancel"],
  SiteTerms: ["agree-terms", "decline-terms"],
  SetSecurityQuestions: ["security-questions", "cancel"],
  MfaRequired: ["validate-code", "resend-code", "cancel"],
  MfaEnrolmentLinkDevice: ["link-device", "cancel"],
  MfaEnrolmentValidateDevice: ["validate-code", "resend-code", "cancel"],
  MfaEnrolmentLinkDeviceInvalidOtp: ["resend-code", "cancel"],
  MemorableCharactersRequired: ["memorable", "cancel"],
};

export function intentOf(value: FormDataEntryValue | null): Intent {
  return INTENTS.find((i) => i === value) ?? "login";
}

// ---------------------------------------------------------------------------------------------
// The security-questions step (its form schema is in sign-in-steps-schemas.ts).

/**
 * The fields' HTML constraints (required, lengths, patterns) of the login form and of each step's
 * form, as Conform derives them from the schemas (app/routes/login/constraints.test.ts proves it):
 * the page renders them without loading zod (issue 16).
 */
export const LOGIN_CONSTRAINT = {
  userType: { required: false, pattern: "client|adviser" },
  username: { required: true, minLength: 1 },
  password: { required: true, minLength: 1 },
  redirectTo: { required: false },
};
export const STEP_CONSTRAINTS = {
  forcedPassword: { newPassword: { required: true, minLength: 1 } },
  securityCode: { code: { required: true, minLength: 1, pattern: "^(?=.*(?:^\\d{6}$)).*$" } },
  linkDevice: { method: { required: true, pattern: MFA_METHODS.join("|") } },
  securityQuestions: {
    question1: { required: true },
    question1Custom: { required: false },
    answer1: { required: true, maxLength: 256 },
    question2: { required: true },
    question2Custom: { required: false },
    answer2: { required: true, maxLength: 256 },
  },
};

/** The two question-and-answer pairs the platform takes. */
export function questionsPayload(value: SecurityQuestionsValue): Array<{ question: string; answer: string }> {
  return ([1, 2] as const).map((n) => ({
    question: (value[`question${n}`] === OTHER_QUESTION
      ? (value[`question${n}Custom`] ?? "")
      : value[`question${n}`]
    ).trim(),
    answer: value[`answer${n}`],
  }));
}

// ---------------------------------------------------------------------------------------------
// spec 000 §8 "Sign-in and security messages": the platform's messages, as keys of `auth`.

const MESSAGE_KEYS: Record<string, string> = {
  "Either your username or your password is incorrect.": "login.invalidCredentials",
  "Account has been disabled.": "login.disabled",
  "Account deactivated": "login.deactivated",
  "Permission error: User Id and authentication token combination are incorrect.": "login.authTokenIncorrect",
  "There was an error with the authentication code you entered. A new code has been sent to you. Please try again.":
    "steps.code.badCodeResent",
  "There was an error with the authentication code you entered. Please try again.": "steps.code.badCode",
  "Incorrect memorable word characters. Please try again with the new positions.": "steps.memorable.wrong",
  "Memorable word validation failed": "steps.memorable.failed",
  "There is a problem with your registered phone number or email address. Please contact your adviser for assistance.":
    "steps.linkDevice.enrolmentProblem",
  "MFA method not available": "steps.linkDevice.notAvailable",
  "An error occurred whilst requesting additional verification code": "steps.code.requestError",
  "Too many codes have been requested. Please log in again.": "steps.code.tooMany",
  "Login ticket is invalid or has expired. Please log in again.": "steps.sessionNotFound",
  "This sign-in is at another step.": "steps.sessionNotFound",
  "The password must be at least 12 characters long.": "steps.password.policy.minLength",
  "The password must be at most 128 characters long.": "steps.password.policy.maxLength",
  "This password is too common or has appeared in a data breach. Choose a different one.":
    "steps.password.policy.common",
  "The password must not contain your username.": "steps.password.policy.username",
  "The new password must be different from your current password.": "steps.password.policy.different",
  "Please enter a security question.": "steps.questions.questionRequired",
  "Question needs to be at most 256 characters": "steps.questions.questionTooLong",
  "Please enter an answer to your security question.": "steps.questions.answerRequired",
  "Answers must be at most 256 characters": "steps.questions.answerTooLong",
  "Answers must be at least 8 characters": "steps.questions.answerTooShort",
  "Please select two different security questions.": "steps.questions.different",
};

/** The `auth` key of a known platform message, or null (the caller shows it cleaned, raw). */
export function messageKeyOf(apiMessage: string | null | undefined): string | null {
  return apiMessage ? (MESSAGE_KEYS[apiMessage.trim()] ?? null) : null;
}

/** Which security-questions field a platform message belongs beside (spec 002 §5). */
export function questionsFieldOf(key: string): "question1" | "question2" | "answer1" {
  if (key === "steps.questions.different") return "question2";
  if (key.startsWith("steps.questions.answer")) return "answer1";
  return "question1";
}
