// spec 001 §3 "Filters", §4 "Date range selection", §5 "Custom date range": the date-range options,
// the ones a site disables, and the custom range's validation. Pure: the server validates a
// submitted range with it and the browser validates as the user types.

import { calendarDayIso } from "./calendar-day";

/** The options in the order shown; codes in URLs, the spec's names on screen. */
export const DATE_RANGE_NAMES = ["1Y", "2Y", "3Y", "SI", "YTD", "custom"] as const;
export type DateRangeName = (typeof DATE_RANGE_NAMES)[number];
/** spec 001 §4: the default is 1 year ending today. */
export const DEFAULT_DATE_RANGE: DateRangeName = "1Y";

/** The spec's names ('1 year' … 'Custom'), as a site's configuration may list them. */
const SPEC_NAMES: Record<DateRangeName, string> = {
  "1Y": "1 year",
  "2Y": "2 years",
  "3Y": "3 years",
  SI: "Since inception",
  YTD: "Year to date",
  custom: "Custom",
};

const canonical = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * spec 001 §4: '2 years', '3 years', 'Since inception', 'Year to date' and 'Custom' can be disabled by
 * a comma list in the configuration, by name or by code; '1 year', the default, cannot.
 */
export function disabledDateRanges(setting: unknown): Set<DateRangeName> {
  const disabled = new Set<DateRangeName>();
  if (typeof setting !== "string") return disabled;
  for (const item of setting.split(",").map(canonical)) {
    const name = DATE_RANGE_NAMES.find((n) => canonical(n) === item || canonical(SPEC_NAMES[n]) === item);
    if (name && name !== DEFAULT_DATE_RANGE) disabled.add(name);
  }
  return disabled;
}

/** A range named in a URL: unknown or disabled ones fall back to the default. */
export function readDateRangeName(
  value: string | null,
  disabled: ReadonlySet<DateRangeName> = new Set(),
): DateRangeName {
  const name = DATE_RANGE_NAMES.find((n) => n === value);
  return name && !disabled.has(name) ? name : DEFAULT_DATE_RANGE;
}

const DISPLAY_DATE = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{1,4})$/;

/**
 * A date as the user types it, 'DD-MM-YYYY' (spec 001 §5: a valid date with a year of at most 4
 * digits; '/' and '.' are taken as separators too), as 'YYYY-MM-DD'; null when it is not one.
 */
export function parseDisplayDate(text: string): string | null {
  const match = DISPLAY_DATE.exec(text.trim());
  return match ? calendarDayIso(Number(match[3]), Number(match[2]), Number(match[1])) : null;
}

/** 'YYYY-MM-DD' as the inputs show it, 'DD-MM-YYYY'. */
export function formatDisplayDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${day}-${month}-${year}`;
}

/**
 * spec 001 §5: 'Date is required', 'Invalid date format, please enter the date in the format
 * "DD-MM-YYYY"', a start after the end ('Please enter an earlier start date.', which the analysis
 * page words 'You cannot select an earlier date than the From date.', said of the To date), and a
 * start before the since-inception date, the start input's minimum (said in the spec's words for
 * such a range, 'The date range selected is earlier than the portfolio / account opening date.').
 */
export type DateError = "required" | "invalidFormat" | "startAfterEnd" | "beforeInception";

export type CustomRangeCheck =
  { ok: true; start: string; end: string } | { ok: false; errors: { from?: DateError; to?: DateError } };

/**
 * `earliest` is the since-inception date (YYYY-MM-DD) of what the range is for, when known: spec 001
 * §5 makes it the start input's minimum.
 */
export function checkCustomRange(from: string, to: string, earliest: string | null = null): CustomRangeCheck {
  const errors: { from?: DateError; to?: DateError } = {};
  const read = (text: string, field: "from" | "to") => {
    if (!text.trim()) {
      errors[field] = "required";
      return null;
    }
    const iso = parseDisplayDate(text);
    if (!iso) errors[field] = "invalidFormat";
    return iso;
  };
  const start = read(from, "from");
  const end = read(to, "to");
  if (start && end && start > end) errors.to = "startAfterEnd";
  if (start && earliest && start < earliest) errors.from = "beforeInception";
  if (errors.from || errors.to || !start || !end) return { ok: false, errors };
  return { ok: true, start, end };
}
