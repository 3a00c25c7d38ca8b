import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JourneyPage } from "~/components/journey-page";
import { journeyPageOf } from "~/lib/journeys";
import { sanitiseTextPage } from "~/lib/text-pages.server";
import { getSite } from "~/planning/site.server";
import { accessDenied, notFound, requireClientContext } from "~/session/guards.server";
import { resolveLocale } from "~/session/i18next.server";

// spec 002 §2: /core/robo, a journey that runs on another system, for a signed-in client; an
// adviser, even with a client in context, is not sent to it (docs/decisions/096).
export const handle = { i18n: ["messages"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  if (context.isAdviser) throw accessDenied();
  const site = await getSite(await resolveLocale(request));
  const journey = journeyPageOf(site, "robo");
  if (!journey) throw notFound();
  return json({ journey: { ...journey, html: sanitiseTextPage(journey.html) } });
}

export default function Journey() {
  const { journey } = useLoaderData<typeof loader>();
  return <JourneyPage journey={journey} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.journey ? `${data.journey.title} – Client Online` : "Client Online" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
