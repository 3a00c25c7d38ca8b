import { and, inArray, lt } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { digitalSignatureCodes, outbox, reportJobs } from "../db/schema";
import { type PlatformEnv, retentionOf } from "../env";
import type { PlatformLogger } from "../lib/logger";
import { purgeStaleSessions } from "../sessions";
import { pruneRecoveryAttempts } from "./recovery-limit";

// ASVS 4.0.3 V8.3.8 (docs/decisions/184): what the platform keeps of people only for a while is
// deleted once that while is over, by a job that runs at start and then periodically:
// - the outbox (the messages "sent": codes, notices, reminders), after PLATFORM_OUTBOX_RETENTION_DAYS;
// - sessions idle for a day (far past any profile's timeout: the browsers and addresses of "Where
//   you're signed in"); a session ended by its user is deleted at once;
// - login tickets, password resets, devices being enrolled and passkey challenges once expired;
// - the recovery counts per username once their window and pause are over;
// - digital signature codes a day after they expired;
// - finished reports (their PDFs: holdings and values) after PLATFORM_REPORT_RETENTION_DAYS; a report
//   still queued or running is never deleted.

const DAY_MS = 24 * 60 * 60_000;

/** What one purge deleted, by kind (counts only: the log line carries no personal data). */
export type Purged = {
  outbox: number;
  sessions: number;
  loginTickets: number;
  passwordResets: number;
  pendingDevices: number;
  passkeyChallenges: number;
  recoveryCounts: number;
  signatureCodes: number;
  reports: number;
};

/** Deletes what is past its retention period at the clock's now; answers how many rows of each kind. */
export function purgeExpiredPersonalData(db: Db, clock: Clock, env: PlatformEnv): Purged {
  const now = clock.now();
  const { outboxDays, reportDays } = retentionOf(env);
  const outboxCutoff = new Date(now.getTime() - outboxDays * DAY_MS).toISOString();
  const reportsCutoff = new Date(now.getTime() - reportDays * DAY_MS).toISOString();
  const codesCutoff = new Date(now.getTime() - DAY_MS).toISOString();
  return db.transaction((tx) => {
    const txDb = tx as unknown as Db;
    const stale = purgeStaleSessions(txDb, clock);
    const recoveryCounts = pruneRecoveryAttempts({ db: txDb, clock });
    const sent = tx.delete(outbox).where(lt(outbox.createdAt, outboxCutoff)).run().changes;
    const codes = tx
      .delete(digitalSignatureCodes)
      .where(lt(digitalSignatureCodes.expiresAt, codesCutoff))
      .run().changes;
    const reports = tx
      .delete(reportJobs)
      .where(and(inArray(reportJobs.status, ["done", "failed"]), lt(reportJobs.finishedAt, reportsCutoff)))
      .run().changes;
    return { outbox: sent, ...stale, recoveryCounts, signatureCodes: codes, reports };
  });
}

/**
 * The periodic job: a purge now, then every PLATFORM_PURGE_INTERVAL_MINUTES; a line when anything
 * was deleted, an error logged (never thrown: the next run tries again). Answers what stops it.
 */
export function startRetention({ db, clock, env }: { db: Db; clock: Clock; env: PlatformEnv }, log: PlatformLogger) {
  const run = () => {
    try {
      const purged = purgeExpiredPersonalData(db, clock, env);
      if (Object.values(purged).some((n) => n > 0)) log.info({ purged }, "retention purge");
    } catch (error) {
      log.error({ err: error }, "retention purge failed");
    }
  };
  run();
  const timer = setInterval(run, retentionOf(env).intervalMinutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
