// spec 002 §5 "Security questions" and "Change password", spec 000 §4-§5 "Additional verification",
// spec 002 "Preferences": the forms' rules. Pure: shared by the server and the browser; the forms'
// schemas are in security-schemas.ts, which the browser loads only after the page (issue 16).
// Messages are i18n keys ("namespace:key", docs/decisions/037).

import type { Locale } from "./i18n";
import { siteText, type Worded } from "./site-words";

// ── password policy (docs/decisions/041, 171), shared with the forgotten-password steps ─────────────

/** The platform's policy messages, mapped to texts the portal can translate. */
export const PASSWORD_POLICY_MESSAGES: Record<string, string> = {
  "The password must be at least 12 characters long.": "security:policy.minLength",
  "The password must be at most 128 characters long.": "security:policy.maxLength",
  "This password is too common or has appeared in a data breach. Choose a different one.": "security:policy.common",
  "The password must not contain your username.": "security:policy.username",
  "The new password must be different from your current password.": "security:policy.different",
};

/** The i18n key of a password-policy refusal, or null when the message is something else. */
export function passwordPolicyKey(apiMessage: string | null | undefined): string | null {
  return (apiMessage && PASSWORD_POLICY_MESSAGES[apiMessage.trim()]) || null;
}

// ── change password ──────────────────────────────────────────────────────────────────────────

/** What every new-password form shows (spec 000 §5, 002 §2): the strength meter, and guidance. */
export type PasswordFormSettings = { strengthMeter: boolean; guidance: Worded | null };

/**
 * The site settings behind a new-password form: content may switch the meter off
 * (`passwordStrengthMeter: false`) and may give the new password's guidance (`passwordGuidance`),
 * in the page's language where the site has it (`passwordGuidance.<locale>`, decision 210).
 */
export function passwordFormSettings(
  settings: Record<string, string | number | boolean | null>,
  locale: Locale,
): PasswordFormSettings {
  const meter = settings.passwordStrengthMeter;
  return {
    strengthMeter: meter !== false && meter !== "false",
    guidance: siteText(settings, "passwordGuidance", locale),
  };
}

/** What the platform's refusal of a password change means for the form (docs/platform-api.md). */
export function changePasswordRefusal(
  apiMessage: string | null,
): { field: "currentPassword" | "newPassword"; message: string } | null {
  if (apiMessage === "The current password is incorrect.") {
    return { field: "currentPassword", message: "security:changePassword.errors.incorrect" };
  }
  const policy = passwordPolicyKey(apiMessage);
  return policy ? { field: "newPassword", message: policy } : null;
}

// ── the current password, asked again (decision 179) ─────────────────────────────────────────

/**
 * What the platform's refusal of a current password asked again means for the form: a message
 * beside the field (wrong or missing, with change password's wording), the lockout's message
 * above the form, or null for any other answer.
 */
export function currentPasswordRefusal(
  status: number,
  apiMessage: string | null,
): { fieldError: string } | { messageKey: "disabled" } | null {
  if (status === 403 && apiMessage === "Account has been disabled.") return { messageKey: "disabled" };
  if (status !== 400) return null;
  if (apiMessage === "The current password is incorrect.")
    return { fieldError: "security:changePassword.errors.incorrect" };
  if (apiMessage === "Password is required") return { fieldError: "security:changePassword.errors.current" };
  return null;
}

// ── security questions ───────────────────────────────────────────────────────────────────────

/** spec 002 §9: a question and an answer are at most 256 characters. */
export const SECURITY_TEXT_MAX = 256;
/** The select's value for a question of the user's own. */
export const OTHER_QUESTION = "__other__";

/**
 * spec 002 §5: the answer minimum is 8 characters for platform 22.8 build 234 or later, or 22.9 up
 * to build 237; otherwise 0. The platform also answers `answer_min_length`, which wins; this is the
 * rule for a platform that does not (a version such as '22.9.236').
 */
export function answerMinLengthForVersion(version: string | null | undefined): 0 | 8 {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version?.trim() ?? "");
  if (!match) return 0;
  const [major, minor, build] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major !== 22) return 0;
  if (minor === 8 && build >= 234) return 8;
  if (minor === 9 && build <= 237) return 8;
  return 0;
}

export type SecurityQuestionsRules = { answerMinLength: number };

/** Length in characters (code points), as the platform counts. */
export const lengthOf = (s: string) => [...s].length;

