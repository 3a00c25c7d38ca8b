import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { ChartFigure, chartStyles } from "~/components/charts/chart-figure";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SegmentedLinks, segmentedLinksStyles } from "~/components/segmented-links";
import { ImportantPanel } from "./important-panel";
import { NotificationPanels, notificationPanelsStyles } from "~/components/notifications/notification-panels";
import { SummaryForm, SummaryRows } from "./summary";
import { FigureText, overviewTilesStyles, PerformanceText } from "~/components/figures";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { assetMembers } from "~/lib/assets";
import { formatLastLogin } from "~/lib/format-date.server";
import { homeHref, type HomeQuery, readHomeQuery } from "./home-query";
import { loadImportantPanel } from "./important-panel.server";
import {
  type AssetsView,
  buildAssetsView,
  buildPortfolioView,
  type HomeInput,
  type PortfolioView,
  timeframeLabel,
} from "./dashboard.server";
import { portfolioSettings } from "~/lib/performance";
import { fetchClientInContext } from "~/planning/clients.server";
import { batchingClient } from "~/planning/batching.server";
import { isLostSession } from "~/planning/client.server";
import { lostSessionRedirect, orFail } from "~/session/failures.server";
import { fetchClient } from "~/planning/entity.server";
import { isToggleOn } from "~/planning/feature-toggles.server";
import { fetchHomeBasics, pricingTypeFor } from "~/planning/portfolio.server";
import { getSite } from "~/planning/site.server";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { type ClientContext, requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { loadNotificationPanels, withoutNotifications } from "~/session/notifications.server";
import homeStyles from "./home.css";
import importantPanelStyles from "./important-panel.css";
import { errorPageTitle } from "~/lib/error-title";

export const handle = { i18n: ["clients", "messages", "notifications"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: chartStyles },
  { rel: "stylesheet", href: segmentedLinksStyles },
  { rel: "stylesheet", href: overviewTilesStyles },
  { rel: "stylesheet", href: homeStyles },
  { rel: "stylesheet", href: importantPanelStyles },
  { rel: "stylesheet", href: notificationPanelsStyles },
];

type HomeBasics = Awaited<ReturnType<typeof fetchHomeBasics>>;
type BasicsAnswer = { ok: true; value: HomeBasics } | { ok: false };

/**
 * One round trip for what the portfolio and assets views depend on. A lost session signs out; any
 * other failure shows the views' errors (and holds the notifications back).
 */
function startHomeBasics(request: Request, context: ClientContext): Promise<BasicsAnswer> {
  return fetchHomeBasics(context.planning, context.entityId)
    .then((value) => ({ ok: true as const, value }))
    .catch(async (error: unknown) => {
      if (isLostSession(error)) throw await lostSessionRedirect(request);
      return { ok: false as const };
    });
}

/** An adviser sees the client in context: their record and last sign-in, for the greeting. */
function fetchAdviserGreeting(request: Request, context: ClientContext) {
  const { planning } = context;
  return context.isAdviser
    ? orFail(request, Promise.all([fetchClientInContext(planning), fetchClient(planning, context.entityId)]))
    : Promise.resolve(null);
}

/** Whom the page greets and names: the signed-in client, or the client an adviser is viewing. */
function greetingOf(user: ClientContext["user"], adviserGreeting: Awaited<ReturnType<typeof fetchAdviserGreeting>>) {
  if (!adviserGreeting) {
    return {
      firstName: user.firstName,
      lastLogin: user.lastLogin,
      timeZone: user.userTimezone,
      viewingAs: null,
      selfName: user.displayName,
    };
  }
  const [inContext, client] = adviserGreeting;
  return {
    firstName:
      client.preferred_name || client.first_name || client.display_name || user.clientInContext?.displayName || "",
    lastLogin: inContext?.last_login_datetime ?? null,
    timeZone: inContext?.user_timezone ?? null,
    viewingAs: inContext?.display_name ?? user.clientInContext?.displayName ?? null,
    selfName: client.display_name || user.displayName,
  };
}

type HomeViews = { portfolio: PortfolioView | null; assets: AssetsView; currencyToggle: boolean };

/** The portfolio and other-assets views, built in parallel from the basics; their errors when those failed. */
async function loadHomeViews(
  request: Request,
  context: ClientContext,
  basics: BasicsAnswer,
  input: Omit<HomeInput, "pricingType">,
  selfName: string,
): Promise<HomeViews> {
  const isPortfolio = context.siteAccessLevel === "Portfolio";
  if (!basics.ok)
    return { portfolio: isPortfolio ? { state: "error" } : null, assets: { state: "error" }, currencyToggle: false };
  const { capabilities, accounts, members, toggles, access } = basics.value;
  const caps = capabilities.capabilities;
  const viewInput = { ...input, pricingType: pricingTypeFor(caps) };
  // spec 001 §6: only login-accessible members; the partner only with view_partner
  const assetsOf = assetMembers(
    members,
    { entity_id: context.entityId, display_name: selfName, login_accessible: true },
    caps,
  );
  // spec 001 §5: the multi-currency toggle only when plan currencies differ from the reporting one
  const currencyToggle = access.multi_currency === true && accounts.some((a) => a.plan_currency !== a.report_currency);
  const managed = accounts.filter((a) => a.service_type !== "Not managed");
  const { site } = input;
  const [portfolio, assets] = await orFail(
    request,
    Promise.all([
      isPortfolio ? buildPortfolioView(viewInput, managed.length) : Promise.resolve(null),
      buildAssetsView({
        ...viewInput,
        members: assetsOf,
        // the firm's country, not the page's language (spec 001 §4 status rules depend on it)
        country: typeof site.settings.country === "string" ? site.settings.country.toUpperCase() : "GB",
        enhancedSippWrapper: isToggleOn(toggles, "enhanced_sipp_wrapper"),
      }),
    ]),
  );
  return { portfolio, assets, currencyToggle };
}

// spec 001 §2.1 home dashboard, §2.6 other-assets summary (docs/decisions/074-home-dashboard.md).
// Everything is fetched in parallel and rendered on the server: no deferred content, which would
// never appear without JavaScript.
export async function loader({ request }: LoaderFunctionArgs) {
  const signedIn = await requireClientContext(request);
  requireSiteAccess(signedIn, ["Portfolio", "Assets"]);
  // the page's reads started together go in one round trip (decision 196)
  const context: ClientContext = { ...signedIn, planning: batchingClient(signedIn.planning) };
  const locale = await resolveLocale(request);
  const t = await getFixedT(request, "clients");
  const { user, planning } = context;
  const query = readHomeQuery(new URL(request.url));
  const settingsPromise = getSite(locale);
  const basicsPromise = startHomeBasics(request, context);

  const [site, basics, adviserGreeting, importantPanel, notificationPanels] = await Promise.all([
    settingsPromise,
    basicsPromise,
    fetchAdviserGreeting(request, context),
    // spec 001 §2.1: the important-messages panel (clients only)
    settingsPromise.then((loaded) => loadImportantPanel(context, loaded)),
    // spec 002 "Notification and postponement panels" (clients only; none when the call fails)
    loadNotificationPanels(request, context, { isMessagesPage: false }),
  ]);
  const { firstName, lastLogin, timeZone, viewingAs, selfName } = greetingOf(user, adviserGreeting);
  const settings = portfolioSettings(site.settings);
  const { portfolio, assets, currencyToggle } = await loadHomeViews(
    request,
    context,
    basics,
    { planning, t, locale, site, query },
    selfName,
  );

  const basis = site.pages["basis-of-valuation"];
  return json({
    title: t("home.title"),
    firstName,
    lastLogin: lastLogin ? formatLastLogin(lastLogin, timeZone, locale) : null,
    viewingAs,
    isPreviewMode: context.isPreviewMode,
    importantPanel,
    // spec 002 §4: the notifications only once the client's data and accounts are loaded
    notificationPanels: basics.ok ? notificationPanels : withoutNotifications(notificationPanels),
    query,
    timeframes: {
      default: timeframeLabel(t, settings.defaultTimeframe),
      secondary: timeframeLabel(t, settings.secondaryTimeframe),
    },
    currencyToggle,
    portfolio,
    assetsOnly: context.siteAccessLevel !== "Portfolio",
    assets,
    basis: basis ? { title: basis.title, html: sanitiseTextPage(basis.html) } : null,
  });
}

function hiddenFields(query: HomeQuery): Record<string, string> {
  const hidden: Record<string, string> = {};
  if (query.timeframe !== "default") hidden.timeframe = query.timeframe;
  if (query.currency !== "report") hidden.currency = query.currency;
  if (query.memberId !== null) hidden.id = String(query.memberId);
  return hidden;
}

type ShownPortfolio = Extract<PortfolioView, { state: "ok" }>;

/** spec 001 §2.1: the value, the performance and the movement over the period. */
function OverviewSection({ view }: { view: ShownPortfolio }) {
  const { t } = useTranslation("clients");
  return (
    <section aria-labelledby="overview-heading" className="home-section">
      <h2 id="overview-heading">{t("home.overview.heading")}</h2>
      <p className="page__meta">{view.period}</p>
      <p className="page__meta home-coverage">{view.overview.coverage}</p>
      <dl className="overview-tiles">
        <div className="overview-tile">
          <dt>{t("home.overview.value")}</dt>
          <dd className="overview-tile__figure">{view.overview.value}</dd>
        </div>
        {view.overview.performanceLabel ? (
          <div className="overview-tile">
            <dt>{view.overview.performanceLabel}</dt>
            <dd className="overview-tile__figure">
              <PerformanceText performance={view.overview.performance} />
            </dd>
          </div>
        ) : null}
        <div className="overview-tile">
          <dt>{t("home.overview.movement")}</dt>
          <dd className="overview-tile__figure">
            <FigureText figure={view.overview.movement} />
          </dd>
        </div>
      </dl>
      {/* decision 106: whole-unit tiles may not add up to a whole-unit total */}
      <p className="page__meta">{t("home.overview.roundingNote")}</p>
    </section>
  );
}

/** The performance chart, or why there is none, and the link to the analysis. */
function ChartSection({ chart }: { chart: NonNullable<ShownPortfolio["chart"]> }) {
  const { t } = useTranslation("clients");
  return (
    <section aria-labelledby="chart-heading" className="home-section">
      <h2 id="chart-heading">{t("home.chart.heading")}</h2>
      {"noData" in chart ? (
        <p className="alert alert--info">{t(chart.beforeOpening ? "home.chart.beforeOpening" : "home.chart.noData")}</p>
      ) : (
        <>
          <ChartFigure
            id="home-performance-chart"
            caption={chart.caption}
            svg={chart.svg}
            narrowSvg={chart.narrowSvg}
            table={chart.table}
            tableSummary={t("home.chart.showTable")}
            interactive={chart.interactive}
          />
          {chart.href ? (
            <p>
              <Link to={chart.href}>{t("home.chart.analysisLink")}</Link>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function PortfolioSection({ view, query }: { view: PortfolioView; query: HomeQuery }) {
  const { t } = useTranslation("clients");
  if (view.state === "error") return <p className="alert alert--error">{t("home.errors.portfolio")}</p>;
  if (view.state === "noPortfolios") return <p className="alert alert--info">{t("home.errors.noPortfolios")}</p>;
  if (view.state === "noAccounts") return <p className="alert alert--info">{t("home.errors.noAccounts")}</p>;
  const caption = t(`home.summary.heading.${view.collection}`);
  return (
    <>
      <OverviewSection view={view} />

      {view.chart ? <ChartSection chart={view.chart} /> : null}

      <section aria-labelledby="summary-heading" className="home-section">
        <h2 id="summary-heading">{caption}</h2>
        {view.currencyNote ? <p className="page__meta">{t("home.summary.planCurrencyNote")}</p> : null}
        <SummaryForm hidden={hiddenFields(query)}>
          <SummaryRows layout={view.layout} collection={view.collection} rows={view.own} caption={caption} />
          {view.linked.length ? (
            <>
              <h3 id="linked-heading">{t("home.summary.linkedHeading")}</h3>
              {view.own.length ? <p className="page__meta">{t("home.summary.linkedNote")}</p> : null}
              <SummaryRows
                layout={view.layout}
                collection={view.collection}
                rows={view.linked}
                caption={t("home.summary.linkedHeading")}
                headingLevel={4}
              />
            </>
          ) : null}
        </SummaryForm>
      </section>
    </>
  );
}

function AssetsSection({ view, assetsOnly }: { view: AssetsView; assetsOnly: boolean }) {
  const { t } = useTranslation("clients");
  let body: React.ReactNode;
  if (view.state === "error") body = <p className="alert alert--error">{t("home.assets.error")}</p>;
  else if (view.state === "empty") {
    // spec 001 §2.6: cards are hidden when loaded with no items; the assets-only view says so
    if (!assetsOnly) return null;
    body = <p className="alert alert--info">{t("home.assets.noData")}</p>;
  } else {
    body = (
      <>
        {view.partial ? <p className="alert alert--warning">{t("home.assets.partial")}</p> : null}
        <div className="assets-member card">
          <h3 className="assets-member__name">{view.member.name}</h3>
          <p className="assets-member__total">
            <span className="assets-member__label">{t("home.assets.total")}</span> <strong>{view.member.total}</strong>
          </p>
          <ul className="asset-cards">
            {view.cards.map((card) => (
              <li key={card.tab} className={`asset-card asset-card--${card.tab}`}>
                <h4 className="asset-card__title">
                  {card.href ? <Link to={card.href}>{card.title}</Link> : card.title}
                </h4>
                <p className="asset-card__total">{card.total}</p>
                <ul className="asset-card__items">
                  {card.items.map((item, i) => (
                    <li key={`${i}-${item.desc}`}>
                      <span className="asset-card__desc">{item.desc}</span>{" "}
                      <span className="asset-card__value">
                        {item.value}
                        {item.share ? <span className="asset-card__share"> {item.share}</span> : null}
                      </span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
        {view.others.length ? (
          <div className="assets-others card">
            <h3>{t("home.assets.othersHeading")}</h3>
            <ul className="assets-others__list">
              {view.others.map((m) => (
                <li key={m.id}>
                  {m.name}:{" "}
                  <Link to={m.href} preventScrollReset>
                    {t("home.assets.viewAssets")}
                    <span className="visually-hidden"> {t("home.assets.viewAssetsOf", { name: m.name })}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </>
    );
  }
  const heading = (
    <h2 id="other-assets-heading">
      {view.state === "ok" && view.balanceSheetHref ? (
        <Link to={view.balanceSheetHref}>{t("home.assets.heading")}</Link>
      ) : (
        t("home.assets.heading")
      )}
    </h2>
  );
  return (
    <section id="other-assets" aria-labelledby="other-assets-heading" className="home-section">
      {heading}
      {body}
    </section>
  );
}

export default function ClientsHome() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  const query = data.query;
  return (
    <div className="page page--home">
      <header className="page__header">
        <h1>{t("home.welcome", { name: data.firstName })}</h1>
        {data.lastLogin ? <p className="page__meta">{t("home.lastLogin", { date: data.lastLogin })}</p> : null}
        {data.viewingAs ? <p className="page__meta">{t("home.viewingAs", { name: data.viewingAs })}</p> : null}
        {data.isPreviewMode ? <p className="alert alert--info">{t("home.preview")}</p> : null}
      </header>
      {data.portfolio ? (
        <div className="home-toggles">
          <SegmentedLinks
            label={t("home.timeframes.label")}
            options={[
              {
                href: homeHref(query, { timeframe: "default" }),
                text: data.timeframes.default,
                current: query.timeframe === "default",
              },
              {
                href: homeHref(query, { timeframe: "secondary" }),
                text: data.timeframes.secondary,
                current: query.timeframe === "secondary",
              },
            ]}
          />
          {data.currencyToggle && data.portfolio.state === "ok" ? (
            <SegmentedLinks
              label={t("home.currency.label")}
              options={[
                {
                  href: homeHref(query, { currency: "report" }),
                  text: t("home.currency.report"),
                  current: query.currency === "report",
                },
                {
                  href: homeHref(query, { currency: "plan" }),
                  text: t("home.currency.plan"),
                  current: query.currency === "plan",
                },
              ]}
            />
          ) : null}
        </div>
      ) : null}
      <NotificationPanels data={data.notificationPanels} />
      <ImportantPanel panel={data.importantPanel} />
      {data.portfolio ? <PortfolioSection view={data.portfolio} query={query} /> : null}
      <AssetsSection view={data.assets} assetsOnly={data.assetsOnly} />
      {data.basis ? (
        <section aria-labelledby="basis-heading" className="home-section basis-of-valuation">
          <h2 id="basis-heading">{data.basis.title}</h2>
          <div className="text-page" dangerouslySetInnerHTML={{ __html: data.basis.html }} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
