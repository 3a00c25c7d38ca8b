import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loginTickets, termsAgreements, users } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/seed";
import { base32Decode, totp } from "../../server/lib/totp";
import { type SessionUser, withPlatform } from "./harness";

const harness = withPlatform();

const TICKET_GONE = "Login ticket is invalid or has expired. Please log in again.";
const BAD_CODE =
  "There was an error with the authentication code you entered. A new code has been sent to you. Please try again.";
const BAD_MEMORABLE = "Incorrect memorable word characters. Please try again with the new positions.";
const DEMO_TOKEN_KEY = base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");

const userRow = (username: string) =>
  harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!;
const tokenCode = (offsetSteps = 0) =>
  totp(DEMO_TOKEN_KEY, harness.platform.clock.now().getTime() + offsetSteps * 30_000);
const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");

async function ticketOf(username: string, status: string) {
  const answer = await harness.platform.login(username);
  expect(answer.body.login_status).toBe(status);
  return answer.body.login_ticket!;
}

describe("a new user's steps: forced password change, site terms, security questions", () => {
  it("takes the steps in order with a new ticket each, and ends with a session", async () => {
    const first = await harness.platform.login("demo.newuser");
    expect(first.body).toMatchObject({ login_status: "ForceChangePassword", role_name: "ClientUser" });
    // the firm's forced change gives no reason (decision 180's is only for a common password)
    expect(first.body).not.toHaveProperty("reason");
    const ticket1 = first.body.login_ticket!;

    // the password policy, with its messages
    for (const [password, message] of [
      ["Short-pass1", "The password must be at least 12 characters long."],
      ["Sunshine12345", "This password is too common or has appeared in a data breach. Choose a different one."],
      ["x-demo.newuser-12", "The password must not contain your username."],
      [DEMO_PASSWORD, "The password must be at least 12 characters long."],
    ] as const) {
      const refused = await harness.platform.step("/auth/password", { login_ticket: ticket1, new_password: password });
      expect(refused.status).toBe(400);
      expect(refused.body.api_message).toBe(message);
    }
    // a ticket for another step is refused with the step it is at
    const early = await harness.platform.step("/auth/terms", { login_ticket: ticket1, agree: true, terms_text: "x" });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      api_message: "This sign-in is at another step.",
      login_status: "ForceChangePassword",
    });

    const terms = await harness.platform.step("/auth/password", {
      login_ticket: ticket1,
      new_password: "Fresh-start-lapwing-7",
    });
    expect(terms.status).toBe(200);
    expect(terms.token).toBeNull();
    expect(terms.body.login_status).toBe("SiteTerms");
    expect(terms.body.terms?.title).toBe("Terms of use");
    expect(terms.body.terms?.html).toContain("Keeping your account secure");
    const ticket2 = terms.body.login_ticket!;
    expect(ticket2).not.toBe(ticket1);
    // the old ticket is dead
    expect(
      (await harness.platform.step("/auth/password", { login_ticket: ticket1, new_password: "Other-pass-lapwing-8" }))
        .status,
    ).toBe(401);

    const questions = await harness.platform.step("/auth/terms", {
      login_ticket: ticket2,
      agree: true,
      terms_text: terms.body.terms!.html,
    });
    expect(questions.body.login_status).toBe("SetSecurityQuestions");
    expect(questions.body.default_questions).toHaveLength(8);
    expect(questions.body.answer_min_length).toBe(0);
    const stored = harness.platform.db.select().from(termsAgreements).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.termsText).toBe(terms.body.terms!.html);

    const ticket3 = questions.body.login_ticket!;
    const same = await harness.platform.step("/auth/security_questions", {
      login_ticket: ticket3,
      questions: [
        { question: "Favourite film?", answer: "Casablanca" },
        { question: "favourite film? ", answer: "Heat" },
      ],
    });
    expect(same.status).toBe(400);
    expect(same.body.api_message).toBe("Please select two different security questions.");
    const done = await harness.platform.step("/auth/security_questions", {
      login_ticket: ticket3,
      questions: [
        { question: questions.body.default_questions![2]!, answer: "St Mary's" },
        { question: "My own question?", answer: "Mine" },
      ],
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ login_status: "LoginSuccess", role_name: "ClientUser" });
    expect(done.token).toBeTruthy();
    const me = await harness.platform.call<SessionUser>("/resourceful/session/user", { token: done.token });
    expect(me.body.display_name).toBe("Aisha Rahman");

    // next time: the new password and straight in
    expect((await harness.platform.login("demo.newuser")).status).toBe(401);
    const again = await harness.platform.login("demo.newuser", "client", "Fresh-start-lapwing-7");
    expect(again.body.login_status).toBe("LoginSuccess");
    const own = await harness.platform.call<{ questions: Array<{ question: string }> }>(
      "/resourceful/session/security_questions",
      { token: again.token },
    );
    expect(own.body.questions.map((q) => q.question)).toEqual([
      "What was the name of your first school?",
      "My own question?",
    ]);
  });

  it("resets on declining the terms: the ticket dies", async () => {
    harness.platform.db.update(users).set({ mustAgreeTerms: true }).where(eq(users.usernameKey, "demo.assets")).run();
    const ticket = await ticketOf("demo.assets", "SiteTerms");
    const declined = await harness.platform.step("/auth/terms", { login_ticket: ticket, agree: false });
    expect(declined.status).toBe(204);
    const after = await harness.platform.step("/auth/terms", { login_ticket: ticket, agree: true, terms_text: "x" });
    expect(after.status).toBe(401);
    expect(after.body.api_message).toBe(TICKET_GONE);
    harness.platform.db.update(users).set({ mustAgreeTerms: false }).where(eq(users.usernameKey, "demo.assets")).run();
  });
});

