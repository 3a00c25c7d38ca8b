import { createInstance, type i18n as I18n } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { resources } from "~/locales/resources";
import { messageWithValues } from "./client-search";
import { i18nConfig, SUPPORTED_LOCALES } from "./i18n";
import { createTranslator, type Texts } from "./translator";

// The browser renders with createTranslator what the server rendered: it must answer exactly as
// i18next, configured as the portal configures it, for every text of every locale.
const instances = new Map<string, I18n>();
beforeAll(async () => {
  for (const locale of SUPPORTED_LOCALES) {
    const instance = createInstance();
    await instance.init({ ...i18nConfig, lng: locale, resources });
    instances.set(locale, instance);
  }
});

const PLURAL = /_(zero|one|two|few|many|other)$/;

describe("createTranslator gives i18next's answer", () => {
  for (const locale of SUPPORTED_LOCALES) {
    const texts = resources[locale] as unknown as Texts;
    it(`for every key of ${locale}, with and without values, counts and namespaces`, () => {
      const i18n = instances.get(locale)!;
      const translator = createTranslator(locale, texts);
      let compared = 0;
      for (const [ns, table] of Object.entries(texts)) {
        const fixed = i18n.getFixedT(locale, ns);
        const mine = translator.fixedT(ns);
        const names = [
          ...new Set(
            [
              ...Object.values(table)
                .join(" ")
                .matchAll(/\{\{-?\s*(\w+)\s*\}\}/g),
            ].map((m) => m[1]),
          ),
        ];
        for (const key of new Set(Object.keys(table).map((k) => k.replace(PLURAL, "")))) {
          const values = Object.fromEntries(names.map((name, i) => [name, i % 2 ? 12.5 : `<${name} value>`]));
          const variants: Record<string, unknown>[] = [
            {},
            { ...values, count: 0 },
            { ...values, count: 1 },
            { ...values, count: 2 },
            { count: 1.5 },
            { [names[0] ?? "name"]: undefined, [names[1] ?? "other"]: null },
          ];
          for (const options of variants) {
            expect(mine(key, options), `${locale} ${ns}:${key} ${JSON.stringify(options)}`).toBe(fixed(key, options));
            compared += 1;
          }
          // The namespace in the key, or in the options, from the default namespace's function.
          expect(translator.t(`${ns}:${key}`, values)).toBe(i18n.t(`${ns}:${key}`, values));
          expect(translator.t(key, { ...values, count: 2, ns })).toBe(i18n.t(key, { ...values, count: 2, ns }));
          expect(translator.exists(`${ns}:${key}`)).toBe(i18n.exists(`${ns}:${key}`));
        }
      }
      expect(compared).toBeGreaterThan(1_000);
    });
  }

  it("for keys that do not exist, ready texts and namespaces that do not exist", () => {
    const i18n = instances.get("en-GB")!;
    const translator = createTranslator("en-GB", resources["en-GB"] as unknown as Texts);
    for (const key of [
      "no.such.key",
      "clients:no.such.key",
      "nowhere:key",
      "Saved: your preferences",
      "A ready text.",
    ]) {
      expect(translator.t(key)).toBe(i18n.t(key));
      expect(translator.fixedT("clients")(key, { count: 2 })).toBe(
        i18n.getFixedT("en-GB", "clients")(key, { count: 2 }),
      );
      expect(translator.exists(key)).toBe(i18n.exists(key));
    }
    expect(translator.exists("no.such.key")).toBe(false);
  });

  it("for validation messages with values (nesting), in every locale", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const i18n = instances.get(locale)!;
      const translator = createTranslator(locale, resources[locale] as unknown as Texts);
      for (const [ns, key] of [
        ["recovery", "recovery:errors.dobFormat"],
        ["advisers", "advisers:clientList.errors.dob"],
      ] as const) {
        const message = messageWithValues(key, { format: "dd/mm/yyyy" });
        const mine = translator.fixedT(ns)(message);
        expect(mine).toBe(i18n.getFixedT(locale, ns)(message));
        expect(mine).toContain("dd/mm/yyyy");
        expect(mine).not.toContain("$t(");
        expect(translator.t(`Before ${message} after`)).toBe(i18n.t(`Before ${message} after`));
      }
      expect(translator.t("$t(common:no.such.key)")).toBe(i18n.t("$t(common:no.such.key)"));
      const withValue = translator.t("recovery:errors.dobFormat", { format: "$t(recovery:errors.dob)" });
      expect(withValue).toBe(i18n.t("recovery:errors.dobFormat", { format: "$t(recovery:errors.dob)" }));
    }
  });
});

describe("createTranslator", () => {
  const translator = createTranslator("fr-CA", {
    common: {
      greeting: "Bonjour {{name}}",
      files_one: "{{count}} fichier",
      files_other: "{{count}} fichiers",
      files_zero: "Aucun fichier",
    },
    other: { greeting: "Salut {{- name}}" },
  });

  it("uses the locale's plural rules, and _zero for 0", () => {
    expect(translator.t("files", { count: 0 })).toBe("Aucun fichier");
    expect(translator.t("files", { count: 1 })).toBe("1 fichier");
    expect(translator.t("files", { count: 1.5 })).toBe("1.5 fichier");
    expect(translator.t("files", { count: 2 })).toBe("2 fichiers");
  });

  it("keeps a variable not given, empties one given as undefined, never escapes", () => {
    expect(translator.t("greeting")).toBe("Bonjour {{name}}");
    expect(translator.t("greeting", { name: undefined })).toBe("Bonjour ");
    expect(translator.t("greeting", { name: "<b>Zoé</b>" })).toBe("Bonjour <b>Zoé</b>");
    expect(translator.t("other:greeting", { name: "Zoé" })).toBe("Salut Zoé");
  });

  it("answers the same function for the same namespace", () => {
    expect(translator.fixedT("other")).toBe(translator.fixedT("other"));
    expect(translator.fixedT()).toBe(translator.t);
  });
});
