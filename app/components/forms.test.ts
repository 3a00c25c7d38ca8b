import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChangePasswordSchema } from "~/lib/security-schemas";
import { parseWithZod } from "@conform-to/zod";
import { browserValidation } from "./browser-validation";
import { allFilledIn } from "./forms";

// The validity tests behind the buttons that the spec disables until a form is valid.

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
};

describe("allFilledIn (spec 000 §5 'non-blank')", () => {
  const threeCharacters = allFilledIn(["char1", "char2", "char3"]);

  it("holds only when every named field has more than white space", () => {
    expect(threeCharacters(form({ char1: "a", char2: "b", char3: "c" }))).toBe(true);
    expect(threeCharacters(form({ char1: "a", char2: "b", char3: "" }))).toBe(false);
    expect(threeCharacters(form({ char1: "a", char2: " ", char3: "c" }))).toBe(false);
    expect(threeCharacters(form({ char1: "a", char2: "b" }))).toBe(false);
  });

  it("ignores the other fields of the form", () => {
    expect(allFilledIn(["code"])(form({ code: "123456", csrf: "" }))).toBe(true);
  });
});

describe("browserValidation", () => {
  it("holds when the form passes the schema that the submit applies", () => {
    const valid = browserValidation(parseWithZod, ChangePasswordSchema).isValid;
    expect(valid(form({ currentPassword: "Demo-pass-1", newPassword: "Fresh-pass-42" }))).toBe(true);
    expect(valid(form({ currentPassword: "Demo-pass-1", newPassword: "" }))).toBe(false);
    expect(valid(form({}))).toBe(false);
  });

  it("reports the schema's messages to Conform as the server would", () => {
    const { onValidate } = browserValidation(parseWithZod, ChangePasswordSchema);
    const submission = onValidate({ formData: form({ currentPassword: "Demo-pass-1" }) });
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({ newPassword: ["security:changePassword.errors.new"] });
  });

  it("with an intent, checks posts of that intent only, and the button's test always", () => {
    const only = { intent: "change-password", anything: z.any() };
    const { onValidate, isValid } = browserValidation(parseWithZod, ChangePasswordSchema, only);
    const empty = (intent: string) => {
      const data = form({ currentPassword: "" });
      data.append("intent", intent);
      return data;
    };
    expect(onValidate({ formData: empty("change-password") }).status).toBe("error");
    expect(onValidate({ formData: empty("return") }).status).toBe("success");
    expect(isValid(form({ currentPassword: "" }))).toBe(false);
    expect(isValid(form({ currentPassword: "Demo-pass-1", newPassword: "Fresh-pass-42" }))).toBe(true);
  });
});
