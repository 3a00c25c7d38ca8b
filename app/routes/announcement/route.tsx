import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { isAnnouncementHash } from "~/lib/announcement";
import { safeRedirectPath } from "~/lib/redirect-to";
import { closeAnnouncementHeader } from "~/session/announcement.server";
import { readForm } from "~/session/csrf.server";

// spec 002 §4 "Announcement and cookie notice": the panel's close. Without JavaScript the browser
// comes back to the page it was on (a local path only); the shell's fetcher asks for a plain answer
// so the panel goes at once (docs/decisions/096).
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const hash = formData.get("hash");
  const back = safeRedirectPath(formData.get("redirectTo")) ?? "/";
  if (!isAnnouncementHash(hash)) {
    return formData.get("inline") === "true" ? json({ closed: false }, { status: 400 }) : redirect(back);
  }
  const headers = { "Set-Cookie": await closeAnnouncementHeader(hash, formData.get("dontShowAgain") === "yes") };
  if (formData.get("inline") === "true") return json({ closed: true }, { headers });
  return redirect(back, { headers });
}

// Closing is a form post; a visit here goes home.
export function loader() {
  return redirect("/");
}
