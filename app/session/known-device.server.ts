import { randomBytes } from "node:crypto";
import { z } from "zod";
import { env } from "~/runtime/env.server";
import { clearSignInFailures, normaliseUsername } from "./rate-limit.server";
import { createSealedCookie } from "./sealed-cookie.server";

// docs/decisions/173: a device cookie (OWASP, "Slow Down Online Guessing Attacks with Device
// Cookies"). A browser that has signed in as a user keeps, sealed with SESSION_SECRET's list (the
// first secret seals, every one opens), the user's username and id and a random nonce; its failed
// password sign-ins for that username are counted by the nonce, apart from everyone else's, so
// strangers' failures never make the owner's known browser wait. A value that was changed, sealed
// under a secret no longer in the list, or names another user counts as no cookie: the attempt is
// one of an unknown browser's, limited per username (app/session/rate-limit.server.ts).

/** The cookie's name. Scoped to the sign-in pages (Path=/login): only their posts read it. */
export const KNOWN_DEVICE_COOKIE = "__device";
/** How long a browser stays known after its last sign-in: Chromium keeps a cookie at most 400 days. */
export const KNOWN_DEVICE_DAYS = 400;
/** The users one browser is known for (a shared family computer); the oldest is forgotten first. */
export const KNOWN_DEVICE_USERS = 5;

/** One user this browser has signed in as. */
export type KnownDevice = {
  /** The username, as counted (normaliseUsername). */
  username: string;
  /** The platform's user id (a passkey sign-in names no username). */
  userId: number;
  /** Random, 128 bits: the key of this browser's count for this user. */
  nonce: string;
  /** When it was issued (ISO): an entry older than KNOWN_DEVICE_DAYS is no longer honoured. */
  issuedAt: string;
};

const Stored = z.object({
  v: z.literal(1),
  devices: z
    .array(
      z.object({
        username: z.string().min(1).max(256),
        userId: z.number().int(),
        nonce: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
        issuedAt: z.string().datetime(),
      }),
    )
    .max(KNOWN_DEVICE_USERS),
});

const cookie = createSealedCookie(
  KNOWN_DEVICE_COOKIE,
  {
    path: "/login",
    httpOnly: true,
    sameSite: "lax",
    secure: env.cookieSecure,
    maxAge: KNOWN_DEVICE_DAYS * 24 * 60 * 60,
  },
  "known-device",
);

const DAY_MS = 24 * 60 * 60_000;

/** The users this browser is known for (none when the cookie is missing, changed or from an old secret). */
export async function readKnownDevices(request: Request, now: Date = new Date()): Promise<KnownDevice[]> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${KNOWN_DEVICE_COOKIE}=`)) return [];
  return knownDevicesIn(await cookie.parse(header), now);
}

/** The entries of an opened cookie that are well formed and not too old. */
export function knownDevicesIn(content: unknown, now: Date = new Date()): KnownDevice[] {
  const stored = Stored.safeParse(content);
  if (!stored.success) return [];
  return stored.data.devices.filter((d) => now.getTime() - Date.parse(d.issuedAt) <= KNOWN_DEVICE_DAYS * DAY_MS);
}

/** This browser's entry for the username typed, if it has signed in as that user. */
export function deviceFor(devices: readonly KnownDevice[], username: string): KnownDevice | null {
  const wanted = normaliseUsername(username);
  return devices.find((d) => d.username === wanted) ?? null;
}

/** This browser's entry for a user id (after a passkey sign-in, which names no username). */
export function deviceOfUser(devices: readonly KnownDevice[], userId: number): KnownDevice | null {
  return devices.find((d) => d.userId === userId) ?? null;
}

/**
 * The entries after a sign-in as `user`: a new entry with a new nonce in place of the user's old
 * one (OWASP: a new device cookie after each successful sign-in), newest first, at most
 * KNOWN_DEVICE_USERS.
 */
export function withSignIn(
  devices: readonly KnownDevice[],
  user: { username: string; userId: number },
  now: Date = new Date(),
): KnownDevice[] {
  const username = normaliseUsername(user.username);
  const fresh: KnownDevice = {
    username,
    userId: user.userId,
    nonce: randomBytes(16).toString("base64url"),
    issuedAt: now.toISOString(),
  };
  const others = devices.filter((d) => d.username !== username && d.userId !== user.userId);
  return [fresh, ...others].slice(0, KNOWN_DEVICE_USERS);
}

/** The Set-Cookie that keeps `devices` in this browser. */
export function knownDevicesCookie(devices: readonly KnownDevice[]): Promise<string> {
  if (devices.length === 0) return cookie.serialize("", { maxAge: 0 });
  return cookie.serialize({ v: 1, devices });
}

/**
 * After a completed sign-in: the Set-Cookie that makes this browser known for the user, with a new
 * nonce. A password sign-in names the username; a passkey sign-in names none, so the browser is
 * known again only when it already was for that user (by its id), and then, the user having proven
 * who they are, the username's failed sign-ins are forgotten (decision 173).
 */
export async function signedInOnThisDevice(
  request: Request,
  user: { username: string | null; userId: number },
): Promise<string | null> {
  const devices = await readKnownDevices(request);
  let username = user.username;
  if (username === null) {
    const known = deviceOfUser(devices, user.userId);
    if (!known) return null;
    username = known.username;
    await clearSignInFailures(known.username, known.nonce);
  }
  return knownDevicesCookie(withSignIn(devices, { username, userId: user.userId }));
}

/**
 * Decision 173: a completed password reset of `username` (the owner has proven who they are by the
 * reset code or the answers): the username's failed sign-ins from unknown browsers are forgotten,
 * and this browser's when it is known for the username. Call it once the platform has answered
 * `password_changed: true`.
 */
export async function passwordResetCompleted(request: Request, username: string): Promise<void> {
  const known = deviceFor(await readKnownDevices(request), username);
  await clearSignInFailures(username, known?.nonce ?? null);
}
