import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { fixedClock } from "../../server/clock";
import { outbox, recoveryAttempts, reportJobs, sessions, users } from "../../server/db/schema";
import { send } from "../../server/domain/accounts";
import { purgeExpiredPersonalData, startRetention } from "../../server/domain/retention";
import { DEFAULT_RETENTION, type PlatformEnv, readEnv } from "../../server/env";
import { createLogger } from "../../server/lib/logger";
import { createSession } from "../../server/sessions";
import { START, withPlatform } from "./harness";

// ASVS 4.0.3 V8.3.8 (docs/decisions/184): what the platform keeps of people only for a while (the
// outbox, sessions and their browsers, expired tickets, resets and recovery counts) is deleted once
// its stated period is over, by a job at start and then every PLATFORM_PURGE_INTERVAL_MINUTES.

const DAY = 24 * 60 * 60_000;
const harness = withPlatform();
const env = (retention?: PlatformEnv["retention"]): PlatformEnv => ({
  port: 0,
  host: "127.0.0.1",
  dbFile: "unused",
  nodeEnv: "test",
  retention,
});

describe("the retention rule", () => {
  it("PLATFORM_OUTBOX_RETENTION_DAYS and PLATFORM_PURGE_INTERVAL_MINUTES: 30 days and an hour unless set", () => {
    expect(readEnv({ NODE_ENV: "development" }).retention).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toEqual({ outboxDays: 30, reportDays: 7, intervalMinutes: 60 });
    expect(
      readEnv({
        NODE_ENV: "development",
        PLATFORM_OUTBOX_RETENTION_DAYS: "7",
        PLATFORM_REPORT_RETENTION_DAYS: "2",
        PLATFORM_PURGE_INTERVAL_MINUTES: "15",
      }).retention,
    ).toEqual({ outboxDays: 7, reportDays: 2, intervalMinutes: 15 });
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_REPORT_RETENTION_DAYS: "0" })).toThrow(
      /PLATFORM_REPORT_RETENTION_DAYS/,
    );
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_OUTBOX_RETENTION_DAYS: "0" })).toThrow(
      /PLATFORM_OUTBOX_RETENTION_DAYS/,
    );
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_PURGE_INTERVAL_MINUTES: "x" })).toThrow(
      /PLATFORM_PURGE_INTERVAL_MINUTES/,
    );
  });

  it("deletes the outbox's messages once older than the period, and keeps the newer", () => {
    const { db } = harness.platform;
    const clock = fixedClock(START);
    const message = (body: string) => ({
      to: "retention@example.com",
      username: "demo.client",
      channel: "email" as const,
      body,
    });
    send(db, clock, message("old"));
    clock.advance(20 * DAY);
    send(db, clock, message("newer"));
    const kept = () =>
      db
        .select()
        .from(outbox)
        .where(eq(outbox.to, "retention@example.com"))
        .all()
        .map((row) => row.body);
    // 29 days after the first: both kept
    clock.advance(9 * DAY);
    purgeExpiredPersonalData(db, clock, env());
    expect(kept()).toEqual(["old", "newer"]);
    // 30 days and a minute after: the first goes
    clock.advance(DAY + 60_000);
    expect(purgeExpiredPersonalData(db, clock, env()).outbox).toBeGreaterThanOrEqual(1);
    expect(kept()).toEqual(["newer"]);
    // a shorter period, as configured
    expect(
      purgeExpiredPersonalData(db, clock, env({ ...DEFAULT_RETENTION, outboxDays: 5 })).outbox,
    ).toBeGreaterThanOrEqual(1);
    expect(kept()).toEqual([]);
  });

  it("deletes sessions idle for a day, with their browser and address, and expired recovery counts", () => {
    const { db } = harness.platform;
    const clock = fixedClock(START);
    const userId = db.select().from(users).where(eq(users.username, "demo.client")).get()!.id;
    createSession(db, clock, userId, { address: "203.0.113.9", userAgent: "Retention test browser" });
    db.insert(recoveryAttempts)
      .values({ usernameKey: "retention.someone", failures: 2, windowStartedAt: clock.now().toISOString() })
      .run();
    const listed = () => db.select().from(sessions).where(eq(sessions.userAgent, "Retention test browser")).all();
    const counted = () =>
      db.select().from(recoveryAttempts).where(eq(recoveryAttempts.usernameKey, "retention.someone")).all();
    clock.advance(DAY - 60_000);
    purgeExpiredPersonalData(db, clock, env());
    expect(listed()).toHaveLength(1);
    expect(counted()).toEqual([]); // its 30-minute window is long over
    clock.advance(2 * 60_000);
    expect(purgeExpiredPersonalData(db, clock, env()).sessions).toBeGreaterThanOrEqual(1);
    expect(listed()).toEqual([]);
  });

  it("deletes a finished report (its PDF) once finished longer ago than the period, never one queued or running", () => {
    const { db } = harness.platform;
    const clock = fixedClock(START);
    const client = db.select().from(users).where(eq(users.username, "demo.client")).get()!;
    const report = (id: string, status: "queued" | "running" | "done" | "failed", finished: boolean) =>
      db
        .insert(reportJobs)
        .values({
          id,
          userId: client.id,
          entityId: client.entityId,
          status,
          createdAt: clock.now().toISOString(),
          finishedAt: finished ? clock.now().toISOString() : null,
          pdf: status === "done" ? Buffer.from("%PDF-1.7 retention") : null,
        })
        .run();
    report("retention-done", "done", true);
    report("retention-failed", "failed", true);
    report("retention-queued", "queued", false);
    report("retention-running", "running", false);
    const left = () =>
      db
        .select({ id: reportJobs.id })
        .from(reportJobs)
        .all()
        .map((row) => row.id)
        .filter((id) => id.startsWith("retention-"))
        .sort();
    clock.advance(7 * DAY - 60_000);
    purgeExpiredPersonalData(db, clock, env());
    expect(left()).toEqual(["retention-done", "retention-failed", "retention-queued", "retention-running"]);
    clock.advance(2 * 60_000);
    expect(purgeExpiredPersonalData(db, clock, env()).reports).toBe(2);
    expect(left()).toEqual(["retention-queued", "retention-running"]);
  });

  it("runs at start and then every interval, logging counts only", () => {
    vi.useFakeTimers();
    try {
      const { db } = harness.platform;
      const clock = fixedClock(START);
      const lines: string[] = [];
      const log = createLogger("info", { write: (line: string) => lines.push(line) });
      send(db, clock, {
        to: "job@example.com",
        username: "demo.client",
        channel: "email",
        body: "Your code is 123456",
      });
      clock.advance(31 * DAY);
      const stop = startRetention({ db, clock, env: env({ ...DEFAULT_RETENTION, intervalMinutes: 10 }) }, log);
      expect(db.select().from(outbox).where(eq(outbox.to, "job@example.com")).all()).toEqual([]);
      send(db, clock, {
        to: "job@example.com",
        username: "demo.client",
        channel: "email",
        body: "Your code is 654321",
      });
      clock.advance(31 * DAY);
      vi.advanceTimersByTime(9 * 60_000);
      expect(db.select().from(outbox).where(eq(outbox.to, "job@example.com")).all()).toHaveLength(1);
      vi.advanceTimersByTime(60_000);
      expect(db.select().from(outbox).where(eq(outbox.to, "job@example.com")).all()).toEqual([]);
      stop();
      const purges = lines
        .map((l) => JSON.parse(l) as { message: string })
        .filter((l) => l.message === "retention purge");
      expect(purges.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) {
        expect(line).not.toContain("job@example.com");
        expect(line).not.toContain("123456");
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