describe("login tickets", () => {
  it("expire after 10 minutes", async () => {
    const ticket = await ticketOf("demo.memorable", "MemorableCharactersRequired");
    harness.platform.clock.advance(10 * 60_000 + 1000);
    const late = await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["a", "b", "c"] });
    expect(late.status).toBe(401);
    expect(late.body.api_message).toBe(TICKET_GONE);
    expect(
      harness.platform.db
        .select()
        .from(loginTickets)
        .all()
        .some((t) => t.step === "MemorableCharactersRequired"),
    ).toBe(false);
  });

  it("are refused when unknown or missing, and die on cancel", async () => {
    expect(
      (await harness.platform.step("/auth/memorable", { login_ticket: "made-up", answers: ["a", "b", "c"] })).status,
    ).toBe(401);
    expect((await harness.platform.step("/auth/password", { new_password: "x" })).status).toBe(400);
    const ticket = await ticketOf("demo.mfa", "MfaRequired");
    expect((await harness.platform.step("/auth/cancel", { login_ticket: ticket })).status).toBe(204);
    expect((await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: "123456" })).status).toBe(
      401,
    );
  });

  it("are stored as digests only, and carry no password", async () => {
    const tickets = [
      await ticketOf("demo.memorable", "MemorableCharactersRequired"),
      await ticketOf("demo.mfa", "MfaRequired"),
    ];
    const rows = harness.platform.db.select().from(loginTickets).all();
    for (const row of rows) {
      expect(row.ticketHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.state).not.toContain(DEMO_PASSWORD);
      expect(tickets).not.toContain(row.ticketHash);
    }
  });
});

