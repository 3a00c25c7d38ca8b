import { createCookie } from "@remix-run/node";
import type { TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { env } from "~/runtime/env.server";
import { DEFAULT_LOCALE, i18nConfig, type Locale, SUPPORTED_LOCALES, toSupportedLocale } from "~/lib/i18n";
import { createTranslator, type Texts, type Translator } from "~/lib/translator";
import { resources } from "~/locales/resources";
import { cookieName } from "./cookie-name.server";
import { getPortalSession } from "./session.server";

/** The language chosen in the footer, for signed-out visitors (a year). */
export const localeCookie = createCookie(cookieName("lng"), {
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

/**
 * The loaders' and actions' translate function for the request's locale and namespace: the same
 * translator the components use (decision 124). It answers as i18next does for every text of every
 * locale (translator.test.ts), and looking a text up costs a fraction of i18next's `t`, which
 * resolved the language's fallbacks again on every call; the function is made once per locale and
 * namespace (issue 16 kept one i18next instance per locale for the same reason).
 */
export async function getFixedT(request: Request, ns: string = "common"): Promise<TFunction> {
  const locale = await resolveLocale(request);
  return translatorFor(locale).fixedT(ns) as unknown as TFunction;
}
