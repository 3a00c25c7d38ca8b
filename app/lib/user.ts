import type { SiteAccessLevel } from "./site-access";
import type { Theme } from "./theme";

// Who is signed in, as the portal keeps it in the session cookie and the shell shows it (spec 000
// §3 roles and site access levels, §2 client in context).

export type Role = "ClientUser" | "User";

export type ClientInContext = {
  id: number;
  entityId: number;
  displayName: string;
  siteAccessLevel: SiteAccessLevel;
  isPreviewMode: boolean;
  /** The client list as the adviser left it (search, sort, pages), for the 'Viewing …' link back. */
  listUrl?: string | null;
};

/** What the shell needs about the signed-in user, kept in the cookie so pages need no extra call. */
export type SessionUser = {
  id: number;
  entityId: number;
  role: Role;
  displayName: string;
  firstName: string;
  locale: string;
  loginMethod: "Basic" | "MemorableWord" | "MFA";
  /** The client's own site access level; null for advisers. */
  siteAccessLevel: SiteAccessLevel | null;
  partnerEntityId: number | null;
  lastLogin: string | null;
  userTimezone: string | null;
  clientInContext: ClientInContext | null;
  /** The user has a passkey (the account menu's biometric link rule); absent in older cookies. */
  hasPasskey?: boolean;
  /** How the portal looks to the user (docs/decisions/203); absent in older cookies (the device's setting). */
  theme?: Theme;
};
