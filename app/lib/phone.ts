// spec 000 §5 and 002 §5 "Phone values": how a phone number from the platform is shown and dialled.

/** International dialling codes of the regions the platform serves (spec 000 §9 countries). */
const DIALLING_CODES: Record<string, string> = {
  AU: "61",
  NZ: "64",
  ZA: "27",
  HK: "852",
  SG: "65",
  TH: "66",
  GB: "44",
  MY: "60",
  TW: "886",
  ID: "62",
  NA: "264",
  CA: "1",
};

/** Only digits, spaces, hyphens and a leading plus are a valid phone value. */
export function isValidPhoneValue(value: string): boolean {
  return /^\+?[\d -]+$/.test(value.trim()) && /\d/.test(value);
}

/** The value with anything but digits, spaces, hyphens and one leading plus removed. */
export function cleanPhoneValue(value: string): string {
  const trimmed = value.trim();
  const plus = trimmed.startsWith("+");
  const rest = trimmed
    .replace(/[^\d -]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return plus ? `+${rest}` : rest;
}

/**
 * The dialling code for a contact's country code: a region (GB), or digits with or without '+'
 * (44, +44). Null when unknown.
 */
export function diallingCodeOf(countryCode: string | null | undefined): string | null {
  if (!countryCode) return null;
  const code = countryCode.trim().toUpperCase();
  if (/^\+?\d{1,4}$/.test(code)) return code.replace("+", "");
  return DIALLING_CODES[code] ?? null;
}

const digitsOf = (value: string) => value.replace(/\D/g, "");

/**
 * spec 002 §5: a value starting 00 becomes an international number with '+'; a national number
 * with a known country code gets that prefix (its trunk 0 dropped); a number without a leading 0
 * or '+' gets a 0 prefix, except Australian numbers starting 1300 (national-only numbers).
 *
 * `region` is the portal's region (from the locale), used for the 1300 rule when the contact has
 * no country code of its own.
 */
export function formatPhoneNumber(
  value: string,
  options: { countryCode?: string | null; region?: string | null } = {},
): string {
  let phone = cleanPhoneValue(value);
  if (!digitsOf(phone)) return "";
  if (phone.startsWith("00")) phone = `+${phone.slice(2).replace(/^[\s-]+/, "")}`;
  if (phone.startsWith("+")) return phone;

  const country = options.countryCode?.trim().toUpperCase() || options.region?.trim().toUpperCase() || null;
  const australian = country === "AU" || diallingCodeOf(options.countryCode) === "61";
  if (australian && digitsOf(phone).startsWith("1300")) return phone;

  const dialling = diallingCodeOf(options.countryCode);
  if (dialling) {
    // Already written with the country code but without '+': "44 20 7946 0321".
    if (digitsOf(phone).startsWith(dialling) && !phone.startsWith("0") && phone.length > dialling.length + 6) {
      return `+${phone}`;
    }
    return `+${dialling} ${phone.replace(/^0[\s-]*/, "")}`;
  }
  return phone.startsWith("0") ? phone : `0${phone}`;
}

/** A tel: link for a formatted number (no spaces or hyphens, RFC 3966). */
export function telHref(formatted: string): string {
  return `tel:${formatted.replace(/[^\d+]/g, "")}`;
}
