import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logger } from "~/lib/logger.server";
import { logout } from "~/planning/auth.server";
import { readForm } from "~/session/csrf.server";
import { destroySessionCookie, getPortalSession } from "~/session/session.server";

// spec 000 §4 "Login flow" 6: logging out deletes the platform session, then the portal's cookie.
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const session = await getPortalSession(request);
  if (session) {
    try {
      await logout(session.token);
    } catch (error) {
      // The cookie is cleared whatever the platform says; its own idle timeout ends the rest.
      logger.error("platform logout failed", { error: String(error) });
    }
  }
  return redirect("/login?reason=UserLoggedOut", {
    headers: { "Set-Cookie": await destroySessionCookie(request) },
  });
}

// Log out is a form post; a visit to /logout goes home (which leads to login when signed out).
export async function loader() {
  return redirect("/");
}
