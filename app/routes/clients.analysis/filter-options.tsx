// spec 001 §2.2, §4 "Date range selection", §5 "Custom date range": the date range. With
// JavaScript a 'Filter options' dialog with Apply and Cancel; without it the same controls in a
// section of the page that opens on demand, a plain GET form (docs/decisions/093-analysis-page.md).
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";
import { DateField } from "~/components/date-field";
import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { checkCustomRange, type DateError, type DateRangeName, parseDisplayDate } from "~/lib/date-range";
import type { DateRangeView } from "./analysis.server";
import { analysisParams, type AnalysisQuery } from "~/lib/analysis/query";

const ERROR_KEYS: Record<DateError, string> = {
  required: "clients:analysis.range.errors.required",
  invalidFormat: "clients:analysis.range.errors.invalidFormat",
  startAfterEnd: "clients:analysis.range.errors.startAfterEnd",
  beforeInception: "clients:analysis.range.errors.beforeInception",
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

/** The range's form (the dialog's or the page section's: one at a time), whose submit the summary answers. */
export const RANGE_FORM_ID = "filter-options-form";

type RangeErrors = Partial<Record<"from" | "to", DateError>>;

/**
 * The error summary's entries for the dates' problems: the page shows them above its h1 (GOV.UK's
 * pattern) for a submitted range the server refused. The dialog's Apply cannot be pressed while a
 * date is wrong, so it has no summary: the reason beside Apply says what is wrong.
 */
export function rangeSummary(errors: RangeErrors) {
  return [
    ...(errors.from ? [{ fieldId: "analysis-range-from", message: ERROR_KEYS[errors.from] }] : []),
    ...(errors.to ? [{ fieldId: "analysis-range-to", message: ERROR_KEYS[errors.to] }] : []),
  ];
}

/** The named ranges, one radio each (some disabled when the data does not reach back so far). */
function RangeOptions({
  options,
  name,
  onName,
}: {
  options: DateRangeView["options"];
  name: DateRangeName;
  onName: (name: DateRangeName) => void;
}) {
  const { t } = useTranslation("clients");
  return (
    <fieldset className="range-options">
      <legend className="range-options__legend">{t("analysis.range.legend")}</legend>
      {options.map((option) => (
        <div key={option.name} className="radio">
          <input
            id={`analysis-range-${option.name}`}
            type="radio"
            name="range"
            value={option.name}
            checked={name === option.name}
            disabled={option.disabled}
            onChange={() => onName(option.name)}
          />
          <label htmlFor={`analysis-range-${option.name}`}>{option.label}</label>
        </div>
      ))}
    </fieldset>
  );
}

function RangeFields({
  range,
  query,
  showAllErrors,
  onCheck,
}: {
  range: DateRangeView;
  query: AnalysisQuery;
  /**
   * The server's answer to a submitted range: every message shows. Otherwise a field's message
   * shows once the user has typed in it and follows what they type, never on leaving a field
   * (issue 25 items 1 and 10).
   */
  showAllErrors: boolean;
  /** The custom dates' problems as the user types (none when valid or not custom). */
  onCheck?: (errors: RangeErrors) => void;
}) {
  const { t } = useTranslation("clients");
  const [name, setName] = useState<DateRangeName>(range.name);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [typedIn, setTypedIn] = useState<{ from?: boolean; to?: boolean }>({});
  const hydrated = useHydrated();
  // without JavaScript (and before it runs) the server's messages; then the browser's own
  const check = checkCustomRange(from, to, range.earliest ? parseDisplayDate(range.earliest) : null);
  const live: RangeErrors = name === "custom" && !check.ok ? check.errors : {};
  const shown: RangeErrors = {
    ...(typedIn.from && live.from ? { from: live.from } : {}),
    ...(typedIn.to && live.to ? { to: live.to } : {}),
  };
  const errors = hydrated ? (showAllErrors ? live : shown) : range.errors;
  const liveKey = `${live.from ?? ""}|${live.to ?? ""}`;
  useEffect(() => {
    const [fromError, toError] = liveKey.split("|") as [DateError | "", DateError | ""];
    onCheck?.({ ...(fromError ? { from: fromError } : {}), ...(toError ? { to: toError } : {}) });
  }, [liveKey, onCheck]);
  const hint = t("analysis.range.dateHint");
  const typed = (field: "from" | "to", value: string) => {
    (field === "from" ? setFrom : setTo)(value);
    setTypedIn((typedIn) => ({ ...typedIn, [field]: true }));
  };
  return (
    <>
      <HiddenQuery query={query} />
      <RangeOptions options={range.options} name={name} onName={setName} />
      <fieldset className="custom-dates" hidden={hydrated && name !== "custom"}>
        <legend className="custom-dates__legend">{t("analysis.range.customLegend")}</legend>
        <DateField
          id="analysis-range-from"
          name="from"
          label={t("analysis.range.from")}
          hint={range.earliest ? t("analysis.range.fromHint", { date: range.earliest }) : hint}
          value={from}
          error={errors.from ? ERROR_KEYS[errors.from] : null}
          onChange={(value) => typed("from", value)}
        />
        <DateField
          id="analysis-range-to"
          name="to"
          label={t("analysis.range.to")}
          hint={hint}
          value={to}
          error={errors.to ? ERROR_KEYS[errors.to] : null}
          onChange={(value) => typed("to", value)}
        />
      </fieldset>
    </>
  );
}

/** The range shown, and its period when it has one. */
function CurrentRange({ label, period }: { label: string; period: string | null }) {
  const { t } = useTranslation("clients");
  return (
    <p className="range-summary">
      <span className="range-summary__label">{t("analysis.range.current")}</span> <strong>{label}</strong>
      {period ? <span className="range-summary__period"> ({period})</span> : null}
    </p>
  );
}

/** What Apply's reason says: each date's problem. */
function applyReasonOf(t: (key: string, options?: Record<string, unknown>) => string, problems: RangeErrors) {
  return t("analysis.range.applyReason", {
    problems: [
      ...(problems.from ? [`${t("analysis.range.from")}: ${t(ERROR_KEYS[problems.from])}`] : []),
      ...(problems.to ? [`${t("analysis.range.to")}: ${t(ERROR_KEYS[problems.to])}`] : []),
    ].join(" "),
  });
}

/** With JavaScript: the options in a modal dialog; Apply is disabled while a date is wrong. */
function FilterDialog({
  range,
  query,
  onClosed,
}: {
  range: DateRangeView;
  query: AnalysisQuery;
  onClosed: () => void;
}) {
  const { t } = useTranslation("clients");
  const dialog = useRef<HTMLDialogElement>(null);
  const [problems, setProblems] = useState<RangeErrors>({});
  const invalid = Boolean(problems.from || problems.to);
  const applyReason = invalid ? applyReasonOf(t, problems) : null;
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="filter-dialog" aria-labelledby="filter-dialog-heading" onClose={onClosed}>
      <h2 id="filter-dialog-heading">{t("analysis.range.open")}</h2>
      <Form
        method="get"
        id={RANGE_FORM_ID}
        className="filter-options__form"
        noValidate
        onSubmit={(event) => {
          if (invalid) {
            event.preventDefault();
            return;
          }
          dialog.current?.close();
        }}
      >
        <RangeFields range={range} query={query} showAllErrors={false} onCheck={setProblems} />
        <div className="form-actions">
          {/* spec 001 §4: "It is disabled while the custom dates are invalid"; the reason shows
              beside it while it is (issue 25 item 10, docs/decisions/116-form-errors-after-a-submit.md) */}
          <SubmitWithReason reasonId="filter-apply-reason" reason={applyReason}>
            {t("analysis.range.apply")}
          </SubmitWithReason>
          <button type="button" className="button button--secondary" onClick={() => dialog.current?.close()}>
            {t("analysis.range.cancel")}
          </button>
        </div>
        <DisabledReason id="filter-apply-reason" reason={applyReason} />
      </Form>
    </dialog>
  );
}

export function FilterOptions({
  range,
  query,
  period,
}: {
  range: DateRangeView;
  query: AnalysisQuery;
  period: string | null;
}) {
  const { t } = useTranslation("clients");
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const serverErrors = Boolean(range.errors.from || range.errors.to);
  const current = <CurrentRange label={range.label} period={period} />;

  if (!hydrated || serverErrors) {
    // no JavaScript (or a submitted range the server refused): an in-page section, a GET form
    return (
      <section className="filter-options" aria-labelledby="filter-options-heading">
        {current}
        <details className="filter-options__details" open={serverErrors || undefined}>
          <summary id="filter-options-heading" className="button button--secondary">
            {t("analysis.range.open")}
          </summary>
          <Form method="get" id={RANGE_FORM_ID} className="filter-options__form" noValidate>
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
      {open ? <FilterDialog range={range} query={query} onClosed={() => setOpen(false)} /> : null}
    </section>
  );
}
