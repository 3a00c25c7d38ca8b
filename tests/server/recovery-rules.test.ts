import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/clock";
import { closeDatabase, openDatabase } from "../../server/db/connection";
import { platformKeys, recoveryAttempts } from "../../server/db/schema";
import { noticeText, noticeTime } from "../../server/domain/notices";
import { DECOY_QUESTIONS_OUT_OF_256, decoyFor, decoyKey } from "../../server/domain/recovery-decoys";
import {
  clearRecoveryFailures,
  MAX_RECOVERY_FAILURES,
  pruneRecoveryAttempts,
  recordRecoveryFailure,
  recoveryPausedUntil,
  usernameKeyOf,
} from "../../server/domain/recovery-limit";
import { DEFAULT_SECURITY_QUESTIONS } from "../../server/domain/security-questions";
import { clientOf, saneAddress, saneUserAgent, toldClient, USER_AGENT_MAX } from "../../server/lib/request-origin";

// The rules of docs/decisions/163 and 164 with their numbers: the recovery limit, an unknown
// username's step, where a request came from, and how a notice writes a time.

const db = openDatabase(":memory:");
afterAll(() => closeDatabase(db));
const MINUTE = 60_000;

describe("the recovery limit per username", () => {
  it("pauses on the 5th failure within 30 minutes, for 30 minutes, then counts from the start", () => {
    const clock = fixedClock("2025-03-14T10:00:00.000Z");
    const services = { db, clock };
    for (let i = 1; i < MAX_RECOVERY_FAILURES; i++) expect(recordRecoveryFailure(services, "a.user")).toBeNull();
    expect(recoveryPausedUntil(services, "a.user")).toBeNull();
    const until = recordRecoveryFailure(services, "a.user");
    expect(until?.toISOString()).toBe("2025-03-14T10:30:00.000Z");
    clock.advance(30 * MINUTE - 1);
    expect(recoveryPausedUntil(services, "a.user")?.toISOString()).toBe("2025-03-14T10:30:00.000Z");
    clock.advance(1);
    expect(recoveryPausedUntil(services, "a.user")).toBeNull();
    // after the pause the count starts again: four more do not pause
    for (let i = 1; i < MAX_RECOVERY_FAILURES; i++) expect(recordRecoveryFailure(services, "a.user")).toBeNull();
    expect(recordRecoveryFailure(services, "a.user")).not.toBeNull();
  });

  it("forgets failures older than the window, and is cleared by a completed reset", () => {
    const clock = fixedClock("2025-03-14T10:00:00.000Z");
    const services = { db, clock };
    for (let i = 1; i < MAX_RECOVERY_FAILURES; i++) expect(recordRecoveryFailure(services, "b.user")).toBeNull();
    clock.advance(30 * MINUTE);
    for (let i = 1; i < MAX_RECOVERY_FAILURES; i++) expect(recordRecoveryFailure(services, "b.user")).toBeNull();
    clearRecoveryFailures(db, "b.user");
    for (let i = 1; i < MAX_RECOVERY_FAILURES; i++) expect(recordRecoveryFailure(services, "b.user")).toBeNull();
    // one count per username: another's failures are its own
    expect(recordRecoveryFailure(services, "c.user")).toBeNull();
  });

  it("prunes only the counts whose window and pause are both over", () => {
    const clock = fixedClock("2025-03-14T12:00:00.000Z");
    const services = { db, clock };
    for (let i = 1; i <= MAX_RECOVERY_FAILURES; i++) recordRecoveryFailure(services, "d.user");
    recordRecoveryFailure(services, "e.user");
    clock.advance(30 * MINUTE + 1);
    recordRecoveryFailure(services, "f.user");
    pruneRecoveryAttempts(services);
    const left = db.select().from(recoveryAttempts).all();
    expect(left.map((row) => row.usernameKey)).toEqual(["f.user"]);
  });

  it("counts a username however it is written", () => {
    expect(usernameKeyOf("  Demo.Client ")).toBe("demo.client");
  });
});

