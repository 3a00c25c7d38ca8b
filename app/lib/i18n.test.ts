import { describe, expect, it } from "vitest";
import { toSupportedLocale } from "./i18n";

describe("toSupportedLocale", () => {
  it("matches the platform's and browsers' spellings", () => {
    expect(toSupportedLocale("en-gb")).toBe("en-GB");
    expect(toSupportedLocale("fr_CA")).toBe("fr-CA");
    expect(toSupportedLocale("EN-AU")).toBe("en-AU");
  });
  it("falls back by language, and refuses what it cannot speak", () => {
    expect(toSupportedLocale("fr-FR")).toBe("fr-CA");
    expect(toSupportedLocale("en-US")).toBe("en-GB");
    expect(toSupportedLocale("de-DE")).toBeNull();
    expect(toSupportedLocale("")).toBeNull();
  });
});
