import { describe, expect, it } from "vitest";
import { inSiteLanguage, recordsText, siteNames, siteText } from "./site-words";

const settings = {
  passwordGuidance: "Use at least 12 characters.",
  "passwordGuidance.fr-CA": "Utilisez au moins 12 caractères.",
  "assetClassNames.fr-CA": JSON.stringify({ Equities: "Actions", "Fixed income": "Titres à revenu fixe" }),
  "sectorNames.fr-CA": "not JSON",
  "regionNames.fr-CA": JSON.stringify(["Royaume-Uni"]),
};

describe("the site's texts in the page's language (decision 210)", () => {
  it("shows English names as they are on every English page", () => {
    for (const locale of ["en-GB", "en-AU", "en-CA"] as const)
      expect(siteNames(settings, "assetClassNames", locale)("Equities")).toEqual({ text: "Equities", lang: null });
  });

  it("gives a French page the site's French name", () => {
    const named = siteNames(settings, "assetClassNames", "fr-CA");
    expect(named("Equities")).toEqual({ text: "Actions", lang: null });
    expect(named(" Fixed income ")).toEqual({ text: "Titres à revenu fixe", lang: null });
  });

  it("marks a name the site has no French for as English", () => {
    expect(siteNames(settings, "assetClassNames", "fr-CA")("Property")).toEqual({ text: "Property", lang: "en" });
    expect(siteNames(settings, "benchmarkNames", "fr-CA")("FTSE All-Share")).toEqual({
      text: "FTSE All-Share",
      lang: "en",
    });
    // a setting that is not a JSON object of names names nothing
    expect(siteNames(settings, "sectorNames", "fr-CA")("Financials")).toEqual({ text: "Financials", lang: "en" });
    expect(siteNames(settings, "regionNames", "fr-CA")("United Kingdom")).toEqual({
      text: "United Kingdom",
      lang: "en",
    });
  });

  it("takes a text setting's variant for the page, else the English, marked on a French page", () => {
    expect(siteText(settings, "passwordGuidance", "fr-CA")).toEqual({
      text: "Utilisez au moins 12 caractères.",
      lang: null,
    });
    expect(siteText(settings, "passwordGuidance", "en-AU")).toEqual({
      text: "Use at least 12 characters.",
      lang: null,
    });
    expect(siteText({ passwordGuidance: "Use 12." }, "passwordGuidance", "fr-CA")).toEqual({
      text: "Use 12.",
      lang: "en",
    });
    expect(siteText({ passwordGuidance: " " }, "passwordGuidance", "fr-CA")).toBeNull();
    expect(siteText({}, "passwordGuidance", "en-GB")).toBeNull();
  });

  it("marks the records' own text English on a French page only", () => {
    expect(recordsText("Regular monthly contribution", "fr-CA")).toEqual({
      text: "Regular monthly contribution",
      lang: "en",
    });
    expect(recordsText("Regular monthly contribution", "en-CA")).toEqual({
      text: "Regular monthly contribution",
      lang: null,
    });
    expect(inSiteLanguage("en-GB")).toBe(true);
    expect(inSiteLanguage("fr-CA")).toBe(false);
  });
});
