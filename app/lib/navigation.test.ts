import { describe, expect, it } from "vitest";
import {
  activeEntry,
  AVAILABLE_PAGES,
  CLIENT_PAGE_KEYS,
  homePathFor,
  isPageAllowed,
  type NavigationInput,
  navigationFor,
  type PageKey,
  PAGE_PATHS,
  textPageBackPath,
  unreadBadge,
  unreadLabel,
} from "./navigation";

const ALL: ReadonlySet<PageKey> = new Set<PageKey>([...CLIENT_PAGE_KEYS, "clientList"]);

const client = (over: Partial<NavigationInput> = {}): NavigationInput => ({
  role: "ClientUser",
  hasClientInContext: false,
  siteAccessLevel: "Portfolio",
  locale: "en-GB",
  loginMethod: "Basic",
  ...over,
});
const adviser = (over: Partial<NavigationInput> = {}): NavigationInput => ({
  role: "User",
  hasClientInContext: false,
  siteAccessLevel: null,
  locale: "en-GB",
  loginMethod: "Basic",
  ...over,
});

const keys = (input: NavigationInput, available = ALL) => {
  const nav = navigationFor(input, available);
  return { main: nav.main.map((e) => e.key), account: nav.account.map((e) => e.key) };
};

describe("navigationFor (spec 000 §2 rules)", () => {
  it("gives a Portfolio client every portfolio page", () => {
    expect(keys(client())).toEqual({
      main: ["home", "analysis", "balanceSheet", "documentsAndMessages", "annualReview"],
      account: [
        "personalDetails",
        "adviserDetails",
        "preferences",
        "changePassword",
        "sessions",
        "securityQuestions",
        "biometricPermission",
      ],
    });
  });

  it("shows analysis only for Portfolio access", () => {
    expect(keys(client({ siteAccessLevel: "Assets" })).main).not.toContain("analysis");
    expect(keys(client({ siteAccessLevel: "Messages" })).main).not.toContain("analysis");
    expect(keys(client({ siteAccessLevel: "NotAssigned" })).main).not.toContain("analysis");
  });

  it("shows home and balance sheet only for Portfolio or Assets", () => {
    expect(keys(client({ siteAccessLevel: "Assets" })).main).toEqual(
      expect.arrayContaining(["home", "balanceSheet", "documentsAndMessages"]),
    );
    const messagesOnly = keys(client({ siteAccessLevel: "Messages" })).main;
    expect(messagesOnly).not.toContain("home");
    expect(messagesOnly).not.toContain("balanceSheet");
    expect(messagesOnly).toContain("documentsAndMessages");
  });

  it("shows the valuation report only with Portfolio or Assets and a template or the client-reports feature", () => {
    expect(keys(client()).main).not.toContain("valuationReport");
    expect(keys(client({ hasReportTemplate: true })).main).toContain("valuationReport");
    expect(keys(client({ siteAccessLevel: "Assets", clientReportsEnabled: true })).main).toContain("valuationReport");
    expect(keys(client({ siteAccessLevel: "Messages", hasReportTemplate: true })).main).not.toContain(
      "valuationReport",
    );
  });

  it("ties preferences to the en-GB locale", () => {
    for (const locale of ["en-CA", "en-AU", "fr-CA"] as const) {
      expect(keys(client({ locale })).account).not.toContain("preferences");
    }
    expect(keys(client({ locale: "en-GB" })).account).toContain("preferences");
  });

  it("offers additional verification only when the login method is MFA", () => {
    expect(keys(client({ loginMethod: "Basic" })).account).not.toContain("additionalVerification");
    expect(keys(client({ loginMethod: "MemorableWord" })).account).not.toContain("additionalVerification");
    expect(keys(client({ loginMethod: "MFA" })).account).toContain("additionalVerification");
  });

  it("offers biometric permission to a client until they have a passkey (decision 101)", () => {
    expect(keys(client()).account).toContain("biometricPermission");
    expect(keys(client({ hasPasskey: false })).account).toContain("biometricPermission");
    expect(keys(client({ hasPasskey: true })).account).not.toContain("biometricPermission");
    expect(keys(adviser({ hasClientInContext: true, siteAccessLevel: "Portfolio" })).account).not.toContain(
      "biometricPermission",
    );
  });

  it("offers 'Where you're signed in' to clients only (docs/decisions/170)", () => {
    expect(isPageAllowed("sessions", client())).toBe(true);
    expect(isPageAllowed("sessions", client({ siteAccessLevel: "Messages" }))).toBe(true);
    expect(isPageAllowed("sessions", adviser())).toBe(false);
    expect(isPageAllowed("sessions", adviser({ hasClientInContext: true, siteAccessLevel: "Portfolio" }))).toBe(false);
  });

  it("shows an adviser without a client in context only 'Your Clients'", () => {
    expect(keys(adviser())).toEqual({ main: ["clientList"], account: [] });
  });

  it("shows an adviser with a client in context that client's pages, without client-only pages", () => {
    const nav = keys(adviser({ hasClientInContext: true, siteAccessLevel: "Assets", loginMethod: "MFA" }));
    expect(nav.main).toEqual(["home", "balanceSheet", "documentsAndMessages"]);
    expect(nav.account).toEqual(["personalDetails", "adviserDetails"]);
  });

  it("never gives a client the client list", () => {
    expect(isPageAllowed("clientList", client())).toBe(false);
  });

  it("shows only the pages that exist in this build", () => {
    expect(keys(client(), AVAILABLE_PAGES)).toEqual({
      main: ["home", "analysis", "balanceSheet", "documentsAndMessages"],
      account: [
        "personalDetails",
        "adviserDetails",
        "preferences",
        "changePassword",
        "sessions",
        "securityQuestions",
        "biometricPermission",
      ],
    });
    expect(keys(client({ loginMethod: "MFA" }), AVAILABLE_PAGES).account).toContain("additionalVerification");
    // preferences is tied to en-GB; advisers in context get none of the client-only account pages
    expect(keys(client({ locale: "fr-CA" }), AVAILABLE_PAGES).account).not.toContain("preferences");
    expect(keys(adviser({ hasClientInContext: true, siteAccessLevel: "Portfolio" }), AVAILABLE_PAGES).account).toEqual([
      "personalDetails",
      "adviserDetails",
    ]);
    expect(keys(client({ siteAccessLevel: "Messages" }), AVAILABLE_PAGES).main).toEqual(["documentsAndMessages"]);
    expect(keys(adviser(), AVAILABLE_PAGES).main).toEqual(["clientList"]);
  });

  it("links each entry to its page and label", () => {
    const nav = navigationFor(client(), ALL);
    expect(nav.main[0]).toEqual({ key: "home", href: "/clients/home", labelKey: "nav.home" });
    for (const key of [...CLIENT_PAGE_KEYS, "clientList"] as const)
      expect(PAGE_PATHS[key]).toMatch(/^\/(clients|advisers)\//);
  });
});

describe("activeEntry", () => {
  const nav = navigationFor(client(), ALL);
  it("matches the page and the pages below it", () => {
    expect(activeEntry(nav.main, "/clients/home")).toBe("home");
    expect(activeEntry(nav.main, "/clients/home/")).toBe("home");
    expect(activeEntry(nav.main, "/clients/analysis/holdings")).toBe("analysis");
  });
  it("does not match a mere name prefix or another page", () => {
    expect(activeEntry(nav.main, "/clients/homework")).toBeNull();
    expect(activeEntry(nav.main, "/core/site-terms")).toBeNull();
  });
});

describe("unreadBadge (spec 000 §2, §9)", () => {
  it("shows the count for a client up to 20", () => {
    expect(unreadBadge(1, "ClientUser")).toBe("1");
    expect(unreadBadge(19, "ClientUser")).toBe("19");
    expect(unreadBadge(20, "ClientUser")).toBe("20");
  });
  it("shows '20+' above 20", () => {
    expect(unreadBadge(21, "ClientUser")).toBe("20+");
    expect(unreadBadge(500, "ClientUser")).toBe("20+");
  });
  it("shows nothing for zero, a negative or an unknown count", () => {
    expect(unreadBadge(0, "ClientUser")).toBeNull();
    expect(unreadBadge(-3, "ClientUser")).toBeNull();
    expect(unreadBadge(null, "ClientUser")).toBeNull();
    expect(unreadBadge(undefined, "ClientUser")).toBeNull();
    expect(unreadBadge(Number.NaN, "ClientUser")).toBeNull();
  });
  it("shows nothing to an adviser, even with unread messages", () => {
    expect(unreadBadge(5, "User")).toBeNull();
    expect(unreadBadge(25, "User")).toBeNull();
  });
});

describe("where 'Return to Client Online' and Back lead", () => {
  it("home: clients and advisers in context to the clients home, other advisers to theirs, visitors to login", () => {
    expect(homePathFor({ role: "ClientUser", clientInContext: null })).toBe("/clients");
    expect(homePathFor({ role: "User", clientInContext: { id: 1 } })).toBe("/clients");
    expect(homePathFor({ role: "User", clientInContext: null })).toBe("/advisers");
    expect(homePathFor(null)).toBe("/login");
  });
  it("text pages: advisers to the client list, clients home, visitors to login", () => {
    expect(textPageBackPath({ role: "User" })).toBe("/advisers/clients");
    expect(textPageBackPath({ role: "ClientUser" })).toBe("/clients");
    expect(textPageBackPath(null)).toBe("/login");
  });
});

describe("messages unread label (spec 002)", () => {
  it("shows unread counts as '(n)' up to 20, then '(20+)', and none for zero", () => {
    expect(unreadLabel(3)).toBe("(3)");
    expect(unreadLabel(20)).toBe("(20)");
    expect(unreadLabel(21)).toBe("(20+)");
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(null)).toBeNull();
  });
});
