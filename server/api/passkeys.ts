// Passkeys (issue 15; docs/platform-api.md "Passkeys", docs/decisions/100): WebAuthn registration
// and authentication ceremonies with SimpleWebAuthn, and a user's list of passkeys.
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { entities, passkeyChallenges, passkeys, users } from "../db/schema";
import { tellOwner } from "../domain/notices";
import { passkeyConfig } from "../env";
import type { UserRow } from "../sessions";
import { noteAuth } from "../lib/auth-log";
import { signInProven } from "./auth";
import { ApiError, notFound, validate } from "./http";
import { confirmCurrentPassword } from "./reauthentication";
import { type HandlerContext, json, noContent, open, type Route, signedIn, type SignedInContext } from "./router";

/** A challenge answers for this long, once. */
export const CHALLENGE_MINUTES = 5;
/** The most passkeys one user may keep. */
export const MAX_PASSKEYS = 20;

export const PASSKEY_MESSAGES = {
  notRecognised: "Passkey not recognised",
  expired: "Passkey sign-in expired, please try again",
  registrationExpired: "Passkey registration expired, please try again",
  notVerified: "Passkey could not be verified",
  alreadyRegistered: "This passkey is already registered",
  tooMany: `No more than ${MAX_PASSKEYS} passkeys can be registered`,
} as const;

type Purpose = "registration" | "authentication";

const Base64Url = z
  .string()
  .min(1)
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, "Expected base64url");
const Transports = z.array(z.string().max(32)).max(10).optional();

const RegistrationResponse = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    type: z.literal("public-key"),
    response: z
      .object({ clientDataJSON: Base64Url, attestationObject: Base64Url, transports: Transports })
      .passthrough(),
    clientExtensionResults: z.record(z.unknown()).default({}),
  })
  .passthrough();

const AuthenticationResponse = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    type: z.literal("public-key"),
    response: z
      .object({
        clientDataJSON: Base64Url,
        authenticatorData: Base64Url,
        signature: Base64Url,
        userHandle: Base64Url.optional().nullable(),
      })
      .passthrough(),
    clientExtensionResults: z.record(z.unknown()).default({}),
  })
  .passthrough();

const Name = z.string().trim().min(1).max(64);
const RegistrationBody = z.object({ response: RegistrationResponse, name: Name.optional() });
const AuthenticationBody = z.object({
  response: AuthenticationResponse,
  user_type: z.enum(["client", "adviser"]).optional(),
});
const RenameBody = z.object({ name: Name });
const IdParams = z.object({ id: z.coerce.number().int().positive() });

type PasskeyRow = typeof passkeys.$inferSelect;

function view(row: PasskeyRow) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    transports: JSON.parse(row.transports) as string[],
  };
}

/** The user handle the authenticator keeps with a passkey: stable per user, no name in it. */
function userHandle(user: Pick<UserRow, "id">): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(`user:${user.id}`, "utf8"));
}

/** Housekeeping: challenges past their time. */
export function purgeChallenges(db: Db, clock: Clock): void {
  db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, clock.now().toISOString())).run();
}

/** `sessionId`: a registration's, the session that gave the password (decision 179). */
function storeChallenge(
  context: HandlerContext,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
  sessionId: number | null = null,
): void {
  const { db, clock } = context;
  purgeChallenges(db, clock);
  const now = clock.now();
  db.insert(passkeyChallenges)
    .values({
      challenge,
      purpose,
      userId,
      sessionId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000).toISOString(),
    })
    .run();
}

/** The challenge the client data answers: taken (deleted) whatever follows; null when none is alive. */
function takeChallenge(
  context: HandlerContext,
  clientDataJSON: string,
  purpose: Purpose,
  userId: number | null,
  sessionId: number | null = null,
): string | null {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown })
      .challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || !challenge) return null;
  const { db, clock } = context;
  const row = db.delete(passkeyChallenges).where(eq(passkeyChallenges.challenge, challenge)).returning().get();
  if (!row || row.purpose !== purpose || row.userId !== userId || row.sessionId !== sessionId) return null;
  if (clock.now().getTime() > new Date(row.expiresAt).getTime()) return null;
  return row.challenge;
}

function ownPasskey(context: SignedInContext, params: unknown): PasskeyRow {
  const { id } = validate(IdParams, params, "path");
  const row = context.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, context.caller.user.id)))
    .get();
  if (!row) throw notFound("Passkey");
  return row;
}

