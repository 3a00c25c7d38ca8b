import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { logger } from "~/runtime/logger.server";
import { registrationOptions } from "~/planning/passkeys.server";
import { readForm } from "~/session/csrf.server";
import { attempt } from "~/session/failures.server";
import { requireClient } from "~/session/guards.server";

// POST /clients/biometric-permission/options: the options of a new passkey for the signed-in
// client (docs/platform-api.md "Passkeys"), as JSON for the page's script. A POST with the page's
// CSRF token, because the platform keeps a challenge for each.

export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const { planning } = await requireClient(request);
  const options = await attempt(request, registrationOptions(planning));
  if (!options.ok) {
    logger.error("passkey registration options unavailable", { status: options.error.status });
    return json({ error: options.error.apiMessage }, { status: options.error.status === 409 ? 409 : 503 });
  }
  return json(options.value, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405 });
}
