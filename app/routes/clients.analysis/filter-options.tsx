// spec 001 §2.2, §4 "Date range selection", §5 "Custom date range": the date range. With
// JavaScript a 'Filter options' dialog with Apply and Cancel; without it the same controls in a
// section of the page that opens on demand, a plain GET form (docs/decisions/093-analysis-page.md).
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { DateField } from "~/components/date-field";
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

function RangeFields({ range, query, showAllErrors, onValidity }: {
  range: DateRangeView;
  query: AnalysisQuery;
  /**
   * The server's answer to a submitted range, or the user's Apply: the messages show, and follow
   * what the user types from then on (issue 25 items 1 and 10: never on leaving a field).
   */
  showAllErrors: boolean;
  onValidity?: (valid: boolean) => void;
}) {
  const { t } = useTranslation("clients");
  const [name, setName] = useState<DateRangeName>(range.name);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const hydrated = useHydrated();
  // without JavaScript (and before it runs) the server's messages; then the browser's own
  const check = checkCustomRange(from, to);
  const live = name === "custom" && !check.ok ? check.errors : {};
  const errors = hydrated ? (showAllErrors ? live : {}) : range.errors;
  const valid = name !== "custom" || check.ok;
  useEffect(() => onValidity?.(valid), [valid, onValidity]);
  const hint = t("analysis.range.dateHint");
  const summary = [
    ...(errors.from ? [{ fieldId: "analysis-range-from", message: ERROR_KEYS[errors.from] }] : []),
    ...(errors.to ? [{ fieldId: "analysis-range-to", message: ERROR_KEYS[errors.to] }] : []),
  ];
  return (
    <>
      <ErrorSummary errors={summary} />
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
        <DateField
          id="analysis-range-from"
          name="from"
          label={t("analysis.range.from")}
          hint={range.earliest ? t("analysis.range.fromHint", { date: range.earliest }) : hint}
          value={from}
          error={errors.from ? ERROR_KEYS[errors.from] : null}
          onChange={setFrom}
        />
        <DateField
          id="analysis-range-to"
          name="to"
          label={t("analysis.range.to")}
          hint={hint}
          value={to}
          error={errors.to ? ERROR_KEYS[errors.to] : null}
          onChange={setTo}
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
  // Apply pressed while the dates were invalid: the messages show until the dialog closes
  const [applied, setApplied] = useState(false);
  const serverErrors = Boolean(range.errors.from || range.errors.to);
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
        <dialog
          ref={dialog}
          className="filter-dialog"
          aria-labelledby="filter-dialog-heading"
          onClose={() => {
            setOpen(false);
            setApplied(false);
          }}
        >
          <h2 id="filter-dialog-heading">{t("analysis.range.open")}</h2>
          <Form
            method="get"
            className="filter-options__form"
            noValidate
            onSubmit={(event) => {
              // spec 001 §4 has Apply disabled while the dates are invalid; it stays enabled and
              // says why instead (issue 25 item 10, docs/decisions/116-form-errors-after-a-submit.md)
              if (!valid) {
                event.preventDefault();
                setApplied(true);
                return;
              }
              dialog.current?.close();
            }}
          >
            <RangeFields range={range} query={query} showAllErrors={applied} onValidity={setValid} />
            <div className="form-actions">
              <button type="submit" className="button">
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
