import { getFormProps, useForm } from "@conform-to/react";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { useBrowserValidation } from "~/components/browser-validation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FailureAlert, Field, FieldError, summaryErrors } from "~/components/forms";
import {
  ariaSortOf,
  captionOf,
  CLIENT_LIST_PAGE_SIZE,
  clientListHref,
  DEFAULT_SORT,
  dateRulesFor,
  nextSort,
  PORTAL_VIEWS,
  type PortalView,
  portalViewOf,
  type SortColumn,
} from "~/lib/client-search";
import pagesStyles from "~/styles/pages.css";
import { TableRegion } from "~/components/table-region";
import type { action, ClientRow, loader } from "./list.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Adviser client list" (heading 'Your Clients'), §4 "Adviser client list flow" and
// "Preview access", §5 "Client search"; docs/decisions/031 and 032.

export const handle = { i18n: ["advisers"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pagesStyles }];

// The data comes from the server only: the browser's build empties list.server.ts (one empty module
// rather than one per server module the loader and action use).
export { action, loader } from "./list.server";

/**
 * The page's top: the error summaries above the h1 (GOV.UK's pattern), the h1, and the search
 * form. A new search (or the back button) mounts it afresh, and the form starts from the URL.
 */
function SearchArea() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("advisers");
  const hydrated = useHydrated();
  const validation = useBrowserValidation(
    () => import("~/lib/client-search-schemas").then((m) => m.createClientSearchSchema(dateRulesFor(data.locale))),
    {},
    [data.locale],
  );
  const [form, fields] = useForm({
    id: "client-search",
    lastResult: data.result,
    defaultValue: data.values,
    ...validation.form,
  });
  const pattern = dateRulesFor(data.locale).pattern;
  // conventions "Forms": disabled only when JavaScript runs and the changed form is invalid.
  const disabled = hydrated && form.dirty && !form.valid;
  const rowError = actionData?.rowError;
  return (
    <>
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.name, fields.dob, fields.postcode])} />
      {rowError ? (
        <ErrorSummary
          formId={`open-${rowError.clientId}`}
          errors={[{ fieldId: `view-${rowError.clientId}`, message: rowError.message }]}
        />
      ) : null}
      <h1>{t("clientList.title")}</h1>
      <p className="page__intro">{t("clientList.intro")}</p>
      <Form
        method="get"
        {...getFormProps(form)}
        className="search-form"
        role="search"
        aria-label={t("clientList.searchLabel")}
      >
        <div className="search-form__fields">
          <Field meta={fields.name} label={t("clientList.name")} autoComplete="off" />
          <Field
            meta={fields.dob}
            label={t("clientList.dob")}
            hint={t("clientList.dobHint", { format: pattern })}
            autoComplete="off"
            inputMode="numeric"
          />
          <Field meta={fields.postcode} label={t("clientList.postcode")} autoComplete="off" />
        </div>
        {data.sort !== DEFAULT_SORT ? <input type="hidden" name="sort" value={data.sort} /> : null}
        <button type="submit" className="button" disabled={disabled}>
          {t("clientList.search")}
        </button>
      </Form>
    </>
  );
}

function SortHeader({ column, label }: { column: SortColumn; label: string }) {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("advisers");
  const current = ariaSortOf(data.sort, column);
  const next = nextSort(data.sort, column);
  const href = clientListHref({ ...data.values, sort: next, pages: 1 });
  return (
    <th scope="col" aria-sort={current}>
      <Link to={href} className="sort-link" preventScrollReset>
        {label}
        <span className="visually-hidden">
          , {t(next.startsWith("-") ? "clientList.sort.descending" : "clientList.sort.ascending")}
        </span>
        <span className="sort-link__icon" aria-hidden="true">
          {current === "ascending" ? "▲" : current === "descending" ? "▼" : "↕"}
        </span>
      </Link>
    </th>
  );
}

