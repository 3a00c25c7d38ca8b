import type { FieldMetadata } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Field, ShowPasswordToggle } from "./forms";
import { PasswordStrength } from "./password-strength";
import type { Worded } from "~/lib/site-words";

/**
 * spec 000 §5 and 002 §2, §5: the new password of every new-password form (the account's Change
 * password, the reset after 'Help with logging in', the change forced at sign-in): a masked field
 * with the site's guidance as its hint, the strength meter following what is typed (when the site
 * shows it), and the show-password box. The value is a secret: never echoed back, and the meter
 * forgets it when `remountKey` changes (the fields remount empty after the server's answer).
 */
export function NewPasswordField({
  meta,
  label,
  showLabel,
  guidance,
  strengthMeter,
  strengthId = "new-password-strength",
  remountKey = 0,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  showLabel: string;
  /** The site's guidance, marked with its language where it is not the page's (decision 210). */
  guidance: Worded | null;
  strengthMeter: boolean;
  strengthId?: string;
  remountKey?: number;
}) {
  const [typed, setTyped] = useState("");
  const [shown, setShown] = useState(false);
  useEffect(() => setTyped(""), [remountKey]);
  return (
    <>
      <div
        onChange={(event) => {
          const target = event.target as HTMLInputElement;
          if (target.name === meta.name) setTyped(target.value);
        }}
      >
        <Field
          key={`new-password-${remountKey}`}
          meta={meta}
          label={label}
          hint={guidance ? <span lang={guidance.lang ?? undefined}>{guidance.text}</span> : undefined}
          type={shown ? "text" : "password"}
          autoComplete="new-password"
          secret
        >
          {strengthMeter ? <PasswordStrength id={strengthId} password={typed} /> : null}
        </Field>
      </div>
      <ShowPasswordToggle id="show-new-password" label={showLabel} checked={shown} onChange={setShown} />
    </>
  );
}
