import { useId } from "react";
import { useShellData } from "~/components/shell/root-data";
import { useTranslation } from "~/components/translation";

/**
 * The honeypot of an anonymous form (conventions: anonymous forms carry it; docs/decisions/113 and
 * 121), in every anonymous form of the portal: when the form was made, sealed, as a hidden input,
 * and one bait field a person leaves blank and a form-filling bot fills.
 *
 * CSS hides the bait field from sighted users and `aria-hidden` from screen readers, but text
 * browsers (w3m, lynx) show it whatever the CSS says, so its label tells a text-browser user what
 * it is and to leave it blank. One bait field per form at most, and the timestamp never shows.
 * Several anonymous forms may share a page (the shell's cookie notice and language chooser beside
 * the login form): each takes its own id, from `idSuffix` or React's `useId`, and posts the same
 * names.
 */
export function HoneypotFields({ idSuffix }: { idSuffix?: string }) {
  const { t } = useTranslation();
  const generatedId = useId();
  const props = useShellData()?.honeypotInputProps;
  const name = props?.nameFieldName ?? "name__confirm";
  const validFrom = props?.validFromFieldName;
  const id = idSuffix ? `${name}-${idSuffix}` : `${name}-${generatedId.replace(/:/g, "")}`;
  return (
    <>
      {validFrom && props?.encryptedValidFrom ? (
        <input type="hidden" name={validFrom} value={props.encryptedValidFrom} />
      ) : null}
      <div style={{ display: "none" }} aria-hidden="true">
        <label htmlFor={id}>{t("form.honeypotLabel")}</label>
        <input id={id} name={name} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      </div>
    </>
  );
}
