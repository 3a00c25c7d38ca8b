import { describe, expect, it } from "vitest";
import { cleanPhoneValue, diallingCodeOf, formatPhoneNumber, isValidPhoneValue, telHref } from "./phone";

describe("phone values (spec 000 §5, 002 §5)", () => {
  it("accepts only digits, spaces, hyphens and a leading plus", () => {
    expect(isValidPhoneValue("020 7946 0321")).toBe(true);
    expect(isValidPhoneValue("+44 20-7946-0321")).toBe(true);
    expect(isValidPhoneValue("020 7946 0321 ext 4")).toBe(false);
    expect(isValidPhoneValue("(020) 7946 0321")).toBe(false);
    expect(isValidPhoneValue("44+20")).toBe(false);
    expect(isValidPhoneValue("+")).toBe(false);
    expect(isValidPhoneValue("")).toBe(false);
  });

  it("cleans anything else away, keeping one leading plus", () => {
    expect(cleanPhoneValue(" (020) 7946.0321 ")).toBe("020 79460321");
    expect(cleanPhoneValue("+44 (0)20 7946 0321")).toBe("+44 020 7946 0321");
  });

  it("turns a leading 00 into '+'", () => {
    expect(formatPhoneNumber("0044 20 7946 0321")).toBe("+44 20 7946 0321");
    expect(formatPhoneNumber("00 33 1 23 45 67 89", { countryCode: "GB" })).toBe("+33 1 23 45 67 89");
  });

  it("leaves an international number as it is", () => {
    expect(formatPhoneNumber("+33 1 23 45 67 89", { countryCode: "GB" })).toBe("+33 1 23 45 67 89");
  });

  it("prefixes a national number with its country code, dropping the trunk 0", () => {
    expect(formatPhoneNumber("020 7946 0321", { countryCode: "GB" })).toBe("+44 20 7946 0321");
    expect(formatPhoneNumber("07700 900456", { countryCode: "44" })).toBe("+44 7700 900456");
    expect(formatPhoneNumber("02 9876 5432", { countryCode: "+61" })).toBe("+61 2 9876 5432");
    expect(formatPhoneNumber("416 555 0100", { countryCode: "CA" })).toBe("+1 416 555 0100");
  });

  it("does not prefix a number already written with its country code", () => {
    expect(formatPhoneNumber("44 20 7946 0321", { countryCode: "GB" })).toBe("+44 20 7946 0321");
  });

  it("gives a 0 prefix to a number without a leading 0 or '+' when there is no country code", () => {
    expect(formatPhoneNumber("20 7946 0321")).toBe("020 7946 0321");
    expect(formatPhoneNumber("020 7946 0321")).toBe("020 7946 0321");
    expect(formatPhoneNumber("345 600 1234", { countryCode: "XX" })).toBe("0345 600 1234");
  });

  it("leaves Australian 1300 numbers alone", () => {
    expect(formatPhoneNumber("1300 123 456", { region: "AU" })).toBe("1300 123 456");
    expect(formatPhoneNumber("1300 123 456", { countryCode: "AU" })).toBe("1300 123 456");
    expect(formatPhoneNumber("1300 123 456", { countryCode: "61" })).toBe("1300 123 456");
    // Only Australian ones: elsewhere the 0 prefix applies.
    expect(formatPhoneNumber("1300 123 456", { region: "GB" })).toBe("01300 123 456");
    expect(formatPhoneNumber("1800 123 456", { region: "AU" })).toBe("01800 123 456");
  });

  it("answers '' for a value without digits", () => {
    expect(formatPhoneNumber("n/a")).toBe("");
  });

  it("knows the dialling codes of the platform's countries", () => {
    expect(diallingCodeOf("gb")).toBe("44");
    expect(diallingCodeOf("ZA")).toBe("27");
    expect(diallingCodeOf("+852")).toBe("852");
    expect(diallingCodeOf("ZZ")).toBeNull();
    expect(diallingCodeOf(null)).toBeNull();
  });

  it("makes tel: links without spaces or hyphens", () => {
    expect(telHref("+44 20 7946-0321")).toBe("tel:+442079460321");
    expect(telHref("1300 123 456")).toBe("tel:1300123456");
  });
});
