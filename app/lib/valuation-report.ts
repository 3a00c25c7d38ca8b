// spec 002 "Valuation report page", §3 "Report template", §4 "Report run", §5 "Date range pickers
// (messages and reports)", §7 report variables, §9: the report form's rules, shared by the server
// and the browser.

import { addYears, formatISO, parseISO, subDays } from "date-fns";
import { parseDisplayDate } from "./date-range";
import { dateTimeFormat } from "./format";

export const DATE_PARAMETERS = ["No Date Required", "Single Date", "Date Range"] as const;
export const REQUIRED_SELECTORS = [
  "Current Client Only",
  "Select Entity",
  "Account Group",
  "Account Group Or Account",
] as const;
export type DateParameters = (typeof DATE_PARAMETERS)[number];
export type RequiredSelector = (typeof REQUIRED_SELECTORS)[number];

export type ReportTemplate = {
  id: number;
  name: string;
  userType: "Adviser" | "Client";
  dateParameters: DateParameters;
  requiredSelector: RequiredSelector;
};

/** spec 002 §9: poll every 3 seconds; generation takes up to 5 minutes; the file is report.pdf. */
export const POLL_INTERVAL_MS = 3000;
export const MAX_WAIT_MS = 5 * 60_000;
export const REPORT_FILE_NAME = "report.pdf";
export const REPORTS_PATH = "/clients/valuation-report";

