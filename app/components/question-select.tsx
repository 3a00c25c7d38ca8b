import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import { OTHER_QUESTION } from "~/lib/security";
import { FieldError } from "./error-summary";

/**
 * spec 002 §5: a security question's select: a first empty choice, the platform's default questions
 * (blanks already dropped), and 'Other' (the user writes their own question). The sign-in step and
 * the account page share it; each gives its own texts. With `value` and `onChange` the select is
 * controlled, so a page can show the custom question's input only while 'Other' is chosen.
 */
export function QuestionSelect({
  meta,
  label,
  questions,
  chooseLabel,
  otherLabel,
  value,
  onChange,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  questions: string[];
  chooseLabel: string;
  otherLabel: string;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const hasError = Boolean(meta.errors?.length);
  const { key, defaultValue, ...selectProps } = getSelectProps(meta, { ariaAttributes: false });
  const controlled = value !== undefined && onChange !== undefined;
  return (
    <div className={`field${hasError ? " field--error" : ""}`}>
      <label htmlFor={meta.id} className="field__label">
        {label}
      </label>
      {hasError ? <FieldError id={meta.errorId} errors={meta.errors ?? []} /> : null}
      <select
        key={key}
        {...selectProps}
        {...(controlled ? { value, onChange: (e) => onChange(e.currentTarget.value) } : { defaultValue })}
        className="field__input field__select"
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? meta.errorId : undefined}
      >
        <option value="">{chooseLabel}</option>
        {questions.map((q) => (
          <option key={q} value={q}>
            {q}
          </option>
        ))}
        <option value={OTHER_QUESTION}>{otherLabel}</option>
      </select>
    </div>
  );
}
