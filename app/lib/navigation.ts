// spec 000 §2 "Navigation": which pages a signed-in user is offered, and the unread badge.
// Pure and shared by the server and the browser; the shell renders what this answers.

import type { Locale } from "./i18n";

/** Client page keys (spec 000 §2) and the adviser's one. */
export const CLIENT_PAGE_KEYS = [
  "home",
  "analysis",
  "balanceSheet",
  "documentsAndMessages",
  "valuationReport",
  "annualReview",
  "personalDetails",
  "adviserDetails",
  "preferences",
  "changePassword",
  "securityQuestions",
  "additionalVerification",
  "biometricPermission",
  // not in spec 000 §2: 'Where you're signed in' (ASVS V3.3.4, docs/decisions/170)
  "sessions",
] as const;
export type ClientPageKey = (typeof CLIENT_PAGE_KEYS)[number];
export type PageKey = ClientPageKey | "clientList";

/**
 * The pages that exist in this build. The shell links only these, so that nobody is offered a
 * page that answers 404. Later issues add their page key here when they add the route.
 */
export const AVAILABLE_PAGES: ReadonlySet<PageKey> = new Set<PageKey>([
  "home",
  "analysis",
  "balanceSheet",
  "documentsAndMessages",
  "valuationReport",
  "personalDetails",
  "adviserDetails",
  "preferences",
  "changePassword",
  "securityQuestions",
  "additionalVerification",
  "biometricPermission",
  "sessions",
  "clientList",
]);

/** spec 000 §2: segments fall back to the kebab-case of the page key (decision 001: fixed paths). */
export const PAGE_PATHS: Record<PageKey, string> = {
  home: "/clients/home",
  analysis: "/clients/analysis",
  balanceSheet: "/clients/balance-sheet",
  documentsAndMessages: "/clients/documents-and-messages",
  valuationReport: "/clients/valuation-report",
  annualReview: "/clients/annual-review",
  personalDetails: "/clients/personal-details",
  adviserDetails: "/clients/adviser-details",
  preferences: "/clients/preferences",
  changePassword: "/clients/change-password",
  securityQuestions: "/clients/security-questions",
  additionalVerification: "/clients/additional-verification",
  biometricPermission: "/clients/biometric-permission",
  sessions: "/clients/sessions",
  clientList: "/advisers/clients",
};

/** Where each entry sits: the main menu bar or the My Account menu. */
const MAIN_MENU: readonly PageKey[] = [
  "home",
  "analysis",
  "balanceSheet",
  "documentsAndMessages",
  "valuationReport",
  "annualReview",
  "clientList",
];
const ACCOUNT_MENU: readonly PageKey[] = [
  "personalDetails",
  "adviserDetails",
  "preferences",
  "changePassword",
  "sessions",
  "securityQuestions",
  "additionalVerification",
  "biometricPermission",
];

/** spec 000 §3: site access levels. */
export type NavigationAccessLevel = "Portfolio" | "Assets" | "Messages" | "NotAssigned";

export type NavigationInput = {
  role: "ClientUser" | "User";
  /** For an adviser: whether a client is in context (the clients section is open to them). */
  hasClientInContext: boolean;
  /** The site access level of the client whose portal is shown (own, or the client in context). */
  siteAccessLevel: NavigationAccessLevel | null;
  locale: Locale;
  loginMethod: "Basic" | "MemorableWord" | "MFA";
  /** spec 000 §2: a valuation report template exists for the user type. */
  hasReportTemplate?: boolean;
  /** spec 000 §1: the client-reports feature toggle. */
  clientReportsEnabled?: boolean;
  /**
   * spec 000 §2 adapted to passkeys (docs/decisions/101): the permission link shows while the user
   * has no passkey; the security pages link the page always.
   */
  hasPasskey?: boolean;
};

/** spec 000 §2: preferences are tied to one locale. */
export const PREFERENCES_LOCALE: Locale = "en-GB";

function assetsOrPortfolio(level: NavigationAccessLevel | null): boolean {
  return level === "Portfolio" || level === "Assets";
}

