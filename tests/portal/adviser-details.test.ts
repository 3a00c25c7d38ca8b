import { describe, expect, it } from "vitest";
import {
  type AdviserWithContact,
  type ContactUsAnswer,
  isAdviserContactShown,
  toAdviserCard,
  toContactUsView,
  usablePhoto,
} from "~/planning/adviser.server";

const address = {
  type: 2,
  block: "Northbridge Wealth",
  street_name: "41 Moorgate Place",
  street_name_2: null,
  suburb: "London",
  state: "Greater London",
  country: "GB",
  postcode: "EC2R 6EA",
};

const sarah: AdviserWithContact = {
  adviser: {
    id: 1,
    adviser_name: "Sarah Whitfield",
    client_adviser: true,
    role: "Chartered Financial Planner",
    photo: null,
  },
  contact: { workEmail: "sarah@example.com", workPhone: ["020 7946 0123", "07700 900789"] },
  address,
};
const unreachable: AdviserWithContact = {
  adviser: { id: 2, adviser_name: "Oliver Grant", client_adviser: false, role: null, photo: null },
  contact: { workEmail: null, workPhone: [] },
  address: null,
};
const general = {
  contactName: "Client services",
  contactDescription: "Our team can help with general questions.",
  telephoneNumber: "0345 600 1234",
  emailAddress: "help@example.com",
  openingHours: "Monday to Friday, 9am to 5pm\nClosed on bank holidays",
  address: "1 Example Street\nLondon\nEC1A 1AA",
  hideAvatars: false,
};
const contactUs = (type: ContactUsAnswer["contact_type"], extra: Partial<ContactUsAnswer> = {}): ContactUsAnswer => ({
  contact_type: type,
  introduction: null,
  general: type === "adviser" ? null : general,
  ...extra,
});

describe("adviser contacts (spec 002 'Contact-us / Adviser Details')", () => {
  it("lists an adviser only with a work email, a work phone or an address", () => {
    expect(isAdviserContactShown(sarah)).toBe(true);
    expect(isAdviserContactShown(unreachable)).toBe(false);
    expect(isAdviserContactShown({ ...unreachable, contact: { workEmail: "o@example.com", workPhone: [] } })).toBe(
      true,
    );
    expect(isAdviserContactShown({ ...unreachable, contact: { workEmail: null, workPhone: ["0131 496 0456"] } })).toBe(
      true,
    );
    expect(isAdviserContactShown({ ...unreachable, address })).toBe(true);
    expect(
      isAdviserContactShown({ ...unreachable, contact: { workEmail: " ", workPhone: [""] }, address: { type: 2 } }),
    ).toBe(false);
  });

  it("shows name, role, address with a map link, phones and email", () => {
    const card = toAdviserCard(sarah, "en-GB");
    expect(card).toMatchObject({
      name: "Sarah Whitfield",
      role: "Chartered Financial Planner",
      isClientAdviser: true,
      addressLines: ["Northbridge Wealth", "41 Moorgate Place", "London", "Greater London", "EC2R 6EA"],
      phones: [
        { text: "020 7946 0123", href: "tel:02079460123" },
        { text: "07700 900789", href: "tel:07700900789" },
      ],
      email: { text: "sarah@example.com", href: "mailto:sarah@example.com" },
    });
    expect(card.mapUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
  });

  it("has no map link without a postcode", () => {
    expect(toAdviserCard({ ...sarah, address: { ...address, postcode: null } }, "en-GB").mapUrl).toBeNull();
  });

  it("shows only photos the page's content security policy allows", () => {
    expect(usablePhoto("/images/advisers/1.jpg")).toBe("/images/advisers/1.jpg");
    expect(usablePhoto("data:image/png;base64,iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(usablePhoto("https://cdn.example.com/a.jpg")).toBeNull();
    expect(usablePhoto("//cdn.example.com/a.jpg")).toBeNull();
    expect(usablePhoto("javascript:alert(1)")).toBeNull();
    expect(usablePhoto(null)).toBeNull();
  });
});

describe("contact type (spec 002, spec 000 §4 adviser contact type)", () => {
  it("adviser: only the adviser contacts", () => {
    const view = toContactUsView({ advisers: [sarah, unreachable], contactUs: contactUs("adviser") }, "en-GB");
    expect(view.advisers.map((a) => a.name)).toEqual(["Sarah Whitfield"]);
    expect(view.general).toBeNull();
    expect(view.nothingToShow).toBe(false);
  });

  it("general: only the general contact details", () => {
    const view = toContactUsView({ advisers: [sarah], contactUs: contactUs("general") }, "en-GB");
    expect(view.advisers).toEqual([]);
    expect(view.general).toEqual({
      name: "Client services",
      description: "Our team can help with general questions.",
      phone: { text: "0345 600 1234", href: "tel:03456001234" },
      email: { text: "help@example.com", href: "mailto:help@example.com" },
      openingHours: ["Monday to Friday, 9am to 5pm", "Closed on bank holidays"],
      addressLines: ["1 Example Street", "London", "EC1A 1AA"],
    });
  });

  it("both, with the introduction as paragraphs and the avatars option", () => {
    const view = toContactUsView(
      {
        advisers: [sarah],
        contactUs: contactUs("both", {
          introduction: "First paragraph.\n\nSecond paragraph.",
          general: { ...general, hideAvatars: true },
        }),
      },
      "en-GB",
    );
    expect(view.advisers).toHaveLength(1);
    expect(view.general?.name).toBe("Client services");
    expect(view.introduction).toEqual(["First paragraph.", "Second paragraph."]);
    expect(view.showAvatars).toBe(false);
  });

  it("nothing to show: 'Your adviser details are not available.'", () => {
    expect(toContactUsView({ advisers: [], contactUs: contactUs("adviser") }, "en-GB").nothingToShow).toBe(true);
    expect(toContactUsView({ advisers: [unreachable], contactUs: contactUs("adviser") }, "en-GB").nothingToShow).toBe(
      true,
    );
    expect(
      toContactUsView({ advisers: [sarah], contactUs: contactUs("general", { general: null }) }, "en-GB").nothingToShow,
    ).toBe(true);
    const empty = {
      ...general,
      contactName: null,
      contactDescription: null,
      telephoneNumber: null,
      emailAddress: null,
      openingHours: null,
      address: null,
    };
    expect(
      toContactUsView({ advisers: [], contactUs: contactUs("both", { general: empty }) }, "en-GB").nothingToShow,
    ).toBe(true);
  });
});
