// The error summary of a form and a field's error (conventions "Forms"), on their own so that a page
// with a small form does not load the form library to show them.
import { useEffect, useRef } from "react";
import { useTranslation } from "~/components/translation";

export type SummaryError = { fieldId: string; message: string };

/**
 * conventions "Forms": after a failed submit, a heading and one link per failing field at the top
 * of the form, in an alert container that takes focus.
 */
export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const signature = errors.map((e) => `${e.fieldId}:${e.message}`).join("|");
  useEffect(() => {
    if (signature) ref.current?.focus();
  }, [signature]);
  if (!errors.length) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title" className="error-summary__title">
        {t("common:form.errorSummaryTitle")}
      </h2>
      <ul className="error-summary__list">
        {errors.map((e) => (
          <li key={e.fieldId}>
            <a href={`#${e.fieldId}`}>{t(e.message)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A field's errors, translated, after a visually hidden 'Error:'. */
export function FieldError({ id, errors }: { id: string; errors: string[] }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">{t("common:form.errorPrefix")} </span>
      {errors.map((e) => t(e)).join(" ")}
    </p>
  );
}

