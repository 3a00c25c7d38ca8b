/**
 * The Set-Cookie values of a Headers object, one per cookie. The portal's server (without single
 * fetch, as remix-serve did) installs Remix's fetch, whose Headers lack getSetCookie but keep every
 * value apart in getAll.
 */
export function setCookiesOf(headers: Headers): string[] {
  const h = headers as Headers & { getAll?: (name: string) => string[] };
  if (typeof h.getSetCookie === "function") return h.getSetCookie();
  if (typeof h.getAll === "function") return h.getAll("Set-Cookie");
  const joined = h.get("Set-Cookie");
  return joined ? [joined] : [];
}
