// spec 002 §5, §7: the run a valuation report's form asks for and the dates it runs over. Server
// only, its date arithmetic by ./calendar.server (decision 149); the report's other rules, shared
// with the browser, are in ./valuation-report.

import { shiftDays, shiftYears } from "./calendar.server";
import { parseDisplayDate } from "./date-range";
import {
  DEFAULT_PERIOD,
  isPeriod,
  MESSAGES,
  type Period,
  readSelection,
  type ReportChoices,
  type ReportErrors,
  type ReportInput,
  type ReportRun,
  type ReportTemplate,
} from "./valuation-report";

/**
 * spec 002 §5: the latest date a report may use: today, or yesterday with a hold-back period.
 * `today` is the date in the firm's calendar (yyyy-MM-dd).
 */
export function latestDate(today: string, holdBack: boolean): string {
  if (!holdBack) return today;
  return shiftDays(today, -1);
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
