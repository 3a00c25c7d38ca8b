import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordResets, users } from "../../server/db/schema";
import { type ErrorAnswer, withPlatform } from "./harness";

const harness = withPlatform();

type ResetStart = { reset_method: "code" | "questions"; user_id: string; questions?: string[] };
const CODE_WRONG = "Password reset code incorrect or invalid for user";
const ARGUMENTS = "One or more of the arguments are missing or incorrect.";

const start = (username: string) =>
  harness.platform.call<ResetStart & ErrorAnswer>("/resourceful/forgotten_password", {
    method: "POST",
    body: { username },
  });
const check = (reference: string, code: string) =>
  harness.platform.call<{ valid: boolean } & ErrorAnswer>(
    `/resourceful/forgotten_password?user_id=${encodeURIComponent(reference)}&reset_code=${code}`,
  );
const finish = (body: Record<string, unknown>) =>
  harness.platform.call<{ password_changed: boolean } & ErrorAnswer>("/resourceful/forgotten_password", {
    method: "PUT",
    body,
  });
const wrong = (code: string) => (code === "00000000" ? "11111111" : "00000000");

describe("forgotten password by reset code (a user without security questions)", () => {
  it("emails a code, checks it, counts wrong ones and sets the new password", async () => {
    const token = await harness.platform.session("demo.partner");
    const started = await start("Demo.Partner");
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ reset_method: "code", user_id: expect.any(String) });
    expect(started.body.user_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = (await harness.platform.outbox("demo.partner"))[0]!;
    expect(sent).toMatchObject({
      to: "james.hartley@example.com",
      channel: "email",
      subject: "Your Client Online password reset code",
    });
    expect(sent.code).toMatch(/^\d{8}$/);
    const code = sent.code!;

    const bad = await check(started.body.user_id, wrong(code));
    expect(bad.status).toBe(400);
    expect(bad.body.api_message).toBe(CODE_WRONG);
    expect(
      harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.partner")).get()!.failedAttempts,
    ).toBe(1);
    expect((await check(started.body.user_id, code)).body).toEqual({ valid: true });

    expect(
      (await finish({ user_id: started.body.user_id, reset_code: wrong(code), new_password: "Brand-new-pass-2" })).body
        .api_message,
    ).toBe(CODE_WRONG);
    const weak = await finish({ user_id: started.body.user_id, reset_code: code, new_password: "weak" });
    expect(weak.status).toBe(400);
    expect(weak.body.api_message).toBe("The password must be at least 12 characters long.");
    const done = await finish({ user_id: started.body.user_id, reset_code: code, new_password: "Brand-new-pass-2" });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ password_changed: true });

    // the reset is used up, the old sessions ended, the new password works and the count is clear
    expect(
      (await finish({ user_id: started.body.user_id, reset_code: code, new_password: "Brand-new-pass-3" })).body
        .api_message,
    ).toBe(CODE_WRONG);
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(401);
    expect((await harness.platform.login("demo.partner")).status).toBe(401);
    expect((await harness.platform.login("demo.partner", "client", "Brand-new-pass-2")).body.login_status).toBe(
      "LoginSuccess",
    );
    expect(
      harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.partner")).get()!.failedAttempts,
    ).toBe(0);
  });

  it("answers an unknown username exactly like a user without questions, and sends nothing", async () => {
    const before = (await harness.platform.call<unknown[]>("/dev/outbox")).body.length;
    const unknown = await start("nobody.at.all");
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.body).sort()).toEqual(["reset_method", "user_id"]);
    expect(unknown.body.reset_method).toBe("code");
    expect((await harness.platform.call<unknown[]>("/dev/outbox")).body.length).toBe(before);
    expect((await check(unknown.body.user_id, "12345678")).body.api_message).toBe(CODE_WRONG);
  });

  it("voids an older reset and expires after 30 minutes", async () => {
    const first = await start("demo.assets");
    const firstCode = (await harness.platform.outbox("demo.assets"))[0]!.code!;
    const second = await start("demo.assets");
    expect((await check(first.body.user_id, firstCode)).status).toBe(400);
    const secondCode = (await harness.platform.outbox("demo.assets"))[0]!.code!;
    harness.platform.clock.advance(31 * 60_000);
    expect((await check(second.body.user_id, secondCode)).body.api_message).toBe(CODE_WRONG);
    // a new reset clears expired ones away
    await start("demo.messages");
    expect(
      harness.platform.db.select().from(passwordResets).where(eq(passwordResets.method, "code")).all().length,
    ).toBeLessThanOrEqual(2);
  });

  it("locks the account on the 5th wrong reset code", async () => {
    const started = await start("demo.lockout");
    const code = (await harness.platform.outbox("demo.lockout"))[0]!.code!;
    for (let i = 1; i <= 4; i++) expect((await check(started.body.user_id, wrong(code))).status).toBe(400);
    const fifth = await check(started.body.user_id, wrong(code));
    expect(fifth.status).toBe(403);
    expect(fifth.body.api_message).toBe("Account has been disabled.");
    await harness.platform.call("/dev/users/demo.lockout/unlock", { method: "POST", body: {} });
  });
});

