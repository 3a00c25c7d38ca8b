// The report jobs' runner (docs/platform-api.md "Valuation reports"): an in-process queue, at most
// two reports made at a time, off the request path. A job waits the site setting
// `reportJobDelayMs` (the demo's 1.5 s, so the portal's waiting state shows), is made in steps that
// yield to the event loop, and ends done (its PDF kept with it) or failed (with the contract's
// message). At start the jobs a previous process left unfinished are failed as interrupted;
// finished jobs are deleted an hour after they end.
import { randomBytes } from "node:crypto";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Clock } from "../../clock";
import type { Db } from "../../db/connection";
import { reportJobs, reportTemplates, siteSettings } from "../../db/schema";
import type { PlatformEnv } from "../../env";
import type { PlatformLogger } from "../../lib/logger";
import { currentRequestId, runWithRequestId } from "../../lib/request-id";
import { renderValuationReportPdf } from "../../domain/valuation-report-pdf";
import { type ReportJobRow, valuationReportInput } from "./valuation";

export const REPORT_FAILED = "The report could not be generated.";
export const REPORT_INTERRUPTED = "The report was interrupted. Please run it again.";

/** Site settings of the runner (docs/platform-api.md "Development only" sets them in tests). */
export const DELAY_SETTING = "reportJobDelayMs";
export const FAIL_TEMPLATE_SETTING = "reportJobFailTemplate";
/** A comma list of user ids (or `*`, anyone's) whose next job fails; each entry fails one job. */
export const FAIL_NEXT_SETTING = "reportJobFailNext";

export const MAX_CONCURRENT = 2;
/** How long a finished job (and its file) is kept. */
export const KEEP_MS = 60 * 60_000;
const CLEAN_EVERY_MS = 10 * 60_000;
const MAX_DELAY_MS = 60_000;

export const newJobId = () => randomBytes(16).toString("hex");

export type ReportRunner = {
  /** Queues a job already stored as queued. */
  enqueue(jobId: string): void;
  /** Stops taking jobs (the process is stopping). */
  stop(): void;
  /** Resolves when no job is queued or being made (tests). */
  idle(): Promise<void>;
};

function readSetting(db: Db, key: string): unknown {
  const row = db.select().from(siteSettings).where(eq(siteSettings.key, key)).get();
  if (!row) return undefined;
  try {
    return JSON.parse(row.valueJson) as unknown;
  } catch {
    return undefined;
  }
}

function writeSetting(db: Db, key: string, value: unknown): void {
  const valueJson = JSON.stringify(value);
  db.insert(siteSettings)
    .values({ key, valueJson })
    .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson } })
    .run();
}

export function delayOf(db: Db): number {
  const value = Number(readSetting(db, DELAY_SETTING) ?? 0);
  return Number.isFinite(value) ? Math.min(MAX_DELAY_MS, Math.max(0, Math.round(value))) : 0;
}

