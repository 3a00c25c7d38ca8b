import { describe, expect, it } from "vitest";
import {
  DEFAULT_FAVICON,
  faviconOf,
  localisedSetting,
  loginBackgroundOf,
  loginBackgroundProperties,
  loginFailureMessageOf,
  sameOriginImage,
} from "./site-settings";

describe("localisedSetting", () => {
  it("prefers the locale's own text, then the site's, and treats blank as unset", () => {
    const settings = {
      usernameHint: "For example jane.smith.",
      "usernameHint.fr-CA": "Par exemple jane.smith.",
      blank: "  ",
    };
    expect(localisedSetting(settings, "usernameHint", "fr-CA")).toBe("Par exemple jane.smith.");
    expect(localisedSetting(settings, "usernameHint", "en-GB")).toBe("For example jane.smith.");
    expect(localisedSetting(settings, "blank", "en-GB")).toBeNull();
    expect(localisedSetting({ usernameHint: 3 }, "usernameHint", "en-GB")).toBeNull();
    expect(localisedSetting({}, "usernameHint", "en-GB")).toBeNull();
  });
});

describe("sameOriginImage (the CSP allows img-src 'self' data:)", () => {
  it("keeps paths on the portal's origin and small data:image URLs", () => {
    expect(sameOriginImage("/brand/login-bg.svg")).toBe("/brand/login-bg.svg");
    expect(sameOriginImage(" /brand/bg.png?v=2 ")).toBe("/brand/bg.png?v=2");
    expect(sameOriginImage("data:image/png;base64,iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
  });

  it("drops other origins and anything that could break out of CSS url()", () => {
    for (const value of [
      "https://cdn.example.com/bg.png",
      "//cdn.example.com/bg.png",
      "/\\evil.example/bg.png",
      "/",
      'bg.png") , url("https://evil.example/x',
      '/bg.png");background:red',
      "/bg(1).png",
      "javascript:alert(1)",
      "data:text/html;base64,PHA+",
      `data:image/png;base64,${"A".repeat(40_000)}`,
      null,
      42,
    ]) {
      expect(sameOriginImage(value), String(value).slice(0, 40)).toBeNull();
    }
  });
});

describe("faviconOf (spec 000 §3 favicon)", () => {
  it("uses the site's icon with its type when set", () => {
    expect(faviconOf({ favicon: "/brand/favicon.svg" })).toEqual({ href: "/brand/favicon.svg", type: "image/svg+xml" });
    expect(faviconOf({ favicon: "/favicon.ico" })).toEqual({ href: "/favicon.ico", type: "image/x-icon" });
    expect(faviconOf({ favicon: "data:image/png;base64,iVBORw0KGgo=" })).toEqual({
      href: "data:image/png;base64,iVBORw0KGgo=",
      type: "image/png",
    });
    expect(faviconOf({ favicon: "/icons/firm" })).toEqual({ href: "/icons/firm" });
  });

  it("falls back to the portal's own icon", () => {
    expect(faviconOf({})).toEqual(DEFAULT_FAVICON);
    expect(faviconOf({ favicon: null })).toEqual(DEFAULT_FAVICON);
    expect(faviconOf({ favicon: "https://cdn.example.com/favicon.ico" })).toEqual(DEFAULT_FAVICON);
  });
});

describe("the login background (spec 000 §3, §9)", () => {
  it("reads the colour and the three images", () => {
    const background = loginBackgroundOf({
      loginBg: "/brand/login-bg.svg",
      loginBgTabletL: null,
      loginBgTabletP: "/brand/login-bg-portrait.svg",
      loginBgColour: "#14284B",
    });
    expect(background).toEqual({
      colour: "#14284B",
      desktop: "/brand/login-bg.svg",
      tabletLandscape: null,
      tabletPortrait: "/brand/login-bg-portrait.svg",
    });
    expect(loginBackgroundProperties(background)).toEqual({
      "--login-bg-colour": "#14284B",
      "--login-bg": 'url("/brand/login-bg.svg")',
      "--login-bg-tablet-p": 'url("/brand/login-bg-portrait.svg")',
    });
  });

  it("ignores a colour that is not a hex colour and images it may not show", () => {
    const background = loginBackgroundOf({
      loginBgColour: "red;background:url(x)",
      loginBg: "https://cdn.example.com/bg.jpg",
    });
    expect(background).toEqual({ colour: null, desktop: null, tabletLandscape: null, tabletPortrait: null });
    expect(loginBackgroundProperties(background)).toEqual({});
  });
});

describe("loginFailureMessageOf (spec 000 §8 invalid credentials)", () => {
  it("answers the site's text in the page's language, or null for the portal's own", () => {
    const settings = {
      loginFailureMessage: "Those details do not match our records.",
      "loginFailureMessage.fr-CA": "Ces renseignements ne correspondent pas à nos dossiers.",
    };
    expect(loginFailureMessageOf(settings, "en-GB")).toBe("Those details do not match our records.");
    expect(loginFailureMessageOf(settings, "fr-CA")).toBe("Ces renseignements ne correspondent pas à nos dossiers.");
    expect(loginFailureMessageOf({}, "en-GB")).toBeNull();
  });
});
