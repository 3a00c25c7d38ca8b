import { json } from "@remix-run/node";
import type { Toast } from "~/lib/toast";
import { redirectWithToast } from "~/session/toast.server";
import type { TFunction } from "i18next";
import {
  choicesQuery,
  DEFAULT_PERIOD,
  type ReportErrors,
  type ReportInput,
  type ReportTemplate,
  REPORTS_PATH,
  todayIn,
} from "~/lib/valuation-report";
import { latestDate, readReportRun } from "~/lib/report-run.server";
import { formatDisplayDate } from "~/lib/date-range";
import type { PlanningClient } from "~/planning/client.server";
import { fetchReportChoices, runDefaultReport, runTemplateReport } from "~/planning/reports.server";
import { isToggleOn, readFeatureToggles } from "~/planning/feature-toggles.server";
import { viewOf, viewOptions } from "~/lib/analysis/view";
import { getSite } from "~/planning/site.server";
import type { Locale } from "~/lib/i18n";
import { attempt, orFail } from "~/session/failures.server";
import { siteNames } from "~/lib/site-words";

// spec 002 "Valuation report page" (docs/decisions/099-valuation-reports.md): the form's choices
// from the platform in one round trip, the run as a plain post that leads to the job's page.

/** `lang`: the label's language where it is not the page's (decision 210). */
export type Option = { value: string; label: string; lang?: "en" };

export type ReportForm = {
  templates: Option[];
  template: (ReportTemplate & { value: string }) | null;
  members: Option[];
  groups: Option[];
  accounts: Option[];
  values: ReportInput;
  latest: string;
};

type Args = {
  request: Request;
  planning: PlanningClient;
  clientId: number;
  isAdviser: boolean;
  timeZone: string | null;
  locale: Locale;
  t: TFunction;
};

const FIELDS = ["template", "entity", "selection", "asAt", "period", "from", "to"] as const;

export function readInput(source: URLSearchParams | FormData): ReportInput {
  const read = (name: string) => {
    const value = source.get(name);
    return typeof value === "string" ? value.slice(0, 100) : "";
  };
  return Object.fromEntries(FIELDS.map((f) => [f, read(f)])) as ReportInput;
}

/**
 * The form's choices: exactly what a run can cover and the analysis page shows (decision 107) —
 * the accounts of the view at 'All portfolios' (own and managed; the linked ones for a client who
 * has no own), and the account groups holding at least one of them (a run of a group covers its
 * own managed accounts). 'Not managed' accounts are offered nowhere.
 */
async function loadChoices(a: Args) {
  const [choices, site, toggles] = await Promise.all([
    orFail(a.request, fetchReportChoices(a.planning, a.clientId)),
    getSite(a.locale),
    readFeatureToggles(a.planning),
  ]);
  const latest = latestDate(todayIn(a.timeZone), site.settings.enableHoldBackPeriod === true);
  const { counted } = viewOf(
    choices.accounts,
    null,
    viewOptions(site.settings, isToggleOn(toggles, "client_analysis")),
  );
  const accounts = choices.accounts.filter((acc) => counted.includes(acc.accountid));
  const groups = choices.groups.filter((g) => accounts.some((acc) => !acc.isLinked && acc.group_code === g.code));
  // the site's template names in the page's language, or marked English (decision 210)
  const templateName = siteNames(site.settings, "reportTemplateNames", a.locale);
  return { ...choices, accounts, groups, latest, templateName };
}

type Choices = Awaited<ReturnType<typeof loadChoices>>;

function formOf(a: Args, choices: Choices, input: ReportInput): ReportForm {
  const template =
    choices.templates.find((tpl) => String(tpl.id) === input.template) ??
    (choices.templates.length === 1 ? choices.templates[0]! : null);
  const values: ReportInput = {
    ...input,
    template: template ? String(template.id) : "",
    // the form shows dates as they are typed, DD-MM-YYYY (issue 25 item 18)
    asAt: input.asAt || formatDisplayDate(choices.latest),
    period: input.period || DEFAULT_PERIOD,
    to: input.to || formatDisplayDate(choices.latest),
  };
  return {
    templates: choices.templates.map((tpl) => {
      const { text, lang } = choices.templateName(tpl.name);
      return lang ? { value: String(tpl.id), label: text, lang } : { value: String(tpl.id), label: text };
    }),
    template: template
      ? { ...template, name: choices.templateName(template.name).text, value: String(template.id) }
      : null,
    // spec 002 §6 "Member lists": for a client the list starts with 'Me'; for an adviser the client in context is first
    members: choices.members.map((m) => ({
      value: String(m.member_id),
      label: m.member_id === a.clientId && !a.isAdviser ? a.t("reports:form.me") : m.entity_name,
    })),
    groups: choices.groups.map((g) => ({ value: `group:${g.code}`, label: g.name })),
    accounts: choices.accounts.map((acc) => ({ value: `account:${acc.accountid}`, label: acc.description })),
    values,
    latest: choices.latest,
  };
}

export async function reportLoader(a: Args) {
  const choices = await loadChoices(a);
  const form = formOf(a, choices, readInput(new URL(a.request.url).searchParams));
  return json({ title: a.t("reports:title"), form });
}

/** The since-inception date of what a run covers: the earliest inception of its accounts. */
function inceptionOf(choices: Choices, input: ReportInput): string | null {
  const selected = input.selection.startsWith("account:")
    ? choices.accounts.filter((acc) => `account:${acc.accountid}` === input.selection)
    : input.selection.startsWith("group:")
      ? choices.accounts.filter((acc) => `group:${acc.group_code}` === input.selection)
      : choices.accounts;
  const dates = selected
    .map((acc) => acc.inception_date)
    .filter((d): d is string => Boolean(d))
    .sort();
  return dates[0] ?? null;
}

/** spec 002 §8: 'Report toast: We are generating your portfolio report'; the job's page keeps its own status and progress. */
const GENERATING_TOAST: Toast = { type: "info", title: "reports:job.generating" };

export async function reportAction(a: Args & { form: FormData }) {
  const intent = a.form.get("intent");
  if (intent === "run-default") {
    const started = await attempt(a.request, runDefaultReport(a.planning, a.clientId));
    if (!started.ok)
      return json(
        { failure: started.error.failure, errors: {} as ReportErrors, values: null },
        { status: started.error.failure.status },
      );
    return redirectWithToast(
      `${REPORTS_PATH}/jobs/${encodeURIComponent(started.value)}?started=${Date.now()}`,
      GENERATING_TOAST,
    );
  }
  const choices = await loadChoices(a);
  const input = readInput(a.form);
  const template = choices.templates.find((tpl) => String(tpl.id) === input.template) ?? null;
  const { errors, run } = readReportRun(template, input, {
    clientId: a.clientId,
    memberIds: choices.members.map((m) => m.member_id),
    groupCodes: choices.groups.map((g) => g.code),
    accountIds: choices.accounts.map((acc) => acc.accountid),
    latest: choices.latest,
    inception: inceptionOf(choices, input),
  });
  if (!run) return json({ errors, values: input, failure: null }, { status: 400 });
  const started = await attempt(a.request, runTemplateReport(a.planning, run));
  if (!started.ok)
    return json(
      { failure: started.error.failure, errors: {} as ReportErrors, values: input },
      { status: started.error.failure.status },
    );
  const query = choicesQuery(input);
  return redirectWithToast(
    `${REPORTS_PATH}/jobs/${encodeURIComponent(started.value)}${query}${query ? "&" : "?"}started=${Date.now()}`,
    GENERATING_TOAST,
  );
}
