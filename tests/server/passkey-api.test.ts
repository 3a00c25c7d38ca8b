import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { passkeyChallenges, passkeys, users } from "../../server/db/schema";
import { type AuthenticationJSON, SoftwareAuthenticator } from "../webauthn-authenticator";
import { DEMO_PASSWORD } from "../../server/seed";
import { CALLER, type ErrorAnswer, type LoginAnswer, type SessionUser, withPlatform } from "./harness";

const harness = withPlatform();

type Options = {
  challenge: string;
  rpId?: string;
  rp?: { id: string; name: string };
  user?: { id: string; name: string };
  allowCredentials?: unknown[];
};
type PasskeyView = { id: number; name: string; created_at: string; last_used_at: string | null; transports: string[] };

const NOT_RECOGNISED = "Passkey not recognised";
const EXPIRED = "Passkey sign-in expired, please try again";
const NOT_VERIFIED = "Passkey could not be verified";

/** demo.mfa's session the long way: password, then the code sent by sms. */
async function mfaSession(): Promise<string> {
  const answer = await harness.platform.login("demo.mfa");
  expect(answer.body.login_status).toBe("MfaRequired");
  const code = await harness.platform.latestCode("demo.mfa");
  const done = await harness.platform.step("/auth/tfa/validate", { login_ticket: answer.body.login_ticket, code });
  expect(done.body.login_status).toBe("LoginSuccess");
  return done.token!;
}

async function register(token: string, authenticator: SoftwareAuthenticator, name?: string) {
  const options = await harness.platform.call<Options>("/resourceful/session/passkey/registration/options", {
    method: "POST",
    token,
    body: { current_password: DEMO_PASSWORD },
  });
  expect(options.status).toBe(200);
  const response = authenticator.register({ challenge: options.body.challenge, user: options.body.user! });
  return harness.platform.call<PasskeyView & ErrorAnswer>("/resourceful/session/passkey/registration/verify", {
    method: "POST",
    token,
    body: { response, ...(name === undefined ? {} : { name }) },
  });
}

async function authenticationOptions(): Promise<Options> {
  const options = await harness.platform.call<Options>("/auth/passkey/authentication/options", {
    method: "POST",
    body: {},
  });
  expect(options.status).toBe(200);
  return options.body;
}

function verify(response: AuthenticationJSON, extra: Record<string, unknown> = {}) {
  return harness.platform.step("/auth/passkey/authentication/verify", { response, ...extra });
}

async function signIn(authenticator: SoftwareAuthenticator) {
  return verify(authenticator.authenticate(await authenticationOptions()));
}

async function list(token: string) {
  return harness.platform.call<PasskeyView[]>("/resourceful/session/passkey", { token });
}

