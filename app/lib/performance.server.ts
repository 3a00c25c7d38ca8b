// The performance figures a page shows (spec 001 §2.1), GIPS's rule for what a return covers
// (decision 109) and its yearly figure. Server only: the loaders build them, and the browser's first
// load carries no date-fns (decision 149). The settings and figure types are in ./performance.

import { isOverAYear } from "./calendar.server";
import { numberFormat } from "./format";
import { formatDate } from "./format-date.server";
import { figure, type Performance, type PeriodFigures, type ProfitAnalysisType } from "./performance";

/** What a return's figures really cover (decision 109, GIPS). */
export type MeasuredPeriod = {
  /** The ISO date the figures cover from when the selection began after the range's start, else null. */
  since: string | null;
  /** Whether the yearly figure may be shown: the measured period (from `since` or the start) is over a year. */
  yearly: boolean;
};

/**
 * GIPS: a return over a year or less is never annualised, and a return of a selection that began
 * inside the chosen range (an account opened during it) is labelled with the period it covers
 * ('since 12th March 2025'), its yearly figure over that period. The platform's `over_a_year` must
 * agree: it measures from the same date, and an older platform that answers no `since` is not
 * trusted to have measured the range's full length.
 */
export function measuredPeriod(
  p: Pick<PeriodFigures, "start_date" | "end_date" | "since" | "over_a_year">,
): MeasuredPeriod {
  const since = p.since && p.since > p.start_date && p.since <= p.end_date ? p.since : null;
  return { since, yearly: p.over_a_year && isOverAYear(since ?? p.start_date, p.end_date) };
}

const percentFormat = (locale: string) =>
  numberFormat(locale, {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  });

/** spec 001 §2.1: performance shows for twrr and irr; over a year both the period and the yearly figure. */
export function performanceOf(data: PeriodFigures, type: ProfitAnalysisType, locale: string): Performance | null {
  if (type === "none") return null;
  const period = type === "twrr" ? data.twrr_period : data.irr_period;
  const yearly = type === "twrr" ? data.twrr : data.irr;
  if (period === null) return null;
  const f = percentFormat(locale);
  const measured = measuredPeriod(data);
  return {
    period: figure(f.format(period), period),
    annual: measured.yearly && yearly !== null ? figure(f.format(yearly), yearly) : null,
    since: measured.since ? formatDate(measured.since, locale, "long") : null,
  };
}
