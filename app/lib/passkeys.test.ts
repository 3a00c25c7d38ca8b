import { describe, expect, it } from "vitest";
import {
  ceremonyProblemOf,
  devicePasskeys,
  PASSKEY_API_MESSAGES,
  parseDeviceIds,
  passkeyNameFor,
  registrationRefusalKey,
  signInRefusalKey,
} from "./passkeys";
import { PasskeyNameSchema } from "./passkeys-schemas";

describe("passkey names", () => {
  it("names a passkey after the browser and system that made it", () => {
    const chromeMac =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const safariIphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    const edgeWindows =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
    const firefoxLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
    const chromeAndroid =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
    expect(passkeyNameFor(chromeMac)).toBe("Chrome on Mac");
    expect(passkeyNameFor(safariIphone)).toBe("Safari on iPhone");
    expect(passkeyNameFor(edgeWindows)).toBe("Edge on Windows");
    expect(passkeyNameFor(firefoxLinux)).toBe("Firefox on Linux");
    // Android says Linux too: the more telling name wins.
    expect(passkeyNameFor(chromeAndroid)).toBe("Chrome on Android");
    const headless =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";
    expect(passkeyNameFor(headless)).toBe("Chrome on Linux");
  });

  it("falls back to what it knows, else 'Passkey'", () => {
    expect(passkeyNameFor("SomeBot/1.0 (Windows NT 10.0)")).toBe("Windows");
    expect(passkeyNameFor("curl/8.5.0")).toBe("Passkey");
    expect(passkeyNameFor(null)).toBe("Passkey");
  });

  it("takes 1 to 64 characters after trimming", () => {
    expect(PasskeyNameSchema.parse("  Work laptop  ")).toBe("Work laptop");
    expect(PasskeyNameSchema.safeParse("   ").error?.issues[0]?.message).toBe("security:biometric.errors.nameRequired");
    expect(PasskeyNameSchema.safeParse("x".repeat(64)).success).toBe(true);
    expect(PasskeyNameSchema.safeParse("x".repeat(65)).error?.issues[0]?.message).toBe(
      "security:biometric.errors.nameLength",
    );
  });
});

describe("the platform's refusals", () => {
  it("maps a refused sign-in to its message", () => {
    expect(signInRefusalKey(400, PASSKEY_API_MESSAGES.expired)).toBe("login.passkey.expired");
    expect(signInRefusalKey(401, PASSKEY_API_MESSAGES.notRecognised)).toBe("login.passkey.notRecognised");
    expect(signInRefusalKey(401, PASSKEY_API_MESSAGES.notVerified)).toBe("login.passkey.failed");
    expect(signInRefusalKey(400, "Invalid body: response")).toBe("login.passkey.failed");
    // anything else is the caller's: a disabled account (403), the platform failing (5xx, 0)
    expect(signInRefusalKey(403, "Account has been disabled.")).toBeNull();
    expect(signInRefusalKey(500, null)).toBeNull();
    expect(signInRefusalKey(0, null)).toBeNull();
  });

  it("maps a refused registration to its message", () => {
    expect(registrationRefusalKey(409, PASSKEY_API_MESSAGES.alreadyRegistered)).toBe(
      "biometric.errors.alreadyRegistered",
    );
    expect(registrationRefusalKey(409, "No more than 20 passkeys can be registered")).toBe("biometric.errors.tooMany");
    expect(registrationRefusalKey(400, PASSKEY_API_MESSAGES.registrationExpired)).toBe("biometric.errors.expired");
    expect(registrationRefusalKey(400, PASSKEY_API_MESSAGES.notVerified)).toBe("biometric.errors.notVerified");
    expect(registrationRefusalKey(503, null)).toBeNull();
  });
});

describe("the browser's own errors", () => {
  it("tells a cancelled prompt from a device that cannot, and from a passkey already there", () => {
    expect(ceremonyProblemOf({ name: "NotAllowedError" })).toBe("cancelled");
    expect(ceremonyProblemOf({ name: "AbortError" })).toBe("cancelled");
    expect(ceremonyProblemOf({ code: "ERROR_CEREMONY_ABORTED", name: "AbortError" })).toBe("cancelled");
    expect(ceremonyProblemOf({ code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", name: "InvalidStateError" })).toBe(
      "alreadyRegistered",
    );
    expect(ceremonyProblemOf({ code: "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT" })).toBe("unsupported");
    expect(ceremonyProblemOf({ name: "NotSupportedError" })).toBe("unsupported");
    expect(ceremonyProblemOf(new TypeError("bad options"))).toBe("failed");
    expect(ceremonyProblemOf("odd")).toBe("failed");
  });
});

describe("this device's passkeys", () => {
  it("keeps the device's ids that the user still has, once each", () => {
    expect(devicePasskeys([3, 7, 3, 9], [1, 3, 9])).toEqual([3, 9]);
    expect(devicePasskeys([], [1, 2])).toEqual([]);
    expect(devicePasskeys([4], [])).toEqual([]);
  });

  it("reads only positive whole ids from the cookie, the newest twenty", () => {
    expect(parseDeviceIds([1, "2", -3, 0, 4.5, 6])).toEqual([1, 6]);
    expect(parseDeviceIds("1,2")).toEqual([]);
    expect(parseDeviceIds(null)).toEqual([]);
    const many = Array.from({ length: 25 }, (_, i) => i + 1);
    expect(parseDeviceIds(many)).toEqual(many.slice(5));
  });
});