describe("passkeys: register, list, sign in", () => {
  it("demo.client registers a passkey, sees it listed and signs in with it alone", async () => {
    const token = await harness.platform.session("demo.client");
    const count = async () =>
      (await harness.platform.call<{ passkey_count: number }>("/resourceful/session/user", { token })).body
        .passkey_count;
    expect(await count()).toBe(0);
    const authenticator = new SoftwareAuthenticator();
    const registered = await register(token, authenticator, "My laptop");
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      name: "My laptop",
      last_used_at: null,
      transports: ["internal", "hybrid"],
    });

    const listed = await list(token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([registered.body]);
    // the session user counts them (the portal's menu rule)
    expect(await count()).toBe(1);
    expect(JSON.stringify(listed.body)).not.toMatch(/public/i);

    const options = await authenticationOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.rpId).toBe("localhost");
    const answer = await verify(authenticator.authenticate(options));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ login_status: "LoginSuccess", role_name: "ClientUser" });
    expect(answer.token).toBeTruthy();
    const user = await harness.platform.call<SessionUser>("/resourceful/session/user", { token: answer.token });
    expect(user.status).toBe(200);
    expect(user.body.role_name).toBe("ClientUser");
    const row = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.client")).get()!;
    expect(row.lastLogin).toBe(harness.platform.clock.now().toISOString());

    const after = (await list(token)).body[0]!;
    expect(after.last_used_at).toBe(harness.platform.clock.now().toISOString());
    const stored = harness.platform.db.select().from(passkeys).where(eq(passkeys.id, after.id)).get()!;
    expect(stored.counter).toBe(1);
  });

  it("an MFA user signs in with a passkey and no code", async () => {
    const token = await mfaSession();
    const authenticator = new SoftwareAuthenticator();
    expect((await register(token, authenticator)).body.name).toBe("Passkey");
    const before = (await harness.platform.outbox("demo.mfa")).length;
    const answer = await signIn(authenticator);
    expect(answer.status).toBe(200);
    expect(answer.body.login_status).toBe("LoginSuccess");
    expect(
      (await harness.platform.call<SessionUser>("/resourceful/session/user", { token: answer.token })).status,
    ).toBe(200);
    expect((await harness.platform.outbox("demo.mfa")).length).toBe(before);
  });

  it("a disabled user's passkey is refused", async () => {
    const token = await harness.platform.session("demo.assets");
    const authenticator = new SoftwareAuthenticator();
    await register(token, authenticator);
    harness.platform.db.update(users).set({ disabled: true }).where(eq(users.usernameKey, "demo.assets")).run();
    try {
      const answer = await signIn(authenticator);
      expect(answer.status).toBe(403);
      expect(answer.token).toBeNull();
    } finally {
      harness.platform.db.update(users).set({ disabled: false }).where(eq(users.usernameKey, "demo.assets")).run();
    }
  });

  it("asks for the right kind of user when the portal says which", async () => {
    const token = await harness.platform.session("demo.adviser", "adviser");
    const authenticator = new SoftwareAuthenticator();
    expect((await register(token, authenticator)).status).toBe(201);
    const wrong = await verify(authenticator.authenticate(await authenticationOptions()), { user_type: "client" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.api_message).toBe(NOT_RECOGNISED);
    const right = await verify(authenticator.authenticate(await authenticationOptions()), { user_type: "adviser" });
    expect(right.status).toBe(200);
    expect(right.body.role_name).toBe("User");
  });
});

