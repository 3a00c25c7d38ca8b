import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "~/lib/i18n";
import { resources } from "./resources";

const source = resources["en-GB"];

describe("locale resources", () => {
  for (const locale of SUPPORTED_LOCALES) {
    for (const [ns, texts] of Object.entries(source)) {
      it(`${locale}/${ns} has exactly the keys of en-GB, none empty`, () => {
        const translated = (resources[locale] as Record<string, Record<string, string>>)[ns] ?? {};
        expect(Object.keys(translated).sort()).toEqual(Object.keys(texts).sort());
        for (const [key, value] of Object.entries(translated))
          expect(value.trim(), `${locale}/${ns}:${key}`).not.toBe("");
      });
    }
  }

  it("fr-CA is a translation, not a copy of en-GB", () => {
    for (const [ns, texts] of Object.entries(source)) {
      const fr = (resources["fr-CA"] as Record<string, Record<string, string>>)[ns] ?? {};
      const same = Object.entries(texts).filter(([k, v]) => fr[k] === v && /[a-z]{4,}/i.test(v));
      // Proper names and a few shared words may stay; most texts must differ.
      expect(same.length, `${ns}: ${same.map(([k]) => k).join(", ")}`).toBeLessThanOrEqual(
        Math.max(2, Math.floor(Object.keys(texts).length * 0.1)),
      );
    }
  });

  it("keeps placeholders in every translation", () => {
    for (const locale of SUPPORTED_LOCALES) {
      for (const [ns, texts] of Object.entries(source)) {
        const translated = (resources[locale] as Record<string, Record<string, string>>)[ns] ?? {};
        for (const [key, value] of Object.entries(texts as Record<string, string>)) {
          const placeholders = (value.match(/\{\{\w+\}\}/g) ?? []).sort();
          expect((translated[key]?.match(/\{\{\w+\}\}/g) ?? []).sort(), `${locale}/${ns}:${key}`).toEqual(placeholders);
        }
      }
    }
  });
});