/** The question a pair of fields stands for: the chosen default, or the custom text for 'Other'. */
export function chosenQuestion(selected: string | undefined, custom: string | undefined): string {
  return (selected === OTHER_QUESTION ? (custom ?? "") : (selected ?? "")).trim();
}

/** The platform's security-question refusals (docs/platform-api.md), as the form's keys. */
export const SECURITY_QUESTION_MESSAGES: Record<string, string> = {
  "Please enter a security question.": "security:questions.errors.question",
  "Question needs to be at most 256 characters": "security:questions.errors.questionLength",
  "Please enter an answer to your security question.": "security:questions.errors.answer",
  "Answers must be at most 256 characters": "security:questions.errors.answerLength",
  "Answers must be at least 8 characters": "security:questions.errors.answerMin",
  "Please select two different security questions.": "security:questions.errors.different",
};

/** Where a current question sits in the form: a default question, or 'Other' with its text. */
export function questionFieldsOf(
  current: string | null | undefined,
  defaults: readonly string[],
): { select: string; custom: string } {
  if (!current) return { select: "", custom: "" };
  const match = defaults.find((q) => q.toLowerCase() === current.toLowerCase());
  return match ? { select: match, custom: "" } : { select: OTHER_QUESTION, custom: current };
}

// ── preferences ──────────────────────────────────────────────────────────────────────────────

export const PREFERENCE_FIELDS = ["email", "post", "sms"] as const;
export type PreferenceField = (typeof PREFERENCE_FIELDS)[number];
export type Preferences = Record<PreferenceField, boolean>;

/** spec 002 §3: comm_pref_email, comm_pref_mail, comm_pref_sms, each '1' or '0'. */
export function preferencesFromWire(wire: {
  comm_pref_email: string;
  comm_pref_mail: string;
  comm_pref_sms: string;
}): Preferences {
  return { email: wire.comm_pref_email === "1", post: wire.comm_pref_mail === "1", sms: wire.comm_pref_sms === "1" };
}

export function preferencesToWire(p: Preferences) {
  const flag = (b: boolean): "1" | "0" => (b ? "1" : "0");
  return { comm_pref_email: flag(p.email), comm_pref_mail: flag(p.post), comm_pref_sms: flag(p.sms) };
}

export function preferencesChanged(a: Preferences, b: Preferences): boolean {
  return PREFERENCE_FIELDS.some((f) => a[f] !== b[f]);
}

// ── additional verification ──────────────────────────────────────────────────────────────────

/** Strongest first (ASVS 4.0.3 V2.7.1, decision 178): the authenticator app, email, text message. */
export const MFA_METHODS = ["token", "email", "sms"] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];
export type MfaMethodOption = { method: MfaMethod; destination: string | null };

/**
 * The methods in the order they are offered, strongest first, whatever order the platform
 * answers them in (decision 178).
 */
export function strongestFirst<T extends { method: MfaMethod }>(methods: readonly T[]): T[] {
  return [...methods].sort((a, b) => MFA_METHODS.indexOf(a.method) - MFA_METHODS.indexOf(b.method));
}

/** spec 000 §4: one or fewer methods is the single-method view; two or more, the choice. */
export function additionalVerificationView(methods: readonly MfaMethodOption[]): "none" | "single" | "choose" {
  if (methods.length === 0) return "none";
  return methods.length === 1 ? "single" : "choose";
}

/** spec 000 §4: Save and Cancel are disabled while the choice equals the current method. */
export function methodChanged(chosen: string | null | undefined, current: string | null | undefined): boolean {
  return Boolean(chosen) && chosen !== current;
}

/** Where a page's texts name the methods: the sign-in steps (auth) or the account page (security). */
export type MethodNames = "steps.method" | "verification.method";

/**
 * spec 000 §4: the name of an additional verification method as a page shows it (the sign-in steps
 * and the account page; their texts differ on purpose). A step that names no method is the
 * authenticator app (the software token), which sends no code.
 */
export function methodName(t: (key: string) => string, names: MethodNames, method: string | null): string {
  return t(`${names}.${method ?? "token"}`);
}

/** A method's name with where its codes go, in brackets, when there is such a place. */
export function methodLabel(
  t: (key: string) => string,
  names: MethodNames,
  option: { method: string | null; destination?: string | null },
): string {
  const name = methodName(t, names, option.method);
  return option.destination ? `${name} (${option.destination})` : name;
}
