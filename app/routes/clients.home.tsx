import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/i18next.server";
import { formatLastLogin } from "~/lib/format";
import { fetchClientInContext } from "~/planning/clients.server";
import { orFail } from "~/planning/client.server";
import { fetchClient } from "~/planning/entity.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";

export const handle = { i18n: ["clients"] };

// spec 000 §2: home is for the Portfolio and Assets levels only. The portfolio content comes with
// a later issue; the page greets the client (docs/decisions/034) and links the pages that exist.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const locale = await resolveLocale(request);
  const t = await getFixedT(request, "clients");
  const { user, planning } = context;

  let firstName = user.firstName;
  let lastLogin = user.lastLogin;
  let timeZone = user.userTimezone;
  let viewingAs: string | null = null;
  if (context.isAdviser) {
    // The client's own name and last login: the session's client in context and the client's record.
    const [inContext, client] = await orFail(
      request,
      Promise.all([fetchClientInContext(planning), fetchClient(planning, context.entityId)]),
    );
    firstName = client.preferred_name || client.first_name || client.display_name || user.clientInContext?.displayName || "";
    lastLogin = inContext?.last_login_datetime ?? null;
    timeZone = inContext?.user_timezone ?? null;
    viewingAs = inContext?.display_name ?? user.clientInContext?.displayName ?? null;
  }
  return json({
    title: t("home.title"),
    firstName,
    lastLogin: lastLogin ? formatLastLogin(lastLogin, timeZone, locale) : null,
    viewingAs,
    isPreviewMode: context.isPreviewMode,
  });
}

export default function ClientsHome() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  return (
    <div className="page page--home">
      <header className="page__header">
        <h1>{t("home.welcome", { name: data.firstName })}</h1>
        {data.lastLogin ? <p className="page__meta">{t("home.lastLogin", { date: data.lastLogin })}</p> : null}
        {data.viewingAs ? <p className="page__meta">{t("home.viewingAs", { name: data.viewingAs })}</p> : null}
        {data.isPreviewMode ? (
          <p className="alert alert--info">{t("home.preview")}</p>
        ) : null}
      </header>
      <section aria-labelledby="home-links-heading">
        <h2 id="home-links-heading">{t("home.linksHeading")}</h2>
        <ul className="link-cards">
          <li className="card">
            <Link to="/clients/personal-details" className="link-card__link">
              {t("home.links.personalDetails")}
            </Link>
            <p className="link-card__text">{t("home.links.personalDetailsText")}</p>
          </li>
          <li className="card">
            <Link to="/clients/adviser-details" className="link-card__link">
              {t("home.links.adviserDetails")}
            </Link>
            <p className="link-card__text">{t("home.links.adviserDetailsText")}</p>
          </li>
        </ul>
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} | Client Online` : "Client Online" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