function ClientRowView({ row, index, rowError }: { row: ClientRow; index: number; rowError: string | null }) {
  const { t } = useTranslation("advisers");
  const location = useLocation();
  const hydrated = useHydrated();
  // A client without a login has no view of their own: 'No client access' until a view is chosen
  // for a preview (spec 002 "Portal view dropdown").
  const initial: PortalView | "" = row.hasLogin ? portalViewOf(row.own) : "";
  const [view, setView] = useState<PortalView | "">(initial);
  const formId = `open-${row.id}`;
  const selectId = `view-${row.id}`;
  const errorId = `${selectId}-error`;
  const notSupplied = <span className="table__empty">{t("clientList.notSupplied")}</span>;
  return (
    <tr>
      <th scope="row" id={`row-${index + 1}`} tabIndex={-1}>
        {row.name}
      </th>
      <td className="table__email">{row.email ?? notSupplied}</td>
      <td>{row.dob ?? notSupplied}</td>
      <td>{row.postcode ?? notSupplied}</td>
      <td>
        <label htmlFor={selectId} className="visually-hidden">
          {t("clientList.viewLabel", { name: row.name })}
        </label>
        <FieldError id={errorId} errors={[rowError]} />
        <select
          id={selectId}
          name="view"
          form={formId}
          className="select"
          value={view}
          onChange={(event) => setView(event.currentTarget.value as PortalView | "")}
          aria-invalid={rowError ? true : undefined}
          aria-describedby={rowError ? errorId : undefined}
        >
          {row.hasLogin ? null : <option value="">{t("clientList.noClientAccess")}</option>}
          {PORTAL_VIEWS.map((v) => (
            <option key={v} value={v}>
              {t(`clientList.views.${v}`)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <Form method="post" id={formId} className="open-form">
          <AuthenticityTokenInput />
          <input type="hidden" name="clientId" value={row.id} />
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
          <input type="hidden" name="own" value={row.own} />
          <button type="submit" className="button button--secondary button--small" disabled={hydrated && view === ""}>
            {t("clientList.open")}
            <span className="visually-hidden"> {row.name}</span>
            <span aria-hidden="true" className="button__chevron">
              ›
            </span>
          </button>
        </Form>
      </td>
    </tr>
  );
}

function Results() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("advisers");
  const location = useLocation();
  const results = data.results;

  // 'Load more...' links to the first new row (#row-21): the browser scrolls to it; with
  // JavaScript it also takes focus, so keyboard and screen-reader users continue from there, and a
  // status says how many rows there are now (as a page of its own would by its caption).
  const loadedMore = /^#row-\d+$/.test(location.hash);
  useEffect(() => {
    if (!/^#row-\d+$/.test(location.hash)) return;
    document.getElementById(location.hash.slice(1))?.focus();
  }, [location.key, location.hash]);

  if (!results) return null;
  if (results.rows.length === 0) {
    return (
      <p className="alert alert--info" role="status">
        {t("clientList.noResults")}
      </p>
    );
  }
  const caption = captionOf(results.rows.length, results.hasMore);
  const rowError = actionData?.rowError ?? null;
  const moreHref = clientListHref(
    { ...data.values, sort: data.sort, pages: data.pages + 1 },
    `row-${data.pages * CLIENT_LIST_PAGE_SIZE + 1}`,
  );
  return (
    <div className="client-list">
      <p className="client-list__note">{t("clientList.previewNote")}</p>
      <p role="status" className="visually-hidden">
        {loadedMore ? t("clientList.shown", { count: results.rows.length }) : ""}
      </p>
      {/* the columns scroll inside their own region on a phone, named by the caption (decision 117) */}
      <TableRegion captionId="client-list-caption">
        <table className="table client-table">
          <caption id="client-list-caption" className="table__caption">
            {t(caption.key, { count: caption.count })}
          </caption>
          <thead>
            <tr>
              <SortHeader column="name" label={t("clientList.columns.name")} />
              <th scope="col">{t("clientList.columns.email")}</th>
              <SortHeader column="dob" label={t("clientList.columns.dob")} />
              <th scope="col">{t("clientList.columns.postcode")}</th>
              <th scope="col">{t("clientList.columns.view")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("clientList.columns.open")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {results.rows.map((row, index) => (
              <ClientRowView
                key={row.id}
                row={row}
                index={index}
                rowError={rowError?.clientId === row.id ? rowError.message : null}
              />
            ))}
          </tbody>
        </table>
      </TableRegion>
      {results.hasMore ? (
        <p className="client-list__more">
          <Link to={moreHref} className="button button--secondary" preventScrollReset>
            {t("clientList.loadMore")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

export default function ClientList() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A new search (or the back button) starts the form afresh from the URL.
  const formKey = `${data.values.name}\u0000${data.values.dob}\u0000${data.values.postcode}`;
  return (
    <div className="page page--client-list">
      <SearchArea key={formKey} />
      <FailureAlert failure={actionData?.failure} />
      <Results />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