/** spec 002 §9 date filters: 1, 2 or 3 years, since inception, year to date, custom (default 1 year). */
export const PERIODS = ["1Y", "2Y", "3Y", "SI", "YTD", "custom"] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "1Y";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written yyyy-MM-dd (spec 002 §5: the pickers' format). */
export function isIsoDate(value: string | null | undefined): value is string {
  if (!value || !ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A 'yyyy-MM-dd' date moved by date-fns (local midnight in, local parts out: no time zone shift). */
const shiftDate = (iso: string, shift: (date: Date) => Date): string =>
  formatISO(shift(parseISO(iso)), { representation: "date" });

// 29 February less a year is 28 February
const shiftYears = (iso: string, years: number): string => shiftDate(iso, (date) => addYears(date, years));

/**
 * spec 002 §5: the latest date a report may use: today, or yesterday with a hold-back period.
 * `today` is the date in the firm's calendar (yyyy-MM-dd).
 */
export function latestDate(today: string, holdBack: boolean): string {
  if (!holdBack) return today;
  return shiftDate(today, (date) => subDays(date, 1));
}

/** The dates of a period ending at `end`; since inception starts at the inception date (or a year back without one). */
export function periodDates(
  period: Exclude<Period, "custom">,
  end: string,
  inception: string | null,
): { from: string; to: string } {
  switch (period) {
    case "1Y":
      return { from: shiftYears(end, -1), to: end };
    case "2Y":
      return { from: shiftYears(end, -2), to: end };
    case "3Y":
      return { from: shiftYears(end, -3), to: end };
    case "YTD":
      return { from: `${end.slice(0, 4)}-01-01`, to: end };
    case "SI":
      return { from: inception && inception <= end ? inception : shiftYears(end, -1), to: end };
  }
}

export const isPeriod = (value: unknown): value is Period =>
  typeof value === "string" && (PERIODS as readonly string[]).includes(value);

/** What the form sends (every value a string, as posted). */
export type ReportInput = {
  template: string;
  entity: string;
  selection: string;
  asAt: string;
  period: string;
  from: string;
  to: string;
};

export type ReportErrors = Partial<Record<"template" | "entity" | "selection" | "asAt" | "from" | "to", string>>;

export const MESSAGES = {
  template: "reports:errors.template",
  entity: "reports:errors.entity",
  group: "reports:errors.group",
  groupOrAccount: "reports:errors.groupOrAccount",
  dateFormat: "reports:errors.dateFormat",
  dateRequired: "reports:errors.dateRequired",
  future: "reports:errors.future",
  endBeforeStart: "reports:errors.endBeforeStart",
} as const;

/** A group or an account of the selector: `group:<code>` or `account:<id>`. */
export function readSelection(value: string): { kind: "group"; code: string } | { kind: "account"; id: number } | null {
  const group = /^group:([\w .&'-]{1,60})$/.exec(value);
  if (group) return { kind: "group", code: group[1]! };
  const account = /^account:(\d{1,12})$/.exec(value);
  if (account) return { kind: "account", id: Number(account[1]) };
  return null;
}

export type ReportRun = {
  templateId: number;
  entityId: number;
  groupCode: string | null;
  variables: {
    as_at_date?: string;
    from_date?: string;
    to_date?: string;
    report_type?: "account" | "group";
    accountid?: number;
    since_inception?: boolean;
  };
};

export type ReportChoices = {
  /** The client's entity and the members a report may be for (spec 002 §3 valuation member). */
  clientId: number;
  memberIds: readonly number[];
  groupCodes: readonly string[];
  accountIds: readonly number[];
  /** The latest date allowed (today, or yesterday with a hold-back period). */
  latest: string;
  /** The since-inception date of what the report covers, if known. */
  inception: string | null;
};

/**
 * spec 002 "Valuation report page", §5, §7 report variables: the run a template's form asks for,
 * or the errors beside its fields. The variables: as_at_date for a single date; from_date and
 * to_date for a range, since_inception when the start is the since-inception date; report_type
 * account with accountid, or group (with the group code) where the template selects them.
 */
export function readReportRun(
  template: ReportTemplate | null,
  input: ReportInput,
  choices: ReportChoices,
): { errors: ReportErrors; run: ReportRun | null } {
  const errors: ReportErrors = {};
  if (!template) return { errors: { template: MESSAGES.template }, run: null };
  const run: ReportRun = { templateId: template.id, entityId: choices.clientId, groupCode: null, variables: {} };

  switch (template.requiredSelector) {
    case "Select Entity": {
      const id = Number(input.entity);
      if (!Number.isInteger(id) || !choices.memberIds.includes(id)) errors.entity = MESSAGES.entity;
      else run.entityId = id;
      break;
    }
    case "Account Group":
    case "Account Group Or Account": {
      const selection = readSelection(input.selection);
      const allowAccount = template.requiredSelector === "Account Group Or Account";
      const message = allowAccount ? MESSAGES.groupOrAccount : MESSAGES.group;
      if (selection?.kind === "group" && choices.groupCodes.includes(selection.code)) {
        run.groupCode = selection.code;
        run.variables.report_type = "group";
      } else if (allowAccount && selection?.kind === "account" && choices.accountIds.includes(selection.id)) {
        run.variables.report_type = "account";
        run.variables.accountid = selection.id;
      } else {
        errors.selection = message;
      }
      break;
    }
    case "Current Client Only":
      break;
  }

  const checkDate = (field: "asAt" | "from" | "to", value: string): string | null => {
    // issue 25 item 18: typed as every date field of the portal takes it, DD-MM-YYYY (spec 001 §5,
    // 002 §5 "Custom date"), and sent yyyy-MM-dd (002 §5 "Date range pickers")
    if (!value.trim()) {
      errors[field] = MESSAGES.dateRequired;
      return null;
    }
    const date = parseDisplayDate(value);
    if (!date) {
      errors[field] = MESSAGES.dateFormat;
      return null;
    }
    if (date > choices.latest) {
      errors[field] = MESSAGES.future;
      return null;
    }
    return date;
  };

  if (template.dateParameters === "Single Date") {
    const asAt = checkDate("asAt", input.asAt);
    if (asAt) run.variables.as_at_date = asAt;
  } else if (template.dateParameters === "Date Range") {
    const period: Period = isPeriod(input.period) ? input.period : DEFAULT_PERIOD;
    let range: { from: string; to: string } | null = null;
    if (period === "custom") {
      const from = checkDate("from", input.from);
      const to = checkDate("to", input.to);
      if (from && to) {
        if (to < from) errors.to = MESSAGES.endBeforeStart;
        else range = { from, to };
      }
    } else {
      range = periodDates(period, choices.latest, choices.inception);
    }
    if (range) {
      run.variables.from_date = range.from;
      run.variables.to_date = range.to;
      run.variables.since_inception = choices.inception !== null && range.from === choices.inception;
    }
  }
  return Object.keys(errors).length ? { errors, run: null } : { errors, run };
}

/** spec 002 §9: the wait ends after 5 minutes. */
export function waitedTooLong(createdAt: string | null, now: number): boolean {
  if (!createdAt) return false;
  const started = Date.parse(createdAt);
  return Number.isFinite(started) && now - started > MAX_WAIT_MS;
}

/** The form's choices as a query string, so that 'Try again' comes back to them. */
export function choicesQuery(input: Partial<ReportInput>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Today in a time zone, as yyyy-MM-dd (the user's own zone; the firm's when unknown). */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  try {
    return dateTimeFormat("en-CA", {
      timeZone: timeZone || "Europe/London",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}
