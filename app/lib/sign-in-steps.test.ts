import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  intentOf,
  memorableAnswerable,
  messageKeyOf,
  questionsFieldOf,
  questionsPayload,
  STEP_INTENTS,
} from "./sign-in-steps";
import { OTHER_QUESTION } from "./security";
import { parseStepAnswer } from "./sign-in-step-answers.server";
import {
  LinkDeviceSchema,
  MemorableSchema,
  SecurityCodeSchema,
  securityQuestionsSchema,
} from "./sign-in-steps-schemas";

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

const ticket = "t".repeat(43);

function errorsOf(submission: { status?: string; error?: unknown }): unknown {
  return "error" in submission ? submission.error : undefined;
}

describe("step answers (docs/platform-api.md 'Sign-in steps')", () => {
  it("LoginSuccess has no ticket", () => {
    expect(parseStepAnswer({ login_status: "LoginSuccess", role_name: "User" })).toEqual({
      kind: "success",
      role: "User",
    });
  });

  it("keeps the ticket apart from the step it shows", () => {
    const progress = parseStepAnswer({
      login_status: "MfaRequired",
      role_name: "ClientUser",
      login_ticket: ticket,
      mfa_method: "sms",
      destination: "+********0123",
      enrolled: true,
    });
    expect(progress).toEqual({
      kind: "step",
      role: "ClientUser",
      ticket,
      step: { status: "MfaRequired", method: "sms", destination: "+********0123", enrolled: true },
    });
    expect(JSON.stringify(progress?.kind === "step" ? progress.step : null)).not.toContain(ticket);
  });

  it("maps every status's step data", () => {
    const base = { role_name: "ClientUser", login_ticket: ticket };
    expect(parseStepAnswer({ ...base, login_status: "ForceChangePassword", reason: "common" })).toMatchObject({
      step: { status: "ForceChangePassword", reason: "common" },
    });
    expect(parseStepAnswer({ ...base, login_status: "ForceChangePassword", reason: "firm" })).toMatchObject({
      step: { status: "ForceChangePassword", reason: null },
    });
    expect(parseStepAnswer({ ...base, login_status: "ForceChangePassword" })).toMatchObject({
      step: { status: "ForceChangePassword", reason: null },
    });
    expect(
      parseStepAnswer({ ...base, login_status: "SiteTerms", terms: { title: "Terms of use", html: "<p>x</p>" } }),
    ).toMatchObject({
      step: { status: "SiteTerms", terms: { title: "Terms of use", html: "<p>x</p>" } },
    });
    expect(
      parseStepAnswer({
        ...base,
        login_status: "SetSecurityQuestions",
        default_questions: ["a", "b"],
        answer_min_length: 8,
      }),
    ).toMatchObject({ step: { status: "SetSecurityQuestions", defaultQuestions: ["a", "b"], answerMinLength: 8 } });
    expect(
      parseStepAnswer({
        ...base,
        login_status: "MfaEnrolmentLinkDevice",
        mfa_methods: [{ method: "email", destination: null }],
      }),
    ).toMatchObject({ step: { status: "MfaEnrolmentLinkDevice", methods: [{ method: "email", destination: null }] } });
    // the strongest method first, whatever order the platform answers in (ASVS V2.7.1, decision 178)
    expect(
      parseStepAnswer({
        ...base,
        login_status: "MfaEnrolmentLinkDevice",
        mfa_methods: [
          { method: "sms", destination: "+****0123" },
          { method: "email", destination: null },
          { method: "token", destination: null },
        ],
      }),
    ).toMatchObject({
      step: {
        status: "MfaEnrolmentLinkDevice",
        methods: [{ method: "token" }, { method: "email" }, { method: "sms", destination: "+****0123" }],
      },
    });
    expect(
      parseStepAnswer({
        ...base,
        login_status: "MfaEnrolmentValidateDevice",
        device_id: "d1",
        device_name: "authenticator",
        mfa_method: "token",
        destination: null,
        token_secret: "GEZDGNBV",
        otpauth_uri: "otpauth://totp/x",
      }),
    ).toMatchObject({
      step: {
        status: "MfaEnrolmentValidateDevice",
        deviceId: "d1",
        tokenSecret: "GEZDGNBV",
        otpauthUri: "otpauth://totp/x",
      },
    });
    expect(
      parseStepAnswer({
        ...base,
        login_status: "MfaEnrolmentLinkDeviceInvalidOtp",
        device_id: "d1",
        device_name: "device",
        mfa_method: "sms",
      }),
    ).toMatchObject({ step: { status: "MfaEnrolmentLinkDeviceInvalidOtp", deviceId: "d1", destination: null } });
    expect(
      parseStepAnswer({
        ...base,
        login_status: "MemorableCharactersRequired",
        memorableQuestions: [0, 3, 6],
        memorableWordHint: "A tree",
      }),
    ).toMatchObject({ step: { status: "MemorableCharactersRequired", positions: [0, 3, 6], hint: "A tree" } });
  });

  it("an ordinary error body is not a step", () => {
    expect(parseStepAnswer({ api_message: "Login ticket is invalid or has expired. Please log in again." })).toBeNull();
    expect(parseStepAnswer(null)).toBeNull();
    expect(parseStepAnswer({ login_status: "SiteTerms", role_name: "ClientUser" })).toBeNull(); // no ticket
  });

  it("spec 000 §5: only exactly three positions can be answered", () => {
    expect(memorableAnswerable({ status: "MemorableCharactersRequired", positions: [0, 1, 2], hint: null })).toBe(true);
    expect(memorableAnswerable({ status: "MemorableCharactersRequired", positions: [0, 1], hint: null })).toBe(false);
  });
});

