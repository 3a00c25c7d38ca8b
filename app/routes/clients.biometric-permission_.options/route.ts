import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { logger } from "~/runtime/logger.server";
import { currentPasswordRefusal } from "~/lib/security";
import { registrationOptions } from "~/planning/passkeys.server";
import { readForm } from "~/session/csrf.server";
import { attempt } from "~/session/failures.server";
import { requireClient } from "~/session/guards.server";

// POST /clients/biometric-permission/options: the options of a new passkey for the signed-in
// client (docs/platform-api.md "Passkeys"), as JSON for the page's script. A POST of the page's
// form, with its CSRF token and the current password (decision 179): the platform gives the options
// only for that password, and their challenge, spent by the registration, is the proof that it was
// given. The password goes in this post's body only: never in a URL, a cookie or the answer.

/** What the page's script shows when the password is refused: the field's message, or the lockout's. */
type OptionsRefusal = { fieldError: string } | { messageKey: string };

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const { planning } = await requireClient(request);
  const currentPassword = formData.get("currentPassword");
  if (typeof currentPassword !== "string" || currentPassword === "")
    return json<OptionsRefusal>({ fieldError: "security:changePassword.errors.current" }, { status: 400 });
  const options = await attempt(request, registrationOptions(planning, currentPassword));
  if (!options.ok) {
    const refusal = currentPasswordRefusal(options.error.status, options.error.apiMessage);
    if (refusal) return json<OptionsRefusal>(refusal, { status: "fieldError" in refusal ? 400 : 403 });
    logger.error("passkey registration options unavailable", { status: options.error.status });
    return json({ error: options.error.apiMessage }, { status: options.error.status === 409 ? 409 : 503 });
  }
  return json(options.value, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405 });
}
