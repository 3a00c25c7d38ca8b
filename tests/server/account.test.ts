import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../server/db/schema";
import { base32Decode, totp } from "../../server/lib/totp";
import { DEMO_PASSWORD } from "../../server/seed";
import { type ErrorAnswer, startPlatform, withPlatform } from "./harness";

const harness = withPlatform();

const CLIENTS_ONLY = "Permission Error: This feature is only available to clients";
const userRow = (username: string) =>
  harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!;

describe("change password", () => {
  const change = (token: string, body: Record<string, unknown>) =>
    harness.platform.call<{ password_changed: boolean } & ErrorAnswer>("/resourceful/session/password", {
      method: "PUT",
      body,
      token,
    });

  it("checks the current password and the policy, then ends the other sessions", async () => {
    const other = await harness.platform.session("demo.assets");
    const token = await harness.platform.session("demo.assets");
    const wrong = await change(token, { current_password: "Not-it-1", new_password: "Brand-new-pass-2" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.api_message).toBe("The current password is incorrect.");
    const short = await change(token, { current_password: "Demo-pass-1", new_password: "Demo-pass-1" });
    expect(short.body.api_message).toBe("The password must be at least 12 characters long.");
    expect(
      (await change(token, { current_password: "Demo-pass-1", new_password: "Password2024!" })).body.api_message,
    ).toBe("This password is too common or has appeared in a data breach. Choose a different one.");
    expect((await change(token, { current_password: "Demo-pass-1" })).status).toBe(400);
    const done = await change(token, { current_password: "Demo-pass-1", new_password: "Brand-new-pass-2" });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ password_changed: true });
    expect(
      (await change(token, { current_password: "Brand-new-pass-2", new_password: "Brand-new-pass-2" })).body
        .api_message,
    ).toBe("The new password must be different from your current password.");
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(200);
    expect((await harness.platform.call("/resourceful/session/user", { token: other })).status).toBe(401);
    expect((await harness.platform.login("demo.assets", "client", "Brand-new-pass-2")).body.login_status).toBe(
      "LoginSuccess",
    );
  });

  it("is for clients only", async () => {
    const adviser = await harness.platform.session("demo.adviser", "adviser");
    const answer = await change(adviser, { current_password: "Demo-pass-1", new_password: "Brand-new-pass-2" });
    expect(answer.status).toBe(403);
    expect(answer.body.api_message).toBe(CLIENTS_ONLY);
  });

  it("locks the account after 5 wrong current passwords, ending the session", async () => {
    const token = await harness.platform.session("demo.lockout");
    for (let i = 1; i <= 4; i++)
      expect((await change(token, { current_password: "Nope-1234", new_password: "Brand-new-pass-2" })).status).toBe(
        400,
      );
    const fifth = await change(token, { current_password: "Nope-1234", new_password: "Brand-new-pass-2" });
    expect(fifth.status).toBe(403);
    expect(fifth.body.api_message).toBe("Account has been disabled.");
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(401);
    await harness.platform.call("/dev/users/demo.lockout/unlock", { method: "POST", body: {} });
  });
});