describe("passkeys: rename and remove", () => {
  it("renames (1 to 64 characters), removes, and a removed passkey no longer signs in", async () => {
    const token = await harness.platform.session("demo.partner");
    const authenticator = new SoftwareAuthenticator();
    const { id } = (await register(token, authenticator)).body;
    const renamed = await harness.platform.call<PasskeyView>(`/resourceful/session/passkey/${id}`, {
      method: "PATCH",
      token,
      body: { name: "Phone" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Phone");
    expect((await list(token)).body.map((p) => p.name)).toEqual(["Phone"]);
    for (const name of ["", "   ", "x".repeat(65)]) {
      const refused = await harness.platform.call(`/resourceful/session/passkey/${id}`, {
        method: "PATCH",
        token,
        body: { name },
      });
      expect(refused.status).toBe(400);
    }

    expect((await signIn(authenticator)).status).toBe(200);
    const removed = await harness.platform.call(`/resourceful/session/passkey/${id}`, {
      method: "DELETE",
      token,
      body: { current_password: DEMO_PASSWORD },
    });
    expect(removed.status).toBe(204);
    expect((await list(token)).body).toEqual([]);
    const answer = await signIn(authenticator);
    expect(answer.status).toBe(401);
    expect(answer.body.api_message).toBe(NOT_RECOGNISED);
    expect(answer.token).toBeNull();
  });

  it("another user's passkey is not found", async () => {
    const owner = await harness.platform.session("demo.client");
    const other = await harness.platform.session("demo.partner");
    const { id } = (await register(owner, new SoftwareAuthenticator())).body;
    for (const init of [
      { method: "PATCH", body: { name: "Mine now" } },
      { method: "DELETE", body: { current_password: DEMO_PASSWORD } },
    ]) {
      const answer = await harness.platform.call(`/resourceful/session/passkey/${id}`, { ...init, token: other });
      expect(answer.status).toBe(404);
    }
    expect((await list(other)).body.some((p) => p.id === id)).toBe(false);
    expect((await list(owner)).body.some((p) => p.id === id)).toBe(true);
  });

  it("the signed-in calls need a session", async () => {
    expect((await harness.platform.call("/resourceful/session/passkey")).status).toBe(401);
    expect(
      (await harness.platform.call("/resourceful/session/passkey/registration/options", { method: "POST", body: {} }))
        .status,
    ).toBe(401);
  });
});

describe("passkeys: refusals", () => {
  let authenticator: SoftwareAuthenticator;
  beforeAll(async () => {
    authenticator = new SoftwareAuthenticator();
    const token = await harness.platform.session("demo.messages");
    expect((await register(token, authenticator)).status).toBe(201);
  });

  it("refuses a tampered assertion (bad signature), and its challenge is spent", async () => {
    const options = await authenticationOptions();
    const answer = await verify(authenticator.authenticate(options, { tamper: true }));
    expect(answer.status).toBe(401);
    expect(answer.body.api_message).toBe(NOT_VERIFIED);
    expect(answer.token).toBeNull();
    const again = await verify(authenticator.authenticate(options));
    expect(again.status).toBe(400);
    expect(again.body.api_message).toBe(EXPIRED);
  });

  it("refuses a replayed challenge", async () => {
    const options = await authenticationOptions();
    const response = authenticator.authenticate(options);
    expect((await verify(response)).status).toBe(200);
    const replay = await verify(response);
    expect(replay.status).toBe(400);
    expect(replay.body.api_message).toBe(EXPIRED);
    const fresh = await verify(authenticator.authenticate(options));
    expect(fresh.status).toBe(400);
  });

  it("refuses an expired challenge (5 minutes)", async () => {
    const options = await authenticationOptions();
    harness.platform.clock.advance(5 * 60_000 + 1_000);
    const answer = await verify(authenticator.authenticate(options));
    expect(answer.status).toBe(400);
    expect(answer.body.api_message).toBe(EXPIRED);
    expect(
      harness.platform.db
        .select()
        .from(passkeyChallenges)
        .where(eq(passkeyChallenges.challenge, options.challenge))
        .get(),
    ).toBeUndefined();
  });

  it("refuses a challenge the platform never gave", async () => {
    const answer = await verify(
      authenticator.authenticate({ challenge: Buffer.from("made up").toString("base64url") }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.api_message).toBe(EXPIRED);
  });

  it("refuses a counter that does not move on", async () => {
    const credentialId = Buffer.from(authenticator.credentials[0]!.id).toString("base64url");
    const stored = harness.platform.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).get()!;
    expect(stored.counter).toBeGreaterThan(0);
    for (const counter of [stored.counter, stored.counter - 1, 0]) {
      const answer = await verify(authenticator.authenticate(await authenticationOptions(), { counter }));
      expect(answer.status).toBe(401);
      expect(answer.body.api_message).toBe(NOT_VERIFIED);
    }
    const moved = await verify(
      authenticator.authenticate(await authenticationOptions(), { counter: stored.counter + 1 }),
    );
    expect(moved.status).toBe(200);
  });

  it("refuses another origin", async () => {
    const answer = await verify(
      authenticator.authenticate(await authenticationOptions(), { origin: "https://evil.example" }),
    );
    expect(answer.status).toBe(401);
  });

  it("refuses a registration challenge at sign-in and a response with nothing in it", async () => {
    const token = await harness.platform.session("demo.messages");
    const options = await harness.platform.call<Options>("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token,
      body: { current_password: DEMO_PASSWORD },
    });
    const answer = await verify(authenticator.authenticate({ challenge: options.body.challenge }));
    expect(answer.status).toBe(400);
    const empty = await harness.platform.call<LoginAnswer & ErrorAnswer>("/auth/passkey/authentication/verify", {
      method: "POST",
      body: {},
    });
    expect(empty.status).toBe(400);
  });

  it("refuses another user's registration challenge", async () => {
    const token = await harness.platform.session("demo.messages");
    const options = await harness.platform.call<Options>("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token,
      body: { current_password: DEMO_PASSWORD },
    });
    const other = await harness.platform.session("demo.client");
    const response = new SoftwareAuthenticator().register({
      challenge: options.body.challenge,
      user: options.body.user!,
    });
    const stolen = await harness.platform.call<ErrorAnswer>("/resourceful/session/passkey/registration/verify", {
      method: "POST",
      token: other,
      body: { response },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.api_message).toBe("Passkey registration expired, please try again");
  });
});

describe("the current password before a passkey is added or removed (ASVS V3.7.1, decision 179)", () => {
  const failures = (username: string) =>
    harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!.failedAttempts;

  it("gives no registration options without it, and counts a wrong one", async () => {
    const token = await harness.platform.session("demo.assets");
    const before = failures("demo.assets");
    const userId = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.assets")).get()!.id;
    const challenges = () =>
      harness.platform.db
        .select()
        .from(passkeyChallenges)
        .all()
        .filter((c) => c.userId === userId).length;
    const challengesBefore = challenges();
    const missing = await harness.platform.call<ErrorAnswer>("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token,
      body: {},
    });
    expect(missing.status).toBe(400);
    expect(missing.body.api_message).toBe("Password is required");
    const wrong = await harness.platform.call<ErrorAnswer>("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token,
      body: { current_password: "Not-the-password-1" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.api_message).toBe("The current password is incorrect.");
    expect(failures("demo.assets")).toBe(before + 1);
    // no challenge was given for either
    expect(challenges()).toBe(challengesBefore);
    const right = await register(token, new SoftwareAuthenticator(), "Laptop");
    expect(right.status).toBe(201);
  });

  it("takes a registration only from the session that gave the password", async () => {
    const first = await harness.platform.session("demo.assets");
    const second = await harness.platform.session("demo.assets");
    const options = await harness.platform.call<Options>("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token: first,
      body: { current_password: DEMO_PASSWORD },
    });
    const response = new SoftwareAuthenticator().register({
      challenge: options.body.challenge,
      user: options.body.user!,
    });
    const elsewhere = await harness.platform.call<ErrorAnswer>("/resourceful/session/passkey/registration/verify", {
      method: "POST",
      token: second,
      body: { response },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.api_message).toBe("Passkey registration expired, please try again");
  });

  it("removes none without it", async () => {
    const token = await harness.platform.session("demo.assets");
    const { id } = (await register(token, new SoftwareAuthenticator(), "Tablet")).body;
    for (const body of [undefined, {}, { current_password: "Not-the-password-1" }]) {
      const refused = await harness.platform.call<ErrorAnswer>(`/resourceful/session/passkey/${id}`, {
        method: "DELETE",
        token,
        ...(body === undefined ? {} : { body }),
      });
      expect(refused.status).toBe(400);
    }
    expect((await list(token)).body.some((p) => p.id === id)).toBe(true);
    const removed = await harness.platform.call(`/resourceful/session/passkey/${id}`, {
      method: "DELETE",
      token,
      body: { current_password: DEMO_PASSWORD },
    });
    expect(removed.status).toBe(204);
  });
});

describe("the size of a JSON body (issue 24 finding 1)", () => {
  it("refuses an anonymous JSON post over 1 MB with 413, declared or chunked", async () => {
    const big = JSON.stringify({ response: "x".repeat(1024 * 1024 + 1) });
    const declared = await fetch(`${harness.platform.baseUrl}/auth/passkey/authentication/verify`, {
      method: "POST",
      headers: { ...CALLER, "Content-Type": "application/json" },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as ErrorAnswer).api_message).toBe("Request body too large");
    const bytes = new TextEncoder().encode(big);
    const chunked = await fetch(`${harness.platform.baseUrl}/auth/passkey/authentication/verify`, {
      method: "POST",
      headers: { ...CALLER, "Content-Type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});
