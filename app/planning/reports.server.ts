import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import { DATE_PARAMETERS, REQUIRED_SELECTORS, type ReportRun, type ReportTemplate } from "~/lib/valuation-report";
import { createPlanningClient, type PlanningClient, PlanningError } from "./client.server";
import { isToggleOn, readFeatureToggles } from "./feature-toggles.server";
import { AccountAnswers } from "./portfolio.server";

// spec 002 "Valuation report page", §3 "Report template", "Valuation member", §4 "Report run", §7
// (docs/platform-api.md "Valuation reports"): the templates, what they may be run for, the job and
// its file.

const Template = z.object({
  id: WholeNumber,
  name: z.string(),
  userType: z.enum(["Adviser", "Client"]),
  dateParameters: z.enum(DATE_PARAMETERS),
  requiredSelector: z.enum(REQUIRED_SELECTORS),
});
const Member = z.object({ member_id: WholeNumber, entity_name: z.string() });
const Group = z.looseObject({ group_code: z.string(), group_name: z.string().nullable() });
const Job = z.object({ job_id: z.string().min(1).max(200) });
const Templates = z.array(Template);
const Members = z.array(Member);
const Groups = z.array(Group);
const Pending = z.object({ job_id: z.string(), status: z.string(), created_at: z.string().nullish() });

/** Everything the report form offers, in one round trip. */
export async function fetchReportChoices(planning: PlanningClient, clientId: number) {
  const answer = await planning.batch({
    templates: { url: `xmerge/template/template-v2?client_id=${clientId}`, schema: Templates },
    members: { url: `xmerge/valuation/member?client_id=${clientId}`, schema: Members },
    groups: { url: "portfolio/group/account", schema: Groups },
    accounts: { url: "portfolio/account", schema: AccountAnswers },
  });
  return {
    templates: answer.templates as ReportTemplate[],
    members: answer.members,
    groups: answer.groups.map((g) => ({ code: g.group_code, name: g.group_name ?? g.group_code })),
    accounts: answer.accounts,
  };
}

/** The templates of the caller's user type for the client (the navigation's rule, spec 000 §2). */
export async function fetchReportTemplates(planning: PlanningClient, clientId: number): Promise<ReportTemplate[]> {
  return planning.get("resourceful/xmerge/template/template-v2", Templates, { query: { client_id: clientId } });
}

/** spec 002 §7 "Valuation run": a job id. Not retried (a retry would start a second job). */
export async function runTemplateReport(planning: PlanningClient, run: ReportRun): Promise<string> {
  const answer = await planning.post(`resourceful/xmerge/template/template-v2/${run.templateId}`, Job, {
    query: { _method: "runasync" },
    body: { entityid: run.entityId, group_code: run.groupCode, variables: run.variables },
    retry: false,
  });
  return answer.job_id;
}

/** spec 002 "Valuation report page": the single-click report of a client with no templates. */
export async function runDefaultReport(planning: PlanningClient, clientId: number): Promise<string> {
  const answer = await planning.post("resourceful/xmerge/valuation", Job, {
    query: { _method: "runasync" },
    body: { clientId, groupCode: null, variables: {} },
    retry: false,
  });
  return answer.job_id;
}

export type JobState =
  | { state: "pending"; createdAt: string | null }
  | { state: "ready"; file: Response }
  | { state: "failed"; message: string | null };

/**
 * spec 002 §4 "Report run": the job, polled until status 200; a 5xx ends the wait. Answers the
 * file's response when ready (its body not yet read). Other failures (a lost session, 404) throw.
 */
export async function pollReportJob(planning: PlanningClient, jobId: string): Promise<JobState> {
  let response: Response;
  try {
    response = await planning.send("GET", `resourceful/job_queue/completed_job/${encodeURIComponent(jobId)}`, {
      retry: false,
    });
  } catch (error) {
    if (error instanceof PlanningError && error.status >= 500) return { state: "failed", message: error.apiMessage };
    throw error;
  }
  if (response.status === 200) return { state: "ready", file: response };
  const body = Pending.safeParse(await response.json().catch(() => null));
  return { state: "pending", createdAt: body.success ? (body.data.created_at ?? null) : null };
}

/**
 * spec 000 §2: the valuation report entry shows (for Portfolio or Assets) when a template exists for
 * the user type, or when the client-reports toggle is on. The templates are asked for only when the
 * toggle is off; a failure offers no entry.
 */
export async function valuationReportOffered(
  token: string,
  clientId: number,
): Promise<{ clientReportsEnabled: boolean; hasReportTemplate: boolean }> {
  const planning = createPlanningClient({ token });
  // the toggles are kept for a minute (feature-toggles.server.ts): no call on most pages
  if (isToggleOn(await readFeatureToggles(planning), "client_reports")) {
    return { clientReportsEnabled: true, hasReportTemplate: false };
  }
  try {
    return {
      clientReportsEnabled: false,
      hasReportTemplate: (await fetchReportTemplates(planning, clientId)).length > 0,
    };
  } catch {
    return { clientReportsEnabled: false, hasReportTemplate: false };
  }
}