/** Whether a job is to fail on purpose (a dev/test switch), spending a fail-next entry if so. */
function failsOnPurpose(db: Db, job: { userId: number; templateId: number | null }): boolean {
  const template = String(readSetting(db, FAIL_TEMPLATE_SETTING) ?? "").trim();
  if (template !== "" && job.templateId !== null && template === String(job.templateId)) return true;
  const entries = String(readSetting(db, FAIL_NEXT_SETTING) ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const at = entries.indexOf(String(job.userId)) >= 0 ? entries.indexOf(String(job.userId)) : entries.indexOf("*");
  if (at < 0) return false;
  entries.splice(at, 1);
  writeSetting(db, FAIL_NEXT_SETTING, entries.join(","));
  return true;
}

/** Adds a fail-next entry: the next job of that user (or anyone's, `*`) fails. */
export function failNextJob(db: Db, userId: number | "*"): void {
  const current = String(readSetting(db, FAIL_NEXT_SETTING) ?? "");
  writeSetting(db, FAIL_NEXT_SETTING, [current, String(userId)].filter(Boolean).join(","));
}

/** Fails the jobs a stopped process left queued or running: they will never finish. */
export function failInterruptedJobs(db: Db, clock: Clock): number {
  return db
    .update(reportJobs)
    .set({ status: "failed", error: REPORT_INTERRUPTED, finishedAt: clock.now().toISOString() })
    .where(inArray(reportJobs.status, ["queued", "running"]))
    .run().changes;
}

/** Deletes the jobs (and their files) finished more than an hour ago. */
export function cleanOldJobs(db: Db, clock: Clock): number {
  const before = new Date(clock.now().getTime() - KEEP_MS).toISOString();
  return db
    .delete(reportJobs)
    .where(and(inArray(reportJobs.status, ["done", "failed"]), lt(reportJobs.finishedAt, before)))
    .run().changes;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

type RunnerServices = { db: Db; clock: Clock; log: PlatformLogger };

/** Ends a job: its status (and file or message) and when it finished. */
function finish(db: Db, clock: Clock, jobId: string, set: Partial<typeof reportJobs.$inferInsert>): void {
  if (!db.$client.open) return;
  db.update(reportJobs)
    .set({ ...set, finishedAt: clock.now().toISOString() })
    .where(eq(reportJobs.id, jobId))
    .run();
}

/** Takes a queued job (now running); undefined when it is gone or no longer queued. */
function claim(db: Db, clock: Clock, jobId: string): ReportJobRow | undefined {
  const job = db.select().from(reportJobs).where(eq(reportJobs.id, jobId)).get();
  if (!job || job.status !== "queued") return undefined;
  db.update(reportJobs)
    .set({ status: "running", startedAt: clock.now().toISOString() })
    .where(eq(reportJobs.id, jobId))
    .run();
  return job;
}

const templateGone = (db: Db, templateId: number | null) =>
  templateId !== null &&
  !db.select({ id: reportTemplates.id }).from(reportTemplates).where(eq(reportTemplates.id, templateId)).get();

/**
 * Makes a job's PDF after the site's delay, in steps that yield to the event loop, and ends it done
 * or failed. Nothing is written once the runner has stopped or the database is closed (`isOpen`).
 */
async function runJob({ db, clock, log }: RunnerServices, jobId: string, isOpen: () => boolean): Promise<void> {
  if (!isOpen()) return;
  const job = claim(db, clock, jobId);
  if (!job) return;
  const delay = delayOf(db);
  if (delay > 0) await sleep(delay);
  if (!isOpen()) return;
  try {
    if (templateGone(db, job.templateId)) throw new Error(`template ${job.templateId} is gone`);
    if (failsOnPurpose(db, job)) {
      finish(db, clock, jobId, { status: "failed", error: REPORT_FAILED });
      return;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    const today = clock.now().toISOString().slice(0, 10);
    const input = valuationReportInput(db, job, today);
    const pdf = await renderValuationReportPdf(input);
    if (!isOpen()) return;
    finish(db, clock, jobId, { status: "done", pdf, error: null });
  } catch (error) {
    if (!db.$client.open) return;
    log.error({ jobId, err: error }, "report job failed");
    finish(db, clock, jobId, { status: "failed", error: REPORT_FAILED });
  }
}

/** At start: fails the jobs a previous process left, deletes old ones, and deletes them every 10 minutes. */
function startCleaning({ db, clock, log }: RunnerServices): NodeJS.Timeout {
  const interrupted = failInterruptedJobs(db, clock);
  if (interrupted > 0) log.info({ jobs: interrupted }, "report jobs left unfinished failed as interrupted");
  cleanOldJobs(db, clock);
  const cleaner = setInterval(() => {
    if (db.$client.open) cleanOldJobs(db, clock);
  }, CLEAN_EVERY_MS);
  cleaner.unref();
  return cleaner;
}

export function startReportRunner({
  db,
  clock,
  log,
}: {
  db: Db;
  clock: Clock;
  env: PlatformEnv;
  log: PlatformLogger;
}): ReportRunner {
  const services = { db, clock, log };
  const cleaner = startCleaning(services);
  const queue: string[] = [];
  // the id of the request that queued each job, on the job's log lines (docs/decisions/125)
  const queuedBy = new Map<string, string>();
  let active = 0;
  let stopped = false;
  let waiting: Array<() => void> = [];
  const open = () => !stopped && db.$client.open;
  const run = (jobId: string) => runJob(services, jobId, open);

  function pump(): void {
    while (active < MAX_CONCURRENT && queue.length > 0 && !stopped) {
      const jobId = queue.shift() as string;
      const requestId = queuedBy.get(jobId);
      queuedBy.delete(jobId);
      active++;
      void (requestId === undefined ? run(jobId) : runWithRequestId(requestId, () => run(jobId)))
        .catch((error: unknown) => {
          if (db.$client.open) log.error({ jobId, err: error }, "report job failed");
        })
        .finally(() => {
          active--;
          pump();
        });
    }
    if (active === 0 && (queue.length === 0 || stopped)) {
      const resolve = waiting;
      waiting = [];
      for (const r of resolve) r();
    }
  }

  return {
    enqueue(jobId) {
      if (stopped) return;
      queue.push(jobId);
      const requestId = currentRequestId();
      if (requestId !== undefined) queuedBy.set(jobId, requestId);
      // off the request path: the answer goes out first
      setImmediate(pump);
    },
    stop() {
      stopped = true;
      clearInterval(cleaner);
      queue.length = 0;
      queuedBy.clear();
    },
    idle() {
      if (active === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
