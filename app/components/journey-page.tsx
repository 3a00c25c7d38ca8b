import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { ExternalLink } from "~/components/external-link";
import type { JourneyPage as Journey } from "~/lib/journeys";
import { errorPageTitle } from "~/lib/error-title";

/**
 * spec 002 §2: the page of a journey that runs on another system (/core/factfind, /core/apa,
 * /core/robo): the content's title and text and a link to the journey's address (docs/decisions/096).
 */
export function JourneyPage({ journey }: { journey: Journey }) {
  const { t } = useTranslation();
  return (
    <article className="text-page journey-page">
      <p className="back-link">
        <Link to="/clients">{t("textPage.back")}</Link>
      </p>
      <h1>{journey.title}</h1>
      {/* the content's HTML, sanitised by the loader */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: journey.html }} />
      {journey.url ? (
        <p className="journey-page__start">
          <ExternalLink href={journey.url} className="button">
            {t("journey.start")}
          </ExternalLink>
        </p>
      ) : (
        <p className="alert alert--info">{t("journey.unavailable")}</p>
      )}
    </article>
  );
}

type JourneyData = { journey: Journey };

/** A journey route's page: its loader answers `{ journey }` (app/session/journey-page.server.ts). */
export function JourneyRoute() {
  const { journey } = useLoaderData<JourneyData>();
  return <JourneyPage journey={journey} />;
}

export const journeyMeta: MetaFunction = ({ data, error, matches }) => {
  const journey = (data as JourneyData | undefined)?.journey;
  // a route's own meta runs only under a root that loaded: there is always an error page's title
  return [{ title: journey ? `${journey.title} – Client Online` : errorPageTitle(error, matches)! }];
};