describe("MFA by sms", () => {
  it("sends a code, sends a new one after a wrong code, and signs in with the latest", async () => {
    const first = await harness.platform.login("demo.mfa");
    expect(first.body).toMatchObject({
      login_status: "MfaRequired",
      mfa_method: "sms",
      destination: "+********0123",
      enrolled: false,
    });
    const ticket = first.body.login_ticket!;
    const code1 = await harness.platform.latestCode("demo.mfa");

    const wrong = await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: wrongCode(code1) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      api_message: BAD_CODE,
      login_status: "MfaRequired",
      login_ticket: ticket,
      mfa_method: "sms",
    });
    const code2 = await harness.platform.latestCode("demo.mfa");
    expect((await harness.platform.outbox("demo.mfa")).length).toBeGreaterThanOrEqual(2);

    // the first code is void once a new one is sent
    if (code1 !== code2)
      expect((await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: code1 })).status).toBe(
        401,
      );
    const code3 = await harness.platform.latestCode("demo.mfa");
    const done = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: ticket,
      code: ` ${code3.slice(0, 3)} ${code3.slice(3)} `,
    });
    expect(done.status).toBe(200);
    expect(done.body.login_status).toBe("LoginSuccess");
    expect(done.token).toBeTruthy();
    expect(userRow("demo.mfa").failedAttempts).toBe(0);
  });

  it("resends a code at most 3 times in a sign-in", async () => {
    const ticket = await ticketOf("demo.mfa", "MfaRequired");
    const before = (await harness.platform.outbox("demo.mfa")).length;
    for (let i = 0; i < 3; i++) {
      const resent = await harness.platform.step("/auth/tfa/resend", { login_ticket: ticket });
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ login_status: "MfaRequired", login_ticket: ticket });
    }
    expect((await harness.platform.outbox("demo.mfa")).length).toBe(before + 3);
    const tooMany = await harness.platform.step("/auth/tfa/resend", { login_ticket: ticket });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.api_message).toBe("Too many codes have been requested. Please log in again.");
  });

  it("refuses a malformed code without counting it", async () => {
    const ticket = await ticketOf("demo.mfa", "MfaRequired");
    const before = userRow("demo.mfa").failedAttempts;
    expect((await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: "12ab" })).status).toBe(
      400,
    );
    expect(userRow("demo.mfa").failedAttempts).toBe(before);
  });
});

describe("a password on the common and breached list, at sign-in (ASVS V2.1.7, decision 180)", () => {
  it("is changed after the second factor, the step saying why, and the new one signs in without it", async () => {
    const common = "Password123!";
    const made = await harness.platform.call("/dev/users/demo.mfa/copy", {
      method: "POST",
      body: { username: "common-pass-1", password: common },
    });
    expect(made.status).toBe(201);
    const first = await harness.platform.login("common-pass-1", "client", common);
    // the second factor first: the password alone proves nothing yet
    expect(first.body.login_status).toBe("MfaRequired");
    const changing = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: first.body.login_ticket,
      code: await harness.platform.latestCode("common-pass-1"),
    });
    expect(changing.token).toBeNull();
    expect(changing.body).toMatchObject({ login_status: "ForceChangePassword", reason: "common" });
    // the new password follows the policy
    const refused = await harness.platform.step("/auth/password", {
      login_ticket: changing.body.login_ticket,
      new_password: "Password12345!",
    });
    expect(refused.body.api_message).toBe(
      "This password is too common or has appeared in a data breach. Choose a different one.",
    );
    const done = await harness.platform.step("/auth/password", {
      login_ticket: changing.body.login_ticket,
      new_password: "Lapwing-orchard-17",
    });
    expect(done.body.login_status).toBe("LoginSuccess");
    expect(done.token).not.toBeNull();

    const again = await harness.platform.login("common-pass-1", "client", "Lapwing-orchard-17");
    const signedIn = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: again.body.login_ticket,
      code: await harness.platform.latestCode("common-pass-1"),
    });
    expect(signedIn.body.login_status).toBe("LoginSuccess");
  });

  it("is asked again at every sign-in until changed; a password not on the list is not", async () => {
    await harness.platform.call("/dev/users/demo.client/copy", {
      method: "POST",
      body: { username: "common-pass-2", password: "qwerty123" },
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await harness.platform.login("common-pass-2", "client", "qwerty123");
      expect(answer.body).toMatchObject({ login_status: "ForceChangePassword", reason: "common" });
      expect(answer.token).toBeNull();
    }
    expect((await harness.platform.login("demo.client")).body.login_status).toBe("LoginSuccess");
  });
});

