import { useShellData } from "~/components/shell/root-data";

/**
 * The honeypot of an anonymous form (conventions: anonymous forms carry it) for forms that share a
 * page with another one: the shell's cookie notice and language chooser, and the help page's
 * forgotten-username form, sit beside another form's own `HoneypotInputs`, so these inputs take
 * ids of their own while posting the same names.
 * Hidden from everyone; a person never fills it, a form-filling bot does.
 */
export function HoneypotFields({ idSuffix }: { idSuffix: string }) {
  const props = useShellData()?.honeypotInputProps;
  const name = props?.nameFieldName ?? "name__confirm";
  const validFrom = props?.validFromFieldName ?? "from__confirm";
  return (
    <div style={{ display: "none" }} aria-hidden="true">
      <label htmlFor={`${name}-${idSuffix}`}>Please leave this field blank</label>
      <input id={`${name}-${idSuffix}`} name={name} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      {props?.encryptedValidFrom ? (
        <>
          <label htmlFor={`${validFrom}-${idSuffix}`}>Please leave this field blank</label>
          <input
            id={`${validFrom}-${idSuffix}`}
            name={validFrom}
            type="text"
            value={props.encryptedValidFrom}
            readOnly
            autoComplete="off"
            tabIndex={-1}
          />
        </>
      ) : null}
    </div>
  );
}
