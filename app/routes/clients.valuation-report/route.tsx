import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DateField } from "~/components/date-field";
import { ErrorSummary, FieldError, type SummaryError } from "~/components/error-summary";
import { FailureAlert } from "~/components/error-summary";
import type { Failure } from "~/lib/error-catalogue";
import { PERIODS, type ReportInput } from "~/lib/valuation-report";
import { readForm } from "~/session/csrf.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { type Option, reportAction, reportLoader, type ReportForm } from "./report.server";
import reportStyles from "./report.css";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Valuation report page" (docs/decisions/099-valuation-reports.md): choose a template,
// what it covers and its dates, then run it; a client without templates runs the one report.

export const handle = { i18n: ["reports"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];

async function args(request: Request) {
  const context = await requireClientContext(request);
  // spec 002 §6: the valuation page needs site access level Assets or Portfolio
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "reports")]);
  return {
    request,
    planning: context.planning,
    clientId: context.entityId,
    isAdviser: context.isAdviser,
    timeZone: context.user.userTimezone,
    locale,
    t,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  return reportLoader(await args(request));
}

export async function action({ request }: ActionFunctionArgs) {
  const a = await args(request);
  return reportAction({ ...a, form: await readForm(request) });
}

type ActionData = {
  errors?: Partial<Record<keyof ReportInput, string>>;
  values?: ReportInput | null;
  failure?: Failure | null;
};

/** A labelled select with its error beside it; `children` are its options. */
function SelectField({
  id,
  label,
  value,
  error,
  children,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className={error ? "field field--error" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <FieldError id={`${id}-error`} errors={[error]} />
      <select
        id={id}
        name={id}
        className="select"
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {children}
      </select>
    </div>
  );
}

function Options({ options }: { options: Option[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value} lang={o.lang}>
      {o.label}
    </option>
  ));
}

function Select({
  id,
  label,
  options,
  value,
  error,
  placeholder,
}: {
  id: keyof ReportInput;
  label: string;
  options: Option[];
  value: string;
  error?: string;
  placeholder?: string;
}) {
  return (
    <SelectField id={id} label={label} value={value} error={error}>
      {placeholder ? <option value="">{placeholder}</option> : null}
      <Options options={options} />
    </SelectField>
  );
}

function TemplateChooser({ form }: { form: ReportForm }) {
  const { t } = useTranslation("reports");
  const hydrated = useHydrated();
  const submit = useSubmit();
  const chooser = useRef<HTMLFormElement>(null);
  const send = (chosen: HTMLFormElement) => submit(chosen, { replace: true, preventScrollReset: true });
  // A report chosen before the scripts ran, while 'Choose report' was there to send it, is sent as
  // they take the page over (that button goes with them): the choice is not left unsent. A change
  // the scripts see is sent at once, even in the moment before the page counts as theirs
  // (`hydrated` turns true a render later, and the button is still there): decision 217.
  const rendered = form.values.template;
  useEffect(() => {
    const chosen = chooser.current;
    const select = chosen?.elements.namedItem("template");
    if (chosen && select instanceof HTMLSelectElement && select.value !== rendered) send(chosen);
    // once, when the scripts arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Form ref={chooser} method="get" className="report-chooser" onChange={(event) => send(event.currentTarget)}>
      <Select
        id="template"
        label={t("form.template")}
        options={form.templates}
        value={form.values.template}
        placeholder={form.template ? undefined : t("form.templatePlaceholder")}
      />
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {t("form.choose")}
        </button>
      )}
    </Form>
  );
}

type Errors = NonNullable<ActionData["errors"]>;

/** 'Account Group Or Account': one select with the groups and the accounts apart. */
function GroupOrAccountSelect({ form, value, error }: { form: ReportForm; value: string; error: string | undefined }) {
  const { t } = useTranslation("reports");
  return (
    <SelectField id="selection" label={t("form.groupOrAccount")} value={value} error={error}>
      <option value="">{t("form.selectPlaceholder")}</option>
      <optgroup label={t("form.groups")}>
        <Options options={form.groups} />
      </optgroup>
      <optgroup label={t("form.accounts")}>
        <Options options={form.accounts} />
      </optgroup>
    </SelectField>
  );
}

