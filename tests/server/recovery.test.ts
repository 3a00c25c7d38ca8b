import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordResets, recoveryAttempts, users } from "../../server/db/schema";
import { setPassword } from "../../server/domain/accounts";
import { decoyFor, decoyKey } from "../../server/domain/recovery-decoys";
import { DEFAULT_SECURITY_QUESTIONS } from "../../server/domain/security-questions";
import { DEMO_PASSWORD } from "../../server/seed";
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
const PAUSED =
  "Too many incorrect reset codes or answers for this username. Password reset is paused; please try again later.";
const MINUTE = 60_000;
let copies = 0;

/**
 * A fresh login in the state of a seeded one (its own email, the demo password), so each test
 * counts its own attempts and reads its own messages.
 */
async function copyOf(template: string): Promise<string> {
  const username = `recover.${template.replace(/^demo\./, "")}.${++copies}`;
  const made = await harness.platform.call(`/dev/users/${template}/copy`, {
    method: "POST",
    body: { username, email: `${username}@example.org` },
  });
  expect(made.status).toBe(201);
  setPassword(harness.platform.db, userRow(username).id, DEMO_PASSWORD);
  return username;
}

const userRow = (username: string) =>
  harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!;
const recoveryRow = (username: string) =>
  harness.platform.db.select().from(recoveryAttempts).where(eq(recoveryAttempts.usernameKey, username)).get();

