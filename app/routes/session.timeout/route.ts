import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirectPath } from "~/lib/redirect-to";
import { logout } from "~/planning/auth.server";
import { readForm } from "~/session/csrf.server";
import { getPortalSession, signOutHeaders } from "~/session/session.server";

// spec 000 §4 "Session timeout": at the end of the warning the user is logged out. The browser
// posts here; the platform session is deleted, the cookie cleared, and the login page says the
// session has ended (LostSession, as when the server finds an idle cookie: docs/decisions/060).
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const session = await getPortalSession(request);
  if (session) {
    await logout(session.token);
  }
  const params = new URLSearchParams({ reason: "LostSession" });
  const back = safeRedirectPath(form.get("redirectTo"));
  if (back && back !== "/" && !back.startsWith("/login")) params.set("redirectTo", back);
  return redirect(`/login?${params.toString()}`, { headers: await signOutHeaders(request) });
}

export function loader() {
  return redirect("/");
}