describe("security questions", () => {
  type Questions = {
    questions: Array<{ position: number; question: string }>;
    default_questions: string[];
    answer_min_length: number;
  };

  it("lists the user's questions and the 8 defaults, and sets new ones", async () => {
    const token = await harness.platform.session("demo.client");
    const before = await harness.platform.call<Questions>("/resourceful/session/security_questions", { token });
    expect(before.body.questions).toEqual([
      { position: 1, question: "What was the name of your first pet?" },
      { position: 2, question: "In which town or city did your parents meet?" },
    ]);
    expect(before.body.default_questions).toHaveLength(8);
    expect(before.body.answer_min_length).toBe(0);

    const put = (questions: unknown, currentPassword: string | null = DEMO_PASSWORD) =>
      harness.platform.call<Questions & ErrorAnswer>("/resourceful/session/security_questions", {
        method: "PUT",
        body: { questions, ...(currentPassword === null ? {} : { current_password: currentPassword }) },
        token,
      });
    // the current password first (ASVS V3.7.1, decision 179): none, or a wrong one, changes nothing
    const good = [
      { question: "What was the make of your first car?", answer: "Mini" },
      { question: "What was your childhood nickname?", answer: "Ellie" },
    ];
    expect((await put(good, null)).body.api_message).toBe("Password is required");
    expect((await put(good, "Not-the-password-1")).body.api_message).toBe("The current password is incorrect.");
    expect(
      (await harness.platform.call<Questions>("/resourceful/session/security_questions", { token })).body.questions[0]
        ?.question,
    ).toBe("What was the name of your first pet?");
    expect(
      (
        await put([
          { question: "A?", answer: "x".repeat(257) },
          { question: "B?", answer: "b" },
        ])
      ).body.api_message,
    ).toBe("Answers must be at most 256 characters");
    expect(
      (
        await put([
          { question: "x".repeat(257), answer: "a" },
          { question: "B?", answer: "b" },
        ])
      ).body.api_message,
    ).toBe("Question needs to be at most 256 characters");
    expect(
      (
        await put([
          { question: "A?", answer: "" },
          { question: "B?", answer: "b" },
        ])
      ).body.api_message,
    ).toBe("Please enter an answer to your security question.");
    expect((await put([{ question: "A?", answer: "a" }])).status).toBe(400);
    const saved = await put([
      { question: "What was the make of your first car?", answer: "Mini" },
      { question: "What was your childhood nickname?", answer: "Ellie" },
    ]);
    expect(saved.status).toBe(200);
    expect(saved.body.questions.map((q) => q.question)).toEqual([
      "What was the make of your first car?",
      "What was your childhood nickname?",
    ]);
    // the forgotten-password flow now asks the new questions
    const reset = await harness.platform.call<{ questions: string[] }>("/resourceful/forgotten_password", {
      method: "POST",
      body: { username: "demo.client" },
    });
    expect(reset.body.questions).toEqual(["What was the make of your first car?", "What was your childhood nickname?"]);
  });

  it("needs 8-character answers on a platform version the spec names, which GET site reports", async () => {
    const older = await startPlatform({ version: "22.9.236" });
    try {
      expect((await older.call<{ version: string }>("/resourceful/site?version=true")).body.version).toBe("22.9.236");
      const token = await older.session("demo.client");
      expect(
        (await older.call<Questions>("/resourceful/session/security_questions", { token })).body.answer_min_length,
      ).toBe(8);
      const short = await older.call("/resourceful/session/security_questions", {
        method: "PUT",
        token,
        body: {
          current_password: DEMO_PASSWORD,
          questions: [
            { question: "A?", answer: "short" },
            { question: "B?", answer: "long enough" },
          ],
        },
      });
      expect(short.status).toBe(400);
      expect(short.body.api_message).toBe("Answers must be at least 8 characters");
    } finally {
      await older.close();
    }
  });

  it("is for clients only", async () => {
    const adviser = await harness.platform.session("demo.adviser", "adviser");
    expect(
      (await harness.platform.call("/resourceful/session/security_questions", { token: adviser })).body.api_message,
    ).toBe(CLIENTS_ONLY);
  });
});

describe("preferences", () => {
  type Client = { comm_pref_email: string; comm_pref_mail: string; comm_pref_sms: string; first_name: string };
  const patch = (id: number, body: unknown, token: string) =>
    harness.platform.call<Client & ErrorAnswer>(`/resourceful/entity/client-v3/${id}`, {
      method: "PATCH",
      body,
      token,
    });

  it("lets a client change their own with 200 and the record", async () => {
    const token = await harness.platform.session("demo.client");
    const answer = await patch(1, { comm_pref_mail: "1", comm_pref_sms: "0" }, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      first_name: "Eleanor",
      comm_pref_email: "1",
      comm_pref_mail: "1",
      comm_pref_sms: "0",
    });
    expect(
      (await harness.platform.call<Client>("/resourceful/entity/client-v3/1", { token })).body.comm_pref_mail,
    ).toBe("1");
  });

  it("refuses other values, other fields, an empty change, a partner's record and advisers", async () => {
    const token = await harness.platform.session("demo.client");
    expect((await patch(1, { comm_pref_email: "yes" }, token)).status).toBe(400);
    expect((await patch(1, { first_name: "Eve" }, token)).status).toBe(400);
    expect((await patch(1, {}, token)).status).toBe(400);
    const partner = await patch(2, { comm_pref_email: "0" }, token);
    expect(partner.status).toBe(403);
    expect(partner.body.api_message).toBe("Permission Error: You do not have access to this entity");
    const adviser = await harness.platform.session("demo.adviser", "adviser");
    await harness.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: adviser,
      body: { client_id: 1, client_access_level: 1 },
    });
    expect((await harness.platform.call("/resourceful/entity/client-v3/1", { token: adviser })).status).toBe(200);
    const refused = await patch(1, { comm_pref_email: "0" }, adviser);
    expect(refused.status).toBe(403);
    expect(refused.body.api_message).toBe(CLIENTS_ONLY);
  });
});

