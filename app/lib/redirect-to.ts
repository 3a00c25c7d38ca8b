/**
 * design "How a request flows": only same-origin relative paths are honoured as redirect targets.
 * Answers the path, or null when it is missing or points elsewhere.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return null;
  if (/[\u0000-\u001f]/.test(path)) return null;
  try {
    const url = new URL(path, "http://portal.invalid");
    if (url.origin !== "http://portal.invalid") return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** Where a signed-in user lands: the requested page if it belongs to their area, else their home. */
export function landingPath(role: "ClientUser" | "User", requested: string | null): string {
  const home = role === "User" ? "/advisers" : "/clients";
  if (!requested || requested === "/" || requested.startsWith("/login")) return home;
  // A client must not be sent into the advisers' area (nor an adviser without a client into the
  // clients' area): they would only meet Access Denied.
  if (role === "ClientUser" && requested.startsWith("/advisers")) return home;
  if (role === "User" && requested.startsWith("/clients")) return home;
  return requested;
}
