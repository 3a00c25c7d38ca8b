import { z } from "zod";
import { setCookiesOf } from "~/lib/set-cookies";
import { createPlanningClient, PlanningError } from "./client.server";

export const LOGIN_STATUSES = [
  "LoginSuccess",
  "ForceChangePassword",
  "SiteTerms",
  "SetSecurityQuestions",
  "MfaRequired",
  "MfaEnrolmentLinkDevice",
  "MfaEnrolmentValidateDevice",
  "MfaEnrolmentLinkDeviceInvalidOtp",
  "MemorableCharactersRequired",
] as const;
export type LoginStatus = (typeof LOGIN_STATUSES)[number];

const LoginAnswer = z.object({
  login_status: z.enum(LOGIN_STATUSES),
  login_ticket: z.string().nullish(),
});

export type LoginOutcome =
  | { status: "LoginSuccess"; token: string }
  | { status: Exclude<LoginStatus, "LoginSuccess">; ticket: string | null };

/** The XPLANID session from the platform's Set-Cookie headers. */
export function platformTokenFrom(headers: Headers): string | null {
  for (const cookie of setCookiesOf(headers)) {
    const match = /^XPLANID=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return null;
}

/** POST auth/login (spec 000 §7). Throws PlanningError for refusals (401, 403) and no answer. */
export async function login(input: {
  username: string;
  password: string;
  userType: "client" | "adviser";
}): Promise<LoginOutcome> {
  const response = await createPlanningClient().send("POST", "auth/login", {
    body: { username: input.username.trim(), password: input.password, user_type: input.userType },
    retry: false,
  });
  const parsed = LoginAnswer.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new PlanningError(502, null);
  if (parsed.data.login_status === "LoginSuccess") {
    const token = platformTokenFrom(response.headers);
    if (!token) throw new PlanningError(502, null);
    return { status: "LoginSuccess", token };
  }
  return { status: parsed.data.login_status, ticket: parsed.data.login_ticket ?? null };
}

/** DELETE /resourceful/session: the platform forgets the session, so a replayed cookie gets nothing. */
export async function logout(token: string): Promise<void> {
  await createPlanningClient({ token }).delete("resourceful/session", { retry: false });
}