describe("forgotten password by security questions", () => {
  it("asks the user's two questions and resets with the right answers", async () => {
    const started = await start("demo.client");
    expect(started.body).toEqual({
      reset_method: "questions",
      user_id: expect.any(String),
      questions: ["What was the name of your first pet?", "In which town or city did your parents meet?"],
    });
    const questions = await harness.platform.call<{ questions: string[] }>(
      `/resourceful/session/password_reset_questions?user_id=${encodeURIComponent(started.body.user_id)}`,
    );
    expect(questions.body.questions).toEqual(started.body.questions);
    expect(
      (await harness.platform.call("/resourceful/session/password_reset_questions?user_id=unknown")).body,
    ).toMatchObject({
      api_message: CODE_WRONG,
    });

    const wrongAnswers = await finish({
      user_id: started.body.user_id,
      answers: ["biscuit", "leeds"],
      new_password: "Brand-new-pass-2",
    });
    expect(wrongAnswers.status).toBe(400);
    expect(wrongAnswers.body.api_message).toBe(ARGUMENTS);
    const missing = await finish({ user_id: started.body.user_id, new_password: "Brand-new-pass-2" });
    expect(missing.body.api_message).toBe(ARGUMENTS);
    const done = await finish({
      user_id: started.body.user_id,
      answers: [" Biscuit ", "HARROGATE"],
      new_password: "Brand-new-pass-2",
    });
    expect(done.status).toBe(200);
    expect((await harness.platform.login("demo.client", "client", "Brand-new-pass-2")).body.login_status).toBe(
      "LoginSuccess",
    );
  });
});

describe("forgotten username", () => {
  const forgot = (body: Record<string, unknown>) =>
    harness.platform.call<{ sent: boolean } & ErrorAnswer>("/resourceful/forgot/username", { method: "POST", body });

  it("emails the username when the email and date of birth match a client", async () => {
    const answer = await forgot({
      preferred_email: "Eleanor.Hartley@example.com",
      role_type: "client",
      dob: "1968-04-12",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ sent: true });
    const sent = (await harness.platform.outbox("eleanor.hartley@example.com"))[0]!;
    expect(sent).toMatchObject({
      channel: "email",
      subject: "Your Client Online username",
      code: "demo.client",
      body: "Your Client Online username is demo.client.",
    });
  });

  it("refuses a mismatch with the spec's text, and other role types", async () => {
    const mismatch = await forgot({
      preferred_email: "eleanor.hartley@example.com",
      role_type: "client",
      dob: "1968-04-13",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.api_message).toBe(
      "The supplied email and date of birth does not match our records. Please contact our office.",
    );
    // an adviser is not a client
    const adviser = await forgot({
      preferred_email: "sarah.whitfield@northbridgewealth.example",
      role_type: "client",
      dob: "1970-01-01",
    });
    expect(adviser.status).toBe(400);
    expect(
      (await forgot({ preferred_email: "eleanor.hartley@example.com", role_type: "adviser", dob: "1968-04-12" }))
        .status,
    ).toBe(400);
    expect(
      (await forgot({ preferred_email: "eleanor.hartley@example.com", role_type: "client", dob: "12/04/1968" })).status,
    ).toBe(400);
  });
});
