import { json } from "@remix-run/node";
import { type JourneyKey, journeyPageOf } from "~/lib/journeys";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { getSite } from "~/planning/site.server";
import { notFound, refuseAccess, requireClientContext } from "./guards.server";
import { resolveLocale } from "./i18next.server";

/**
 * spec 002 §2: /core/factfind, /core/apa and /core/robo, journeys that run on another system, for a
 * signed-in client; an adviser, even with a client in context, is not sent to them (docs/decisions/096).
 */
export async function journeyLoader(request: Request, key: JourneyKey) {
  const context = await requireClientContext(request);
  if (context.isAdviser) throw refuseAccess(context, "clients only");
  const site = await getSite(await resolveLocale(request));
  const journey = journeyPageOf(site, key);
  if (!journey) throw notFound();
  return json({ journey: { ...journey, html: sanitiseTextPage(journey.html) } });
}
