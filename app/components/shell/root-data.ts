import { useRouteLoaderData } from "@remix-run/react";
import type { HoneypotInputProps } from "~/lib/honeypot";
import type { Announcement } from "~/lib/announcement";
import type { ErrorTitles } from "~/lib/error-title";
import type { Locale } from "~/lib/i18n";
import type { Navigation } from "~/lib/navigation";
import type { Favicon, LoginBackground } from "~/lib/site-settings";
import type { Toast } from "~/lib/toast";
import type { Theme } from "~/lib/theme";
import type { SessionUser } from "~/lib/user";

/**
 * What the root loader gives the document and the shell on every page: the contract between
 * `root.tsx` (which builds it) and the shared components (which read it), so neither imports the
 * other's module.
 */
export type RootData = {
  locale: Locale;
  localesVersion: string;
  csrfToken: string;
  honeypotInputProps: HoneypotInputProps;
  toast: Toast | null;
  user: SessionUser | null;
  /** How the page looks (docs/decisions/203): the signed-in user's choice; the device's setting otherwise. */
  theme: Theme;
  idleMinutes: number | null;
  /** spec 000 §4 "Session timeout": what the browser's warning needs (decision 060). */
  sessionTimeout: { idleMinutes: number; remainingMs: number; checkedAt: number } | null;
  cookieConsent: boolean;
  brand: {
    firmName: string;
    logo: string | null;
    chartColours: string[];
    /** Each chart colour as the dark theme draws it (`darkChartColour`), in the same order. */
    darkChartColours: string[];
    favicon: Favicon;
    loginBackground: LoginBackground;
  };
  navigation: Navigation | null;
  /** spec 000 §2 unread badge: null shows none. */
  unreadCount: number | null;
  /** spec 002 §2 and §4: the announcement panel; null shows none (docs/decisions/096). */
  announcement: Announcement | null;
  /**
   * Today in the site's words, for the printed page's header (issue 25 item 20, decision 117);
   * made on the server so that the date library stays out of every page's first load.
   */
  printedOn: string | null;
  /** An error page's title in the page's language (issue 40, app/lib/error-title.ts). */
  errorTitles: ErrorTitles;
};

/** The root loader's data for the shell; undefined when the root loader itself failed. */
export function useShellData() {
  return useRouteLoaderData<RootData>("root");
}

export type ShellData = NonNullable<ReturnType<typeof useShellData>>;
export type ShellUser = NonNullable<ShellData["user"]>;

export const FALLBACK_LOGO = "/brand/logo.svg";
