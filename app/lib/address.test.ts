import { describe, expect, it } from "vitest";
import {
  type Address,
  addressLines,
  addressOfType,
  countryName,
  hasAddress,
  mapSearchUrl,
  streetLines,
} from "./address";

const gb: Address = {
  type: 2,
  block: "Northbridge Wealth",
  street_name: "41 Moorgate Place",
  street_name_2: "City of London",
  street: "ignored for GB",
  suburb: "London",
  state: "Greater London",
  country: "GB",
  postcode: "EC2R 6EA",
};

describe("address lines (spec 002 §3)", () => {
  it("builds a GB street from block, street_name and street_name_2", () => {
    expect(streetLines(gb)).toEqual(["Northbridge Wealth", "41 Moorgate Place", "City of London"]);
    expect(streetLines({ ...gb, block: null, street_name_2: "  " })).toEqual(["41 Moorgate Place"]);
  });

  it("uses the street (one line per line) outside the local-format regions", () => {
    const au: Address = {
      type: 1,
      street: "Level 3\n12 George Street",
      suburb: "Sydney",
      state: "NSW",
      country: "AU",
      postcode: "2000",
    };
    expect(streetLines(au)).toEqual(["Level 3", "12 George Street"]);
    expect(addressLines(au, { locale: "en-AU" })).toEqual(["Level 3", "12 George Street", "Sydney", "NSW", "2000"]);
  });

  it("falls back to the street when a GB address has no split parts", () => {
    expect(streetLines({ type: 1, street: "1 High Street", country: "GB" })).toEqual(["1 High Street"]);
  });

  it("puts town, county and postcode after the street, and names a foreign country", () => {
    expect(addressLines(gb, { locale: "en-GB" })).toEqual([
      "Northbridge Wealth",
      "41 Moorgate Place",
      "City of London",
      "London",
      "Greater London",
      "EC2R 6EA",
    ]);
    expect(addressLines(gb, { locale: "en-AU" }).at(-1)).toBe("United Kingdom");
    expect(addressLines(gb, { locale: "fr-CA" }).at(-1)).toBe("Royaume-Uni");
  });

  it("names countries in the page's language and keeps values that are not codes", () => {
    expect(countryName("GB", "en-GB")).toBe("United Kingdom");
    expect(countryName("ie", "en-GB")).toBe("Ireland");
    expect(countryName("England", "en-GB")).toBe("England");
  });

  it("offers 'Show on map' only with a postcode", () => {
    const url = mapSearchUrl(gb);
    expect(url).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
    expect(decodeURIComponent(url!.split("query=")[1]!)).toBe(
      "Northbridge Wealth, 41 Moorgate Place, City of London, London, EC2R 6EA, GB",
    );
    expect(mapSearchUrl({ ...gb, postcode: null })).toBeNull();
    expect(mapSearchUrl({ ...gb, postcode: " " })).toBeNull();
  });

  it("knows an empty address", () => {
    expect(hasAddress(null)).toBe(false);
    expect(hasAddress({ type: 2, country: "GB" })).toBe(false);
    expect(hasAddress({ type: 2, postcode: "EC2R 6EA" })).toBe(true);
  });

  it("picks the current address of a type, the preferred first", () => {
    const list: Address[] = [
      { type: 1, street: "old", status: "Previous", preferred: true },
      { type: 1, street: "second", status: "Current" },
      { type: 1, street: "preferred", status: "Current", preferred: true },
      { type: 0, street: "postal" },
    ];
    expect(addressOfType(list, 1)?.street).toBe("preferred");
    expect(addressOfType(list, 0)?.street).toBe("postal");
    expect(addressOfType(list, 2)).toBeNull();
  });
});
