// spec 002 "Valuation report page", §3 "Report template", "Valuation member", §4 "Report run", §6
// (templates by user type; Assets or Portfolio access), §7 (valuation run, poll job, members; report
// variables), §9 (docs/platform-api.md "Valuation reports"): the templates a caller may run for a
// client, the client's members, a run (a job id) and the job's file.
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { clientGroupMembers, entities, reportJobs, reportTemplateClients, reportTemplates } from "../../db/schema";
import type { Caller } from "../../sessions";
import { canSeeClient, isClientUser } from "../access";
import { ApiError, forbidden, MESSAGES, validate } from "../http";
import { IsoDate } from "../portfolio/requests";
import { isManaged, todayOf, visibleAccounts } from "../portfolio/visibility";
import { type ApiRequest, type ApiResponse, json, type Route, signedIn, type SignedInContext } from "../router";
import { newJobId, type ReportRunner } from "./runner";
import { groupAccounts, type ReportTemplateRow, type ReportVariables } from "./valuation";

export const REPORT_MESSAGES = {
  noAccess: "Permission Error: Valuation reports need Portfolio or Assets access",
  dateRequired: "Please select a date.",
  rangeRequired: "Please select a start date and an end date.",
  endBeforeStart: "You cannot select an End date earlier than the Start date.",
  future: "You cannot select a date in the future.",
  memberNotAvailable: "The selected member is not available.",
  currentClientOnly: "This report can only be run for the current client.",
  groupRequired: "Please select an account group.",
  groupNotAvailable: "The selected account group is not available.",
  groupOrAccountRequired: "Please select an account group or an account.",
  accountNotAvailable: "The selected account is not available.",
  tooMany: "Too many reports are being generated. Please wait for them to finish.",
} as const;

/** Jobs a user may have queued or running at once. */
export const MAX_JOBS_IN_FLIGHT = 5;

/** spec 002 §6: templates whose userType matches the caller's role. */
const userTypeOf = (caller: Caller) => (isClientUser(caller) ? "Client" : "Adviser");

/** spec 000 §3 levels: Portfolio 1 and Assets 2 have the valuation page. */
const hasReports = (db: Db, entityId: number) => {
  const level = db
    .select({ level: entities.clientAccessLevel })
    .from(entities)
    .where(eq(entities.id, entityId))
    .get()?.level;
  return level === 1 || level === 2;
};

/** A client the caller asks about: a client their own entity, an adviser a client they advise. */
function assertClient(db: Db, caller: Caller, entityId: number): void {
  const allowed = isClientUser(caller) ? entityId === caller.user.entityId : canSeeClient(db, caller, entityId);
  if (!allowed) throw forbidden();
}

/** The templates of the caller's user type that apply to a client: firm-wide, or assigned to it. */
export function templatesFor(db: Db, caller: Caller, entityId: number): ReportTemplateRow[] {
  if (!hasReports(db, entityId)) return [];
  const assigned = new Set(
    db
      .select({ id: reportTemplateClients.templateId })
      .from(reportTemplateClients)
      .where(eq(reportTemplateClients.entityId, entityId))
      .all()
      .map((r) => r.id),
  );
  return db
    .select()
    .from(reportTemplates)
    .where(eq(reportTemplates.userType, userTypeOf(caller)))
    .orderBy(asc(reportTemplates.sortOrder), asc(reportTemplates.id))
    .all()
    .filter((t) => t.allClients || assigned.has(t.id));
}

/** spec 002 §3 "Valuation member": the client first, then the login-accessible members of its groups. */
export function membersOf(db: Db, entityId: number): Array<{ member_id: number; entity_name: string }> {
  const groupIds = db
    .select({ groupId: clientGroupMembers.groupId })
    .from(clientGroupMembers)
    .where(eq(clientGroupMembers.entityId, entityId))
    .all()
    .map((r) => r.groupId);
  const others = groupIds.length
    ? db
        .select({ id: entities.id, name: entities.displayName, order: clientGroupMembers.sortOrder })
        .from(clientGroupMembers)
        .innerJoin(entities, eq(entities.id, clientGroupMembers.entityId))
        .where(and(inArray(clientGroupMembers.groupId, groupIds), eq(clientGroupMembers.loginAccessible, true)))
        .orderBy(asc(clientGroupMembers.sortOrder), asc(entities.id))
        .all()
    : [];
  const self = db.select({ name: entities.displayName }).from(entities).where(eq(entities.id, entityId)).get();
  const seen = new Set<number>([entityId]);
  const members = self ? [{ member_id: entityId, entity_name: self.name }] : [];
  for (const o of others) {
    if (seen.has(o.id)) continue;
    seen.add(o.id);
    members.push({ member_id: o.id, entity_name: o.name });
  }
  return members;
}

