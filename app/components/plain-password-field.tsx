import { useState } from "react";
import { FieldError } from "./error-summary";
import { ShowPasswordToggle } from "./show-password-toggle";
import { useTranslation } from "./translation";

/**
 * The current password asked again (decision 179) in a form that is not a Conform form (the
 * biometric permission page, which does not load the form library, decision 148): change
 * password's label, its show-password box, a hint saying why it is asked, and the error key. A
 * secret: never given a value, and remounted empty after each answer (`remountKey`).
 */
export function PlainPasswordField({
  id,
  hint,
  error,
  remountKey,
}: {
  id: string;
  hint: string;
  error: string | null | undefined;
  remountKey: string | number;
}) {
  const { t } = useTranslation("security");
  const [show, setShow] = useState(false);
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <>
      <div className={`field${error ? " field--error" : ""}`}>
        <label htmlFor={id} className="field__label">
          {t("changePassword.current")}
        </label>
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
        {error ? <FieldError id={`${id}-error`} errors={[error]} /> : null}
        <input
          key={remountKey}
          id={id}
          name="currentPassword"
          type={show ? "text" : "password"}
          className="field__input"
          autoComplete="current-password"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      <ShowPasswordToggle id={`${id}-show`} label={t("changePassword.showCurrent")} checked={show} onChange={setShow} />
    </>
  );
}
