import { createCookie } from "@remix-run/node";
import { env } from "~/runtime/env.server";
import { cookieName } from "./cookie-name.server";

// spec 000 §2: the cookie notice shows until accepted, then is remembered (here, in a cookie, so
// that it works without JavaScript).
export const cookieConsent = createCookie(cookieName("cookie_consent"), {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.cookieSecure,
  maxAge: 60 * 60 * 24 * 365,
});

export async function readCookieConsent(request: Request): Promise<boolean> {
  return (await cookieConsent.parse(request.headers.get("Cookie"))) === "accepted";
}

export async function acceptCookiesHeader(): Promise<string> {
  return cookieConsent.serialize("accepted");
}
