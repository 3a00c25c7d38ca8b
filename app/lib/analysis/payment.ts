// spec 001 §2.3 "Payment information tab" names the bank's code 'BSB' and shows BPAY cards: both
// Australian. The portal's sites are British, Australian and Canadian (decision 120): each card
// names the code as the site's country does, and BPAY shows where it exists.

/** What the code is called: a sort code (UK), a BSB (Australia), a transit and an institution number (Canada). */
export type BankCodeLabel = "sortCode" | "bsb" | "transitNumber" | "institutionNumber" | "transitAndInstitution";
export type BankCodeField = { label: BankCodeLabel; value: string };

const regionOf = (locale: string): string | undefined => {
  try {
    return new Intl.Locale(locale).region;
  } catch {
    return undefined;
  }
};

/** The platform's one `bsb` field as the rows a card shows for the site's locale. */
export function bankCodeFields(locale: string, code: string): BankCodeField[] {
  const value = code.trim();
  if (!value) return [];
  const region = regionOf(locale);
  if (region === "AU") return [{ label: "bsb", value }];
  if (region !== "CA") return [{ label: "sortCode", value }];
  // Canada: transit (5 digits) and institution (3), written 12345-003, or 0 + institution + transit
  const written = /^(\d{5})[- ]?(\d{3})$/.exec(value);
  const electronic = /^0(\d{3})(\d{5})$/.exec(value);
  const transit = written?.[1] ?? electronic?.[2];
  const institution = written?.[2] ?? electronic?.[1];
  if (!transit || !institution) return [{ label: "transitAndInstitution", value }];
  return [
    { label: "transitNumber", value: transit },
    { label: "institutionNumber", value: institution },
  ];
}

/** BPAY is an Australian bill-payment scheme: its cards show on the Australian site only. */
export function offersBpay(locale: string): boolean {
  return regionOf(locale) === "AU";
}
