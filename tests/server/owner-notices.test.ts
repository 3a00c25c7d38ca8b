import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { entities, users } from "../../server/db/schema";
import { base32Decode, totp } from "../../server/lib/totp";
import { DEMO_PASSWORD } from "../../server/seed";
import { SoftwareAuthenticator } from "../webauthn-authenticator";
import { type ErrorAnswer, type OutboxRow, withPlatform } from "./harness";

// ASVS 4.0.3 V2.2.3 and V2.5.5 (issue 39, docs/decisions/164): the owner is told at once, by email,
// of a password change or reset, a new or removed passkey, a change of additional verification or
// of security questions, and a lockout; with when, from where and what to do if it was not them.

const harness = withPlatform();

/** What the portal passes on of its client (app/runtime/request-origin.server.ts). */
const FROM = { "X-Client-Address": "203.0.113.7", "X-Client-User-Agent": "Mozilla/5.0 (Macintosh) Firefox/133.0" };
const NOT_YOU =
  "If this was you, there is nothing more to do. If it was not you, please reset your password now " +
  "(choose 'Help with logging in' on the Client Online login page) and contact your adviser straight away.";

let copies = 0;

/** A fresh login in the state of a seeded one, with an email of its own to read. */
async function copyOf(template: string): Promise<{ username: string; email: string }> {
  const username = `notice.${template.replace(/^demo\./, "")}.${++copies}`;
  const email = `${username}@example.org`;
  const made = await harness.platform.call(`/dev/users/${template}/copy`, {
    method: "POST",
    body: { username, email },
  });
  expect(made.status).toBe(201);
  return { username, email };
}

async function newestTo(email: string): Promise<OutboxRow> {
  const row = (await harness.platform.outbox(email))[0];
  if (!row) throw new Error(`nothing sent to ${email}`);
  return row;
}

