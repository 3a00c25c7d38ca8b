import { timingSafeEqual } from "node:crypto";
import { redirect } from "@remix-run/node";
import type { HoneypotInputProps } from "~/lib/honeypot";
import { env } from "~/runtime/env.server";
import { logger } from "~/runtime/logger.server";
import { heldForASession, issueToken, tokenInCookie } from "./anti-forgery-token.server";
import { seal, unseal } from "./crypto.server";
import { lostSessionUrl } from "./failures.server";
import { readFormBody } from "./form-body.server";
import { sessionBinding } from "./session.server";

// The portal's own anti-forgery token and honeypot, on node:crypto (issue 24 finding 8,
// docs/decisions/113), in place of remix-utils' server classes and the crypto-js they load. The
// token's React side stays remix-utils' (`AuthenticityTokenInput`); the honeypot's is the portal's
// own `HoneypotFields` (docs/decisions/121), with remix-utils' field names and props. Both keys
// derive from SESSION_SECRET, so every instance agrees. The token is bound to the session
// (anti-forgery-token.server.ts, docs/decisions/167).

/** The form field that carries the token (remix-utils' `AuthenticityTokenInput`). */
export const CSRF_FIELD = "csrf";

// Double submit: the cookie holds a random token and its HMAC with the session; a form carries the
// same token.
function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

class InvalidToken extends Error {
  name = "InvalidToken";
}

/** A form of a session whose cookie the browser no longer holds. */
class SessionGone extends Error {
  name = "SessionGone";
}

export const csrf = {
  /**
   * The token for this browser's pages, and the Set-Cookie that stores it when the browser has
   * none, or one this portal did not sign for the session the browser now holds (a session cookie
   * dropped, or another's); null when the cookie already holds it.
   */
  async commitToken(request: Request): Promise<[token: string, setCookie: string | null]> {
    const binding = await sessionBinding(request);
    const existing = await tokenInCookie(request.headers.get("Cookie"), binding);
    if (existing) return [existing, null];
    return issueToken(binding);
  },

  /** The form's token must be the cookie's, and the cookie's one this portal signed for this session. */
  async validate(formData: FormData, request: Request): Promise<void> {
    const cookies = request.headers.get("Cookie");
    const binding = await sessionBinding(request);
    const inCookie = await tokenInCookie(cookies, binding);
    if (!inCookie) {
      if (binding === null && (await heldForASession(cookies))) throw new SessionGone("the session's cookie is gone");
      throw new InvalidToken("no token of this session in the cookie");
    }
    const inForm = formData.get(CSRF_FIELD);
    if (typeof inForm !== "string" || !inForm) throw new InvalidToken("no token in the form");
    if (!sameToken(inForm, inCookie)) throw new InvalidToken("the form's token is not the cookie's");
  },
};

// The honeypot: a trap field a person never fills, and when the form was made, sealed (AES-GCM) so
// a bot can neither read nor make one (a hidden input: a text browser shows only the trap, whose
// label says to leave it blank; docs/decisions/121). remix-utils refused a filled trap, a timestamp that did not
// decrypt, and one in the future; it set no minimum or maximum age, and neither does this. Unlike
// it, an anonymous form without the fields is refused too (a bot that leaves them out is a bot).
const TRAP_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";
// Instances' clocks may differ a little: a form made on one may be posted to another.
const CLOCK_SKEW_MS = 60_000;

class Spam extends Error {
  name = "Spam";
}

// The timestamp of a form made now is the current whole second's, sealed once per second and
// sealing secret: every anonymous page (the sign-in page above all) made one per request, an
// AES-GCM seal and 12 random bytes each (issue 38's profile of /login). The trap sets no minimum
// age, so a second earlier changes nothing it decides.
let thisSecond: { second: number; secret: string; sealed: string } | null = null;

function sealedNow(): string {
  const second = Math.floor(Date.now() / 1000) * 1000;
  const secret = env.sessionSecrets[0]!;
  if (thisSecond?.second !== second || thisSecond.secret !== secret)
    thisSecond = { second, secret, sealed: seal(String(second), env.sessionSecrets, "honeypot") };
  return thisSecond.sealed;
}

export const honeypot = {
  getInputProps({ validFromTimestamp }: { validFromTimestamp?: number } = {}): HoneypotInputProps {
    return {
      nameFieldName: TRAP_FIELD,
      validFromFieldName: VALID_FROM_FIELD,
      encryptedValidFrom:
        validFromTimestamp === undefined
          ? sealedNow()
          : seal(String(validFromTimestamp), env.sessionSecrets, "honeypot"),
    };
  },

  check(formData: FormData): void {
    const trap = formData.get(TRAP_FIELD);
    if (trap === null) throw new Spam("no trap field");
    if (trap !== "") throw new Spam("trap field filled");
    const sealed = formData.get(VALID_FROM_FIELD);
    if (typeof sealed !== "string" || !sealed) throw new Spam("no timestamp");
    const opened = unseal(sealed, env.sessionSecrets, "honeypot");
    const time = opened !== null && /^\d{1,15}$/.test(opened) ? Number(opened) : Number.NaN;
    if (!Number.isSafeInteger(time) || time <= 0) throw new Spam("timestamp does not unseal");
    if (time > Date.now() + CLOCK_SKEW_MS) throw new Spam("timestamp in the future");
  },
};

/**
 * Every form post: a missing or wrong CSRF token is a 403. A form of a session whose cookie the
 * browser no longer holds is not run either: the browser goes to the login page, as a guard sends
 * a lapsed session (docs/decisions/167); nothing is done as anyone.
 */
export async function validateCsrf(formData: FormData, request: Request): Promise<void> {
  try {
    await csrf.validate(formData, request);
  } catch (error) {
    if (error instanceof SessionGone) {
      logger.info("form of an ended session: to the login page", { path: new URL(request.url).pathname });
      throw redirect(lostSessionUrl(request));
    }
    if (!(error instanceof InvalidToken)) throw error;
    logger.warn("form refused: anti-forgery token", { reason: error.message, path: new URL(request.url).pathname });
    throw new Response("Invalid form token", { status: 403 });
  }
}

/** Anonymous forms: a filled honeypot is a bot. */
export function checkHoneypot(formData: FormData): void {
  try {
    honeypot.check(formData);
  } catch (error) {
    if (!(error instanceof Spam)) throw error;
    logger.warn("form refused: honeypot", { reason: error.message });
    throw new Response("Form not submitted properly", { status: 400 });
  }
}

/** Reads a posted form and checks its CSRF token (and the honeypot for anonymous forms). */
export async function readForm(request: Request, options: { anonymous?: boolean } = {}): Promise<FormData> {
  const formData = await readFormBody(request);
  await validateCsrf(formData, request);
  if (options.anonymous) checkHoneypot(formData);
  return formData;
}
