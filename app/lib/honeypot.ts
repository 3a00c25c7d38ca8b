// The honeypot of anonymous forms (conventions: anonymous forms carry it; docs/decisions/113): what
// the root loader gives the shell, in the shape remix-utils' `HoneypotProvider` and `HoneypotInputs`
// take, so the React inputs need no change.

export type HoneypotInputProps = {
  /** The trap: a hidden field a person never fills. */
  nameFieldName: string;
  /** The hidden field carrying when the form was made, sealed. */
  validFromFieldName: string | null;
  encryptedValidFrom: string;
};