describe("the owner is told at once", () => {
  it("of a password change: what, when, from where (the portal's client) and what to do", async () => {
    const { username, email } = await copyOf("demo.messages");
    const token = await harness.platform.session(username);
    const changed = await harness.platform.call("/resourceful/session/password", {
      method: "PUT",
      token,
      headers: FROM,
      body: { current_password: DEMO_PASSWORD, new_password: "Brand-new-pass-2" },
    });
    expect(changed.status).toBe(200);
    const notice = await newestTo(email);
    expect(notice).toMatchObject({ channel: "email", subject: "Your Client Online password was changed", code: null });
    expect(notice.body).toBe(
      [
        `The password of your Client Online account (username ${username}) was changed.`,
        "When: 14 March 2025 at 10:00 UTC",
        "From: address 203.0.113.7, browser Mozilla/5.0 (Macintosh) Firefox/133.0",
        NOT_YOU,
        "Client Online will never ask you for your password, codes or security answers by email or telephone.",
      ].join("\n\n"),
    );
  });

  it("of new security questions, from the caller's own address and browser when nobody passes them on", async () => {
    const { username, email } = await copyOf("demo.messages");
    const token = await harness.platform.session(username);
    const saved = await harness.platform.call("/resourceful/session/security_questions", {
      method: "PUT",
      token,
      headers: { "User-Agent": "Statement-runner/1.0" },
      body: {
        current_password: DEMO_PASSWORD,
        questions: [
          { question: "What was the name of your first pet?", answer: "Biscuit-the-dog" },
          { question: "What was the make of your first car?", answer: "Morris Minor" },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const notice = await newestTo(email);
    expect(notice.subject).toBe("Your Client Online security questions were changed");
    expect(notice.body).toContain("From: address 127.0.0.1, browser Statement-runner/1.0");
  });

  it("of a passkey added and removed, by its name", async () => {
    const { username, email } = await copyOf("demo.messages");
    const token = await harness.platform.session(username);
    const authenticator = new SoftwareAuthenticator();
    const options = await harness.platform.call<{ challenge: string; user: { id: string; name: string } }>(
      "/resourceful/session/passkey/registration/options",
      { method: "POST", token, body: { current_password: DEMO_PASSWORD } },
    );
    const response = authenticator.register({ challenge: options.body.challenge, user: options.body.user });
    const added = await harness.platform.call<{ id: number }>("/resourceful/session/passkey/registration/verify", {
      method: "POST",
      token,
      headers: FROM,
      body: { response, name: "Work laptop" },
    });
    expect(added.status).toBe(201);
    const addedNotice = await newestTo(email);
    expect(addedNotice.subject).toBe("A passkey was added to your Client Online account");
    expect(addedNotice.body).toContain('A passkey named "Work laptop" was added');
    const removed = await harness.platform.call(`/resourceful/session/passkey/${added.body.id}`, {
      method: "DELETE",
      token,
      headers: FROM,
      body: { current_password: DEMO_PASSWORD },
    });
    expect(removed.status).toBe(204);
    const removedNotice = await newestTo(email);
    expect(removedNotice.subject).toBe("A passkey was removed from your Client Online account");
    expect(removedNotice.body).toContain('The passkey named "Work laptop" was removed');
  });

  it("of a change of additional verification", async () => {
    const { username, email } = await copyOf("demo.mfa");
    const first = await harness.platform.login(username);
    const signedIn = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: first.body.login_ticket,
      code: await harness.platform.latestCode(username),
    });
    const token = signedIn.token!;
    const pending = await harness.platform.call<{ device: { id: string }; token_secret: string }>(
      "/resourceful/session/mfa/method",
      { method: "PUT", token, body: { mfaMethod: "token", password: DEMO_PASSWORD } },
    );
    expect(pending.status).toBe(200);
    const code = totp(base32Decode(pending.body.token_secret), harness.platform.clock.now().getTime());
    const changed = await harness.platform.call<ErrorAnswer>("/resourceful/session/mfa/validate", {
      method: "POST",
      token,
      headers: FROM,
      body: { mfaMethod: "token", mfaCode: code, deviceId: pending.body.device.id },
    });
    expect(changed.status).toBe(200);
    const notice = await newestTo(email);
    expect(notice.subject).toBe("Your Client Online additional verification was changed");
    expect(notice.body).toContain("now come from an authenticator app");
  });

  it("of a software token's code typed again, which the person typing it is told is wrong (decision 181)", async () => {
    const { username, email } = await copyOf("demo.token");
    const key = base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    const code = totp(key, harness.platform.clock.now().getTime());
    const first = await harness.platform.login(username);
    expect(
      (await harness.platform.step("/auth/tfa/validate", { login_ticket: first.body.login_ticket, code })).status,
    ).toBe(200);
    const before = (await harness.platform.outbox(email)).length;

    // a wrong code: no notice
    const again = await harness.platform.login(username);
    const wrong = await harness.platform.step("/auth/tfa/validate", {
      login_ticket: again.body.login_ticket,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(401);
    expect(await harness.platform.outbox(email)).toHaveLength(before);

    const replay = await harness.platform.call<ErrorAnswer>("/auth/tfa/validate", {
      method: "POST",
      headers: FROM,
      body: { login_ticket: again.body.login_ticket, code },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.api_message).toBe(
      "There was an error with the authentication code you entered. Please try again.",
    );
    const notice = await newestTo(email);
    expect(notice.subject).toBe("A security code was used again on your Client Online account");
    expect(notice.body).toContain(
      `When logging in to your Client Online account (username ${username}), a code from your authenticator app was typed that had already been used.`,
    );
    expect(notice.body).toContain("From: address 203.0.113.7");
    expect(notice.body).toContain("please change your password now");
    expect(notice.body).not.toContain(code);
  });

  it("of a lockout, saying until when and that nobody logged in", async () => {
    const { username, email } = await copyOf("demo.lockout");
    for (let i = 1; i <= 5; i++) {
      await harness.platform.call("/auth/login", {
        method: "POST",
        headers: FROM,
        body: { username, password: "Wrong-pass-9", user_type: "client" },
      });
    }
    const notice = await newestTo(email);
    expect(notice.subject).toBe("Your Client Online account has been locked");
    expect(notice.body).toContain("has been locked until 14 March 2025 at 10:30 UTC");
    expect(notice.body).toContain("Nobody has logged in: the attempts were refused.");
    expect(notice.body).toContain("From: address 203.0.113.7");
    // only one notice, however many more wrong passwords follow during the lock
    await harness.platform.login(username, "client", "Wrong-pass-9");
    const locked = (await harness.platform.outbox(email)).filter((row) => row.subject === notice.subject);
    expect(locked).toHaveLength(1);
  });

  it("never with a forged address, nor a browser's description beyond printable text", async () => {
    const { username, email } = await copyOf("demo.messages");
    const token = await harness.platform.session(username);
    await harness.platform.call("/resourceful/session/password", {
      method: "PUT",
      token,
      headers: { "X-Client-Address": "<b>evil</b>", "X-Client-User-Agent": `Bad\tagent\u00e9 ${"x".repeat(300)}` },
      body: { current_password: DEMO_PASSWORD, new_password: "Brand-new-pass-2" },
    });
    const notice = await newestTo(email);
    expect(notice.body).toContain(
      `From: address not known, browser Bad agent ${"x".repeat(256 - "Bad agent ".length)}\n`,
    );
  });

  it("by a short text message when no email is held", async () => {
    const { username } = await copyOf("demo.mfa");
    const user = harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!;
    harness.platform.db.update(entities).set({ preferredEmail: null }).where(eq(entities.id, user.entityId)).run();
    harness.platform.db.update(users).set({ mfaEmail: null }).where(eq(users.id, user.id)).run();
    for (let i = 1; i <= 5; i++) await harness.platform.login(username, "client", "Wrong-pass-9");
    const text = (await harness.platform.outbox(user.mfaMobile!))[0]!;
    expect(text).toMatchObject({ channel: "sms", subject: null, code: null });
    expect(text.body).toBe(
      "Client Online: Your Client Online account has been locked (14 March 2025 at 10:00 UTC). " +
        "If this was not you, please contact your adviser straight away.",
    );
  });
});