/** Unknown usernames shown each step: the first of `stranger.N` the database's key gives it. */
function unknownWith(method: "code" | "questions", prefix: string): string {
  const key = decoyKey(harness.platform.db);
  for (let i = 0; i < 200; i++) {
    const username = `${prefix}.${i}`;
    if (decoyFor(key, username).method === method) return username;
  }
  throw new Error(`no unknown username with a ${method} step`);
}

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
    // counted against the username's recovery, never towards the sign-in lockout (docs/decisions/163)
    expect(userRow("demo.partner").failedAttempts).toBe(0);
    expect(recoveryRow("demo.partner")?.failures).toBe(1);
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
    expect(userRow("demo.partner").failedAttempts).toBe(0);
    expect(recoveryRow("demo.partner")).toBeUndefined();
  });

  it("answers an unknown username with a code step like a user without questions, and sends nothing", async () => {
    // Decision 163: an unknown username is shown the step a known one would get, chosen from the
    // username with the database's key; this one's is the code step.
    const username = unknownWith("code", "nobody");
    const before = (await harness.platform.call<unknown[]>("/dev/outbox")).body.length;
    const unknown = await start(username);
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.body).sort()).toEqual(["reset_method", "user_id"]);
    expect(unknown.body.reset_method).toBe("code");
    expect((await start(username.toUpperCase())).body.reset_method).toBe("code");
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

  it("a stranger's five wrong codes pause the username's reset, never its sign-in, alike for an unknown username", async () => {
    // issue 39 finding 1: five wrong codes used to lock the account ('Account has been disabled.')
    const known = await copyOf("demo.lockout");
    const unknown = unknownWith("code", "nobody.paused");
    const answers: Record<string, Array<[number, string]>> = {};
    for (const username of [known, unknown]) {
      const started = await start(username);
      const seen: Array<[number, string]> = [];
      for (let i = 1; i <= 6; i++) {
        const answer =
          i % 2
            ? await check(started.body.user_id, "00000001")
            : await finish({
                user_id: started.body.user_id,
                reset_code: "00000001",
                new_password: "Brand-new-pass-2",
              });
        seen.push([answer.status, answer.body.api_message]);
      }
      const again = await start(username);
      seen.push([again.status, again.body.api_message]);
      answers[username] = seen;
    }
    const expected: Array<[number, string]> = [
      ...Array.from({ length: 4 }, (): [number, string] => [400, CODE_WRONG]),
      [429, PAUSED],
      [400, CODE_WRONG], // the pause ended the reset: its reference is no more
      [429, PAUSED],
    ];
    expect(answers[known]).toEqual(expected);
    expect(answers[unknown]).toEqual(expected);

    // the owner still signs in, and is told
    expect(userRow(known)).toMatchObject({ disabled: false, failedAttempts: 0, lockedUntil: null });
    expect((await harness.platform.login(known)).body.login_status).toBe("LoginSuccess");
    const notice = (await harness.platform.outbox(known))[0]!;
    expect(notice.subject).toBe("Password reset paused on your Client Online account");
    expect(notice.code).toBeNull();

    // 30 minutes on, the username may reset again
    harness.platform.clock.advance(30 * MINUTE + 1);
    const after = await start(known);
    expect(after.status).toBe(200);
    const code = (await harness.platform.outbox(known)).find((row) => row.code !== null)!.code!;
    expect((await check(after.body.user_id, code)).body).toEqual({ valid: true });
  });

  it("a reset ends a lock for wrong passwords, and a locked account answers like any other until then", async () => {
    const username = await copyOf("demo.lockout");
    for (let i = 1; i <= 5; i++) await harness.platform.login(username, "client", "Wrong-pass-9");
    expect(userRow(username).disabled).toBe(true);
    const started = await start(username);
    expect(started.body).toEqual({ reset_method: "code", user_id: expect.any(String) });
    const code = (await harness.platform.outbox(username)).find((row) => row.code !== null)!.code!;
    expect((await check(started.body.user_id, wrong(code))).body.api_message).toBe(CODE_WRONG);
    expect((await check(started.body.user_id, code)).body).toEqual({ valid: true });
    const done = await finish({ user_id: started.body.user_id, reset_code: code, new_password: "Brand-new-pass-2" });
    expect(done.body).toEqual({ password_changed: true });
    expect(userRow(username)).toMatchObject({ disabled: false, failedAttempts: 0, lockedUntil: null });
    expect((await harness.platform.login(username, "client", "Brand-new-pass-2")).body.login_status).toBe(
      "LoginSuccess",
    );
  });

  it("an account an operator disabled says so only after the right code", async () => {
    const username = await copyOf("demo.lockout");
    harness.platform.db
      .update(users)
      .set({ disabled: true, lockedUntil: null })
      .where(eq(users.usernameKey, username))
      .run();
    const started = await start(username);
    const code = (await harness.platform.outbox(username)).find((row) => row.code !== null)!.code!;
    const wrongAnswer = await finish({
      user_id: started.body.user_id,
      reset_code: wrong(code),
      new_password: "Brand-new-pass-2",
    });
    expect(wrongAnswer.body.api_message).toBe(CODE_WRONG);
    const right = await finish({ user_id: started.body.user_id, reset_code: code, new_password: "Brand-new-pass-2" });
    expect(right.status).toBe(403);
    expect(right.body.api_message).toBe("Account has been disabled.");
    expect((await harness.platform.login(username)).status).toBe(403);
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

describe("an unknown username's questions step (issue 39 finding 2)", () => {
  it("shows plausible questions, the same each time, that no answer opens, limited like a known user's", async () => {
    const unknown = unknownWith("questions", "stranger");
    const known = await copyOf("demo.client");
    const first = await start(unknown);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["questions", "reset_method", "user_id"]);
    expect(first.body.reset_method).toBe("questions");
    const questions = first.body.questions!;
    expect(questions).toHaveLength(2);
    expect(new Set(questions).size).toBe(2);
    for (const question of questions) expect(DEFAULT_SECURITY_QUESTIONS).toContain(question);
    // the same username, however written, is shown the same questions
    expect((await start(` ${unknown.toUpperCase()} `)).body.questions).toEqual(questions);
    const reference = (await start(unknown)).body.user_id;
    expect(
      (
        await harness.platform.call<{ questions: string[] }>(
          `/resourceful/session/password_reset_questions?user_id=${encodeURIComponent(reference)}`,
        )
      ).body.questions,
    ).toEqual(questions);

    const seen: Record<string, Array<[number, string]>> = {};
    for (const [username, ref] of [
      [unknown, reference],
      [known, (await start(known)).body.user_id],
    ] as const) {
      seen[username] = [];
      for (let i = 1; i <= 5; i++) {
        const answer = await finish({ user_id: ref, answers: ["Biscuit", "Leeds"], new_password: "Brand-new-pass-2" });
        seen[username].push([answer.status, answer.body.api_message]);
      }
    }
    const expected: Array<[number, string]> = [
      ...Array.from({ length: 4 }, (): [number, string] => [400, ARGUMENTS]),
      [429, PAUSED],
    ];
    expect(seen[unknown]).toEqual(expected);
    expect(seen[known]).toEqual(expected);
    expect((await harness.platform.login(known)).body.login_status).toBe("LoginSuccess");
  });

  it("tells the owner at once of a reset by security answers", async () => {
    const username = await copyOf("demo.client");
    const started = await start(username);
    const done = await finish({
      user_id: started.body.user_id,
      answers: ["biscuit", "harrogate"],
      new_password: "Brand-new-pass-5",
    });
    expect(done.body).toEqual({ password_changed: true });
    const notice = (await harness.platform.outbox(username))[0]!;
    expect(notice).toMatchObject({ channel: "email", subject: "Your Client Online password was reset", code: null });
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
