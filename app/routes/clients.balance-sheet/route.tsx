import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SegmentedLinks, segmentedLinksStyles } from "~/components/segmented-links";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import type { AssetTab } from "~/lib/assets";
import { type BalanceSheetPage, buildBalanceSheet, type Cell, type SheetTable } from "./balance-sheet.server";
import { readBalanceSheetQuery } from "~/lib/balance-sheet";
import { isLostSession } from "~/planning/client.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { getSite } from "~/planning/site.server";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";
import balanceSheetStyles from "./balance-sheet.css";
import { TableRegion } from "~/components/table-region";
import { errorPageTitle } from "~/lib/error-title";

export const handle = { i18n: ["clients"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: segmentedLinksStyles },
  { rel: "stylesheet", href: balanceSheetStyles },
];

// spec 001 §2.5 balance sheet (docs/decisions/075-balance-sheet.md): member, view, tab and currency
// are the query, so every view is a URL and works without JavaScript.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const { user, planning } = context;
  let page: BalanceSheetPage;
  try {
    page = await buildBalanceSheet({
      planning,
      t,
      locale,
      site,
      query: readBalanceSheetQuery(new URL(request.url)),
      entityId: context.entityId,
      selfName: (context.isAdviser ? user.clientInContext?.displayName : user.displayName) ?? user.displayName,
    });
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    throw error;
  }
  const basis = site.pages["basis-of-valuation"];
  return json({ page, basis: basis ? { title: basis.title, html: sanitiseTextPage(basis.html) } : null });
}

function CellText({ cell, className }: { cell: Cell; className?: string }) {
  return (
    <>
      <span className={className}>{cell.text}</span>
      {cell.note ? <span className="balance-sheet__note">{cell.note}</span> : null}
    </>
  );
}

function AssetTable({ table, tab }: { table: SheetTable; tab: AssetTab }) {
  const { t } = useTranslation("clients");
  const column = (key: string) => t(`balanceSheet.columns.${tab}.${key}`);
  const captionId = `balance-sheet-${table.kind}-caption`;
  return (
    // A table wider than the screen scrolls on its own: a named region that takes focus, so that
    // keyboard users can scroll it (WCAG 2.1.1; axe's scrollable-region-focusable).
    <TableRegion captionId={captionId}>
      <table className="balance-sheet__table">
        <caption id={captionId}>{table.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{column("description")}</th>
            <th scope="col">{column("type")}</th>
            <th scope="col">{column("detail")}</th>
            <th scope="col" className="numeric">
              {column("value")}
            </th>
            <th scope="col" className="numeric">
              {column("valueOwned")}
            </th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                <CellText cell={row.description} />
              </th>
              <td>
                <CellText cell={row.type} />
              </td>
              <td>
                <CellText cell={row.detail} />
              </td>
              <td className="numeric">
                <CellText cell={row.value} />
              </td>
              <td className="numeric">
                <CellText cell={row.valueOwned} className={row.negative ? "figure--negative" : undefined} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4}>
              {t("balanceSheet.total")}
            </th>
            <td className={`numeric${table.totalNegative ? " figure--negative" : ""}`}>{table.total}</td>
          </tr>
        </tfoot>
      </table>
    </TableRegion>
  );
}

/** The CSV download (decision 208), and what it holds: every member listed, every tab. */
function DownloadLink({ href, members }: { href: string; members: number }) {
  const { t } = useTranslation("clients");
  return (
    <p className="balance-sheet__download">
      <a href={href} className="button button--secondary" download aria-describedby="balance-sheet-download-note">
        {t("balanceSheet.download.csv")}
      </a>
      <span id="balance-sheet-download-note" className="balance-sheet__download-note">
        {t(members > 1 ? "balanceSheet.download.members" : "balanceSheet.download.member")}
      </span>
    </p>
  );
}

