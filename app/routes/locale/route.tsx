import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { toSupportedLocale } from "~/lib/i18n";
import { localeCookie } from "~/session/i18next.server";
import { safeRedirectPath } from "~/lib/redirect-to";
import { readForm } from "~/session/csrf.server";
import { getPortalSession, updateSessionUser } from "~/session/session.server";

// The footer's language chooser (decision 022): the `lng` cookie for visitors, and the signed-in
// user's session locale (which wins over the cookie) for the rest of the session. Signed-out
// visitors post it, so it is an anonymous form: CSRF token and honeypot.
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { anonymous: true });
  const back = safeRedirectPath(formData.get("redirectTo")) ?? "/";
  const lng = toSupportedLocale(String(formData.get("lng") ?? ""));
  if (!lng) return redirect(back);
  const headers = new Headers();
  headers.append("Set-Cookie", await localeCookie.serialize(lng));
  const session = await getPortalSession(request);
  if (session && session.user.locale !== lng) {
    headers.append("Set-Cookie", await updateSessionUser(request, { ...session.user, locale: lng }));
  }
  return redirect(back, { headers });
}

export function loader() {
  return redirect("/");
}