describe("intents", () => {
  it("an unknown intent is the login form", () => {
    expect(intentOf(null)).toBe("login");
    expect(intentOf("drop-tables")).toBe("login");
    expect(intentOf("memorable")).toBe("memorable");
  });
  it("Return to login is offered at every step but the terms, which Decline ends", () => {
    for (const [status, intents] of Object.entries(STEP_INTENTS)) {
      expect(intents.includes("cancel") || intents.includes("decline-terms"), status).toBe(true);
    }
  });
});

describe("step forms", () => {
  it("security code: required, six digits, spaces ignored", () => {
    expect(errorsOf(parseWithZod(form({}), { schema: SecurityCodeSchema }))).toEqual({
      code: ["auth:steps.code.required"],
    });
    expect(errorsOf(parseWithZod(form({ code: "12345" }), { schema: SecurityCodeSchema }))).toEqual({
      code: ["auth:steps.code.format"],
    });
    expect(errorsOf(parseWithZod(form({ code: "12a456" }), { schema: SecurityCodeSchema }))).toEqual({
      code: ["auth:steps.code.format"],
    });
    const ok = parseWithZod(form({ code: " 123 456 " }), { schema: SecurityCodeSchema });
    expect(ok.status === "success" && ok.value.code).toBe("123456");
  });

  it("verification method is required ('MFA method required')", () => {
    expect(errorsOf(parseWithZod(form({}), { schema: LinkDeviceSchema }))).toEqual({
      method: ["auth:steps.linkDevice.required"],
    });
    expect(errorsOf(parseWithZod(form({ method: "pigeon" }), { schema: LinkDeviceSchema }))).toEqual({
      method: ["auth:steps.linkDevice.required"],
    });
    expect(parseWithZod(form({ method: "email" }), { schema: LinkDeviceSchema }).status).toBe("success");
  });

  it("memorable word: exactly one character in each of three fields", () => {
    const result = parseWithZod(form({ char1: "c", char2: "ab" }), { schema: MemorableSchema });
    expect(errorsOf(result)).toEqual({
      char2: ["auth:steps.memorable.oneCharacter"],
      char3: ["auth:steps.memorable.required"],
    });
    expect(parseWithZod(form({ char1: "c", char2: "é", char3: "t" }), { schema: MemorableSchema }).status).toBe(
      "success",
    );
  });

  describe("security questions (spec 002 §5)", () => {
    const valid = { question1: "Q1", answer1: "biscuit", question2: "Q2", answer2: "harrogate" };
    it("requires both questions and answers", () => {
      expect(errorsOf(parseWithZod(form({}), { schema: securityQuestionsSchema(0) }))).toEqual({
        question1: ["auth:steps.questions.questionRequired"],
        answer1: ["auth:steps.questions.answerRequired"],
        question2: ["auth:steps.questions.questionRequired"],
        answer2: ["auth:steps.questions.answerRequired"],
      });
    });
    it("the two questions must differ, ignoring case", () => {
      const result = parseWithZod(form({ ...valid, question2: OTHER_QUESTION, question2Custom: " q1 " }), {
        schema: securityQuestionsSchema(0),
      });
      expect(errorsOf(result)).toEqual({ question2: ["auth:steps.questions.different"] });
    });
    it("'Other' needs its own question of at most 256 characters", () => {
      expect(
        errorsOf(parseWithZod(form({ ...valid, question1: OTHER_QUESTION }), { schema: securityQuestionsSchema(0) })),
      ).toEqual({
        question1Custom: ["auth:steps.questions.questionRequired"],
      });
      expect(
        errorsOf(
          parseWithZod(form({ ...valid, question1: OTHER_QUESTION, question1Custom: "x".repeat(257) }), {
            schema: securityQuestionsSchema(0),
          }),
        ),
      ).toEqual({ question1Custom: ["auth:steps.questions.questionTooLong"] });
    });
    it("answers: at most 256, and the platform's minimum when it has one", () => {
      expect(
        errorsOf(parseWithZod(form({ ...valid, answer1: "x".repeat(257) }), { schema: securityQuestionsSchema(0) })),
      ).toEqual({
        answer1: ["auth:steps.questions.answerTooLong"],
      });
      expect(errorsOf(parseWithZod(form(valid), { schema: securityQuestionsSchema(8) }))).toEqual({
        answer1: ["auth:steps.questions.answerTooShort"],
      });
    });
    it("sends the chosen or own question with each answer", () => {
      const result = parseWithZod(form({ ...valid, question2: OTHER_QUESTION, question2Custom: " My first car? " }), {
        schema: securityQuestionsSchema(0),
      });
      expect(result.status).toBe("success");
      if (result.status !== "success") return;
      expect(questionsPayload(result.value)).toEqual([
        { question: "Q1", answer: "biscuit" },
        { question: "My first car?", answer: "harrogate" },
      ]);
    });
  });
});

describe("spec 000 §8 messages", () => {
  it("maps the platform's sign-in messages to texts", () => {
    expect(messageKeyOf("Account deactivated")).toBe("login.deactivated");
    expect(messageKeyOf("Memorable word validation failed")).toBe("steps.memorable.failed");
    expect(messageKeyOf("Login ticket is invalid or has expired. Please log in again.")).toBe("steps.sessionNotFound");
    expect(messageKeyOf("Something new")).toBeNull();
    expect(messageKeyOf(null)).toBeNull();
  });
  it("puts the security-question messages beside their field", () => {
    expect(questionsFieldOf("steps.questions.different")).toBe("question2");
    expect(questionsFieldOf("steps.questions.answerTooShort")).toBe("answer1");
    expect(questionsFieldOf("steps.questions.questionTooLong")).toBe("question1");
  });
});
