// spec 001 §2.2, §4 "Date range selection", §5 "Custom date range": the date range. With
// JavaScript a 'Filter options' dialog with Apply and Cancel; without it the same controls in a
// section of the page that opens on demand, a plain GET form (docs/decisions/093-analysis-page.md).
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { ErrorSummary } from "~/components/error-summary";
import { checkCustomRange, type DateError, type DateRangeName } from "~/lib/date-range";
import type { DateRangeView } from "./analysis.server";
import { analysisParams, type AnalysisQuery } from "~/lib/analysis/query";

const ERROR_KEYS: Record<DateError, string> = {
  required: "clients:analysis.range.errors.required",
  invalidFormat: "clients:analysis.range.errors.invalidFormat",
  startAfterEnd: "clients:analysis.range.errors.startAfterEnd",
};

/** The other parts of the view, carried through the form so that only the dates change. */
function HiddenQuery({ query }: { query: AnalysisQuery }) {
  const params = analysisParams({ ...query, range: "1Y", from: "", to: "" });
  return (
    <>
      {[...params].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function DateInput({ name, label, hint, value, error, onChange, onBlur }: {
  name: "from" | "to";
  label: string;
  hint: string;
  value: string;
  error: DateError | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const { t } = useTranslation("clients");
  const id = `analysis-range-${name}`;
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          <span className="visually-hidden">{t("common:form.errorPrefix")} </span>
          {t(ERROR_KEYS[error])}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        className="field__input field__input--date"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
      />
    </div>
  );
}

function RangeFields({ range, query, showAllErrors, onValidity }: {
  range: DateRangeView;
  query: AnalysisQuery;
  /** The server's answer to a submitted range, or the user's Apply: every message shows. */
  showAllErrors: boolean;
  onValidity?: (valid: boolean) => void;
}) {
  const { t } = useTranslation("clients");
  const [name, setName] = useState<DateRangeName>(range.name);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [touched, setTouched] = useState({ from: false, to: false });
  const hydrated = useHydrated();
  // without JavaScript (and before it runs) the server's messages; then the browser's own, as the user types
  const check = checkCustomRange(from, to);
  const live = name === "custom" && !check.ok ? check.errors : {};
  const errors = hydrated ? { from: touched.from || showAllErrors ? live.from : undefined, to: touched.to || showAllErrors ? live.to : undefined } : range.errors;
  const valid = name !== "custom" || check.ok;
  useEffect(() => onValidity?.(valid), [valid, onValidity]);
  const hint = t("analysis.range.dateHint");
  return (
    <>
      <HiddenQuery query={query} />
      <fieldset className="range-options">
        <legend className="range-options__legend">{t("analysis.range.legend")}</legend>
        {range.options.map((option) => (
          <div key={option.name} className="radio">
            <input
              id={`analysis-range-${option.name}`}
              type="radio"
              name="range"
              value={option.name}
              checked={name === option.name}
              disabled={option.disabled}
              onChange={() => setName(option.name)}
            />
            <label htmlFor={`analysis-range-${option.name}`}>{option.label}</label>
          </div>
        ))}
      </fieldset>
      <fieldset className="custom-dates" hidden={hydrated && name !== "custom"}>
        <legend className="custom-dates__legend">{t("analysis.range.customLegend")}</legend>
        <DateInput
          name="from"
          label={t("analysis.range.from")}
          hint={range.earliest ? t("analysis.range.fromHint", { date: range.earliest }) : hint}
          value={from}
          error={errors.from}
          onChange={setFrom}
          onBlur={() => setTouched((s) => ({ ...s, from: true }))}
        />
        <DateInput
          name="to"
          label={t("analysis.range.to")}
          hint={hint}
          value={to}
          error={errors.to}
          onChange={setTo}
          onBlur={() => setTouched((s) => ({ ...s, to: true }))}
        />
      </fieldset>
    </>
  );
}

export function FilterOptions({ range, query, period }: { range: DateRangeView; query: AnalysisQuery; period: string | null }) {
  const { t } = useTranslation("clients");
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [valid, setValid] = useState(true);
  const serverErrors = Boolean(range.errors.from || range.errors.to);
  const summary = [
    ...(range.errors.from ? [{ fieldId: "analysis-range-from", message: ERROR_KEYS[range.errors.from] }] : []),
    ...(range.errors.to ? [{ fieldId: "analysis-range-to", message: ERROR_KEYS[range.errors.to] }] : []),
  ];
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
  }, [open]);

  const current = (
    <p className="range-summary">
      <span className="range-summary__label">{t("analysis.range.current")}</span> <strong>{range.label}</strong>
      {period ? <span className="range-summary__period"> ({period})</span> : null}
    </p>
  );

  if (!hydrated || serverErrors) {
    // no JavaScript (or a submitted range the server refused): an in-page section, a GET form
    return (
      <section className="filter-options" aria-labelledby="filter-options-heading">
        {current}
        <details className="filter-options__details" open={serverErrors || undefined}>
          <summary id="filter-options-heading" className="button button--secondary">
            {t("analysis.range.open")}
          </summary>
          <Form method="get" className="filter-options__form" noValidate>
            <ErrorSummary errors={summary} />
            <RangeFields range={range} query={query} showAllErrors />
            <div className="form-actions">
              <button type="submit" className="button">
                {t("analysis.range.apply")}
              </button>
            </div>
          </Form>
        </details>
      </section>
    );
  }

  return (
    <section className="filter-options" aria-label={t("analysis.range.open")}>
      {current}
      <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t("analysis.range.open")}
      </button>
      {open ? (
        <dialog ref={dialog} className="filter-dialog" aria-labelledby="filter-dialog-heading" onClose={() => setOpen(false)}>
          <h2 id="filter-dialog-heading">{t("analysis.range.open")}</h2>
          <Form method="get" className="filter-options__form" noValidate onSubmit={() => dialog.current?.close()}>
            <RangeFields range={range} query={query} showAllErrors={false} onValidity={setValid} />
            <div className="form-actions">
              <button type="submit" className="button" disabled={!valid}>
                {t("analysis.range.apply")}
              </button>
              <button type="button" className="button button--secondary" onClick={() => dialog.current?.close()}>
                {t("analysis.range.cancel")}
              </button>
            </div>
          </Form>
        </dialog>
      ) : null}
    </section>
  );
}
