import { createCookie } from "@remix-run/node";
import { PAGE_PATHS } from "~/lib/navigation";
import { parseDeviceIds } from "~/lib/passkeys";
import { env } from "~/runtime/env.server";
import { cookieScope } from "./cookie-name.server";

// The passkeys this browser registered (docs/decisions/101): spec 000 §2's biometric choice is
// stored on the device, and so is this. Only the biometric permission page reads it (its path, so
// no other request carries it; with Secure cookies `__Host-passkeys` for the whole site, as a
// `__Host-` cookie must be: docs/decisions/167). It names platform ids, no key material; a forged
// list can only mark another of the user's own passkeys as this device's.

const { name, path } = cookieScope("passkeys", PAGE_PATHS.biometricPermission);
const deviceCookie = createCookie(name, {
  path,
  httpOnly: true,
  sameSite: "lax",
  secure: env.cookieSecure,
  secrets: env.sessionSecrets,
  // Chromium keeps a cookie at most 400 days.
  maxAge: 400 * 24 * 60 * 60,
});

export async function readDevicePasskeys(request: Request): Promise<number[]> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("passkeys=")) return [];
  return parseDeviceIds(await deviceCookie.parse(header));
}

/** The Set-Cookie that stores `ids` (or forgets the cookie when there are none). */
export async function writeDevicePasskeys(ids: number[]): Promise<string> {
  if (ids.length === 0) return deviceCookie.serialize([], { maxAge: 0 });
  return deviceCookie.serialize(ids);
}
