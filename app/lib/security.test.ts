import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  additionalVerificationView,
  answerMinLengthForVersion,
  changePasswordRefusal,
  currentPasswordRefusal,
  methodChanged,
  methodLabel,
  methodName,
  OTHER_QUESTION,
  passwordFormSettings,
  passwordPolicyKey,
  preferencesChanged,
  preferencesFromWire,
  preferencesToWire,
  strongestFirst,
  questionFieldsOf,
} from "./security";
import {
  ChangePasswordSchema,
  createMethodChangeSchema,
  createSecurityQuestionsSchema,
  CurrentPasswordSchema,
  MfaCodeSchema,
  PreferencesSchema,
} from "./security-schemas";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
};
function parse<S extends Parameters<typeof parseWithZod>[1]["schema"]>(schema: S, values: Record<string, string>) {
  return parseWithZod(form(values), { schema });
}
function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) {
  const submission = parse(schema, values);
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

const Q1 = "What was the name of your first pet?";
const Q2 = "In which town were you born?";
const valid = {
  question1: Q1,
  answer1: "biscuit",
  question2: Q2,
  answer2: "harrogate",
  currentPassword: "Demo-pass-1",
};

describe("the new-password forms' site settings (spec 000 §5, 002 §2)", () => {
  it("shows the meter unless content switches it off, and the guidance when there is some", () => {
    expect(passwordFormSettings({}, "en-GB")).toEqual({ strengthMeter: true, guidance: null });
    expect(
      passwordFormSettings({ passwordStrengthMeter: false, passwordGuidance: "Use 8 characters." }, "en-GB"),
    ).toEqual({
      strengthMeter: false,
      guidance: { text: "Use 8 characters.", lang: null },
    });
    expect(passwordFormSettings({ passwordStrengthMeter: "false", passwordGuidance: "  " }, "en-GB")).toEqual({
      strengthMeter: false,
      guidance: null,
    });
    expect(passwordFormSettings({ passwordStrengthMeter: true, passwordGuidance: 8 }, "en-GB")).toEqual({
      strengthMeter: true,
      guidance: null,
    });
  });

  // issue 40, decision 210: the guidance in the page's language, or marked as English
  it("gives the guidance in the page's language where the site has it, else marked English", () => {
    const settings = { passwordGuidance: "Use 12 characters.", "passwordGuidance.fr-CA": "Utilisez 12 caractères." };
    expect(passwordFormSettings(settings, "fr-CA").guidance).toEqual({ text: "Utilisez 12 caractères.", lang: null });
    expect(passwordFormSettings(settings, "en-CA").guidance).toEqual({ text: "Use 12 characters.", lang: null });
    expect(passwordFormSettings({ passwordGuidance: "Use 12 characters." }, "fr-CA").guidance).toEqual({
      text: "Use 12 characters.",
      lang: "en",
    });
  });
});

describe("change password (spec 002 §5)", () => {
  it("requires both passwords", () => {
    expect(errorsOf(ChangePasswordSchema, {})).toEqual({
      currentPassword: ["security:changePassword.errors.current"],
      newPassword: ["security:changePassword.errors.new"],
    });
  });

  it("puts the platform's refusals beside the right field", () => {
    expect(changePasswordRefusal("The current password is incorrect.")).toEqual({
      field: "currentPassword",
      message: "security:changePassword.errors.incorrect",
    });
    expect(changePasswordRefusal("The new password must be different from your current password.")).toEqual({
      field: "newPassword",
      message: "security:policy.different",
    });
    expect(changePasswordRefusal("Something else")).toBeNull();
    expect(passwordPolicyKey("The password must be at least 12 characters long.")).toBe("security:policy.minLength");
  });
});

describe("the current password asked again (decision 179)", () => {
  it("reads the platform's refusals as the field's message or the lockout's", () => {
    expect(currentPasswordRefusal(400, "The current password is incorrect.")).toEqual({
      fieldError: "security:changePassword.errors.incorrect",
    });
    expect(currentPasswordRefusal(400, "Password is required")).toEqual({
      fieldError: "security:changePassword.errors.current",
    });
    expect(currentPasswordRefusal(403, "Account has been disabled.")).toEqual({ messageKey: "disabled" });
    expect(currentPasswordRefusal(400, "Please enter a security question.")).toBeNull();
    expect(currentPasswordRefusal(404, "Session not found")).toBeNull();
    expect(currentPasswordRefusal(500, null)).toBeNull();
  });
});

describe("security questions (spec 002 §5)", () => {
  const schema = createSecurityQuestionsSchema({ answerMinLength: 0 });

  it("accepts two default questions with answers, trimmed", () => {
    const result = parse(schema, { ...valid, answer2: "  harrogate " });
    expect(result.status === "success" && result.value).toEqual({
      currentPassword: "Demo-pass-1",
      questions: [
        { question: Q1, answer: "biscuit" },
        { question: Q2, answer: "harrogate" },
      ],
    });
  });

  it("asks for the current password (decision 179)", () => {
    expect(errorsOf(schema, { ...valid, currentPassword: "" })).toEqual({
      currentPassword: ["security:changePassword.errors.current"],
    });
    expect(errorsOf(CurrentPasswordSchema, {})).toEqual({
      currentPassword: ["security:changePassword.errors.current"],
    });
    expect(parse(CurrentPasswordSchema, { currentPassword: "x" }).status).toBe("success");
  });

  it("requires a question and an answer for each", () => {
    expect(errorsOf(schema, {})).toEqual({
      question1: ["security:questions.errors.question"],
      answer1: ["security:questions.errors.answer"],
      question2: ["security:questions.errors.question"],
      answer2: ["security:questions.errors.answer"],
      currentPassword: ["security:changePassword.errors.current"],
    });
  });

  it("takes the custom question when 'Other' is chosen, and requires it then", () => {
    expect(errorsOf(schema, { ...valid, question2: OTHER_QUESTION })).toEqual({
      customQuestion2: ["security:questions.errors.question"],
    });
    const result = parse(schema, { ...valid, question2: OTHER_QUESTION, customQuestion2: "My first car?" });
    expect(result.status === "success" && result.value.questions[1]!.question).toBe("My first car?");
    // a custom text is ignored while a default question is chosen
    const ignored = parse(schema, { ...valid, customQuestion1: "x".repeat(300) });
    expect(ignored.status).toBe("success");
  });

  it("limits questions and answers to 256 characters", () => {
    const long = "x".repeat(257);
    expect(errorsOf(schema, { ...valid, question1: OTHER_QUESTION, customQuestion1: long })).toEqual({
      customQuestion1: ["security:questions.errors.questionLength"],
    });
    expect(errorsOf(schema, { ...valid, answer1: long })).toEqual({
      answer1: ["security:questions.errors.answerLength"],
    });
    expect(parse(schema, { ...valid, answer1: "x".repeat(256) }).status).toBe("success");
  });

  it("asks for 8-character answers only when the platform says so", () => {
    expect(parse(schema, { ...valid, answer1: "cat" }).status).toBe("success");
    const strict = createSecurityQuestionsSchema({ answerMinLength: 8 });
    expect(errorsOf(strict, { ...valid, answer1: "biscuit" })).toEqual({
      answer1: ["security:questions.errors.answerMin"],
    });
    expect(parse(strict, { ...valid, answer1: "biscuits" }).status).toBe("success");
  });

  it("refuses the same question twice, ignoring case", () => {
    expect(errorsOf(schema, { ...valid, question2: Q1 })).toEqual({
      question2: ["security:questions.errors.different"],
    });
    expect(errorsOf(schema, { ...valid, question2: OTHER_QUESTION, customQuestion2: Q1.toUpperCase() })).toEqual({
      customQuestion2: ["security:questions.errors.different"],
    });
  });

  it("places a current question in the select or under 'Other'", () => {
    expect(questionFieldsOf(Q1, [Q1, Q2])).toEqual({ select: Q1, custom: "" });
    expect(questionFieldsOf("My own question", [Q1, Q2])).toEqual({
      select: OTHER_QUESTION,
      custom: "My own question",
    });
    expect(questionFieldsOf(null, [Q1])).toEqual({ select: "", custom: "" });
  });
});

describe("answer minimum by platform version (spec 002 §5)", () => {
  it.each([
    ["22.8.233", 0],
    ["22.8.234", 8],
    ["22.8.300", 8],
    ["22.9.0", 8],
    ["22.9.237", 8],
    ["22.9.238", 0],
    ["22.9.240", 0],
    ["22.7.500", 0],
    ["23.1.100", 0],
    ["", 0],
    [null, 0],
  ] as const)("%s → %i", (version, expected) => {
    expect(answerMinLengthForVersion(version)).toBe(expected);
  });
});

describe("preferences (spec 002 §3)", () => {
  it("reads and writes the '1'/'0' flags", () => {
    const p = preferencesFromWire({ comm_pref_email: "1", comm_pref_mail: "0", comm_pref_sms: "1" });
    expect(p).toEqual({ email: true, post: false, sms: true });
    expect(preferencesToWire(p)).toEqual({ comm_pref_email: "1", comm_pref_mail: "0", comm_pref_sms: "1" });
  });

  it("takes an unticked box as no", () => {
    const result = parse(PreferencesSchema, { email: "on" });
    expect(result.status === "success" && result.value).toEqual({ email: true, post: false, sms: false });
  });

  it("knows when something changed", () => {
    const a = { email: true, post: false, sms: false };
    expect(preferencesChanged(a, { ...a })).toBe(false);
    expect(preferencesChanged(a, { ...a, sms: true })).toBe(true);
  });
});

describe("additional verification (spec 000 §4-§5)", () => {
  it("chooses the view from the number of methods", () => {
    expect(additionalVerificationView([])).toBe("none");
    expect(additionalVerificationView([{ method: "email", destination: "f***@example.com" }])).toBe("single");
    expect(
      additionalVerificationView([
        { method: "sms", destination: null },
        { method: "email", destination: null },
      ]),
    ).toBe("choose");
  });

  it("offers the strongest method first: authenticator app, email, text message (decision 178)", () => {
    const answered = [
      { method: "sms", destination: "*** 789" },
      { method: "token", destination: null },
      { method: "email", destination: null },
    ] as const;
    expect(strongestFirst(answered).map((m) => m.method)).toEqual(["token", "email", "sms"]);
    expect(strongestFirst([{ method: "sms" as const }, { method: "email" as const }])).toEqual([
      { method: "email" },
      { method: "sms" },
    ]);
  });

  it("enables Save only when the choice differs from the current method", () => {
    expect(methodChanged("sms", "sms")).toBe(false);
    expect(methodChanged("email", "sms")).toBe(true);
    expect(methodChanged("", "sms")).toBe(false);
    expect(methodChanged("sms", null)).toBe(true);
  });

  it("requires a method, refuses the current one, and asks the password for a change", () => {
    const schema = createMethodChangeSchema("sms");
    expect(errorsOf(schema, {})).toEqual({ method: ["security:verification.errors.method"] });
    expect(errorsOf(schema, { method: "carrier-pigeon" })).toEqual({ method: ["security:verification.errors.method"] });
    expect(errorsOf(schema, { method: "sms", password: "x" })).toEqual({
      method: ["security:verification.errors.sameMethod"],
    });
    expect(errorsOf(schema, { method: "email" })).toEqual({ password: ["security:verification.errors.password"] });
    const ok = parse(schema, { method: "email", password: "Demo-pass-1" });
    expect(ok.status === "success" && ok.value).toEqual({ method: "email", password: "Demo-pass-1" });
  });

  it("requires the code ('MFA Code required'), ignoring spaces", () => {
    expect(errorsOf(MfaCodeSchema, {})).toEqual({ code: ["security:verification.errors.code"] });
    const ok = parse(MfaCodeSchema, { code: "123 456" });
    expect(ok.status === "success" && ok.value.code).toBe("123456");
  });
});

/** The texts of a page, as keys: what a translator would look up. */
const t = (key: string) => `[${key}]`;

describe("methodName and methodLabel (spec 000 §4)", () => {
  it("names a method from the page's own texts", () => {
    expect(methodName(t, "steps.method", "sms")).toBe("[steps.method.sms]");
    expect(methodName(t, "verification.method", "email")).toBe("[verification.method.email]");
  });

  it("names a step without a method as the authenticator app", () => {
    expect(methodName(t, "steps.method", null)).toBe("[steps.method.token]");
  });

  it("adds where the codes go, in brackets, only when there is such a place", () => {
    expect(methodLabel(t, "verification.method", { method: "sms", destination: "*** *** 789" })).toBe(
      "[verification.method.sms] (*** *** 789)",
    );
    expect(methodLabel(t, "verification.method", { method: "token", destination: null })).toBe(
      "[verification.method.token]",
    );
  });
});
