import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { ErrorSummary } from "~/components/error-summary";
import { ChartFigure, chartStyles } from "~/components/charts/chart-figure";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FigureText, overviewTilesStyles, PerformanceText } from "~/components/figures";
import { SegmentedLinks, segmentedLinksStyles } from "~/components/segmented-links";
import { PAGE_PATHS } from "~/lib/navigation";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { batchingClient } from "~/planning/batching.server";
import { getSite } from "~/planning/site.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { AccountsTable } from "./accounts-table";
import { type AnalysisPage, analysisSettings, buildAnalysis, type Figures, LostSession } from "./analysis.server";
import { readAnalysisQuery } from "~/lib/analysis/query";
import analysisStyles from "./analysis.css";
import incomeStyles from "./income.css";
import { FilterOptions, RANGE_FORM_ID, rangeSummary } from "./filter-options";
import { AllocationPanelList, InvestmentsPanel } from "./investments-panel";
import { InstructionsPanel, PaymentPanel, TransactionsPanel } from "./tab-panels";
import { IncomePanel } from "./income-panel";
import { errorPageTitle } from "~/lib/error-title";

export const handle = { i18n: ["clients"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: chartStyles },
  { rel: "stylesheet", href: segmentedLinksStyles },
  { rel: "stylesheet", href: overviewTilesStyles },
  { rel: "stylesheet", href: analysisStyles },
  { rel: "stylesheet", href: incomeStyles },
];