async function registrationOptions(context: SignedInContext) {
  const { db, caller } = context;
  const { user } = caller;
  const config = passkeyConfig(context.env);
  const existing = db.select().from(passkeys).where(eq(passkeys.userId, user.id)).all();
  if (existing.length >= MAX_PASSKEYS) throw new ApiError(409, PASSKEY_MESSAGES.tooMany);
  const entity = db
    .select({ displayName: entities.displayName })
    .from(entities)
    .where(eq(entities.id, user.entityId))
    .get();
  const options = await generateRegistrationOptions({
    rpName: config.rpName,
    rpID: config.rpId,
    userName: user.username,
    userID: userHandle(user),
    userDisplayName: entity?.displayName ?? user.username,
    timeout: CHALLENGE_MINUTES * 60_000,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: JSON.parse(p.transports) as AuthenticatorTransportFuture[],
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  storeChallenge(context, options.challenge, "registration", user.id, context.caller.session.id);
  return json(options);
}

async function registrationVerify(body: unknown, context: SignedInContext) {
  const input = validate(RegistrationBody, body, "body");
  const { db, clock, caller } = context;
  const config = passkeyConfig(context.env);
  const response = input.response as unknown as RegistrationResponseJSON;
  const challenge = takeChallenge(
    context,
    input.response.response.clientDataJSON,
    "registration",
    caller.user.id,
    caller.session.id,
  );
  if (!challenge) throw new ApiError(400, PASSKEY_MESSAGES.registrationExpired);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      requireUserVerification: true,
    });
  } catch {
    throw new ApiError(400, PASSKEY_MESSAGES.notVerified);
  }
  if (!verification.verified) throw new ApiError(400, PASSKEY_MESSAGES.notVerified);
  const { credential } = verification.registrationInfo;
  if (db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.credentialId, credential.id)).get()) {
    throw new ApiError(409, PASSKEY_MESSAGES.alreadyRegistered);
  }
  const row = db
    .insert(passkeys)
    .values({
      userId: caller.user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
      name: input.name ?? "Passkey",
      createdAt: clock.now().toISOString(),
    })
    .returning()
    .get();
  tellOwner(context, caller.user.id, { kind: "passkeyAdded", name: row.name }, context.client);
  return json(view(row), 201);
}

async function authenticationOptions(context: HandlerContext) {
  const config = passkeyConfig(context.env);
  // No allowCredentials: the authenticator offers the user's discoverable passkeys (and the
  // browser's autofill, conditional mediation), so nobody's username is asked or revealed.
  const options = await generateAuthenticationOptions({
    rpID: config.rpId,
    allowCredentials: [],
    userVerification: "required",
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  storeChallenge(context, options.challenge, "authentication", null);
  return json(options);
}

async function authenticationVerify(body: unknown, context: HandlerContext) {
  const input = validate(AuthenticationBody, body, "body");
  const { db, clock } = context;
  const config = passkeyConfig(context.env);
  const challenge = takeChallenge(context, input.response.response.clientDataJSON, "authentication", null);
  if (!challenge) throw new ApiError(400, PASSKEY_MESSAGES.expired);
  const passkey = db.select().from(passkeys).where(eq(passkeys.credentialId, input.response.id)).get();
  if (!passkey) throw new ApiError(401, PASSKEY_MESSAGES.notRecognised);
  const user = db.select().from(users).where(eq(users.id, passkey.userId)).get();
  if (!user) throw new ApiError(401, PASSKEY_MESSAGES.notRecognised);
  noteAuth(context, { userId: user.id });
  const handle = input.response.response.userHandle;
  if (handle && handle !== Buffer.from(userHandle(user)).toString("base64url")) {
    throw new ApiError(401, PASSKEY_MESSAGES.notRecognised);
  }
  if (input.user_type && user.roleName !== (input.user_type === "client" ? "ClientUser" : "User")) {
    throw new ApiError(401, PASSKEY_MESSAGES.notRecognised);
  }
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: JSON.parse(passkey.transports) as AuthenticatorTransportFuture[],
      },
      requireUserVerification: true,
    });
  } catch {
    throw new ApiError(401, PASSKEY_MESSAGES.notVerified);
  }
  if (!verification.verified) throw new ApiError(401, PASSKEY_MESSAGES.notVerified);
  db.update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: clock.now().toISOString() })
    .where(eq(passkeys.id, passkey.id))
    .run();
  return signInProven(context, user);
}

export const passkeyRoutes: Route[] = [
  open("POST", "/auth/passkey/authentication/options", (_request, context) => authenticationOptions(context)),
  open("POST", "/auth/passkey/authentication/verify", (request, context) =>
    authenticationVerify(request.body, context),
  ),
  // decision 179: the current password before a passkey is added. The challenge these options carry
  // is the proof that it was given: it lives five minutes, once, for this user, and only the
  // browser that gave the password has it; verify spends it.
  signedIn("POST", "/resourceful/session/passkey/registration/options", (request, context) => {
    confirmCurrentPassword(context, request.body);
    return registrationOptions(context);
  }),
  signedIn("POST", "/resourceful/session/passkey/registration/verify", (request, context) =>
    registrationVerify(request.body, context),
  ),
  signedIn("GET", "/resourceful/session/passkey", (_request, { db, caller }) => {
    const rows = db.select().from(passkeys).where(eq(passkeys.userId, caller.user.id)).orderBy(passkeys.id).all();
    return json(rows.map(view));
  }),
  signedIn("PATCH", "/resourceful/session/passkey/:id", (request, context) => {
    const row = ownPasskey(context, request.params);
    const { name } = validate(RenameBody, request.body, "body");
    context.db.update(passkeys).set({ name }).where(eq(passkeys.id, row.id)).run();
    return json(view({ ...row, name }));
  }),
  signedIn("DELETE", "/resourceful/session/passkey/:id", (request, context) => {
    const row = ownPasskey(context, request.params);
    // decision 179: the current password before a passkey is removed (after the id: a passkey
    // that is not the caller's is a 404 whatever the password)
    confirmCurrentPassword(context, request.body);
    context.db.delete(passkeys).where(eq(passkeys.id, row.id)).run();
    tellOwner(context, context.caller.user.id, { kind: "passkeyRemoved", name: row.name }, context.client);
    return noContent();
  }),
];