describe("additional verification", () => {
  type Pending = {
    status: string;
    device: { id: string; name: string; method: string; destination: string | null };
    token_secret?: string;
  };

  it("answers the enrolment details and methods", async () => {
    const token = await harness.platform.session("demo.enrol").catch(() => null);
    expect(token).toBeNull(); // not enrolled: cannot get a session without the steps
    const mfa = await signInMfa("demo.mfa");
    const details = await harness.platform.call("/resourceful/session/mfa", { token: mfa });
    expect(details.body).toEqual({ mfaMethod: "sms", mobile: "+********0123", email: null, softwareToken: false });
    const methods = await harness.platform.call<{ methods: unknown[] }>("/resourceful/session/mfa/methods", {
      token: mfa,
    });
    expect(methods.body.methods).toEqual([
      { method: "token", destination: null },
      { method: "email", destination: null },
      { method: "sms", destination: "+********0123" },
    ]);
    const single = await signInMfa("demo.single");
    expect(
      (await harness.platform.call<{ methods: unknown[] }>("/resourceful/session/mfa/methods", { token: single })).body
        .methods,
    ).toEqual([{ method: "email", destination: "f***@example.com" }]);
    const basic = await harness.platform.session("demo.messages");
    expect(
      (await harness.platform.call<{ methods: unknown[] }>("/resourceful/session/mfa/methods", { token: basic })).body
        .methods,
    ).toEqual([]);
    const refused = await harness.platform.call("/resourceful/session/mfa/method", {
      method: "PUT",
      token: basic,
      body: { mfaMethod: "sms", password: "Demo-pass-1" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.api_message).toBe("Permission Error: Additional verification is not enabled for this user");
  });

  it("changes the method to a software token after the password and a valid code", async () => {
    const token = await signInMfa("demo.mfa");
    const put = (body: unknown) =>
      harness.platform.call<Pending & ErrorAnswer>("/resourceful/session/mfa/method", { method: "PUT", token, body });
    expect((await put({})).body.api_message).toBe("MFA method required");
    expect((await put({ mfaMethod: "sms", password: "Demo-pass-1" })).body.api_message).toBe(
      "This is already your additional verification method.",
    );
    expect((await put({ mfaMethod: "pigeon" })).body.api_message).toBe("MFA method not available");
    const problem = await put({ mfaMethod: "email", password: "Demo-pass-1" });
    expect(problem.status).toBe(422);
    expect(problem.body.api_message).toBe(
      "There is a problem with your registered phone number or email address. Please contact your adviser for assistance.",
    );
    expect((await put({ mfaMethod: "token" })).body.api_message).toBe("Password is required");
    expect((await put({ mfaMethod: "token", password: "wrong-1234" })).body.api_message).toBe(
      "The password is incorrect.",
    );

    const pending = await put({ mfaMethod: "token", password: "Demo-pass-1" });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      status: "validate",
      device: { method: "token", name: "email", destination: null },
    });
    const key = base32Decode(pending.body.token_secret!);
    const validate = (body: unknown) =>
      harness.platform.call<ErrorAnswer & { status: string; mfaMethod: string }>("/resourceful/session/mfa/validate", {
        method: "POST",
        token,
        body,
      });
    expect((await validate({ mfaMethod: "token", mfaCode: "123456" })).body.api_message).toBe(
      "An error occurred whilst requesting additional verification code",
    );
    expect(
      (await validate({ mfaMethod: "sms", mfaCode: "123456", deviceId: pending.body.device.id })).body.api_message,
    ).toBe("An error occurred whilst requesting additional verification code");
    const right = totp(key, harness.platform.clock.now().getTime());
    const invalid = await validate({
      mfaMethod: "token",
      mfaCode: right === "000000" ? "111111" : "000000",
      deviceId: pending.body.device.id,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.api_message).toBe("The code is invalid");
    expect(userRow("demo.mfa").mfaMethod).toBe("sms");
    const changed = await validate({ mfaMethod: "token", mfaCode: right, deviceId: pending.body.device.id });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ status: "changed", mfaMethod: "token" });
    expect((await harness.platform.call("/resourceful/session/mfa", { token })).body).toMatchObject({
      mfaMethod: "token",
      softwareToken: true,
    });
    expect(userRow("demo.mfa").failedAttempts).toBe(0);

    // and the next sign-in asks for the token
    const next = await harness.platform.login("demo.mfa");
    expect(next.body).toMatchObject({ login_status: "MfaRequired", mfa_method: "token" });
  });

  it("sends a code for sms, voids it after a wrong try and sends a new one on request", async () => {
    const token = await signInMfaToken();
    const pending = await harness.platform.call<Pending>("/resourceful/session/mfa/method", {
      method: "PUT",
      token,
      body: { mfaMethod: "sms", password: "Demo-pass-1" },
    });
    expect(pending.body.device).toMatchObject({ method: "sms", name: "device", destination: "+********0123" });
    const code = await harness.platform.latestCode("demo.mfa");
    const validate = (mfaCode: string) =>
      harness.platform.call<ErrorAnswer>("/resourceful/session/mfa/validate", {
        method: "POST",
        token,
        body: { mfaMethod: "sms", mfaCode, deviceId: pending.body.device.id },
      });
    expect((await validate(code === "000000" ? "111111" : "000000")).status).toBe(400);
    expect((await validate(code)).body.api_message).toBe("The code is invalid");
    const resent = await harness.platform.call<Pending>("/resourceful/session/mfa/resend", {
      method: "POST",
      token,
      body: { deviceId: pending.body.device.id },
    });
    expect(resent.body.device.id).toBe(pending.body.device.id);
    expect((await validate(await harness.platform.latestCode("demo.mfa"))).status).toBe(200);
    expect(userRow("demo.mfa").mfaMethod).toBe("sms");
  });
});

