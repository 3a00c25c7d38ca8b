import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// Issue 39 finding 5 (docs/decisions/167): with COOKIE_SECURE on, every cookie the portal sets is a
// `__Host-` cookie: Secure, Path=/ and no Domain, so that only this host over HTTPS can set it.
// This file has a module graph of its own (vitest.config.ts OWN_GRAPH): the portal's modules read
// COOKIE_SECURE once, when first imported.

process.env.COOKIE_SECURE = "true";
process.env.SESSION_SECRET = "a".repeat(64);

type Modules = Awaited<ReturnType<typeof load>>;
async function load() {
  const [
    session,
    token,
    toast,
    notifications,
    loginState,
    reset,
    verification,
    passkeys,
    i18n,
    consent,
    announcement,
    csrf,
  ] = await Promise.all([
    import("~/session/session.server"),
    import("~/session/anti-forgery-token.server"),
    import("~/session/toast.server"),
    import("~/session/notifications.server"),
    import("~/session/login-state.server"),
    import("~/session/reset-state.server"),
    import("~/routes/clients.additional-verification/verification-state.server"),
    import("~/session/passkey-device.server"),
    import("~/session/i18next.server"),
    import("~/session/cookie-consent.server"),
    import("~/session/announcement.server"),
    import("~/session/csrf.server"),
  ]);
  return {
    session,
    token,
    toast,
    notifications,
    loginState,
    reset,
    verification,
    passkeys,
    i18n,
    consent,
    announcement,
    csrf,
  };
}

let m: Modules;
beforeAll(async () => {
  m = await load();
});

const user = {
  id: 7,
  entityId: 70,
  role: "ClientUser",
  firstName: "Ellie",
  lastName: "Hartley",
  locale: "en-GB",
  siteAccessLevel: "Portfolio",
  loginMethod: "password",
} as never;

/** Every Set-Cookie the portal's modules write, by the cookie's usual (plain HTTP) name. */
async function everyCookie(): Promise<Record<string, string>> {
  const signedIn = await m.session.createUserSession({
    token: "platform-token-1",
    user,
    idleMinutes: 30,
    redirectTo: "/",
  });
  const [sessionCookie, tokenCookie] = signedIn.headers.getSetCookie();
  const pair = sessionCookie!.split(";")[0]!;
  const later = Date.now() + 5 * 60_000;
  const activity = await m.session.touchSession(
    new Request("https://portal.test/", { headers: { Cookie: pair } }),
    later,
  );
  return {
    __session: sessionCookie!,
    csrf: tokenCookie!,
    __activity: activity!,
    __toast: await m.toast.toastCookie({ type: "success", title: "Saved" }),
    __notifications: await m.notifications.marksSetCookie(7, { dismissed: [], closed: [], updated: [] }),
    __login_state: m.loginState.commitLoginState({
      ticket: "t",
      role: "ClientUser",
      userType: "client",
      redirectTo: null,
      step: { status: "ForceChangePassword", reason: null },
    }),
    __reset: await m.reset.commitResetState({ reference: "r", method: "code", questions: [], codeErrors: 0 }),
    __verification: await m.verification.commitVerificationState({ step: "changed", method: "sms" } as never),
    passkeys: await m.passkeys.writeDevicePasskeys([3]),
    lng: await m.i18n.localeCookie.serialize("en-GB"),
    cookie_consent: await m.consent.acceptCookiesHeader(),
    announcement_closed: await m.announcement.closeAnnouncementHeader("abc", false),
    announcement_hidden: await m.announcement.closeAnnouncementHeader("abc", true),
  };
}

describe("with COOKIE_SECURE on", () => {
  it("names every cookie __Host-…, Secure, for the whole site, with no Domain", async () => {
    const cookies = await everyCookie();
    expect(Object.keys(cookies)).toHaveLength(13);
    for (const [usual, setCookie] of Object.entries(cookies)) {
      const name = setCookie.slice(0, setCookie.indexOf("="));
      const wanted =
        usual === "announcement_hidden" ? "__Host-announcement_hidden_abc" : `__Host-${usual.replace(/^_+/, "")}`;
      expect(name, usual).toBe(wanted);
      const attributes = setCookie
        .split(";")
        .slice(1)
        .map((a) => a.trim().toLowerCase());
      expect(attributes, usual).toContain("secure");
      expect(attributes, usual).toContain("path=/");
      expect(
        attributes.some((a) => a.startsWith("domain=")),
        usual,
      ).toBe(false);
      expect(attributes, usual).toContain("httponly");
    }
  });

  it("reads them back: the session, its activity and its anti-forgery token", async () => {
    const cookies = await everyCookie();
    const jar = ["__session", "__activity", "csrf"].map((n) => cookies[n]!.split(";")[0]!).join("; ");
    const request = new Request("https://portal.test/", { headers: { Cookie: jar } });
    expect(await m.session.sessionBinding(request)).toBe("platform-token-1");
    const [token, setCookie] = await m.csrf.csrf.commitToken(request);
    expect(setCookie).toBeNull();
    const form = new FormData();
    form.set("csrf", token);
    await expect(
      m.csrf.validateCsrf(form, new Request("https://portal.test/", { method: "POST", headers: { Cookie: jar } })),
    ).resolves.toBeUndefined();
    // the same cookies under their plain-HTTP names are not this portal's
    const plain = jar.replaceAll("__Host-", "__").replace("__csrf=", "csrf=");
    expect(
      await m.session.sessionBinding(new Request("https://portal.test/", { headers: { Cookie: plain } })),
    ).toBeNull();
  });
});

describe("every cookie of the portal's code", () => {
  it("is named through cookieName or cookieScope", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
      }
    };
    walk("app");
    const literal = /\b(createCookie|createSealedCookie)\(\s*["'`]/;
    const offenders = files.filter((file) => literal.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