/** spec 000 §2 "Rules" and §6: is this page offered to this user? (Ignores what is built.) */
export function isPageAllowed(key: PageKey, input: NavigationInput): boolean {
  const isClient = input.role === "ClientUser";
  if (key === "clientList") return input.role === "User";
  // The clients section is open to a client, or to an adviser with a client in context.
  if (!isClient && !input.hasClientInContext) return false;
  const level = input.siteAccessLevel;
  switch (key) {
    case "analysis":
      return level === "Portfolio";
    case "home":
    case "balanceSheet":
      return assetsOrPortfolio(level);
    case "valuationReport":
      return assetsOrPortfolio(level) && Boolean(input.hasReportTemplate || input.clientReportsEnabled);
    case "documentsAndMessages":
    case "personalDetails":
    case "adviserDetails":
      return true;
    case "annualReview":
      // spec 002 "Annual Review page": clients only.
      return isClient;
    case "preferences":
      // spec 000 §6: the preferences route allows only the client role; §2: tied to one locale.
      return isClient && input.locale === PREFERENCES_LOCALE;
    case "changePassword":
    case "sessions":
    case "securityQuestions":
      return isClient;
    case "additionalVerification":
      return isClient && input.loginMethod === "MFA";
    case "biometricPermission":
      return isClient && !input.hasPasskey;
  }
}

export type NavigationEntry = { key: PageKey; href: string; labelKey: string };
export type Navigation = { main: NavigationEntry[]; account: NavigationEntry[] };

/**
 * The shell's menus: the entries the user is allowed, limited to the pages that exist.
 * Advisers without a client in context see only 'Your Clients'.
 */
export function navigationFor(input: NavigationInput, available: ReadonlySet<PageKey> = AVAILABLE_PAGES): Navigation {
  const entry = (key: PageKey): NavigationEntry => ({ key, href: PAGE_PATHS[key], labelKey: `nav.${key}` });
  const offered = (key: PageKey) => available.has(key) && isPageAllowed(key, input);
  // The 'Viewing {client}' link already leads an adviser in context back to the client list.
  const main = MAIN_MENU.filter(offered).filter((key) => !(key === "clientList" && input.hasClientInContext));
  return { main: main.map(entry), account: ACCOUNT_MENU.filter(offered).map(entry) };
}

/** The entry whose page is being shown: the longest matching path prefix, or null. */
export function activeEntry(entries: NavigationEntry[], pathname: string): PageKey | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  let best: NavigationEntry | null = null;
  for (const e of entries) {
    if (path === e.href || path.startsWith(`${e.href}/`)) {
      if (!best || e.href.length > best.href.length) best = e;
    }
  }
  return best?.key ?? null;
}

/** spec 000 §9: the unread badge cap. */
export const UNREAD_BADGE_CAP = 20;

/**
 * spec 000 §2 "Unread badge": the count up to 20, then '20+'; shown only when the count is above
 * 0 and the user is a client. Answers the badge text, or null for no badge.
 */
export function unreadBadge(count: number | null | undefined, role: "ClientUser" | "User"): string | null {
  if (role !== "ClientUser") return null;
  if (typeof count !== "number" || !Number.isFinite(count) || count <= 0) return null;
  const whole = Math.floor(count);
  if (whole <= 0) return null;
  return whole > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(whole);
}

/** spec 002 "Unread counts show as '(n)' up to 20, then '(20+)'"; none for no unread. */
export function unreadLabel(count: number | null | undefined): string | null {
  const badge = unreadBadge(count, "ClientUser");
  return badge ? `(${badge})` : null;
}

/**
 * spec 000 §2 Access Denied and 002 "Other pages": where 'Return to Client Online' and a text
 * page's Back link lead. Clients (and advisers with a client in context) go to the clients home,
 * other advisers to their home, signed-out visitors to login.
 */
export function homePathFor(
  user: { role: "ClientUser" | "User"; clientInContext: unknown | null } | null | undefined,
): string {
  if (!user) return "/login";
  if (user.role === "ClientUser" || user.clientInContext) return "/clients";
  return "/advisers";
}

/** spec 000 §2 and 002 "Other pages": a text page's Back link (advisers go to the client list). */
export function textPageBackPath(user: { role: "ClientUser" | "User" } | null | undefined): string {
  if (!user) return "/login";
  return user.role === "User" ? PAGE_PATHS.clientList : "/clients";
}
