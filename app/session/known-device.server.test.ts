import { describe, expect, it } from "vitest";
import {
  deviceFor,
  deviceOfUser,
  KNOWN_DEVICE_COOKIE,
  KNOWN_DEVICE_DAYS,
  KNOWN_DEVICE_USERS,
  type KnownDevice,
  knownDevicesCookie,
  knownDevicesIn,
  readKnownDevices,
  signedInOnThisDevice,
  withSignIn,
} from "./known-device.server";
import { createSealedCookie } from "./sealed-cookie.server";

// Decision 173: the device cookie of a browser that has signed in as a user (OWASP's device
// cookies): sealed with the portal's secrets, bound to the user, read back only as it was written.

/** A request carrying the cookie of a Set-Cookie value. */
function requestWith(setCookie: string): Request {
  return new Request("http://portal.test/login", { headers: { Cookie: setCookie.split(";")[0]! } });
}

const NOW = new Date("2026-11-28T12:00:00.000Z");

describe("the device cookie", () => {
  it("is written sealed, long-lived, HttpOnly, SameSite=Lax, for the sign-in pages only", async () => {
    const devices = withSignIn([], { username: "Demo.Client ", userId: 7 }, NOW);
    const setCookie = await knownDevicesCookie(devices);
    expect(setCookie.startsWith(`${KNOWN_DEVICE_COOKIE}=`)).toBe(true);
    expect(setCookie).toContain("Path=/login");
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain(`Max-Age=${KNOWN_DEVICE_DAYS * 24 * 60 * 60}`);
    // nothing of the user can be read from it
    expect(setCookie).not.toContain("demo.client");
    expect(setCookie).not.toContain(devices[0]!.nonce);
  });

  it("reads back the user it was written for: username (as counted), id and a 128-bit nonce", async () => {
    const devices = withSignIn([], { username: "Demo.Client ", userId: 7 }, NOW);
    const read = await readKnownDevices(requestWith(await knownDevicesCookie(devices)), NOW);
    expect(read).toEqual(devices);
    expect(read[0]).toMatchObject({ username: "demo.client", userId: 7, issuedAt: NOW.toISOString() });
    expect(Buffer.from(read[0]!.nonce, "base64url")).toHaveLength(16);
    expect(deviceFor(read, "DEMO.client")).toEqual(read[0]);
    expect(deviceOfUser(read, 7)).toEqual(read[0]);
  });

  it("is no cookie when changed, sealed for another purpose or under a secret not in the list", async () => {
    const setCookie = await knownDevicesCookie(withSignIn([], { username: "demo.client", userId: 7 }, NOW));
    const value = setCookie.split(";")[0]!.slice(KNOWN_DEVICE_COOKIE.length + 1);
    const [iv, tag, sealed] = value.split(".");
    // the first character holds six whole bits of the ciphertext: another one changes it
    const flipped = `${sealed!.startsWith("A") ? "B" : "A"}${sealed!.slice(1)}`;
    expect(await readKnownDevices(requestWith(`${KNOWN_DEVICE_COOKIE}=${iv}.${tag}.${flipped}`), NOW)).toEqual([]);
    expect(await readKnownDevices(requestWith(`${KNOWN_DEVICE_COOKIE}=not-a-sealed-value`), NOW)).toEqual([]);

    const content = { v: 1, devices: withSignIn([], { username: "demo.client", userId: 7 }, NOW) };
    const otherPurpose = createSealedCookie(KNOWN_DEVICE_COOKIE, { path: "/login" }, "platform-token");
    expect(await readKnownDevices(requestWith(await otherPurpose.serialize(content)), NOW)).toEqual([]);
    const otherSecret = createSealedCookie(KNOWN_DEVICE_COOKIE, { path: "/login" }, "known-device", ["another"]);
    expect(await readKnownDevices(requestWith(await otherSecret.serialize(content)), NOW)).toEqual([]);
    // the same content as this module writes it is read
    expect(await readKnownDevices(requestWith(await knownDevicesCookie(content.devices)), NOW)).toEqual(
      content.devices,
    );
  });

  it("is for its own user only: another username or id finds nothing", async () => {
    const read = await readKnownDevices(
      requestWith(await knownDevicesCookie(withSignIn([], { username: "demo.client", userId: 7 }, NOW))),
      NOW,
    );
    expect(deviceFor(read, "demo.partner")).toBeNull();
    expect(deviceFor(read, "demo.client2")).toBeNull();
    expect(deviceOfUser(read, 8)).toBeNull();
  });

  it("is not honoured after KNOWN_DEVICE_DAYS, nor with entries of the wrong shape", () => {
    const devices = withSignIn([], { username: "demo.client", userId: 7 }, NOW);
    const later = (days: number) => new Date(NOW.getTime() + days * 24 * 60 * 60_000);
    expect(knownDevicesIn({ v: 1, devices }, later(KNOWN_DEVICE_DAYS))).toEqual(devices);
    expect(knownDevicesIn({ v: 1, devices }, later(KNOWN_DEVICE_DAYS + 1))).toEqual([]);
    expect(knownDevicesIn({ v: 1, devices: [{ ...devices[0], nonce: "short" }] }, NOW)).toEqual([]);
    expect(knownDevicesIn({ v: 2, devices }, NOW)).toEqual([]);
  });
});

describe("a sign-in on this browser", () => {
  it("gives the user a new nonce each time, keeps the browser's other users, newest first, at most five", () => {
    let devices: KnownDevice[] = [];
    for (let id = 1; id <= 6; id++) devices = withSignIn(devices, { username: `user.${id}`, userId: id }, NOW);
    expect(devices.map((d) => d.userId)).toEqual([6, 5, 4, 3, 2]);
    expect(devices).toHaveLength(KNOWN_DEVICE_USERS);
    const before = deviceOfUser(devices, 4)!;
    const again = withSignIn(devices, { username: "USER.4", userId: 4 }, NOW);
    expect(again.map((d) => d.userId)).toEqual([4, 6, 5, 3, 2]);
    expect(deviceOfUser(again, 4)!.nonce).not.toBe(before.nonce);
  });

  it("by password makes the browser known for the username typed", async () => {
    const setCookie = await signedInOnThisDevice(new Request("http://portal.test/login"), {
      username: "Demo.Client",
      userId: 7,
    });
    const read = await readKnownDevices(requestWith(setCookie!));
    expect(read.map(({ username, userId }) => ({ username, userId }))).toEqual([
      { username: "demo.client", userId: 7 },
    ]);
  });

  it("by passkey renews the browser's entry for that user, and gives none to a browser that had none", async () => {
    const known = await knownDevicesCookie(withSignIn([], { username: "demo.client", userId: 7 }));
    const renewed = await signedInOnThisDevice(requestWith(known), { username: null, userId: 7 });
    const read = await readKnownDevices(requestWith(renewed!));
    expect(read[0]).toMatchObject({ username: "demo.client", userId: 7 });
    expect(read[0]!.nonce).not.toBe((await readKnownDevices(requestWith(known)))[0]!.nonce);
    expect(await signedInOnThisDevice(requestWith(known), { username: null, userId: 8 })).toBeNull();
    expect(
      await signedInOnThisDevice(new Request("http://portal.test/login"), { username: null, userId: 7 }),
    ).toBeNull();
  });
});