const ClientQuery = z.object({ client_id: z.coerce.number().int().positive().optional() });
const RunQuery = z.object({ _method: z.literal("runasync") });
const TemplateParams = z.object({ id: z.coerce.number().int().positive() });
const JobParams = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) });
const optDate = z.preprocess((v) => (v === "" || v === null ? undefined : v), IsoDate.optional());
const Variables = z
  .object({
    as_at_date: optDate,
    from_date: optDate,
    to_date: optDate,
    report_type: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(["account", "group"]).optional()),
    accountid: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.coerce.number().int().positive().optional(),
    ),
    since_inception: z.preprocess(
      (v) => (v === "true" ? true : v === "false" ? false : (v ?? undefined)),
      z.boolean().optional(),
    ),
  })
  .strip();
const TemplateRunBody = z.object({
  entityid: z.coerce.number().int().positive(),
  group_code: z.string().trim().max(50).nullish(),
  variables: Variables.default({}),
});
const ValuationRunBody = z.object({
  clientId: z.coerce.number().int().positive(),
  groupCode: z.null().optional(),
  variables: Variables.pick({ as_at_date: true }).default({}),
});

/** The client a run is for: a client user's own entity; an adviser's client in context, else the one named. */
function baseClientOf(caller: Caller, named: number): number {
  if (isClientUser(caller)) return caller.user.entityId;
  return caller.session.clientInContextId ?? named;
}

const bad = (message: string) => new ApiError(400, message);

/** Checks a template run's choices against the template (spec 002 §7 report variables). */
function checkRun(
  db: Db,
  template: ReportTemplateRow,
  base: number,
  body: z.output<typeof TemplateRunBody>,
  today: string,
): ReportVariables {
  const v = body.variables;
  const variables: ReportVariables = {};
  if (template.dateParameters === "Single Date") {
    if (!v.as_at_date) throw bad(REPORT_MESSAGES.dateRequired);
    if (v.as_at_date > today) throw bad(REPORT_MESSAGES.future);
    variables.as_at_date = v.as_at_date;
  } else if (template.dateParameters === "Date Range") {
    if (!v.from_date || !v.to_date) throw bad(REPORT_MESSAGES.rangeRequired);
    if (v.from_date > v.to_date) throw bad(REPORT_MESSAGES.endBeforeStart);
    if (v.to_date > today) throw bad(REPORT_MESSAGES.future);
    variables.from_date = v.from_date;
    variables.to_date = v.to_date;
    if (v.since_inception !== undefined) variables.since_inception = v.since_inception;
  }
  const all = visibleAccounts(db, body.entityid);
  if (template.requiredSelector === "Account Group") {
    if (!body.group_code) throw bad(REPORT_MESSAGES.groupRequired);
    if (groupAccounts(all, body.group_code).length === 0) throw bad(REPORT_MESSAGES.groupNotAvailable);
  } else if (template.requiredSelector === "Account Group Or Account") {
    if (v.report_type === "account" || (v.accountid !== undefined && !body.group_code)) {
      if (v.accountid === undefined) throw bad(REPORT_MESSAGES.groupOrAccountRequired);
      if (!all.some((a) => a.account.id === v.accountid && isManaged(a)))
        throw bad(REPORT_MESSAGES.accountNotAvailable);
      variables.report_type = "account";
      variables.accountid = v.accountid;
    } else {
      if (!body.group_code) throw bad(REPORT_MESSAGES.groupOrAccountRequired);
      if (groupAccounts(all, body.group_code).length === 0) throw bad(REPORT_MESSAGES.groupNotAvailable);
      variables.report_type = "group";
    }
  }
  if (template.requiredSelector === "Select Entity") {
    if (!membersOf(db, base).some((m) => m.member_id === body.entityid)) throw bad(REPORT_MESSAGES.memberNotAvailable);
  } else if (body.entityid !== base) {
    throw bad(REPORT_MESSAGES.currentClientOnly);
  }
  return variables;
}

type NewJob = { entityId: number; templateId: number | null; groupCode: string | null; variables: ReportVariables };

/** Stores a queued job and hands it to the runner; 202 with its id (429 past the jobs a user may have in flight). */
function startJob(runner: ReportRunner, db: Db, caller: Caller, now: Date, job: NewJob): ApiResponse {
  const inFlight = db
    .select({ id: reportJobs.id })
    .from(reportJobs)
    .where(and(eq(reportJobs.userId, caller.user.id), inArray(reportJobs.status, ["queued", "running"])))
    .all().length;
  if (inFlight >= MAX_JOBS_IN_FLIGHT) throw new ApiError(429, REPORT_MESSAGES.tooMany);
  const id = newJobId();
  db.insert(reportJobs)
    .values({
      id,
      userId: caller.user.id,
      entityId: job.entityId,
      templateId: job.templateId,
      groupCode: job.groupCode,
      variables: JSON.stringify(job.variables),
      status: "queued",
      createdAt: now.toISOString(),
    })
    .run();
  runner.enqueue(id);
  return json({ job_id: id }, 202);
}

