import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import { env } from "~/runtime/env.server";
import { DEFAULT_LOCALE, i18nConfig, type Locale, SUPPORTED_LOCALES, toSupportedLocale } from "~/lib/i18n";
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

export async function getFixedT(request: Request, ns: string = "common") {
  const locale = await resolveLocale(request);
  return i18next.getFixedT(locale, ns);
}

export default i18next;
