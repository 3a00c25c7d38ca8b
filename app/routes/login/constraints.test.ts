import { getZodConstraint } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { LOGIN_CONSTRAINT, STEP_CONSTRAINTS } from "~/lib/sign-in-steps";
import {
  ForcedPasswordSchema,
  LinkDeviceSchema,
  SecurityCodeSchema,
  securityQuestionsSchema,
} from "~/lib/sign-in-steps-schemas";
import { LoginSchema } from "./login-schema";

// The login page renders its fields' HTML constraints from constants, so that zod stays out of its
// first load (issue 16): they must be what Conform derives from the schemas the forms are checked by.
describe("the login page's field constraints", () => {
  it("are the login schema's", () => {
    expect(LOGIN_CONSTRAINT).toEqual(getZodConstraint(LoginSchema));
  });

  it("are each step schema's", () => {
    expect(STEP_CONSTRAINTS.forcedPassword).toEqual(getZodConstraint(ForcedPasswordSchema));
    expect(STEP_CONSTRAINTS.securityCode).toEqual(getZodConstraint(SecurityCodeSchema));
    expect(STEP_CONSTRAINTS.linkDevice).toEqual(getZodConstraint(LinkDeviceSchema));
    for (const answerMinLength of [0, 8]) {
      expect(STEP_CONSTRAINTS.securityQuestions).toEqual(getZodConstraint(securityQuestionsSchema(answerMinLength)));
    }
  });
});
