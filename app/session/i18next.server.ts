import { createCookie } from "@remix-run/node";
import { createInstance, type i18n as I18n } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { env } from "~/runtime/env.server";
import { DEFAULT_LOCALE, i18nConfig, type Locale, SUPPORTED_LOCALES, toSupportedLocale } from "~/lib/i18n";
import { createTranslator, type Texts, type Translator } from "~/lib/translator";
import { resources } from "~/locales/resources";
import { getPortalSession } from "./session.server";

/** The language chosen in the footer, for signed-out visitors (a year). */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.cookieSecure,
  maxAge: 60 * 60 * 24 * 365,
});

const i18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ["cookie", "header"],
  },
  i18next: { ...i18nConfig, resources },
});

/** The locale of a request: the signed-in user's, else the chosen cookie, else Accept-Language. */
export async function resolveLocale(request: Request): Promise<Locale> {
  const session = await getPortalSession(request);
  const fromUser = toSupportedLocale(session?.user.locale);
  if (fromUser) return fromUser;
  return toSupportedLocale(await i18next.getLocale(request)) ?? DEFAULT_LOCALE;
}

/**
 * One i18next instance per locale for the life of the process (issue 16): the translations are
 * bundled and never change, and building an instance per loader and per render was a measurable
 * part of every page's own time. The instances are never switched to another language.
 */
const instances = new Map<Locale, Promise<I18n>>();

export function i18nFor(locale: Locale): Promise<I18n> {
  let ready = instances.get(locale);
  if (!ready) {
    const instance = createInstance();
    ready = instance
      .init({ ...i18nConfig, lng: locale, resources })
      .then(() => instance);
    instances.set(locale, ready);
  }
  return ready;
}

const translators = new Map<Locale, Translator>();

/** The page's components translate with this (app/components/translation.tsx), as the browser does. */
export function translatorFor(locale: Locale): Translator {
  let translator = translators.get(locale);
  if (!translator) {
    translator = createTranslator(locale, resources[locale] as unknown as Texts);
    translators.set(locale, translator);
  }
  return translator;
}

export async function getFixedT(request: Request, ns: string = "common") {
  const locale = await resolveLocale(request);
  return (await i18nFor(locale)).getFixedT(locale, ns);
}

export default i18next;