/** The client a list is asked for: the one named, else the caller's own (a client) or the one in context (an adviser). */
function clientAsked(request: ApiRequest, { db, caller }: SignedInContext): number {
  const { client_id } = validate(ClientQuery, request.query, "query");
  const entityId = client_id ?? (isClientUser(caller) ? caller.user.entityId : caller.session.clientInContextId);
  if (entityId === null) throw new ApiError(400, MESSAGES.noClientInContext);
  assertClient(db, caller, entityId);
  return entityId;
}

/** spec 002 §3, §6: the caller's user type's templates that apply to the client. */
function listTemplates(request: ApiRequest, context: SignedInContext): ApiResponse {
  const entityId = clientAsked(request, context);
  return json(
    templatesFor(context.db, context.caller, entityId).map((t) => ({
      id: t.id,
      name: t.name,
      userType: t.userType,
      dateParameters: t.dateParameters,
      requiredSelector: t.requiredSelector,
    })),
  );
}

/** spec 002 §3 "Valuation member", §6 "Member lists": the client first. */
function listMembers(request: ApiRequest, context: SignedInContext): ApiResponse {
  return json(membersOf(context.db, clientAsked(request, context)));
}

/** spec 002 §7 "Valuation run": a template's report, as a job. */
function runTemplate(runner: ReportRunner, request: ApiRequest, context: SignedInContext): ApiResponse {
  const { db, caller, clock } = context;
  validate(RunQuery, request.query, "query");
  const { id } = validate(TemplateParams, request.params, "path");
  const body = validate(TemplateRunBody, request.body ?? {}, "body");
  const base = baseClientOf(caller, body.entityid);
  assertClient(db, caller, base);
  if (body.entityid !== base && !canSeeClient(db, caller, body.entityid)) throw forbidden();
  const template = templatesFor(db, caller, base).find((t) => t.id === id);
  if (!template) {
    if (!hasReports(db, base)) throw forbidden(REPORT_MESSAGES.noAccess);
    throw new ApiError(404, `Report template ${id} not found`);
  }
  const variables = checkRun(db, template, base, body, todayOf(context));
  const groupCode = variables.report_type === "account" ? null : (body.group_code ?? null);
  return startJob(runner, db, caller, clock.now(), {
    entityId: body.entityid,
    templateId: template.id,
    groupCode,
    variables,
  });
}

/** spec 002 "Valuation report page": the single-click valuation of a client without templates. */
function runValuation(runner: ReportRunner, request: ApiRequest, context: SignedInContext): ApiResponse {
  const { db, caller, clock } = context;
  validate(RunQuery, request.query, "query");
  const body = validate(ValuationRunBody, request.body ?? {}, "body");
  assertClient(db, caller, body.clientId);
  if (!hasReports(db, body.clientId)) throw forbidden(REPORT_MESSAGES.noAccess);
  const asAt = body.variables.as_at_date;
  if (asAt && asAt > todayOf(context)) throw bad(REPORT_MESSAGES.future);
  return startJob(runner, db, caller, clock.now(), {
    entityId: body.clientId,
    templateId: null,
    groupCode: null,
    variables: asAt ? { as_at_date: asAt } : {},
  });
}

/** spec 002 §4 "Report run": 202 until the file is ready, then the file; 500 when the job failed. */
function completedJob(request: ApiRequest, { db, caller }: SignedInContext): ApiResponse {
  const parsed = JobParams.safeParse(request.params);
  const job = parsed.success ? db.select().from(reportJobs).where(eq(reportJobs.id, parsed.data.id)).get() : undefined;
  if (!job || job.userId !== caller.user.id) throw new ApiError(404, "Report job not found");
  if (job.status === "failed") throw new ApiError(500, job.error ?? "The report could not be generated.");
  if (job.status !== "done" || !job.pdf) {
    return json(
      { job_id: job.id, status: job.status === "done" ? "running" : job.status, created_at: job.createdAt },
      202,
    );
  }
  return {
    status: 200,
    raw: job.pdf,
    headers: { "Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="report.pdf"' },
  };
}

export function reportRoutes(runner: ReportRunner): Route[] {
  return [
    signedIn("GET", "/resourceful/xmerge/template/template-v2", listTemplates),
    signedIn("GET", "/resourceful/xmerge/valuation/member", listMembers),
    signedIn("POST", "/resourceful/xmerge/template/template-v2/:id", (request, context) =>
      runTemplate(runner, request, context),
    ),
    signedIn("POST", "/resourceful/xmerge/valuation", (request, context) => runValuation(runner, request, context)),
    signedIn("GET", "/resourceful/job_queue/completed_job/:id", completedJob),
  ];
}