describe("MFA by software token", () => {
  it("signs in with the current TOTP code and refuses it a second time", async () => {
    const first = await harness.platform.login("demo.token");
    expect(first.body).toMatchObject({ login_status: "MfaRequired", mfa_method: "token", destination: null });
    const code = tokenCode();
    const done = await harness.platform.step("/auth/tfa/validate", { login_ticket: first.body.login_ticket, code });
    expect(done.body.login_status).toBe("LoginSuccess");

    const again = await harness.platform.login("demo.token");
    const replay = await harness.platform.step("/auth/tfa/validate", { login_ticket: again.body.login_ticket, code });
    expect(replay.status).toBe(401);
    expect(replay.body.api_message).toBe(
      "There was an error with the authentication code you entered. Please try again.",
    );
    expect(
      (await harness.platform.step("/auth/tfa/resend", { login_ticket: again.body.login_ticket })).body.api_message,
    ).toBe("A software token makes its own codes.");
    // a code from two steps ahead is outside the window; the next step's is inside
    expect(
      (await harness.platform.step("/auth/tfa/validate", { login_ticket: again.body.login_ticket, code: tokenCode(2) }))
        .status,
    ).toBe(401);
    harness.platform.clock.advance(30_000);
    expect(
      (await harness.platform.step("/auth/tfa/validate", { login_ticket: again.body.login_ticket, code: tokenCode() }))
        .body.login_status,
    ).toBe("LoginSuccess");
  });
});

describe("MFA enrolment", () => {
  it("links a device by sms, fails validation, requests a new code, validates, then verifies once more", async () => {
    const first = await harness.platform.login("demo.enrol");
    expect(first.body.login_status).toBe("MfaEnrolmentLinkDevice");
    expect(first.body.mfa_methods).toEqual([
      { method: "token", destination: null },
      { method: "email", destination: "g***@example.com" },
      { method: "sms", destination: "+********0234" },
    ]);
    const methods = await harness.platform.step("/auth/tfa/methods", { login_ticket: first.body.login_ticket });
    expect((methods.body as unknown as { methods: unknown[] }).methods).toEqual(first.body.mfa_methods);
    const details = await harness.platform.step("/auth/tfa/details", { login_ticket: first.body.login_ticket });
    expect(details.body).toMatchObject({
      mfaMethod: null,
      mobile: "+********0234",
      email: "g***@example.com",
      softwareToken: false,
    });

    const device = await harness.platform.step("/auth/tfa/device", {
      login_ticket: first.body.login_ticket,
      method: "sms",
    });
    expect(device.status).toBe(200);
    expect(device.body).toMatchObject({
      login_status: "MfaEnrolmentValidateDevice",
      mfa_method: "sms",
      device_name: "device",
    });
    const deviceId = device.body.device_id!;
    expect(deviceId).toBeTruthy();
    const code = await harness.platform.latestCode("demo.enrol");
    expect((await harness.platform.outbox("demo.enrol"))[0]?.to).toBe("+447700900234");

    // the device id must be the ticket's
    const noDevice = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: device.body.login_ticket,
      code,
    });
    expect(noDevice.status).toBe(400);
    expect(noDevice.body.api_message).toBe("An error occurred whilst requesting additional verification code");

    const invalid = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: device.body.login_ticket,
      code: wrongCode(code),
      device_id: deviceId,
    });
    expect(invalid.status).toBe(200);
    expect(invalid.body).toMatchObject({ login_status: "MfaEnrolmentLinkDeviceInvalidOtp", device_id: deviceId });

    const renewed = await harness.platform.step("/auth/tfa/resend", { login_ticket: invalid.body.login_ticket });
    expect(renewed.body).toMatchObject({ login_status: "MfaEnrolmentValidateDevice", device_id: deviceId });
    const newCode = await harness.platform.latestCode("demo.enrol");

    const enrolled = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: renewed.body.login_ticket,
      code: newCode,
      device_id: deviceId,
    });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body).toMatchObject({ login_status: "MfaRequired", mfa_method: "sms", enrolled: true });
    expect(enrolled.token).toBeNull();
    const verifyCode = await harness.platform.latestCode("demo.enrol");
    expect(verifyCode === newCode && (await harness.platform.outbox("demo.enrol")).length < 3).toBe(false);
    const done = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: enrolled.body.login_ticket,
      code: verifyCode,
    });
    expect(done.body.login_status).toBe("LoginSuccess");
    expect(userRow("demo.enrol")).toMatchObject({ mfaEnrolled: true, mfaMethod: "sms" });
  });

  it("enrols a software token with a real TOTP secret", async () => {
    harness.platform.db
      .update(users)
      .set({ mfaEnrolled: false, mfaMethod: null })
      .where(eq(users.usernameKey, "demo.enrol"))
      .run();
    const ticket = await ticketOf("demo.enrol", "MfaEnrolmentLinkDevice");
    const device = await harness.platform.step("/auth/tfa/device", { login_ticket: ticket, method: "token" });
    expect(device.body).toMatchObject({
      login_status: "MfaEnrolmentValidateDevice",
      mfa_method: "token",
      device_name: "email",
    });
    expect(device.body.token_secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(device.body.otpauth_uri).toContain(`secret=${device.body.token_secret}`);
    const key = base32Decode(device.body.token_secret!);
    const now = harness.platform.clock.now().getTime();
    const enrolled = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: device.body.login_ticket,
      code: totp(key, now),
      device_id: device.body.device_id,
    });
    expect(enrolled.body).toMatchObject({ login_status: "MfaRequired", mfa_method: "token", enrolled: true });
    // verify once more: the same code is used up, the next step's is accepted
    expect(
      (
        await harness.platform.step("/auth/tfa/validate", {
          login_ticket: enrolled.body.login_ticket,
          code: totp(key, now),
        })
      ).status,
    ).toBe(401);
    const done = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: enrolled.body.login_ticket,
      code: totp(key, now + 30_000),
    });
    expect(done.body.login_status).toBe("LoginSuccess");
  });

  it("refuses a method without a number or address on record, and one the user may not use", async () => {
    harness.platform.db
      .update(users)
      .set({ mfaEnrolled: false, mfaMethod: null, mfaEmail: null })
      .where(eq(users.usernameKey, "demo.enrol"))
      .run();
    const ticket = await ticketOf("demo.enrol", "MfaEnrolmentLinkDevice");
    const problem = await harness.platform.step("/auth/tfa/device", { login_ticket: ticket, method: "email" });
    expect(problem.status).toBe(422);
    expect(problem.body.api_message).toBe(
      "There is a problem with your registered phone number or email address. Please contact your adviser for assistance.",
    );
    harness.platform.db
      .update(users)
      .set({ mfaMethodsAllowed: "sms" })
      .where(eq(users.usernameKey, "demo.enrol"))
      .run();
    const notAllowed = await harness.platform.step("/auth/tfa/device", { login_ticket: ticket, method: "token" });
    expect(notAllowed.status).toBe(400);
    expect(notAllowed.body.api_message).toBe("MFA method not available");
  });
});

