import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import { useEffect, useState } from "react";
import { useHydrated } from "~/components/hydrated";
import { OTHER_QUESTION } from "~/lib/security";
import type { Worded } from "~/lib/site-words";
import { FieldError } from "./error-summary";
import { Field } from "./forms";

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
  /** The default questions, in the page's language or marked with theirs (decision 210). */
  questions: ReadonlyArray<string | Worded>;
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
        {questions.map((question) => {
          const q = typeof question === "string" ? { text: question, lang: null } : question;
          return (
            <option key={q.text} value={q.text} lang={q.lang ?? undefined}>
              {q.text}
            </option>
          );
        })}
        <option value={OTHER_QUESTION}>{otherLabel}</option>
      </select>
    </div>
  );
}

/**
 * A security question's select and its custom question, as decision 053 has them on both the sign-in
 * step and the account page: with JavaScript the custom question's input is shown only while 'Other'
 * is chosen (an empty hidden field stands for it otherwise); without JavaScript it is always there,
 * with the hint that it is used only for 'Other'. The choice starts at `initial` and goes back to it
 * whenever `resetOn` changes (a new answer from the server).
 */
export function QuestionChoice({
  meta,
  customMeta,
  initial,
  resetOn,
  customLabel,
  customHint,
  ...texts
}: {
  meta: FieldMetadata<string | undefined>;
  customMeta: FieldMetadata<string | undefined>;
  initial: string;
  resetOn: unknown;
  label: string;
  questions: ReadonlyArray<string | Worded>;
  chooseLabel: string;
  otherLabel: string;
  customLabel: string;
  customHint: string;
}) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(initial);
  useEffect(() => {
    setSelected(initial);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetOn]);
  return (
    <>
      <QuestionSelect meta={meta} {...texts} value={selected} onChange={setSelected} />
      {!hydrated || selected === OTHER_QUESTION ? (
        <Field meta={customMeta} label={customLabel} hint={hydrated ? undefined : customHint} autoComplete="off" />
      ) : (
        <input type="hidden" name={customMeta.name} value="" />
      )}
    </>
  );
}
