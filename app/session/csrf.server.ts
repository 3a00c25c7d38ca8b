import { createCookie } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { env } from "~/runtime/env.server";
import { deriveSecret } from "./crypto.server";
import { readFormBody } from "./form-body.server";

// Both secrets derive from SESSION_SECRET so that every instance behind a load balancer agrees.
export const csrf = new CSRF({
  cookie: createCookie("csrf", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: env.cookieSecure,
    secrets: env.sessionSecrets,
  }),
  secret: deriveSecret("csrf"),
});

export const honeypot = new Honeypot({ encryptionSeed: deriveSecret("honeypot") });

/** Every form post: a missing or wrong CSRF token is a 403. */
export async function validateCsrf(formData: FormData, request: Request): Promise<void> {
  try {
    await csrf.validate(formData, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) throw new Response("Invalid form token", { status: 403 });
    throw error;
  }
}

/** Anonymous forms: a filled honeypot is a bot. */
export function checkHoneypot(formData: FormData): void {
  try {
    honeypot.check(formData);
  } catch (error) {
    if (error instanceof SpamError) throw new Response("Form not submitted properly", { status: 400 });
    throw error;
  }
}

/** Reads a posted form and checks its CSRF token (and the honeypot for anonymous forms). */
export async function readForm(request: Request, options: { anonymous?: boolean } = {}): Promise<FormData> {
  const formData = await readFormBody(request);
  await validateCsrf(formData, request);
  if (options.anonymous) checkHoneypot(formData);
  return formData;
}
