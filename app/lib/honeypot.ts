// The honeypot of anonymous forms (conventions: anonymous forms carry it; docs/decisions/113): what
// the root loader gives the shell, in the shape remix-utils' honeypot props had; the portal's own
// `HoneypotFields` renders it (docs/decisions/121).

export type HoneypotInputProps = {
  /** The trap: a hidden field a person never fills. */
  nameFieldName: string;
  /** The hidden field carrying when the form was made, sealed. */
  validFromFieldName: string | null;
  encryptedValidFrom: string;
};
