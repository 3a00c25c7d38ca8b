import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { FieldError, type SummaryError } from "./error-summary";

export { ErrorSummary, FailureAlert, FieldError, type SummaryError } from "./error-summary";
export { ShowPasswordToggle } from "./show-password-toggle";

// Form building blocks (conventions "Forms"). Validation messages in zod schemas are i18n keys
// ("namespace:key"); these components translate them.

type FieldProps = {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: React.ReactNode;
  type?: "text" | "email" | "password" | "search" | "tel" | "date";
  autoComplete?: string;
  inputMode?: React.HTMLAttributes<HTMLInputElement>["inputMode"];
  className?: string;
  inputClassName?: string;
  /** Secrets are never echoed back into the page after a failed submit. */
  secret?: boolean;
  children?: React.ReactNode;
};

export function Field({
  meta,
  label,
  hint,
  type = "text",
  autoComplete,
  inputMode,
  className,
  inputClassName,
  secret,
  children,
}: FieldProps) {
  const hasError = Boolean(meta.errors?.length);
  const describedBy = [hint ? meta.descriptionId : null, hasError ? meta.errorId : null].filter(Boolean).join(" ");
  const { key, defaultValue, ...inputProps } = getInputProps(meta, { type, ariaAttributes: false });
  return (
    <div className={["field", hasError ? "field--error" : "", className ?? ""].join(" ").trim()}>
      <label htmlFor={meta.id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={meta.descriptionId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {hasError ? <FieldError id={meta.errorId} errors={meta.errors ?? []} /> : null}
      <input
        key={key}
        {...inputProps}
        defaultValue={secret ? undefined : defaultValue}
        className={["field__input", inputClassName ?? ""].join(" ").trim()}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={hasError || undefined}
        aria-describedby={describedBy || undefined}
      />
      {children}
    </div>
  );
}

/** The errors of a form's fields, in the order given, for the error summary. */
export function summaryErrors(fields: Array<FieldMetadata<unknown>>): SummaryError[] {
  return fields.flatMap((f) => (f.errors?.length ? [{ fieldId: f.id, message: f.errors[0]! }] : []));
}

/**
 * conventions "Forms": a submit button that the spec disables until its form is valid. It is
 * disabled only once JavaScript runs (the answer is first known in an effect); without JavaScript
 * the button stays enabled and the server answers with the same messages. `isValid` reads the
 * form's current values; it is asked again on every input and change, after a reset, and whenever
 * fields come or go (a field shown for 'Other', fields remounted empty after the server's answer).
 * `isValid` is undefined while the form's checks load (app/components/browser-validation.ts): the
 * button stays enabled meanwhile.
 */
export function useDisabledUntilValid(formId: string, isValid: ((formData: FormData) => boolean) | undefined): boolean {
  const [valid, setValid] = useState<boolean | null>(null);
  const known = isValid !== undefined;
  const latest = useRef(isValid);
  useEffect(() => {
    latest.current = isValid;
  });
  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    const check = () => setValid(latest.current ? latest.current(new FormData(form)) : null);
    // The fields hold their reset values only after the reset event has run.
    const afterReset = () => window.setTimeout(check, 0);
    const fieldsChanged = new MutationObserver(check);
    check();
    form.addEventListener("input", check);
    form.addEventListener("change", check);
    form.addEventListener("reset", afterReset);
    fieldsChanged.observe(form, { childList: true, subtree: true });
    return () => {
      form.removeEventListener("input", check);
      form.removeEventListener("change", check);
      form.removeEventListener("reset", afterReset);
      fieldsChanged.disconnect();
    };
  }, [formId, known]);
  return valid === false;
}

/** A validity test: every named field holds more than white space (spec 000 §5 "non-blank"). */
export function allFilledIn(names: string[]): (formData: FormData) => boolean {
  return (formData) => names.every((name) => String(formData.get(name) ?? "").trim() !== "");
}

let remounts = 0;

/**
 * The key of a form's secret fields: it changes with each answer of the server (`answer`, the
 * action's data), so the fields keyed by it remount empty and no secret is left in the page after
 * an answer. 0 until the first answer.
 */
export function useRemountKey(answer: unknown): number {
  return useMemo(() => (answer ? ++remounts : 0), [answer]);
}
