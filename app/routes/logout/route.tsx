import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logout } from "~/planning/auth.server";
import { readForm } from "~/session/csrf.server";
import { destroySessionCookie, getPortalSession } from "~/session/session.server";

// spec 000 §4 "Login flow" 6: logging out deletes the platform session, then the portal's cookie.
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const session = await getPortalSession(request);
  if (session) {
    await logout(session.token);
  }
  return redirect("/login?reason=UserLoggedOut", {
    headers: { "Set-Cookie": await destroySessionCookie(request) },
  });
}

// Log out is a form post; a visit to /logout goes home (which leads to login when signed out).
export async function loader() {
  return redirect("/");
}