function Content({ content }: { content: BalanceSheetPage["content"] }) {
  const { t } = useTranslation("clients");
  if (content.state === "disabled") return <p className="alert alert--info">{t("balanceSheet.disabled")}</p>;
  if (content.state === "error") return <p className="alert alert--error">{t("balanceSheet.error")}</p>;
  if (content.state === "empty") return <p className="alert alert--info">{t("balanceSheet.empty")}</p>;
  if (content.state === "noManaged") return <p className="alert alert--info">{t("balanceSheet.noManaged")}</p>;
  const current = content.tabs.find((entry) => entry.current);
  return (
    <>
      {content.partial ? <p className="alert alert--warning">{t("balanceSheet.partial")}</p> : null}
      <nav className="balance-sheet__tabs" aria-label={t("balanceSheet.tabsLabel")}>
        <ul>
          {content.tabs.map((entry) => (
            <li key={entry.tab}>
              <Link
                to={entry.href}
                className="balance-sheet__tab"
                aria-current={entry.current ? "page" : undefined}
                preventScrollReset
              >
                {entry.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="balance-sheet__panel" aria-labelledby="balance-sheet-tab-heading">
        <h2 id="balance-sheet-tab-heading">{current?.title}</h2>
        {content.tables.map((table) =>
          "empty" in table ? (
            <p key="managed-empty" className="alert alert--info">
              {t("balanceSheet.noManaged")}
            </p>
          ) : (
            <AssetTable key={table.kind} table={table} tab={content.tab} />
          ),
        )}
      </section>
    </>
  );
}

/** spec 001 §2.5: a currency dropdown; it changes the page on its button only (WCAG 3.2.2). */
function CurrencyForm({ currency }: { currency: NonNullable<BalanceSheetPage["currency"]> }) {
  const { t } = useTranslation("clients");
  return (
    <Form method="get" className="balance-sheet__currency" preventScrollReset>
      {Object.entries(currency.hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="balance-sheet-currency">{t("balanceSheet.currency.label")}</label>
      <select
        id="balance-sheet-currency"
        name="currency"
        className="select"
        defaultValue={currency.mode}
        key={currency.mode}
      >
        <option value="report">{t("balanceSheet.currency.report", { currency: currency.preferred })}</option>
        <option value="plan">{t("balanceSheet.currency.plan")}</option>
      </select>
      <button type="submit" className="button button--secondary">
        {t("balanceSheet.currency.show")}
      </button>
    </Form>
  );
}

export default function BalanceSheet() {
  const { page, basis } = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  return (
    <div className="page page--balance-sheet">
      <header className="page__header">
        <h1>{page.heading}</h1>
      </header>
      {page.member ? (
        <div className="balance-sheet__controls">
          {page.members.length > 1 ? (
            <Form method="get" className="balance-sheet__member" preventScrollReset>
              {Object.entries(page.hidden).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <label htmlFor="balance-sheet-member">{t("balanceSheet.member.label")}</label>
              <select
                id="balance-sheet-member"
                name="id"
                className="select"
                defaultValue={String(page.member.id)}
                key={page.member.id}
              >
                {page.members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
              <button type="submit" className="button button--secondary">
                {t("balanceSheet.member.show")}
              </button>
            </Form>
          ) : (
            <p className="balance-sheet__member-name">{page.member.name}</p>
          )}
          {page.views.length > 1 ? (
            <SegmentedLinks
              className="balance-sheet__toggle"
              visibleLabel
              label={t("balanceSheet.views.label")}
              options={page.views.map((v) => ({ href: v.href, text: v.label, current: v.current }))}
            />
          ) : null}
          {page.currency ? <CurrencyForm currency={page.currency} /> : null}
          {page.csv ? <DownloadLink href={page.csv} members={page.members.length} /> : null}
        </div>
      ) : null}
      <Content content={page.content} />
      {basis ? (
        <section aria-labelledby="basis-heading" className="home-section basis-of-valuation">
          <h2 id="basis-heading">{basis.title}</h2>
          <div className="text-page" dangerouslySetInnerHTML={{ __html: basis.html }} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.page.heading} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
