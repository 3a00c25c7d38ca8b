import { randomBytes, scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { securityQuestions, users } from "../../server/db/schema";
import { answersMatch, hashesNotUnderCurrentPepper, setSecurityQuestions } from "../../server/domain/accounts";
import { readEnv } from "../../server/env";
import {
  currentPepperId,
  DEVELOPMENT_PEPPER_KEY,
  hashSecret,
  needsRehash,
  pepperIdOf,
  usePepperKeys,
  verifySecret,
} from "../../server/lib/password";
import { DEMO_PASSWORD } from "../../server/seed";
import { withPlatform } from "./harness";

// what production asks for besides what this file is about (each refused apart when missing)
const PRODUCTION_REST = {
  PLATFORM_SECRET_KEYS: "5e".repeat(32),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_CALLER_KEYS: "ca".repeat(32),
  PLATFORM_DB_KEYS: "db".repeat(32),
} as const;

// ASVS 4.0.3 V2.4.5 (docs/decisions/183): password and security-answer hashes are peppered with a
// key from the platform's environment that the database never holds; hashes made before, or under a
// key being rotated out, keep working and are made again at the next successful sign-in.

const OLD = "a1".repeat(32);
const NEW = "b2".repeat(32);

// the files of a worker share this module: every test leaves the development pepper in place
afterEach(() => usePepperKeys([DEVELOPMENT_PEPPER_KEY]));

/** A hash as the platform made them before the pepper: scrypt$N$r$p$salt$hash of the NFC text. */
function unpepperedHash(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret.normalize("NFC"), salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("the pepper", () => {
  it("a hash names its pepper key and verifies only with that key configured", () => {
    usePepperKeys([OLD]);
    const hash = hashSecret("Correct horse 12");
    expect(hash).toMatch(/^pscrypt\$[0-9a-f]{8}\$16384\$8\$1\$/);
    expect(pepperIdOf(hash)).toBe(currentPepperId());
    expect(verifySecret("Correct horse 12", hash)).toBe(true);
    expect(verifySecret("correct horse 12", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    // the database alone (another pepper, as a thief without the platform's environment has) is not enough
    usePepperKeys([NEW]);
    expect(verifySecret("Correct horse 12", hash)).toBe(false);
  });

  it("rotates by a list: the first peppers, every one verifies, an older key's hash asks to be made again", () => {
    usePepperKeys([OLD]);
    const old = hashSecret("Correct horse 12");
    usePepperKeys([NEW, OLD]);
    expect(verifySecret("Correct horse 12", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    const made = hashSecret("Correct horse 12");
    expect(pepperIdOf(made)).not.toBe(pepperIdOf(old));
    expect(needsRehash(made)).toBe(false);
  });

  it("a hash made before the pepper verifies, and asks to be made again", () => {
    const before = unpepperedHash("Correct horse 12");
    expect(verifySecret("Correct horse 12", before)).toBe(true);
    expect(verifySecret("Correct horse 13", before)).toBe(false);
    expect(needsRehash(before)).toBe(true);
    expect(pepperIdOf(before)).toBeNull();
    expect(verifySecret("x", "pscrypt$bad")).toBe(false);
  });

  it("PLATFORM_PEPPER_KEYS is required in production, long, and never the development pepper", () => {
    const PLATFORM_SECRET_KEYS = "c3".repeat(32);
    expect(() =>
      readEnv({ NODE_ENV: "production", ...PRODUCTION_REST, PLATFORM_CLAMD_ADDRESS: "off", PLATFORM_SECRET_KEYS }),
    ).toThrow(/PLATFORM_PEPPER_KEYS: required in production/);
    expect(() =>
      readEnv({
        NODE_ENV: "production",
        ...PRODUCTION_REST,
        PLATFORM_CLAMD_ADDRESS: "off",
        PLATFORM_SECRET_KEYS,
        PLATFORM_PEPPER_KEYS: "short",
      }),
    ).toThrow(/PLATFORM_PEPPER_KEYS: the key is shorter than 32 bytes/);
    expect(() =>
      readEnv({
        NODE_ENV: "production",
        ...PRODUCTION_REST,
        PLATFORM_CLAMD_ADDRESS: "off",
        PLATFORM_SECRET_KEYS,
        PLATFORM_PEPPER_KEYS: DEVELOPMENT_PEPPER_KEY,
      }),
    ).toThrow(/PLATFORM_PEPPER_KEYS: the key is the public development key/);
    expect(
      readEnv({
        NODE_ENV: "production",
        ...PRODUCTION_REST,
        PLATFORM_CLAMD_ADDRESS: "off",
        PLATFORM_SECRET_KEYS,
        PLATFORM_PEPPER_KEYS: `${NEW},${OLD}`,
      }).pepperKeys,
    ).toEqual([NEW, OLD]);
    expect(readEnv({ NODE_ENV: "development" }).pepperKeys).toBeUndefined();
  });
});

describe("on the platform", () => {
  const harness = withPlatform();
  const storedHash = (username: string) =>
    harness.platform.db.select().from(users).where(eq(users.username, username)).get()!.passwordHash;

  it("the demo data set's hashes are peppered", () => {
    expect(pepperIdOf(storedHash("demo.client"))).toBe(currentPepperId());
  });

  it("a password hashed before the pepper signs in, and its hash is peppered from then on", async () => {
    const { db } = harness.platform;
    db.update(users)
      .set({ passwordHash: unpepperedHash(DEMO_PASSWORD) })
      .where(eq(users.username, "demo.assets"))
      .run();
    // a wrong password changes nothing
    expect((await harness.platform.login("demo.assets", "client", "Not-the-password-1")).status).toBe(401);
    expect(pepperIdOf(storedHash("demo.assets"))).toBeNull();
    expect((await harness.platform.login("demo.assets")).status).toBe(200);
    expect(pepperIdOf(storedHash("demo.assets"))).toBe(currentPepperId());
    expect((await harness.platform.login("demo.assets")).status).toBe(200);
  });

  it("security answers: peppered when set; one hashed before is made again once both answers are right", () => {
    const { db } = harness.platform;
    const userId = db.select().from(users).where(eq(users.username, "demo.messages")).get()!.id;
    setSecurityQuestions(db, userId, [
      { question: "First school?", answer: "Elm Road" },
      { question: "First pet?", answer: "Biscuit" },
    ]);
    const answers = () =>
      db
        .select()
        .from(securityQuestions)
        .where(eq(securityQuestions.userId, userId))
        .all()
        .map((q) => q.answerHash);
    expect(answers().map(pepperIdOf)).toEqual([currentPepperId(), currentPepperId()]);
    const first = db.select().from(securityQuestions).where(eq(securityQuestions.userId, userId)).all()[0]!;
    db.update(securityQuestions)
      .set({ answerHash: unpepperedHash("elm road") })
      .where(eq(securityQuestions.id, first.id))
      .run();
    expect(answersMatch(db, userId, ["Elm Road", "Wrong"])).toBe(false);
    expect(pepperIdOf(answers()[0]!)).toBeNull();
    expect(answersMatch(db, userId, ["Elm Road", "Biscuit"])).toBe(true);
    expect(answers().map(pepperIdOf)).toEqual([currentPepperId(), currentPepperId()]);
    expect(answersMatch(db, userId, ["elm road", "biscuit"])).toBe(true);
  });

  it("start-up counts the hashes a rotation waits for, and those it can no longer verify", () => {
    const { db } = harness.platform;
    const before = hashesNotUnderCurrentPepper(db);
    expect(before.unknownKey).toBe(0);
    db.update(users)
      .set({ passwordHash: unpepperedHash("x") })
      .where(eq(users.username, "demo.partner"))
      .run();
    expect(hashesNotUnderCurrentPepper(db).unpeppered).toBe(before.unpeppered + 1);
    usePepperKeys([NEW, DEVELOPMENT_PEPPER_KEY]);
    const rotating = hashesNotUnderCurrentPepper(db);
    expect(rotating.olderKey).toBeGreaterThan(0);
    expect(rotating.unknownKey).toBe(0);
    usePepperKeys([NEW]);
    expect(hashesNotUnderCurrentPepper(db).unknownKey).toBe(rotating.olderKey);
  });
});
