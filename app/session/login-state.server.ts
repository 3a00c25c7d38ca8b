import { deflateRawSync, inflateRawSync } from "node:zlib";
import { z } from "zod";
import { env } from "~/runtime/env.server";
import type { LoginStep, SignInRole } from "~/lib/sign-in-steps";
import { cookieScope } from "./cookie-name.server";
import { seal, unseal } from "./crypto.server";

// design "Sessions and secrets" and docs/decisions/045: a sign-in part-way lives in its own
// short-lived HttpOnly cookie, sealed with AES-256-GCM: the platform's login ticket (never a
// password or a code), the step and the step data needed to render it. It is scoped to /login,
// lives as long as a ticket (10 minutes), and is cleared on reset and on LoginSuccess. With Secure
// cookies it is `__Host-login_state`, for the whole site (docs/decisions/167).

const scope = cookieScope("__login_state", "/login");
export const LOGIN_STATE_COOKIE = scope.name;
export const LOGIN_STATE_MAX_AGE_SECONDS = 10 * 60;
/** Browsers keep at most 4096 bytes per cookie; above this the site terms are left out (re-read from site content). */
const MAX_VALUE_LENGTH = 3800;

export type LoginState = {
  ticket: string;
  role: SignInRole;
  userType: "client" | "adviser";
  redirectTo: string | null;
  step: LoginStep;
  /** The username whose password was right (decision 173: the browser is known for it once signed in); none after a passkey. */
  username?: string;
};

const StoredState = z.object({
  v: z.literal(1),
  ticket: z.string().min(1),
  role: z.enum(["ClientUser", "User"]),
  userType: z.enum(["client", "adviser"]),
  redirectTo: z.string().nullable(),
  username: z.string().max(256).optional(),
  step: z.object({ status: z.string() }).passthrough(),
});

function attributes(maxAge: number): string {
  return [`Path=${scope.path}`, `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax", env.cookieSecure ? "Secure" : null]
    .filter(Boolean)
    .join("; ");
}

function encode(state: LoginState): string {
  const packed = deflateRawSync(Buffer.from(JSON.stringify({ v: 1, ...state }), "utf8")).toString("base64url");
  return seal(packed);
}

/** The sealed cookie value; terms too long for a cookie are left out (the page reads them from site content). */
export function sealLoginState(state: LoginState): string {
  const value = encode(state);
  if (value.length <= MAX_VALUE_LENGTH || state.step.status !== "SiteTerms") return value;
  return encode({ ...state, step: { status: "SiteTerms", terms: { title: state.step.terms.title, html: null } } });
}

export function openLoginState(value: string | null | undefined): LoginState | null {
  if (!value) return null;
  const packed = unseal(value);
  if (!packed) return null;
  try {
    const parsed = StoredState.safeParse(JSON.parse(inflateRawSync(Buffer.from(packed, "base64url")).toString("utf8")));
    if (!parsed.success) return null;
    const { v: _v, ...state } = parsed.data;
    return state as LoginState;
  } catch {
    return null;
  }
}

function cookieValue(request: Request): string | null {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === LOGIN_STATE_COOKIE) return rest.join("=") || null;
  }
  return null;
}

/** The sign-in part-way of this browser, or null (none, expired, tampered with or from another secret). */
export function readLoginState(request: Request): LoginState | null {
  return openLoginState(cookieValue(request));
}

/** Set-Cookie value keeping `state` for the life of a ticket. */
export function commitLoginState(state: LoginState): string {
  return `${LOGIN_STATE_COOKIE}=${sealLoginState(state)}; ${attributes(LOGIN_STATE_MAX_AGE_SECONDS)}`;
}

/** Set-Cookie value that forgets the sign-in part-way. */
export function clearLoginState(): string {
  return `${LOGIN_STATE_COOKIE}=; ${attributes(0)}`;
}
