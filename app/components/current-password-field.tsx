import type { FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { Field, ShowPasswordToggle } from "~/components/forms";
import { useTranslation } from "~/components/translation";

/**
 * The current password, asked again before a sensitive change (decision 179): change password's
 * field ('Current password', its show-password box), with a hint saying why it is asked here. A
 * secret: never echoed back, and emptied after each answer of the server (`remountKey`).
 */
export function CurrentPasswordField({
  meta,
  hint,
  remountKey,
  showId,
}: {
  meta: FieldMetadata<string>;
  hint: string;
  remountKey: number;
  showId: string;
}) {
  const { t } = useTranslation("security");
  const [show, setShow] = useState(false);
  return (
    <>
      <Field
        key={`current-password-${remountKey}`}
        meta={meta}
        label={t("changePassword.current")}
        hint={hint}
        type={show ? "text" : "password"}
        autoComplete="current-password"
        secret
      />
      <ShowPasswordToggle id={showId} label={t("changePassword.showCurrent")} checked={show} onChange={setShow} />
    </>
  );
}
