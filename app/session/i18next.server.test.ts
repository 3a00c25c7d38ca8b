import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/lib/i18n";
import { resources } from "~/locales/resources";
import { getFixedT } from "./i18next.server";

const request = (language: string) =>
  new Request("http://portal.test/clients/home", { headers: { "Accept-Language": language } });

describe("the loaders' translate function (decision 124)", () => {
  it("is made once per locale and namespace, not per request", async () => {
    const first = await getFixedT(request("fr-CA"), "clients");
    expect(await getFixedT(request("fr-CA"), "clients")).toBe(first);
    expect(await getFixedT(request("fr-CA"), "auth")).not.toBe(first);
    expect(await getFixedT(request("en-GB"), "clients")).not.toBe(first);
  });

  it("answers as i18next does, in the request's locale", async () => {
    const i18n = createInstance();
    await i18n.init({ ...i18nConfig, lng: "fr-CA", resources });
    const t = await getFixedT(request("fr-CA"), "auth");
    for (const [key, options] of [
      ["login.title", undefined],
      ["common:errors.generic.title", undefined],
      ["no.such.key", { count: 2 }],
    ] as const) {
      expect(t(key, options)).toBe(i18n.getFixedT("fr-CA", "auth")(key, options));
    }
    expect(t("login.title")).not.toBe((await getFixedT(request("en-GB"), "auth"))("login.title"));
  });
});
