// spec 000 §3 "Site settings": the firm's favicon, login background, username hint, forgotten
// username label and login failure message, read from the settings the platform answers
// (docs/decisions/028). Pure: used by loaders and unit tested without a server.

type Settings = Record<string, string | number | boolean | null | undefined>;

const MAX_TEXT = 500;
const MAX_DATA_URL = 32_768;
const HEX = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;
// A path on the portal's own origin, in characters that need no escaping inside CSS url("…").
const SAME_ORIGIN_PATH = /^\/(?![/\\])[A-Za-z0-9._~\-/%]+(\?[A-Za-z0-9._~\-%=&]*)?$/;
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A text setting in the page's language: `key.<locale>` (for example `usernameHint.fr-CA`) when the
 * site has one, else `key`; blank counts as unset. Settings are firm-wide, so a text written in one
 * language needs its locale variants beside it.
 */
export function localisedSetting(settings: Settings, key: string, locale: string): string | null {
  for (const name of [`${key}.${locale}`, key]) {
    const value = settings[name];
    if (typeof value === "string" && value.trim()) return value.trim().slice(0, MAX_TEXT);
  }
  return null;
}

/**
 * An image the page may show: a path on the portal's own origin or a small `data:image` URL. The
 * content security policy allows images only from these (img-src 'self' data:), so anything else
 * would be blocked by the browser anyway (as for adviser photos, decision 033).
 */
export function sameOriginImage(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const src = value.trim();
  if (SAME_ORIGIN_PATH.test(src)) return src;
  if (src.length <= MAX_DATA_URL && DATA_IMAGE.test(src)) return src;
  return null;
}

export type Favicon = { href: string; type?: string };

const ICON_TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  gif: "image/gif",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

/** The portal's own icon, when the site names none (or one the page could not load). */
export const DEFAULT_FAVICON: Favicon = { href: "/favicon.svg", type: "image/svg+xml" };

/** spec 000 §3 `favicon`: the site's icon when set, the portal's own otherwise. */
export function faviconOf(settings: Settings): Favicon {
  const href = sameOriginImage(settings.favicon);
  if (!href) return DEFAULT_FAVICON;
  const type = href.startsWith("data:")
    ? /^data:([^;]+);/.exec(href)?.[1]
    : ICON_TYPES[/\.([a-z0-9]+)(\?|$)/i.exec(href)?.[1]?.toLowerCase() ?? ""];
  return type ? { href, type } : { href };
}

export type LoginBackground = {
  colour: string | null;
  /** Above 576px (spec 000 §9), unless a tablet image applies. */
  desktop: string | null;
  /** 1024 to 1199px. */
  tabletLandscape: string | null;
  /** 576 to 1023px. */
  tabletPortrait: string | null;
};

/** spec 000 §3 `loginBg`, `loginBgTabletL`, `loginBgTabletP`, `loginBgColour`. */
export function loginBackgroundOf(settings: Settings): LoginBackground {
  const colour =
    typeof settings.loginBgColour === "string" && HEX.test(settings.loginBgColour.trim())
      ? settings.loginBgColour.trim()
      : null;
  return {
    colour,
    desktop: sameOriginImage(settings.loginBg),
    tabletLandscape: sameOriginImage(settings.loginBgTabletL),
    tabletPortrait: sameOriginImage(settings.loginBgTabletP),
  };
}

/**
 * The login background as CSS custom properties, set inline on <html> like the chart colours:
 * the media queries by screen width live in app.css, so no style element (and no nonce) is needed.
 * Unset values are left out, so the stylesheet's fallbacks apply.
 */
export function loginBackgroundProperties(background: LoginBackground): Record<string, string> {
  const properties: Record<string, string> = {};
  if (background.colour) properties["--login-bg-colour"] = background.colour;
  if (background.desktop) properties["--login-bg"] = `url("${background.desktop}")`;
  if (background.tabletLandscape) properties["--login-bg-tablet-l"] = `url("${background.tabletLandscape}")`;
  if (background.tabletPortrait) properties["--login-bg-tablet-p"] = `url("${background.tabletPortrait}")`;
  return properties;
}

/**
 * spec 000 §8: the invalid-credentials text, 'Either your username or your password is incorrect.',
 * unless the site configures its own (`loginFailureMessage`, per locale as above). Null means the
 * portal's own text in the page's language.
 */
export function loginFailureMessageOf(settings: Settings, locale: string): string | null {
  return localisedSetting(settings, "loginFailureMessage", locale);
}