describe("an unknown username's step", () => {
  const key = "a".repeat(64);

  it("is the same each time, and differs with the key", () => {
    expect(decoyFor(key, "someone")).toEqual(decoyFor(key, "someone"));
    const names = Array.from({ length: 64 }, (_, i) => `someone.${i}`);
    const withKey = names.map((name) => JSON.stringify(decoyFor(key, name)));
    const withOther = names.map((name) => JSON.stringify(decoyFor("b".repeat(64), name)));
    expect(withKey).not.toEqual(withOther);
  });

  it("is two different questions of the default list for about three in four usernames, else a code step", () => {
    const decoys = Array.from({ length: 2000 }, (_, i) => decoyFor(key, `person.${i}`));
    const questions = decoys.filter((d) => d.method === "questions");
    expect(DECOY_QUESTIONS_OUT_OF_256 / 256).toBe(0.75);
    expect(questions.length / decoys.length).toBeGreaterThan(0.7);
    expect(questions.length / decoys.length).toBeLessThan(0.8);
    for (const decoy of questions) {
      const [first, second] = decoy.questions;
      expect(first).not.toBe(second);
      expect(DEFAULT_SECURITY_QUESTIONS).toContain(first);
      expect(DEFAULT_SECURITY_QUESTIONS).toContain(second);
    }
    // every question of the list is used, in either place
    expect(new Set(questions.flatMap((d) => d.questions)).size).toBe(DEFAULT_SECURITY_QUESTIONS.length);
  });

  it("uses the key the migration made, or makes one if a copy lacks it", () => {
    const made = decoyKey(db);
    expect(made).toMatch(/^[0-9a-f]{64}$/);
    expect(decoyKey(db)).toBe(made);
    db.delete(platformKeys).run();
    const again = decoyKey(db);
    expect(again).toMatch(/^[0-9a-f]{64}$/);
    expect(again).not.toBe(made);
  });
});

describe("where a request came from", () => {
  it("takes the portal's headers, else the connection and User-Agent", () => {
    expect(
      clientOf(
        { "x-client-address": "203.0.113.7", "x-client-user-agent": "Firefox", "user-agent": "undici" },
        "10.0.0.2",
      ),
    ).toEqual({ address: "203.0.113.7", userAgent: "Firefox", forwarded: true });
    expect(clientOf({ "user-agent": "curl/8" }, "::ffff:10.0.0.2")).toEqual({
      address: "10.0.0.2",
      userAgent: "curl/8",
      forwarded: false,
    });
    expect(clientOf({}, undefined)).toEqual({ address: null, userAgent: null, forwarded: false });
  });

  it("what the portal did not say stays unknown: never the portal's own address or User-Agent", () => {
    // a browser that sent no User-Agent: the portal passes the address only
    expect(clientOf({ "x-client-address": "203.0.113.7", "user-agent": "undici" }, "127.0.0.1")).toEqual({
      address: "203.0.113.7",
      userAgent: null,
      forwarded: true,
    });
    // a session keeps only what the portal told
    expect(toldClient(clientOf({ "user-agent": "curl/8" }, "10.0.0.2"))).toEqual({ address: null, userAgent: null });
    expect(toldClient(clientOf({ "x-client-address": "203.0.113.7" }, "10.0.0.2"))).toEqual({
      address: "203.0.113.7",
      userAgent: null,
    });
  });

  it("keeps addresses only when they are one, and browsers as printable text of at most 256 characters", () => {
    expect(saneAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(saneAddress(" 2001:DB8::1 ")).toBe("2001:db8::1");
    expect(saneAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    for (const bad of ["<script>", "203.0.113.7, 10.0.0.1", "example.com", "", ["203.0.113.7"], undefined]) {
      expect(saneAddress(bad), String(bad)).toBeNull();
    }
    expect(saneUserAgent("Mozilla/5.0\u0000 (X11)\u00e9")).toBe("Mozilla/5.0 (X11)");
    expect(saneUserAgent("x".repeat(300))).toHaveLength(USER_AGENT_MAX);
    expect(USER_AGENT_MAX).toBe(256);
    expect(saneUserAgent(" \u0001 ")).toBeNull();
  });
});

describe("a notice's words", () => {
  it("writes times in UTC, in full", () => {
    expect(noticeTime(new Date("2025-03-14T09:05:00.000Z"))).toBe("14 March 2025 at 09:05 UTC");
  });

  it("names each kind of change", () => {
    const until = new Date("2025-03-14T10:30:00.000Z");
    expect(noticeText({ kind: "twoStepChanged", method: "sms" }, "ann").lead).toBe(
      "The security codes of your Client Online account (username ann) now come by text message to your mobile.",
    );
    expect(noticeText({ kind: "twoStepChanged", method: "email" }, "ann").lead).toContain("now come by email.");
    expect(noticeText({ kind: "recoveryPaused", until }, "ann").lead).toContain(
      "password reset for your Client Online account (username ann) is paused until 14 March 2025 at 10:30 UTC",
    );
    expect(noticeText({ kind: "passwordReset" }, "ann").subject).toBe("Your Client Online password was reset");
  });
});