describe("memorable word", () => {
  it("retries with new positions after wrong characters, and signs in with the right ones", async () => {
    const first = await harness.platform.login("demo.memorable");
    expect(first.body.memorableWordHint).toBe("The tree in your first garden");
    const ticket = first.body.login_ticket!;
    const wrong = await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["z", "z", "z"] });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      api_message: BAD_MEMORABLE,
      login_status: "MemorableCharactersRequired",
      login_ticket: ticket,
    });
    const positions = wrong.body.memorableQuestions!;
    expect(positions).toHaveLength(3);
    expect(positions).not.toEqual(first.body.memorableQuestions);
    const word = [..."chestnut"];
    expect(
      (await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["ab", "c", "d"] })).status,
    ).toBe(400);
    const done = await harness.platform.step("/auth/memorable", {
      login_ticket: ticket,
      answers: positions.map((p) => word[p]!.toUpperCase()),
    });
    expect(done.body.login_status).toBe("LoginSuccess");
  });

  it("deactivates the account on the 5th wrong try", async () => {
    const ticket = await ticketOf("demo.memorable", "MemorableCharactersRequired");
    for (let i = 1; i <= 4; i++) {
      expect(
        (await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["z", "z", "z"] })).status,
      ).toBe(401);
    }
    const locked = await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["z", "z", "z"] });
    expect(locked.status).toBe(403);
    expect(locked.body.api_message).toBe("Account deactivated");
    expect((await harness.platform.login("demo.memorable")).body.api_message).toBe("Account has been disabled.");
    expect(
      (await harness.platform.step("/auth/memorable", { login_ticket: ticket, answers: ["c", "h", "e"] })).status,
    ).toBe(401);
    // an operator re-enables it
    expect((await harness.platform.call("/dev/users/demo.memorable/unlock", { method: "POST", body: {} })).status).toBe(
      200,
    );
    expect((await harness.platform.login("demo.memorable")).body.login_status).toBe("MemorableCharactersRequired");
  });

  it("gives a user without a memorable word fewer than three positions and no way through", async () => {
    const first = await harness.platform.login("demo.noword");
    expect(first.body.login_status).toBe("MemorableCharactersRequired");
    expect(first.body.memorableQuestions).toEqual([]);
    const answer = await harness.platform.step("/auth/memorable", {
      login_ticket: first.body.login_ticket,
      answers: ["a", "b", "c"],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.api_message).toBe("Memorable word validation failed");
  });
});

