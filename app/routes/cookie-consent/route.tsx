import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { acceptCookiesHeader } from "~/session/cookie-consent.server";
import { safeRedirectPath } from "~/lib/redirect-to";
import { readForm } from "~/session/csrf.server";

// spec 000 §2 "Global cookie notice": Accept remembers the choice in a cookie. Without JavaScript
// the browser comes back to the page it was on; the shell's fetcher asks for a plain answer instead.
// Signed-out visitors post it, so it is an anonymous form: CSRF token and honeypot (decision 022).
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { anonymous: true });
  const headers = { "Set-Cookie": await acceptCookiesHeader() };
  if (formData.get("inline") === "true") return json({ accepted: true }, { headers });
  return redirect(safeRedirectPath(formData.get("redirectTo")) ?? "/", { headers });
}

// Accepting is a form post; a visit here goes home.
export function loader() {
  return redirect("/");
}
