import { env } from "~/runtime/env.server";

/**
 * Where a portal cookie lives: its name and path (issue 39 finding 5, docs/decisions/167). When the
 * cookies are Secure (COOKIE_SECURE), every one is named `__Host-…` and set for the whole site
 * (Path=/, no Domain): a browser then takes it only from this host over HTTPS, so neither a
 * sibling subdomain nor a plain-HTTP answer can plant or overwrite it (a session, a sign-in step
 * or an anti-forgery token of the attacker's own). Over plain HTTP (the demo, the journeys) the
 * prefix is not allowed, and the names and paths stay as they were, so a cookie a browser keeps
 * from before is still the one read and replaced.
 */
export function cookieScope(
  name: string,
  path = "/",
  secure: boolean = env.cookieSecure,
): { name: string; path: string } {
  return secure ? { name: `__Host-${name.replace(/^_+/, "")}`, path: "/" } : { name, path };
}

/** The name of a cookie set for the whole site (see `cookieScope`). */
export function cookieName(name: string, secure: boolean = env.cookieSecure): string {
  return cookieScope(name, "/", secure).name;
}
