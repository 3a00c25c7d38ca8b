import { FieldError } from "~/components/error-summary";

// Issue 25 item 18 (docs/decisions/116-form-errors-after-a-submit.md): the portal's one date field.
// A text input typed DD-MM-YYYY, the format the spec's message names (spec 001 §5, 002 §5 "Custom
// date"), the same in every browser, in every locale and without JavaScript; the server reads it
// with `parseDisplayDate` (app/lib/date-range.ts) and sends yyyy-MM-dd. Why one format over the
// spec's 'The format is yyyy-MM-dd' for the pickers: docs/decisions/206.

type DateFieldProps = {
  id: string;
  name: string;
  label: string;
  /** Shown under the label; names the format with an example. */
  hint: string;
  /** An i18n key. */
  error?: string | null;
  className?: string;
} & (
  | { value: string; onChange: (value: string) => void; defaultValue?: never }
  | { defaultValue: string; value?: never; onChange?: never }
);

export function DateField({ id, name, label, hint, error, className, ...content }: DateFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={[error ? "field field--error" : "field", className ?? ""].join(" ").trim()}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
      <FieldError id={errorId} errors={[error]} />
      <input
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        className="field__input field__input--date"
        {...(content.onChange
          ? {
              value: content.value,
              onChange: (event: React.ChangeEvent<HTMLInputElement>) => content.onChange(event.target.value),
            }
          : { defaultValue: content.defaultValue })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
      />
    </div>
  );
}
