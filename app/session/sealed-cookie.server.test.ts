import { createCookieSessionStorage } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { tampered } from "../../tests/tamper";
import { createSealedCookie } from "./sealed-cookie.server";

// docs/decisions/113: a cookie sealed whole (the session, the toasts, the notification marks).

const OPTIONS = { path: "/", httpOnly: true, sameSite: "lax" as const, secure: true };
const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("a sealed cookie", () => {
  it("round-trips its content and shows none of it", async () => {
    const cookie = createSealedCookie("__test", OPTIONS, "test", ["secret-a"]);
    const content = { user: { displayName: "Ellie Hartley", entityId: 4321 }, role: "ClientUser" };
    const setCookie = await cookie.serialize(content);
    expect(setCookie).toMatch(/^__test=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const value = cookieOf(setCookie).slice("__test=".length);
    for (const part of value.split(".")) {
      const decoded = Buffer.from(part, "base64url").toString("latin1");
      expect(decoded).not.toContain("Ellie");
      expect(decoded).not.toContain("4321");
      expect(decoded).not.toContain("ClientUser");
    }
    expect(await cookie.parse(`other=1; ${cookieOf(setCookie)}`)).toEqual(content);
  });

  it("keeps what a value opens to for the next reading of it, frozen, and never a value that does not open", async () => {
    const cookie = createSealedCookie("__test", OPTIONS, "test", ["secret-a"]);
    const header = cookieOf(await cookie.serialize({ user: { entityId: 4321 }, advisers: [1, 2] }));
    const first = (await cookie.parse(header)) as { user: { entityId: number }; advisers: number[] };
    // the same value reads as the same content, not opened again; nobody can change it for the next
    expect(await cookie.parse(`other=1; ${header}`)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.user) && Object.isFrozen(first.advisers)).toBe(true);
    expect(() => {
      first.user.entityId = 1;
    }).toThrow(TypeError);
    // another value of the same content is its own reading; a changed one reads as nothing, every time
    const again = cookieOf(await cookie.serialize({ user: { entityId: 4321 }, advisers: [1, 2] }));
    expect(await cookie.parse(again)).not.toBe(first);
    expect(await cookie.parse(again)).toEqual(first);
    const changed = tampered(header);
    expect(await cookie.parse(changed)).toBeNull();
    expect(await cookie.parse(changed)).toBeNull();
  });

  it("is read with a secret rotated out but still in the list, and not once it is gone", async () => {
    const before = createSealedCookie("__test", OPTIONS, "test", ["old-secret"]);
    const after = createSealedCookie("__test", OPTIONS, "test", ["new-secret", "old-secret"]);
    const later = createSealedCookie("__test", OPTIONS, "test", ["newer-secret", "new-secret"]);
    const old = cookieOf(await before.serialize({ n: 1 }));
    expect(await after.parse(old)).toEqual({ n: 1 });
    expect(await later.parse(old)).toBeNull();
    // the first secret seals
    expect(await before.parse(cookieOf(await after.serialize({ n: 2 })))).toBeNull();
  });

  it("reads as nothing when changed, sealed for another purpose, or not sealed at all", async () => {
    const cookie = createSealedCookie("__test", OPTIONS, "test", ["s"]);
    const value = cookieOf(await cookie.serialize({ n: 1 }));
    for (let at = "__test=".length; at < value.length; at += 7) {
      if (value[at] === ".") continue;
      const changed = value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
      expect(await cookie.parse(changed)).toBeNull();
    }
    const other = createSealedCookie("__test", OPTIONS, "other", ["s"]);
    expect(await other.parse(value)).toBeNull();
    expect(await cookie.parse("__test=eyJuIjoxfQ%3D%3D")).toBeNull();
    expect(await cookie.parse("__test=")).toBeNull();
    expect(await cookie.parse(null)).toBeNull();
  });

  it("serves a Remix cookie session storage, whose destroy clears the cookie", async () => {
    const storage = createCookieSessionStorage({ cookie: createSealedCookie("__s", OPTIONS, "test", ["s"]) });
    const session = await storage.getSession();
    session.set("token", "platform-token-123");
    const header = cookieOf(await storage.commitSession(session));
    expect(header).not.toContain("platform-token-123");
    expect((await storage.getSession(header)).get("token")).toBe("platform-token-123");
    expect(await storage.destroySession(session)).toMatch(
      /^__s=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});
