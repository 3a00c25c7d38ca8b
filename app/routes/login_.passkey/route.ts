import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { clientAddress } from "~/runtime/client-address.server";
import { logger } from "~/runtime/logger.server";
import { authenticationOptions } from "~/planning/passkeys.server";
import { PlanningError } from "~/planning/client.server";
import { readForm } from "~/session/csrf.server";
import { checkRateLimit } from "~/session/rate-limit.server";

// POST /login/passkey: the options of a passkey sign-in (docs/platform-api.md "Passkeys"), as JSON
// for the login page's script; no username is asked. An anonymous form's post (CSRF token and
// honeypot), limited per address like any sign-in post (docs/decisions/046, 101).

export async function action({ request, context }: ActionFunctionArgs) {
  await readForm(request, { anonymous: true });
  const seconds = await checkRateLimit(clientAddress(request, context), "passkeyOptions");
  if (seconds !== null)
    return json({ error: "rate-limited" }, { status: 429, headers: { "Retry-After": String(seconds) } });
  try {
    return json(await authenticationOptions(), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    logger.error("passkey sign-in options unavailable", { status: error.status });
    return json({ error: "unavailable" }, { status: 503 });
  }
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
