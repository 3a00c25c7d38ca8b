// spec 002 "Valuation report page", §3 "Report template", §4 "Report run", §5 "Date range pickers
// (messages and reports)", §7 report variables, §9: the report form's rules, shared by the server
// and the browser.

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
  // A day starts on a whole minute in every time zone: within a minute the answer is the same.
  const zone = timeZone || "Europe/London";
  const minute = Math.floor(now.getTime() / 60_000);
  const kept = todayByZone.get(zone);
  if (kept?.minute === minute) return kept.today;
  let today: string;
  try {
    today = dateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
  if (todayByZone.size > 50) todayByZone.clear();
  todayByZone.set(zone, { minute, today });
  return today;
}

/** The day last worked out per time zone, and for which minute (pages ask on every request). */
const todayByZone = new Map<string, { minute: number; today: string }>();
