import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { EMAIL_PATTERN, resetRefusalOf, resetStepOf, showResetCodeError } from "./recovery";
import {
  createForgottenUsernameSchema,
  ForgottenPasswordSchema,
  QuestionsResetSchema,
  ResetCodeSchema,
} from "./recovery-schemas";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
};

function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

describe("email pattern (spec 000 §5: basic, top-level domain of 2 to 5 letters)", () => {
  it.each(["eleanor.hartley@example.com", "a+b@mail.example.co.uk", "x@y.museu", "o'neill@example.ie"])(
    "accepts %s",
    (email) => {
      expect(EMAIL_PATTERN.test(email)).toBe(true);
    },
  );
  it.each([
    "eleanor.hartley",
    "@example.com",
    "a@example",
    "a@example.c",
    "a@example.museum",
    "a@example.c0m",
    "a b@example.com",
    "a@@example.com",
  ])("refuses %s", (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
  });
});

describe("forgotten username form", () => {
  it("asks for both fields", () => {
    expect(errorsOf(createForgottenUsernameSchema("en-GB"), {})).toEqual({
      email: ["recovery:errors.email"],
      dob: ["recovery:errors.dob"],
    });
  });

  it("refuses a bad email and a date not in the locale's short format, naming the format", () => {
    const errors = errorsOf(createForgottenUsernameSchema("en-GB"), { email: "eleanor@", dob: "1968-04-12" });
    expect(errors.email).toEqual(["recovery:errors.emailFormat"]);
    expect(errors.dob?.[0]).toBe('$t(recovery:errors.dobFormat, {"format":"DD/MM/YYYY"})');
    const ca = errorsOf(createForgottenUsernameSchema("fr-CA"), { email: "a@b.ca", dob: "12/04/1968" });
    expect(ca.dob?.[0]).toContain('"format":"YYYY-MM-DD"');
  });

  it("parses strictly: no single digits, no impossible dates", () => {
    const schema = createForgottenUsernameSchema("en-GB");
    expect(errorsOf(schema, { email: "a@b.com", dob: "1/4/1968" }).dob).toBeDefined();
    expect(errorsOf(schema, { email: "a@b.com", dob: "31/02/1968" }).dob).toBeDefined();
  });

  it("sends the date as YYYY-MM-DD", () => {
    const gb = parseWithZod(form({ email: " eleanor.hartley@example.com ", dob: "12/04/1968" }), {
      schema: createForgottenUsernameSchema("en-GB"),
    });
    expect(gb.status === "success" && gb.value).toEqual({ email: "eleanor.hartley@example.com", dob: "1968-04-12" });
    const ca = parseWithZod(form({ email: "a@b.ca", dob: "1968-04-12" }), {
      schema: createForgottenUsernameSchema("en-CA"),
    });
    expect(ca.status === "success" && ca.value.dob).toBe("1968-04-12");
  });
});

describe("forgotten password steps", () => {
  it("main: 'Please enter a username'", () => {
    expect(errorsOf(ForgottenPasswordSchema, { username: "  " })).toEqual({ username: ["recovery:errors.username"] });
  });

  it("enterReset: code and password required; spaces in the code are ignored", () => {
    expect(errorsOf(ResetCodeSchema, {})).toEqual({
      resetCode: ["recovery:errors.resetCode"],
      newPassword: ["recovery:errors.password"],
    });
    const ok = parseWithZod(form({ resetCode: "1234 5678", newPassword: "x" }), { schema: ResetCodeSchema });
    expect(ok.status === "success" && ok.value.resetCode).toBe("12345678");
  });

  it("secQNewPass: both answers ('Answer required') and the password", () => {
    expect(errorsOf(QuestionsResetSchema, { answer1: "biscuit" })).toEqual({
      answer2: ["recovery:errors.answer"],
      newPassword: ["recovery:errors.password"],
    });
  });

  it("goes to enterReset for a code and secQNewPass for questions", () => {
    expect(resetStepOf("code")).toBe("enterReset");
    expect(resetStepOf("questions")).toBe("secQNewPass");
  });

  it("shows 'Reset code incorrect' only once the error count is above 0", () => {
    expect(showResetCodeError(0)).toBe(false);
    expect(showResetCodeError(1)).toBe(true);
  });

  it("reads the platform's refusals as spec 000 §8 says", () => {
    expect(resetRefusalOf(400, "Password reset code incorrect or invalid for user")).toEqual({ kind: "code" });
    expect(resetRefusalOf(400, "One or more of the arguments are missing or incorrect.")).toEqual({ kind: "answers" });
    expect(resetRefusalOf(403, "Account has been disabled.")).toEqual({ kind: "disabled" });
    // docs/decisions/163: the username's wrong codes or answers reached the limit
    expect(
      resetRefusalOf(
        429,
        "Too many incorrect reset codes or answers for this username. Password reset is paused; please try again later.",
      ),
    ).toEqual({ kind: "paused" });
    expect(
      resetRefusalOf(400, "This password is too common or has appeared in a data breach. Choose a different one."),
    ).toEqual({
      kind: "policy",
      message: "security:policy.common",
    });
    expect(resetRefusalOf(400, "Invalid body: new_password: Required")).toEqual({ kind: "other" });
    expect(resetRefusalOf(500, null)).toEqual({ kind: "other" });
  });
});
