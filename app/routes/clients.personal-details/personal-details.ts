import { ADDRESS_TYPE, type Address, addressLines, addressOfType, countryName, regionOfLocale } from "~/lib/address";
import { numberFormat } from "~/lib/format";
import { formatPhoneNumber, telHref } from "~/lib/phone";

// spec 002 "Personal details" and §3: the read-only page's view model, built on the server so the
// page shows exactly what the loader decided (no formatting differences at hydration).

export type DetailValue = { text: string; href?: string; preferred?: boolean };

/** One row of a definition list: a label (i18n key) and its values; none means 'None supplied'. */
export type DetailItem = { id: string; label: string; values: DetailValue[] };

export type AddressItem = { id: string; label: string; lines: string[] };

export type PersonalDetailsView = {
  personal: DetailItem[];
  contacts: DetailItem[];
  addresses: AddressItem[];
};

export type PersonalDetailsInput = {
  details: {
    title?: string | null;
    first_name?: string | null;
    middle_name?: string | null;
    last_name?: string | null;
    dob?: string | null;
    country_of_birth?: string | null;
    preferred_email?: string | null;
    marital_status?: string | null;
    dependents?: number | null;
  };
  contacts: Array<{ type: string; value?: string | null; preferred?: boolean | null; country_code?: string | null }>;
  addresses: Address[];
};

const text = (value: string | null | undefined): DetailValue[] =>
  value && value.trim() ? [{ text: value.trim() }] : [];

/** spec 002 §3 contact types, in the order the page lists them. */
export const CONTACT_TYPES = [
  { type: "p1", id: "home-phone", label: "clients:personalDetails.homePhone", kind: "phone" },
  { type: "p2", id: "work-phone", label: "clients:personalDetails.workPhone", kind: "phone" },
  { type: "p3", id: "mobile-phone", label: "clients:personalDetails.mobilePhone", kind: "phone" },
  { type: "m1", id: "personal-email", label: "clients:personalDetails.personalEmail", kind: "email" },
  { type: "m2", id: "work-email", label: "clients:personalDetails.workEmail", kind: "email" },
] as const;

/** A contact's values of one type, the preferred first; phones formatted (spec 002 §5) and linked. */
export function contactValues(
  contacts: PersonalDetailsInput["contacts"],
  type: string,
  kind: "phone" | "email",
  region: string | null,
): DetailValue[] {
  return contacts
    .filter((c) => c.type === type && c.value && c.value.trim())
    .sort((a, b) => Number(Boolean(b.preferred)) - Number(Boolean(a.preferred)))
    .flatMap((c) => {
      const raw = c.value!.trim();
      if (kind === "email") return [{ text: raw, href: `mailto:${raw}`, preferred: Boolean(c.preferred) }];
      const phone = formatPhoneNumber(raw, { countryCode: c.country_code, region });
      return phone ? [{ text: phone, href: telHref(phone), preferred: Boolean(c.preferred) }] : [];
    });
}

export function toPersonalDetailsView(
  input: PersonalDetailsInput,
  options: { locale: string; formatLongDate: (iso: string) => string },
): PersonalDetailsView {
  const { details } = input;
  const region = regionOfLocale(options.locale);
  const dependants = details.dependents;
  const personal: DetailItem[] = [
    { id: "title", label: "clients:personalDetails.fieldTitle", values: text(details.title) },
    { id: "first-name", label: "clients:personalDetails.firstName", values: text(details.first_name) },
    { id: "middle-name", label: "clients:personalDetails.middleName", values: text(details.middle_name) },
    { id: "last-name", label: "clients:personalDetails.lastName", values: text(details.last_name) },
    {
      id: "dob",
      label: "clients:personalDetails.dob",
      values: details.dob ? [{ text: options.formatLongDate(details.dob) }] : [],
    },
    {
      id: "country-of-birth",
      label: "clients:personalDetails.countryOfBirth",
      values: details.country_of_birth ? text(countryName(details.country_of_birth, options.locale)) : [],
    },
    {
      id: "preferred-email",
      label: "clients:personalDetails.preferredEmail",
      values: details.preferred_email?.trim()
        ? [{ text: details.preferred_email.trim(), href: `mailto:${details.preferred_email.trim()}` }]
        : [],
    },
    { id: "marital-status", label: "clients:personalDetails.maritalStatus", values: text(details.marital_status) },
    {
      id: "dependants",
      label: "clients:personalDetails.dependants",
      values: typeof dependants === "number" ? [{ text: numberFormat(options.locale).format(dependants) }] : [],
    },
  ];
  const contacts: DetailItem[] = CONTACT_TYPES.map((c) => ({
    id: c.id,
    label: c.label,
    values: contactValues(input.contacts, c.type, c.kind, region),
  }));
  const addresses: AddressItem[] = [
    { id: "residential-address", label: "clients:personalDetails.residentialAddress", type: ADDRESS_TYPE.residential },
    { id: "postal-address", label: "clients:personalDetails.postalAddress", type: ADDRESS_TYPE.postal },
  ].map(({ id, label, type }) => {
    const address = addressOfType(input.addresses, type);
    return { id, label, lines: address ? addressLines(address, { locale: options.locale }) : [] };
  });
  return { personal, contacts, addresses };
}