describe("maintenance", () => {
  it("answers health BAD while switched on in the site setting, and carries the page's content", async () => {
    expect((await harness.platform.call("/xplan/health")).body).toEqual({ status: "GOOD" });
    const on = await harness.platform.call("/dev/maintenance", { method: "PUT", body: { maintenance: true } });
    expect(on.body).toEqual({ maintenance: true, status: "BAD" });
    expect((await harness.platform.call("/xplan/health")).body).toEqual({ status: "BAD" });
    const site = await harness.platform.call<{
      settings: Record<string, unknown>;
      content: { pages: Record<string, { title: string; html: string }> };
    }>("/resourceful/site?site_locales=en-GB");
    expect(site.body.settings.maintenanceMode).toBe(true);
    expect(site.body.content.pages.maintenance?.title).toBe("Client Online is down for maintenance");
    expect(site.body.content.pages.maintenance?.html).toContain("planned maintenance");
    await harness.platform.call("/dev/maintenance", { method: "PUT", body: { maintenance: false } });
    expect((await harness.platform.call("/xplan/health")).body).toEqual({ status: "GOOD" });
  });

  it("answers health BAD when the operator starts the platform with PLATFORM_MAINTENANCE=on", async () => {
    const down = await startPlatform({ maintenance: true });
    try {
      expect((await down.call("/xplan/health")).body).toEqual({ status: "BAD" });
    } finally {
      await down.close();
    }
  });
});

async function signInMfa(username: string): Promise<string> {
  const first = await harness.platform.login(username);
  const done = await harness.platform.step("/auth/tfa/validate", {
    login_ticket: first.body.login_ticket,
    code: await harness.platform.latestCode(username),
  });
  if (!done.token) throw new Error(`MFA sign-in of ${username} failed`);
  return done.token;
}

async function signInMfaToken(): Promise<string> {
  const first = await harness.platform.login("demo.mfa");
  harness.platform.clock.advance(60_000);
  const key = base32Decode(userRow("demo.mfa").mfaTotpSecret!);
  const done = await harness.platform.step("/auth/tfa/validate", {
    login_ticket: first.body.login_ticket,
    code: totp(key, harness.platform.clock.now().getTime()),
  });
  if (!done.token) throw new Error("token sign-in failed");
  return done.token;
}
