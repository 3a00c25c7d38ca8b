import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TableRegion } from "~/components/table-region";
import { useTranslation } from "~/components/translation";
import { isLostSession, PlanningError } from "~/planning/client.server";
import { getSite } from "~/planning/site.server";
import { orFail } from "~/session/failures.server";
import { notFound, requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { fetchRealisedGains, gainsView, type GainsView, selectionOf, type Shown } from "~/planning/gains.server";
import gainsStyles from "./gains.css";

export const handle = { i18n: ["clients"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: gainsStyles }];

/** The analysis page's selection carried to and from this page (its `id`). */
const withId = (path: string, id: string | null) => (id ? `${path}?id=${encodeURIComponent(id)}` : path);

// Issue 41 "Realised gains and losses (taxable accounts)", decision 201: the disposals of the
// analysis page's selection by UK tax year, each with the matching rules that identified it.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 001 §6: the analysis page's data, for site access level Portfolio only
  requireSiteAccess(context, ["Portfolio"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const id = new URL(request.url).searchParams.get("id") || null;
  const selection = await orFail(request, selectionOf(context.planning, site, id, t));
  // an id the client does not see selects nothing: not found, never someone else's figures
  if (!selection) throw notFound();
  // the page stands when the gains cannot be read (a lost session or an unknown account excepted)
  const view = await orFail(
    request,
    fetchRealisedGains(context.planning, selection.accountIds)
      .then((answer): GainsView | null => gainsView(answer, t, locale))
      .catch((error: unknown) => {
        if (isLostSession(error) || (error instanceof PlanningError && error.status === 404)) throw error;
        return null;
      }),
  );
  return json({
    title: t("gains.title"),
    heading: selection.heading,
    view,
    analysisHref: withId("/clients/analysis", id),
    downloadHref: withId("/clients/analysis/gains/download", id),
  });
}

function Signed({ value }: { value: Shown }) {
  return (
    <>
      {value.text}
      {value.spoken ? <span className="visually-hidden"> ({value.spoken})</span> : null}
    </>
  );
}

type Year = GainsView["years"][number];

function RuleParts({ row }: { row: Year["rows"][number] }) {
  const { t } = useTranslation("clients");
  return (
    <ul className="gains-rules">
      {row.parts.map((part) => (
        <li key={part.rule} data-rule={part.rule}>
          {t("gains.rulePart", { rule: part.label, units: part.units })}
          {row.parts.length > 1 ? (
            <>
              {": "}
              <Signed value={part.gain} />
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function DisposalsTable({ year }: { year: Year }) {
  const { t } = useTranslation("clients");
  const captionId = `gains-caption-${year.label}`;
  return (
    <TableRegion captionId={captionId} className="gains-table">
      <table>
        <caption id={captionId}>{t("gains.year.caption", { year: year.label })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("gains.columns.date")}</th>
            <th scope="col">{t("gains.columns.security")}</th>
            <th scope="col">{t("gains.columns.account")}</th>
            <th scope="col" className="numeric">
              {t("gains.columns.units")}
            </th>
            <th scope="col" className="numeric">
              {t("gains.columns.proceeds")}
            </th>
            <th scope="col" className="numeric">
              {t("gains.columns.cost")}
            </th>
            <th scope="col" className="numeric">
              {t("gains.columns.gain")}
            </th>
            <th scope="col">{t("gains.columns.rule")}</th>
          </tr>
        </thead>
        <tbody>
          {year.rows.map((row) => (
            <tr key={row.key} data-date={row.isoDate} data-code={row.code}>
              <td>{row.date}</td>
              <th scope="row">{row.security}</th>
              <td>{row.account}</td>
              <td className="numeric">{row.units}</td>
              <td className="numeric">{row.proceeds}</td>
              <td className="numeric">{row.cost}</td>
              <td className="numeric">
                <Signed value={row.gain} />
              </td>
              <td>
                <RuleParts row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function YearTotals({ year }: { year: Year }) {
  const { t } = useTranslation("clients");
  return (
    <>
      <h3 className="visually-hidden">{t("gains.totals.label", { year: year.label })}</h3>
      {year.totals.map((total) => (
        <dl key={total.currency} className="gains-totals">
          <div className="gains-totals__item">
            <dt>{t("gains.totals.gains")}</dt>
            <dd data-total="gains">{total.gains}</dd>
          </div>
          <div className="gains-totals__item">
            <dt>{t("gains.totals.losses")}</dt>
            <dd data-total="losses">{total.losses}</dd>
          </div>
          <div className="gains-totals__item">
            <dt>{t("gains.totals.net")}</dt>
            <dd data-total="net">
              <Signed value={total.net} />
            </dd>
          </div>
        </dl>
      ))}
      <p className="gains-allowance">
        {year.allowance ? (
          <>
            {t("gains.allowance.amount", {
              year: year.label,
              individual: year.allowance.individual,
              trustees: year.allowance.trustees,
            })}{" "}
            {t("gains.allowance.source")}{" "}
            <a href={year.allowance.sourceUrl} rel="noreferrer">
              {year.allowance.sourceName}
            </a>
            <span className="gains-allowance__url"> ({year.allowance.sourceUrl})</span>.
          </>
        ) : (
          t("gains.allowance.unknown", { year: year.label })
        )}
      </p>
    </>
  );
}

function YearSection({ year }: { year: Year }) {
  const { t } = useTranslation("clients");
  const headingId = `gains-year-${year.label}`;
  return (
    <section aria-labelledby={headingId} className="home-section gains-year">
      <h2 id={headingId}>{t("gains.year.heading", { year: year.label })}</h2>
      <p className="page__meta">{year.period}</p>
      <DisposalsTable year={year} />
      <YearTotals year={year} />
    </section>
  );
}

export default function RealisedGains() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  const view = data.view;
  return (
    <div className="page page--gains">
      <header className="page__header">
        <p className="gains-back">
          <Link to={data.analysisHref}>{t("gains.back")}</Link>
        </p>
        <h1>{t("gains.title")}</h1>
        <p className="page__meta">{data.heading}</p>
      </header>
      <p>{t("gains.intro")}</p>
      <p>{t("gains.rulesNote")}</p>
      {view === null ? (
        <p className="alert alert--error">{t("analysis.errors.portfolio")}</p>
      ) : (
        <>
          <section aria-labelledby="gains-accounts-heading" className="home-section">
            <h2 id="gains-accounts-heading">{t("gains.accounts.heading")}</h2>
            {view.included.length ? (
              <>
                <p>{t("gains.accounts.included")}</p>
                <ul className="gains-accounts" data-testid="gains-included">
                  {view.included.map((name) => (
                    <li key={name}>{name}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{t("gains.accounts.none")}</p>
            )}
            {view.excluded.length ? (
              <>
                <p>{t("gains.accounts.excluded")}</p>
                <ul className="gains-accounts" data-testid="gains-excluded">
                  {view.excluded.map((a) => (
                    <li key={a.name}>
                      {a.type ? t("gains.accounts.excludedItem", { name: a.name, type: a.type }) : a.name}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
          {view.years.length ? (
            <p>
              <a href={data.downloadHref} download className="button button--secondary">
                {t("analysis.download.csv")}
              </a>
            </p>
          ) : null}
          {view.years.length ? (
            view.years.map((year) => <YearSection key={year.label} year={year} />)
          ) : view.included.length ? (
            <p className="alert alert--info">{t("gains.empty")}</p>
          ) : null}
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} | Client Online` : "Client Online" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