describe("lockout", () => {
  it("disables the account on the 5th consecutive wrong password and keeps it disabled", async () => {
    for (let i = 1; i <= 4; i++) {
      const answer = await harness.platform.login("demo.lockout", "client", "Wrong-pass-9");
      expect(answer.status).toBe(401);
      expect(answer.body.api_message).toBe("Either your username or your password is incorrect.");
    }
    const fifth = await harness.platform.login("demo.lockout", "client", "Wrong-pass-9");
    expect(fifth.status).toBe(403);
    expect(fifth.body.api_message).toBe("Account has been disabled.");
    expect((await harness.platform.login("demo.lockout")).status).toBe(403);
    // a wrong password on a disabled account says nothing more than a wrong password
    expect((await harness.platform.login("demo.lockout", "client", "Wrong-pass-9")).status).toBe(401);
    await harness.platform.call("/dev/users/demo.lockout/unlock", { method: "POST", body: {} });
    expect((await harness.platform.login("demo.lockout")).body.login_status).toBe("LoginSuccess");
  });

  it("ends the user's sessions when locking", async () => {
    const token = await harness.platform.session("demo.lockout");
    for (let i = 1; i <= 5; i++) await harness.platform.login("demo.lockout", "client", "Wrong-pass-9");
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(401);
    await harness.platform.call("/dev/users/demo.lockout/unlock", { method: "POST", body: {} });
  });

  it("counts wrong codes with wrong passwords, and a right password alone does not clear them for an MFA user", async () => {
    await harness.platform.call("/dev/users/demo.mfa/unlock", { method: "POST", body: {} });
    for (let i = 1; i <= 2; i++) await harness.platform.login("demo.mfa", "client", "Wrong-pass-9");
    const ticket = await ticketOf("demo.mfa", "MfaRequired");
    expect(userRow("demo.mfa").failedAttempts).toBe(2);
    const code = await harness.platform.latestCode("demo.mfa");
    await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: wrongCode(code) });
    const code2 = await harness.platform.latestCode("demo.mfa");
    await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: wrongCode(code2) });
    const code3 = await harness.platform.latestCode("demo.mfa");
    const fifth = await harness.platform.step("/auth/tfa/validate", { login_ticket: ticket, code: wrongCode(code3) });
    expect(fifth.status).toBe(403);
    expect(fifth.body.api_message).toBe("Account has been disabled.");
    expect(userRow("demo.mfa").disabled).toBe(true);
    await harness.platform.call("/dev/users/demo.mfa/unlock", { method: "POST", body: {} });
  });

  it("clears the count once the user has proven who they are", async () => {
    await harness.platform.login("demo.mfa", "client", "Wrong-pass-9");
    const ticket = await ticketOf("demo.mfa", "MfaRequired");
    expect(userRow("demo.mfa").failedAttempts).toBe(1);
    await harness.platform.step("/auth/tfa/validate", {
      login_ticket: ticket,
      code: await harness.platform.latestCode("demo.mfa"),
    });
    expect(userRow("demo.mfa").failedAttempts).toBe(0);
  });
});