// spec 001 §2.2 analysis page, §2.3 its first tab, §2.4 the performance chart
// (docs/decisions/093-analysis-page.md). The account filter, date range, chart tab, currency and tab
// are the query, so every view is a URL; everything is rendered on the server.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 001 §6: site access level Portfolio only
  requireSiteAccess(context, ["Portfolio"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const query = readAnalysisQuery(new URL(request.url), analysisSettings(site.settings).disabledRanges);
  let page: AnalysisPage;
  try {
    // the page's reads after the basics start together: one round trip (docs/decisions/196)
    page = await buildAnalysis({ planning: batchingClient(context.planning), t, locale, site, query });
  } catch (error) {
    if (error instanceof LostSession) throw await lostSessionRedirect(request);
    throw error;
  }
  const basis = site.pages["basis-of-valuation"];
  const refused = Boolean(page.range.errors.from || page.range.errors.to);
  return json(
    {
      title: t("analysis.title"),
      page,
      query,
      // spec 000 §2: the mobile Back button's target without JavaScript
      backHref: page.backHref ?? PAGE_PATHS.home,
      basis: basis ? { title: basis.title, html: sanitiseTextPage(basis.html) } : null,
    },
    { status: page.notFound ? 404 : refused ? 400 : 200 },
  );
}

function Breadcrumb({ crumbs }: { crumbs: AnalysisPage["crumbs"] }) {
  const { t } = useTranslation("clients");
  // spec 001 §2.2: shown only with 2 or more crumbs
  if (crumbs.length < 2) return null;
  return (
    <nav className="breadcrumb" aria-label={t("analysis.breadcrumb")}>
      <ol className="breadcrumb__list">
        {crumbs.map((crumb, i) => (
          <li key={`${i}-${crumb.name}`} className="breadcrumb__item">
            {crumb.href ? <Link to={crumb.href}>{crumb.name}</Link> : <span aria-current="page">{crumb.name}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function ChartSection({ figures, page }: { figures: Extract<Figures, { state: "ok" }>; page: AnalysisPage }) {
  const { t } = useTranslation("clients");
  const chart = figures.chart;
  if (chart.state === "hidden") return null;
  let body: React.ReactNode;
  if (chart.state === "error") body = <p className="alert alert--error">{t("analysis.chart.error")}</p>;
  else if (chart.state === "noData")
    body = (
      <p className="alert alert--info">
        {t(chart.beforeOpening ? "analysis.chart.beforeOpening" : "analysis.chart.noData")}
      </p>
    );
  else
    body = (
      <ChartFigure
        id="analysis-performance-chart"
        caption={chart.caption}
        svg={chart.svg}
        narrowSvg={chart.narrowSvg}
        legend={chart.legend}
        table={chart.table}
        tableSummary={t("analysis.chart.showTable")}
        interactive={chart.interactive}
      />
    );
  return (
    <section aria-labelledby="analysis-chart-heading" className="home-section analysis-chart">
      <h2 id="analysis-chart-heading">{t("analysis.chart.heading")}</h2>
      <SegmentedLinks
        label={t("analysis.chart.tabsLabel")}
        className="segmented analysis-chart__tabs"
        options={[
          {
            href: page.links.percentage,
            text: t("analysis.chart.tabs.percentage"),
            current: page.chartTab === "percentage",
          },
          { href: page.links.value, text: t("analysis.chart.tabs.value"), current: page.chartTab === "value" },
        ]}
      />
      {body}
    </section>
  );
}

/** The active tab's content (the others are not loaded). */
function ActivePanel({ figures }: { figures: Extract<Figures, { state: "ok" }> }) {
  return (
    <>
      {figures.accounts ? <AccountsTable tab={figures.accounts} /> : null}
      {figures.investments ? <InvestmentsPanel view={figures.investments} /> : null}
      {figures.allocation ? <AllocationPanelList view={figures.allocation} /> : null}
      {figures.transactions ? <TransactionsPanel view={figures.transactions} /> : null}
      {figures.instructions ? <InstructionsPanel view={figures.instructions} /> : null}
      {figures.payment ? <PaymentPanel view={figures.payment} /> : null}
      {figures.income ? <IncomePanel view={figures.income} /> : null}
    </>
  );
}

function FiguresSection({ figures, page }: { figures: Figures; page: AnalysisPage }) {
  const { t } = useTranslation("clients");
  if (figures.state === "error") return <p className="alert alert--error">{t("analysis.errors.portfolio")}</p>;
  // spec 001 §2.2: accounts loaded but empty
  if (figures.state === "noData")
    return <p className="alert alert--info panel-no-data">{t("analysis.errors.noData")}</p>;
  return (
    <>
      {figures.noTransactions ? <p className="alert alert--warning">{t("analysis.errors.noTransactions")}</p> : null}
      <section aria-labelledby="analysis-overview-heading" className="home-section">
        <h2 id="analysis-overview-heading">{t("analysis.overview.heading")}</h2>
        {figures.currencyNote ? <p className="page__meta">{t("analysis.planCurrencyNote")}</p> : null}
        {/* decision 107: what the totals cover */}
        {figures.coverage ? <p className="page__meta analysis-coverage">{figures.coverage}</p> : null}
        <dl className="overview-tiles">
          <div className="overview-tile">
            <dt>{t("analysis.overview.value")}</dt>
            <dd className="overview-tile__figure">{figures.value}</dd>
          </div>
          {figures.performanceLabel ? (
            <div className="overview-tile">
              <dt>{figures.performanceLabel}</dt>
              <dd className="overview-tile__figure">
                <PerformanceText performance={figures.performance} />
              </dd>
            </div>
          ) : null}
          <div className="overview-tile">
            <dt>{t("analysis.overview.movement")}</dt>
            <dd className="overview-tile__figure">
              <FigureText figure={figures.movement} />
            </dd>
          </div>
        </dl>
      </section>
      <ChartSection figures={figures} page={page} />
      {figures.tabs.length ? (
        <section className="home-section analysis-tabs">
          {/* spec 001 §2.3: the tabs in order, ids analysis__tabs_tab-N; each a URL */}
          <nav className="tabs" aria-label={t("analysis.tabs.label")}>
            <ul className="tabs__list">
              {figures.tabs.map((tab) => (
                <li key={tab.key}>
                  <Link
                    id={`analysis__tabs_tab-${tab.index}`}
                    to={tab.href}
                    preventScrollReset
                    className={tab.current ? "tabs__tab tabs__tab--active" : "tabs__tab"}
                    aria-current={tab.current ? "true" : undefined}
                  >
                    {tab.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {figures.tabs
            .filter((tab) => tab.current)
            .map((tab) => (
              <div
                key={tab.key}
                id={`analysis__tabs_panel-${tab.index}`}
                className="analysis-tabs__panel"
                role="region"
                aria-labelledby={`analysis__tabs_tab-${tab.index}`}
              >
                <ActivePanel figures={figures} />
              </div>
            ))}
        </section>
      ) : null}
    </>
  );
}

export default function Analysis() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  const { page, query } = data;
  const figures = page.figures;
  return (
    <div className="page page--analysis">
      <header className="page__header">
        <Breadcrumb crumbs={page.crumbs} />
        <ErrorSummary formId={RANGE_FORM_ID} errors={rangeSummary(page.range.errors)} />
        <h1>{page.heading}</h1>
      </header>
      <div className="analysis-toolbar">
        <FilterOptions range={page.range} query={query} period={figures?.state === "ok" ? figures.period : null} />
        {page.currencyToggle ? (
          <SegmentedLinks
            label={t("analysis.currency.label")}
            options={[
              { href: page.links.report, text: t("analysis.currency.report"), current: query.currency === "report" },
              { href: page.links.plan, text: t("analysis.currency.plan"), current: query.currency === "plan" },
            ]}
          />
        ) : null}
      </div>
      {figures ? <FiguresSection figures={figures} page={page} /> : null}
      {figures?.state === "ok" ? (
        <p className="analysis-gains-link">
          {/* issue 41: the realised gains of the same selection, by tax year (decision 201) */}
          <Link
            to={query.id ? `/clients/analysis/gains?id=${encodeURIComponent(query.id)}` : "/clients/analysis/gains"}
          >
            {t("gains.link")}
          </Link>
        </p>
      ) : null}
      {data.basis ? (
        <details className="valuation-basis">
          <summary className="valuation-basis__title">{data.basis.title}</summary>
          <div className="text-page" dangerouslySetInnerHTML={{ __html: data.basis.html }} />
        </details>
      ) : null}
    </div>
  );
}

/** Only the investments rows' open and closed state changed: the page has every row already (spec 001 §4 expand modes). */
const ROW_STATE = new Set(["expand", "open"]);
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const names = new Set([...currentUrl.searchParams.keys(), ...nextUrl.searchParams.keys()]);
  const changed = [...names].filter((name) => currentUrl.searchParams.get(name) !== nextUrl.searchParams.get(name));
  return changed.length && changed.every((name) => ROW_STATE.has(name)) ? false : defaultShouldRevalidate;
};

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
