import { describe, expect, it } from "vitest";
import { formatDate } from "~/lib/format-date.server";
import {
  contactValues,
  type PersonalDetailsInput,
  toPersonalDetailsView,
} from "~/routes/clients.personal-details/personal-details";

const input: PersonalDetailsInput = {
  details: {
    title: "Mrs",
    first_name: "Eleanor",
    middle_name: null,
    last_name: "Hartley",
    dob: "1972-03-14",
    country_of_birth: "GB",
    preferred_email: "eleanor.hartley@example.com",
    marital_status: "Married",
    dependents: 0,
  },
  contacts: [
    { type: "p1", value: "020 7946 0321", preferred: false, country_code: "GB" },
    { type: "p3", value: "07700 900999", preferred: false, country_code: null },
    { type: "p3", value: "07700 900456", preferred: true, country_code: null },
    { type: "m1", value: "eleanor.hartley@example.com", preferred: true },
    { type: "m2", value: "  ", preferred: false },
  ],
  addresses: [
    {
      type: 1,
      block: "Flat 3",
      street_name: "27 Kensington Park Road",
      suburb: "London",
      state: "Greater London",
      country: "GB",
      postcode: "W11 2EU",
      status: "Current",
    },
    { type: 1, street_name: "Old Road", country: "GB", postcode: "N1 1AA", status: "Previous" },
  ],
};

const view = (locale = "en-GB") =>
  toPersonalDetailsView(input, { locale, formatLongDate: (iso) => formatDate(iso, locale, "long") });

const valuesOf = (items: ReturnType<typeof view>["personal"], id: string) => items.find((i) => i.id === id)!.values;

describe("personal details view (spec 002 'Personal details')", () => {
  it("shows the personal fields, the date of birth long and the country by name", () => {
    const personal = view().personal;
    expect(personal.map((i) => i.id)).toEqual([
      "title",
      "first-name",
      "middle-name",
      "last-name",
      "dob",
      "country-of-birth",
      "preferred-email",
      "marital-status",
      "dependants",
    ]);
    expect(valuesOf(personal, "dob")).toEqual([{ text: "14th March 1972" }]);
    expect(valuesOf(personal, "country-of-birth")).toEqual([{ text: "United Kingdom" }]);
    expect(valuesOf(personal, "preferred-email")).toEqual([
      { text: "eleanor.hartley@example.com", href: "mailto:eleanor.hartley@example.com" },
    ]);
    // zero dependants is a value, a missing middle name is not
    expect(valuesOf(personal, "dependants")).toEqual([{ text: "0" }]);
    expect(valuesOf(personal, "middle-name")).toEqual([]);
  });

  it("speaks the locale", () => {
    const personal = view("fr-CA").personal;
    expect(valuesOf(personal, "dob")[0]!.text).toBe("14 mars 1972");
    expect(valuesOf(personal, "country-of-birth")[0]!.text).toBe("Royaume-Uni");
  });

  it("lists phones as tel: links and emails as mailto: links, the preferred first and marked", () => {
    const contacts = view().contacts;
    expect(contacts.map((c) => c.id)).toEqual([
      "home-phone",
      "work-phone",
      "mobile-phone",
      "personal-email",
      "work-email",
    ]);
    expect(valuesOf(contacts, "home-phone")).toEqual([
      { text: "+44 20 7946 0321", href: "tel:+442079460321", preferred: false },
    ]);
    expect(valuesOf(contacts, "mobile-phone")).toEqual([
      { text: "07700 900456", href: "tel:07700900456", preferred: true },
      { text: "07700 900999", href: "tel:07700900999", preferred: false },
    ]);
    expect(valuesOf(contacts, "work-phone")).toEqual([]);
    expect(valuesOf(contacts, "work-email")).toEqual([]);
  });

  it("applies the Australian 1300 rule in en-AU", () => {
    expect(contactValues([{ type: "p2", value: "1300 123 456" }], "p2", "phone", "AU")[0]!.text).toBe("1300 123 456");
  });

  it("shows the current residential address and no postal address", () => {
    const [residential, postal] = view().addresses;
    expect(residential).toEqual({
      id: "residential-address",
      label: "clients:personalDetails.residentialAddress",
      lines: ["Flat 3", "27 Kensington Park Road", "London", "Greater London", "W11 2EU"],
    });
    expect(postal!.lines).toEqual([]);
  });
});
