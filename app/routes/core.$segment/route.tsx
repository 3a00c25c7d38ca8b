import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { textPageBackPath } from "~/lib/navigation";
import { textPageFor } from "~/lib/text-pages";
import { getSite } from "~/planning/site.server";
import { getPortalSession } from "~/session/session.server";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 and 002 "Other pages": text pages by segment, public, with a Back link; a `-view`
// segment shows its base page (docs/decisions/024).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const [locale, session, t] = await Promise.all([
    resolveLocale(request),
    getPortalSession(request),
    getFixedT(request),
  ]);
  const site = await getSite(locale);
  const segment = params.segment ?? "";
  const page = textPageFor(site.pages, segment);
  const back = textPageBackPath(session?.user ?? null);
  if (!page) return json({ page: null, back, title: t("textPage.unknownTitle") }, { status: 404 });
  return json({ page: { title: page.title, html: sanitiseTextPage(page.html) }, back, title: page.title });
}

export default function TextPage() {
  const { page, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="text-page">
      <p className="back-link">
        <Link to={back}>{t("textPage.back")}</Link>
      </p>
      {page ? (
        <>
          <h1>{page.title}</h1>
          <div className="prose" dangerouslySetInnerHTML={{ __html: page.html }} />
        </>
      ) : (
        <>
          <h1>{t("textPage.unknownTitle")}</h1>
          <p>{t("textPage.unknownText")}</p>
        </>
      )}
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data?.title ? `${data.title} – Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