/** 'Date Range': the periods, and From and To for a custom one (always shown without JavaScript). */
function PeriodFields({ values, errors }: { values: ReportForm["values"]; errors: Errors }) {
  const { t } = useTranslation("reports");
  const hydrated = useHydrated();
  const [period, setPeriod] = useState(values.period);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  // a period chosen before the scripts ran is the one they start from (its dates stay shown)
  useEffect(() => {
    const checked = fieldset.current?.querySelector<HTMLInputElement>("input[name='period']:checked");
    if (checked) setPeriod(checked.value as (typeof PERIODS)[number]);
  }, []);
  return (
    <fieldset className="report-period" ref={fieldset}>
      <legend>{t("form.period")}</legend>
      {PERIODS.map((p) => (
        <div className="radio" key={p}>
          <input
            id={`period-${p}`}
            type="radio"
            name="period"
            value={p}
            defaultChecked={values.period === p}
            onChange={() => setPeriod(p)}
          />
          <label htmlFor={`period-${p}`}>{t(`form.periods.${p}`)}</label>
        </div>
      ))}
      {!hydrated || period === "custom" ? (
        <div className="report-period__custom">
          {!hydrated ? <p className="hint">{t("form.customHint")}</p> : null}
          <DateField
            id="from"
            name="from"
            label={t("form.from")}
            hint={t("form.dateHint")}
            defaultValue={values.from}
            error={errors.from}
          />
          <DateField
            id="to"
            name="to"
            label={t("form.to")}
            hint={t("form.dateHint")}
            defaultValue={values.to}
            error={errors.to}
          />
        </div>
      ) : null}
    </fieldset>
  );
}

function RunForm({ form, data }: { form: ReportForm; data: ActionData | undefined }) {
  const { t } = useTranslation("reports");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const template = form.template!;
  const values = data?.values ?? form.values;
  const errors = data?.errors ?? {};
  return (
    <Form method="post" className="report-form" noValidate>
      <FailureAlert failure={data?.failure} />
      <AuthenticityTokenInput />
      <input type="hidden" name="template" value={template.value} />
      {template.requiredSelector === "Select Entity" ? (
        <Select
          id="entity"
          label={t("form.entity")}
          options={form.members}
          value={values.entity || form.members[0]?.value || ""}
          error={errors.entity}
        />
      ) : null}
      {template.requiredSelector === "Account Group" ? (
        <Select
          id="selection"
          label={t("form.group")}
          options={form.groups}
          value={values.selection}
          error={errors.selection}
          placeholder={t("form.selectPlaceholder")}
        />
      ) : null}
      {template.requiredSelector === "Account Group Or Account" ? (
        <GroupOrAccountSelect form={form} value={values.selection} error={errors.selection} />
      ) : null}
      {template.dateParameters === "Single Date" ? (
        <DateField
          id="asAt"
          name="asAt"
          label={t("form.asAt")}
          hint={t("form.dateHint")}
          defaultValue={values.asAt}
          error={errors.asAt}
        />
      ) : null}
      {template.dateParameters === "Date Range" ? <PeriodFields values={values} errors={errors} /> : null}
      <div className="form-actions">
        <button type="submit" name="intent" value="run" className="button" disabled={busy}>
          {t("form.run")}
        </button>
      </div>
    </Form>
  );
}

/** The error summary of the report's form, above the page's h1 (GOV.UK's pattern). */
function reportSummary(errors: ActionData["errors"]): SummaryError[] {
  return (["entity", "selection", "asAt", "from", "to"] as const)
    .filter((f) => errors?.[f])
    .map((f) => ({ fieldId: f, message: errors![f]! }));
}

export default function ValuationReport() {
  const { form } = useLoaderData<typeof loader>() as unknown as { form: ReportForm };
  const data = useActionData<typeof action>() as ActionData | undefined;
  const { t } = useTranslation("reports");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <article className="report-page">
      {form.template ? <ErrorSummary errors={reportSummary(data?.errors)} /> : null}
      <h1>{t("title")}</h1>
      <p>{t("intro")}</p>
      {form.templates.length === 0 ? (
        <Form method="post" className="report-form">
          <FailureAlert failure={data?.failure} />
          <AuthenticityTokenInput />
          <p>{t("single.text")}</p>
          <button type="submit" name="intent" value="run-default" className="button" disabled={busy}>
            {t("single.run")}
          </button>
        </Form>
      ) : (
        <>
          <TemplateChooser form={form} />
          {form.template ? <RunForm key={form.template.value} form={form} data={data} /> : null}
        </>
      )}
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return [{ title: title ? `${title} – Client Online` : errorPageTitle(error, matches) }];
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
