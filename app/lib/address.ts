// spec 002 §3 "Address": how an address from the platform becomes lines on the page.

/** The platform's address (docs/platform-api.md, entity addresses). */
export type Address = {
  type: number;
  block?: string | null;
  street_name?: string | null;
  street_name_2?: string | null;
  street?: string | null;
  suburb?: string | null;
  state?: string | null;
  country?: string | null;
  postcode?: string | null;
  preferred?: boolean | null;
  status?: string | null;
};

/** spec 002 §9: address types 0 postal, 1 residential, 2 work. */
export const ADDRESS_TYPE = { postal: 0, residential: 1, work: 2 } as const;

/** spec 000 §9: regions whose addresses use the local format (street split into parts). */
const LOCAL_FORMAT_REGIONS = ["GB", "ZA", "NA", "AA"];

const present = (value: string | null | undefined): value is string => Boolean(value && value.trim());

/** The street lines: for GB-style regions block, street_name and street_name_2; else `street`. */
export function streetLines(address: Address): string[] {
  const country = address.country?.trim().toUpperCase() ?? "";
  const split = [address.block, address.street_name, address.street_name_2].filter(present).map((s) => s.trim());
  if (LOCAL_FORMAT_REGIONS.includes(country) && split.length > 0) return split;
  const street = (address.street ?? "")
    .split(/\r?\n/)
    .filter(present)
    .map((s) => s.trim());
  return street.length > 0 ? street : split;
}

/**
 * All the lines of an address, in postal order. The country is named (in the page's language)
 * only when it is not the portal's own region, as on a letter posted at home.
 */
export function addressLines(address: Address, options: { locale: string; homeRegion?: string | null }): string[] {
  const lines = [...streetLines(address)];
  for (const part of [address.suburb, address.state, address.postcode]) if (present(part)) lines.push(part.trim());
  const country = address.country?.trim().toUpperCase();
  const home = (options.homeRegion ?? regionOfLocale(options.locale))?.toUpperCase();
  if (country && country !== home) lines.push(countryName(country, options.locale));
  return lines;
}

/** The region of a locale tag ("en-GB" → "GB"). */
export function regionOfLocale(locale: string): string | null {
  return locale.split(/[-_]/)[1]?.toUpperCase() ?? null;
}

/** A country's name for a code (ISO 3166 alpha-2), or the value itself when it is not a code. */
export function countryName(code: string, locale: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Whether an address has anything to show. */
export function hasAddress(address: Address | null | undefined): address is Address {
  if (!address) return false;
  return streetLines(address).length > 0 || [address.suburb, address.state, address.postcode].some(present);
}

/**
 * spec 002 "Contact-us": the 'Show on map' link, a maps search for the address; only when the
 * address has a postcode.
 */
export function mapSearchUrl(address: Address): string | null {
  if (!present(address.postcode)) return null;
  const query = [...streetLines(address), address.suburb, address.postcode, address.country]
    .filter(present)
    .map((s) => s.trim())
    .join(", ");
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/**
 * The address of a type to show: a current one, the preferred first (the platform may hold
 * previous addresses too).
 */
export function addressOfType(addresses: Address[], type: number): Address | null {
  const candidates = addresses.filter((a) => a.type === type && (a.status ?? "Current") !== "Previous");
  return candidates.find((a) => a.preferred) ?? candidates[0] ?? null;
}
