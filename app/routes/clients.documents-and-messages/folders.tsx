import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { ErrorSummary, type SummaryError } from "~/components/error-summary";
import { DateField } from "~/components/date-field";
import { DEFAULT_MESSAGE_SORT, MESSAGES_PATH } from "~/lib/messages/query";
import type { MessagesView } from "./view.server";

// spec 002 "Documents and messages page" layout: the folders with their unread counts, 'Show
// messages for', sort, document type, subject search and the created-date range (§5). Links and
// GET forms: every choice is a URL, and all of it works without JavaScript.

export function FolderNav({ folders }: { folders: MessagesView["folders"] }) {
  const { t } = useTranslation("messages");
  return (
    <nav className="message-folders" aria-label={t("folders.label")}>
      <ul className="message-folders__list">
        {folders.map((f) => (
          <li key={f.key}>
            <Link to={f.href} className="message-folders__link" aria-current={f.current ? "page" : undefined}>
              <span className="message-folders__name" lang={f.lang ?? undefined}>
                {f.name}
              </span>
              {f.unread ? (
                <span className="message-folders__count">
                  {" "}
                  {f.unread}
                  <span className="visually-hidden"> {t("folders.unread")}</span>
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** spec 002 §4: changing the entity starts again at the received folder (nothing else is carried). */
export function EntityFilterForm({
  filter,
  sort,
}: {
  filter: NonNullable<MessagesView["entityFilter"]>;
  sort: string;
}) {
  const { t } = useTranslation("messages");
  return (
    <Form method="get" action={MESSAGES_PATH} className="message-filter message-filter--entity">
      {sort !== DEFAULT_MESSAGE_SORT ? <input type="hidden" name="sort" value={sort} /> : null}
      <div className="field">
        <label htmlFor="message-entity" className="field__label">
          {t("entity.label")}
        </label>
        <select id="message-entity" name="entity" className="select" defaultValue={String(filter.selected)}>
          {filter.options.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button--secondary button--small">
        {t("entity.submit")}
      </button>
    </Form>
  );
}

const DATE_FIELDS = [
  { name: "from", id: "message-from", label: "dates.from" },
  { name: "to", id: "message-to", label: "dates.to" },
] as const;

/**
 * spec 002 §5 "Date range pickers": 'From' and 'To', the portal's one date field (DD-MM-YYYY; a
 * typed yyyy-MM-dd is taken too: issue 25 item 18, docs/decisions/116). The form is a GET, so the
 * loader checks them: each error shows beside its field and in the summary, and what was given
 * stays in the inputs.
 */
function DateRangeFields({ filter }: { filter: MessagesView["dateFilter"] }) {
  const { t } = useTranslation("messages");
  return (
    <fieldset className="message-filter__dates">
      <legend className="field__label">{t("dates.legend")}</legend>
      {DATE_FIELDS.map((f) => (
        <DateField
          key={f.name}
          id={f.id}
          name={f.name}
          label={t(f.label)}
          hint={t("dates.hint")}
          error={filter.errors[f.name]}
          defaultValue={filter[f.name]}
        />
      ))}
    </fieldset>
  );
}

/** The list filter's error summary, above the page's h1 (GOV.UK's pattern): the dates it cannot read. */
export function ListFilterSummary({ view }: { view: MessagesView }) {
  const errors: SummaryError[] = DATE_FIELDS.flatMap((f) => {
    const message = view.dateFilter.errors[f.name];
    return message ? [{ fieldId: f.id, message }] : [];
  });
  return <ErrorSummary formId="message-filter" errors={errors} />;
}

export function ListFilterForm({ view }: { view: MessagesView }) {
  const { t } = useTranslation("messages");
  const { query } = view;
  return (
    <Form
      method="get"
      action={MESSAGES_PATH}
      id="message-filter"
      className="message-filter"
      role="search"
      aria-label={t("filters.label")}
    >
      {query.folder !== "inbox" ? <input type="hidden" name="folder" value={query.folder} /> : null}
      {query.entity !== null ? <input type="hidden" name="entity" value={String(query.entity)} /> : null}
      <div className="field">
        <label htmlFor="message-sort" className="field__label">
          {t("sort.label")}
        </label>
        <select id="message-sort" name="sort" className="select" defaultValue={query.sort}>
          {view.sortOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {view.typeFilter ? (
        <div className="field">
          <label htmlFor="message-type" className="field__label">
            {t("type.label")}
          </label>
          <select id="message-type" name="type" className="select" defaultValue={view.typeFilter.selected ?? ""}>
            <option value="">{t("type.all")}</option>
            {view.typeFilter.options.map((o) => (
              <option key={o.code} value={o.code} lang={o.lang ?? undefined}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="message-search" className="field__label">
          {t("search.label")}
        </label>
        <input
          id="message-search"
          name="search"
          type="search"
          className="field__input"
          placeholder={t("search.placeholder")}
          defaultValue={query.search}
          maxLength={255}
          autoComplete="off"
        />
      </div>
      <DateRangeFields filter={view.dateFilter} />
      <button type="submit" className="button button--secondary">
        {t("filters.apply")}
      </button>
    </Form>
  );
}
