// Investment return arithmetic (docs/decisions/070-returns-engine.md). Pure functions, no I/O.
//
// - Money-weighted return: `xirr` (and `xnpv`), actual/365 from the earliest flow, as Excel's XIRR.
// - Time-weighted return (GIPS): `twr`, revaluing at every external cash flow and chaining the
//   sub-period returns geometrically; flows are taken at the END of their day.
// - `modifiedDietz`: the day-weighted approximation of the money-weighted return, for comparison.
// - Helpers: `chainReturns`, `annualise`, `isOverAYear`.
//
// Rates and returns are decimals (0.05 = 5%). Dates are ISO calendar dates 'YYYY-MM-DD' (no time,
// no zone); day counts are whole calendar days.

import { addYears } from "date-fns/addYears";
import { differenceInCalendarDays } from "date-fns/differenceInCalendarDays";
import { isAfter } from "date-fns/isAfter";
import { parseIsoDate } from "./calendar";

const DAYS_PER_YEAR = 365;

export type CashFlow = { date: string; amount: number };
export type Valuation = { date: string; value: number };
export type TwrResult = {
  /** Geometrically chained return over the whole period (0.232 = 23.2%). */
  cumulative: number;
  /** (1 + cumulative)^(365/days) − 1, only when the period is over a year; otherwise null. */
  annualised: number | null;
  /** Calendar days from the (first funded) start valuation to the end valuation. */
  days: number;
};

// ---------------------------------------------------------------------------------------------
// Dates

const EPOCH = new Date(1970, 0, 1);

/** A strict ISO calendar date; RangeError for anything else. */
function calendarDate(date: string, what: string): Date {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new RangeError(`${what}: '${date}' is not a calendar date in the form YYYY-MM-DD.`);
  return parsed;
}

/** Days since 1970-01-01 of a strict ISO calendar date; RangeError for anything else. */
const dayNumber = (date: string, what: string): number => differenceInCalendarDays(calendarDate(date, what), EPOCH);

function finite(x: number, what: string): number {
  if (typeof x !== "number" || !Number.isFinite(x))
    throw new RangeError(`${what} must be a finite number, not ${String(x)}.`);
  return x;
}

/**
 * Whether the period from `start` to `end` (ISO dates) is longer than one calendar year: `end` falls
 * after the anniversary of `start` (29 February's anniversary is 28 February). 2024-01-01 → 2025-01-01
 * is exactly one year (366 days), not over a year; 2023-01-01 → 2024-01-02 is.
 */
export function isOverAYear(start: string, end: string): boolean {
  const from = calendarDate(start, "Start date");
  return isAfter(calendarDate(end, "End date"), addYears(from, 1));
}

// ---------------------------------------------------------------------------------------------
// Chaining and annualising

/**
 * Geometric linking of consecutive sub-period returns: (1 + r₁)(1 + r₂)…(1 + rₙ) − 1.
 * An empty list is 0 (no periods, no return). Each return must be finite and ≥ −1 (−100%: all lost).
 */
export function chainReturns(subReturns: readonly number[]): number {
  let growth = 1;
  subReturns.forEach((r, i) => {
    finite(r, `Sub-period return ${i + 1}`);
    if (r < -1) throw new RangeError(`Sub-period return ${i + 1} is ${r}, below −100%.`);
    growth *= 1 + r;
  });
  return growth - 1;
}

/**
 * The annual rate equivalent to a cumulative return earned over `days` calendar days, actual/365:
 * (1 + cumulative)^(365/days) − 1. This is the plain formula for any positive number of days; whether a
 * period is long enough to *show* an annualised figure is the caller's choice (`twr` gives one only for
 * periods over a year, see `isOverAYear`), since annualising a short period extrapolates it.
 */
export function annualise(cumulative: number, days: number): number {
  finite(cumulative, "The cumulative return");
  finite(days, "The number of days");
  if (days <= 0) throw new RangeError(`Cannot annualise over ${days} days; the period must be at least one day.`);
  if (cumulative < -1) throw new RangeError(`Cannot annualise a return of ${cumulative}, below −100%.`);
  return Math.pow(1 + cumulative, DAYS_PER_YEAR / days) - 1;
}

// ---------------------------------------------------------------------------------------------
// Money-weighted return: XNPV and XIRR

type TimedFlow = { years: number; amount: number };

/** Flows as (years since the earliest date, actual/365; amount), validated. */
function timedFlows(flows: readonly CashFlow[]): TimedFlow[] {
  if (flows.length === 0) throw new RangeError("At least one cash flow is needed.");
  const days = flows.map((f, i) => dayNumber(f.date, `Cash flow ${i + 1}`));
  const first = Math.min(...days);
  return flows.map((f, i) => ({
    years: ((days[i] as number) - first) / DAYS_PER_YEAR,
    amount: finite(f.amount, `Cash flow ${i + 1}'s amount`),
  }));
}

/**
 * Net present value of dated cash flows at an annual `rate`, discounted to the EARLIEST flow's date
 * with actual/365: Σ amountᵢ / (1 + rate)^(daysᵢ/365). As Excel's XNPV (which discounts to the first
 * flow listed; for sorted flows that is the same date). The rate must be above −1.
 */
export function xnpv(rate: number, flows: readonly CashFlow[]): number {
  finite(rate, "The rate");
  if (rate <= -1) throw new RangeError(`The rate must be above −1 (−100%), not ${rate}.`);
  return timedFlows(flows).reduce((sum, f) => sum + f.amount * Math.pow(1 + rate, -f.years), 0);
}

/**
 * Bounds of the bracketing search in x = ln(1 + rate): rates from −1 + 2.3e-16 (the last double
 * above −1 that far out) to about 1e304 (a 100% gain in one day is x = 365·ln 2 ≈ 253).
 */
const X_MIN = -36;
const X_MAX = 700;

/**
 * The NPV at x = ln(1 + rate), divided by a positive factor so it never overflows:
 * Σ aᵢ·e^(−x·tᵢ − m) with m = max(−x·tᵢ). Same sign and same roots as the NPV, continuous in x.
 */
function scaledNpv(x: number, flows: readonly TimedFlow[]): number {
  let m = -Infinity;
  for (const f of flows) m = Math.max(m, -x * f.years);
  let sum = 0;
  for (const f of flows) sum += f.amount * Math.exp(-x * f.years - m);
  return sum;
}

/** Newton–Raphson on the NPV in the rate itself (what Excel does). null when it fails. */
function newton(flows: readonly TimedFlow[], guess: number): number | null {
  let rate = guess;
  for (let i = 0; i < 100; i++) {
    if (!(rate > -1) || !Number.isFinite(rate)) return null;
    let npv = 0;
    let slope = 0;
    for (const f of flows) {
      const discount = Math.pow(1 + rate, -f.years);
      npv += f.amount * discount;
      slope -= (f.years * f.amount * discount) / (1 + rate);
    }
    if (!Number.isFinite(npv) || !Number.isFinite(slope) || slope === 0) return null;
    const next = rate - npv / slope;
    if (Math.abs(next - rate) <= 1e-12 * Math.max(1, Math.abs(rate))) {
      return next > -1 && Number.isFinite(next) && isRoot(flows, next) ? next : null;
    }
    rate = next;
  }
  return null;
}

/** Whether the NPV at `rate` is zero to within rounding of its terms (guards Newton against a false stop). */
function isRoot(flows: readonly TimedFlow[], rate: number): boolean {
  let npv = 0;
  let scale = 0;
  for (const f of flows) {
    const term = f.amount * Math.pow(1 + rate, -f.years);
    npv += term;
    scale += Math.abs(term);
  }
  return Number.isFinite(npv) && Math.abs(npv) <= 1e-9 * scale;
}

/**
 * Scans outwards from x0 in both directions with growing steps for the sign change nearest to x0,
 * then bisects it to machine precision. Returns x = ln(1 + rate), or null when no sign change exists
 * in [X_MIN, X_MAX].
 */
function bracketAndBisect(flows: readonly TimedFlow[], x0: number): number | null {
  const start = Math.min(X_MAX, Math.max(X_MIN, x0));
  const f0 = scaledNpv(start, flows);
  if (f0 === 0) return start;
  let bracket: [number, number, number] | null = null; // [a, b, f(a)] with a sign change in [a, b]
  const sides = [
    { x: start, f: f0, dir: 1, done: false },
    { x: start, f: f0, dir: -1, done: false },
  ];
  for (let step = 0.01; bracket === null && sides.some((s) => !s.done); step *= 1.25) {
    for (const side of sides) {
      if (side.done || bracket !== null) continue;
      const limit = side.dir > 0 ? X_MAX : X_MIN;
      const x = side.dir > 0 ? Math.min(limit, side.x + step) : Math.max(limit, side.x - step);
      const f = scaledNpv(x, flows);
      if (f === 0) return x;
      if (Math.sign(f) !== Math.sign(side.f)) bracket = side.dir > 0 ? [side.x, x, side.f] : [x, side.x, f];
      else if (x === limit) side.done = true;
      side.x = x;
      side.f = f;
    }
  }
  if (bracket === null) return null;
  let [a, b, fa] = bracket;
  for (let i = 0; i < 200; i++) {
    const mid = a + (b - a) / 2;
    if (mid <= a || mid >= b || b - a <= 2e-16 * Math.max(1, Math.abs(mid))) break;
    const fm = scaledNpv(mid, flows);
    if (fm === 0) return mid;
    if (Math.sign(fm) === Math.sign(fa)) [a, fa] = [mid, fm];
    else b = mid;
  }
  return a + (b - a) / 2;
}

/**
 * Internal rate of return of dated cash flows (the money-weighted return), as an annual rate: the
 * `rate` at which `xnpv(rate, flows)` is 0. Actual/365 from the earliest flow's date, like Excel's
 * XIRR. Negative amounts are money paid in (invested), positive amounts money received (or the final
 * value); the signs may also be the other way round, the rate is the same. Flows need not be sorted;
 * several flows may share a date.
 *
 * Solver: Newton–Raphson from `guess` (default 0.1, as Excel). When Newton fails — a step leaves the
 * domain rate > −1, overflows, or does not settle in 100 steps, which happens for rates near −100%,
 * very large rates or a poor guess — the NPV is written in x = ln(1 + rate) (so every real x is a valid
 * rate and (1 + rate)^(−t) = e^(−x·t) never needs a negative base), scaled so it cannot overflow,
 * scanned outwards from the guess for the sign change nearest to it, and bisected to machine precision.
 *
 * When the flows change sign more than once there may be several rates; the one returned is Newton's
 * from the guess, else the bracketed one nearest the guess.
 *
 * @throws RangeError on an invalid date or amount, when all non-zero flows have the same sign (or there
 *   are none) — no rate can make the NPV zero — and when the flows change sign but the NPV has no root
 *   for rates between −1 + 2.3e-16 and about 1e304.
 */
export function xirr(flows: readonly CashFlow[], options: { guess?: number } = {}): number {
  const timed = timedFlows(flows);
  const guess = finite(options.guess ?? 0.1, "The guess");
  if (guess <= -1) throw new RangeError(`The guess must be above −1 (−100%), not ${guess}.`);
  const hasIn = timed.some((f) => f.amount < 0);
  const hasOut = timed.some((f) => f.amount > 0);
  if (!hasIn || !hasOut) {
    throw new RangeError(
      "XIRR needs at least one negative and one positive cash flow: with all flows of the same sign no rate makes their present value zero.",
    );
  }
  const byNewton = newton(timed, guess);
  if (byNewton !== null) return byNewton;
  const x = bracketAndBisect(timed, Math.log1p(guess));
  if (x === null) {
    throw new RangeError("XIRR has no solution: no rate above −100% makes the present value of these cash flows zero.");
  }
  return Math.expm1(x);
}

// ---------------------------------------------------------------------------------------------
// Time-weighted return (GIPS)

type TwrPoint = { day: number; date: string; value: number };

/** The valuations in date order, each a finite value of zero or more, at most one a day. */
function twrPoints(valuations: readonly Valuation[]): TwrPoint[] {
  if (valuations.length < 2)
    throw new RangeError("A time-weighted return needs at least two valuations: the start and the end of the period.");
  const points = valuations
    .map((v, i) => {
      const day = dayNumber(v.date, `Valuation ${i + 1}`);
      const value = finite(v.value, `Valuation ${i + 1} (${v.date})`);
      if (value < 0) throw new RangeError(`The valuation on ${v.date} is negative (${value}).`);
      return { day, date: v.date, value };
    })
    .sort((a, b) => a.day - b.day);
  points.forEach((p, i) => {
    if (i > 0 && points[i - 1]?.day === p.day) throw new RangeError(`There are two valuations on ${p.date}.`);
  });
  return points;
}

/** The net cash flow of each day; every flow inside the period and on a valuation date. */
function twrNetFlows(flows: readonly CashFlow[], points: readonly TwrPoint[]): Map<number, number> {
  const netFlow = new Map<number, number>();
  flows.forEach((f, i) => {
    const day = dayNumber(f.date, `Cash flow ${i + 1}`);
    const amount = finite(f.amount, `Cash flow ${i + 1}'s amount (${f.date})`);
    netFlow.set(day, (netFlow.get(day) ?? 0) + amount);
  });
  const first = points[0] as TwrPoint;
  const last = points[points.length - 1] as TwrPoint;
  const valued = new Set(points.map((p) => p.day));
  for (const f of flows) {
    const day = dayNumber(f.date, "Cash flow");
    if (day < first.day || day > last.day) {
      throw new RangeError(`The cash flow on ${f.date} is outside the period ${first.date} to ${last.date}.`);
    }
    if (!valued.has(day)) {
      throw new RangeError(
        `The portfolio must be revalued on every cash flow date: there is no valuation on ${f.date}.`,
      );
    }
  }
  return netFlow;
}

/**
 * Inception: the index of the first valuation with a value. Before it the portfolio held nothing, so
 * no money can have moved (a flow on the inception date itself is the opening inflow, part of its value).
 */
function inceptionIndex(points: readonly TwrPoint[], netFlow: ReadonlyMap<number, number>): number {
  const start = points.findIndex((p) => p.value > 0);
  if (start < 0) throw new RangeError("The portfolio has no value at any valuation date, so it has no return.");
  for (const p of points.slice(0, start)) {
    if ((netFlow.get(p.day) ?? 0) !== 0) {
      throw new RangeError(
        `The portfolio is worth nothing on ${p.date} but has a cash flow of ${netFlow.get(p.day)} that day.`,
      );
    }
  }
  if (start === points.length - 1) {
    throw new RangeError(
      `The portfolio has value only on its last valuation date (${points[start]?.date}), so there is no period to measure.`,
    );
  }
  return start;
}

/** The return from `prev` to `cur`, the flow of `cur`'s day taken at the end of the day. */
function subPeriodReturn(prev: TwrPoint, cur: TwrPoint, flow: number): number {
  const beforeFlow = cur.value - flow;
  // Tolerate floating-point rounding (relative 1e-9) when testing for "zero".
  const tolerance = 1e-9 * Math.max(1, Math.abs(cur.value), Math.abs(flow));
  if (beforeFlow < -tolerance) {
    throw new RangeError(
      `On ${cur.date} the value before the cash flow would be negative (${cur.value} less a flow of ${flow}).`,
    );
  }
  if (prev.value !== 0) return Math.max(0, beforeFlow) / prev.value - 1;
  if (Math.abs(beforeFlow) > tolerance) {
    throw new RangeError(
      `The portfolio was empty on ${prev.date} but worth ${beforeFlow} on ${cur.date} before any cash flow.`,
    );
  }
  return 0;
}

/**
 * The time-weighted return (GIPS true TWR) of a portfolio between its first and last valuation.
 *
 * `valuations`: market value at the END of each day, including the start and end of the period; any
 * order; one per date. `flows`: external cash flows, positive = money in (contribution), negative =
 * money out (withdrawal); several on one date are added together.
 *
 * Timing convention — flows at the END of the day: a flow dated d is in the valuation of d but earned
 * nothing on day d. The portfolio must be revalued on every flow date (RangeError otherwise), and each
 * sub-period between consecutive valuations earns
 *     rᵢ = (Vᵢ − Fᵢ) / Vᵢ₋₁ − 1,
 * where Fᵢ is the net flow on the closing date of the sub-period. The sub-period returns are chained
 * geometrically: TWR = Π(1 + rᵢ) − 1, so the result does not depend on the size or timing of the flows.
 * Valuations without a flow (month ends, say) simply add sub-periods.
 *
 * Flows dated on the first valuation date are already in the opening value and are not a sub-period's
 * flow. Flows before the first or after the last valuation are an error.
 *
 * Zero values: a portfolio opened by its first inflow starts at its first non-zero valuation (its
 * inception); earlier zero valuations are dropped, and `days` counts from there. A later sub-period that
 * starts at zero (fully withdrawn, then funded again) had no capital at risk and counts as 0%; its
 * closing value less its flows must then be zero too. A valuation below zero, or a value before a flow
 * below zero (Vᵢ − Fᵢ < 0: a bigger inflow than the value that includes it) is inconsistent and throws.
 *
 * `annualised` is given only for a period over a year (see `isOverAYear`), with actual/365.
 */
export function twr(valuations: readonly Valuation[], flows: readonly CashFlow[] = []): TwrResult {
  const points = twrPoints(valuations);
  const netFlow = twrNetFlows(flows, points);
  const start = inceptionIndex(points, netFlow);
  const subReturns = points
    .slice(start + 1)
    .map((cur, i) => subPeriodReturn(points[start + i] as TwrPoint, cur, netFlow.get(cur.day) ?? 0));

  const inception = points[start] as TwrPoint;
  const last = points[points.length - 1] as TwrPoint;
  const cumulative = chainReturns(subReturns);
  const days = last.day - inception.day;
  return {
    cumulative,
    annualised: isOverAYear(inception.date, last.date) ? annualise(cumulative, days) : null,
    days,
  };
}

// ---------------------------------------------------------------------------------------------
// Modified Dietz (approximation)

/**
 * The Modified Dietz return over a period — an APPROXIMATION of the money-weighted return (a
 * first-order, simple-interest IRR), for comparison with `twr` and where intermediate valuations are
 * missing. Not a time-weighted return: large flows and large returns make it drift from both.
 *
 *     R = (V₁ − V₀ − ΣFᵢ) / (V₀ + Σ wᵢ·Fᵢ),   wᵢ = (CD − Dᵢ) / CD
 *
 * CD = calendar days in the period, Dᵢ = days from the start to flow i. Consistent with `twr`, a flow
 * is taken at the end of its day (a flow on the start date has weight 1, on the end date 0).
 *
 * @throws RangeError for flows outside the period, an empty period, or zero average capital.
 */
export function modifiedDietz(start: Valuation, end: Valuation, flows: readonly CashFlow[] = []): number {
  const from = dayNumber(start.date, "Start valuation");
  const to = dayNumber(end.date, "End valuation");
  const v0 = finite(start.value, "The start value");
  const v1 = finite(end.value, "The end value");
  const cd = to - from;
  if (cd <= 0) throw new RangeError(`The end date ${end.date} must be after the start date ${start.date}.`);
  let netFlows = 0;
  let weighted = 0;
  flows.forEach((f, i) => {
    const day = dayNumber(f.date, `Cash flow ${i + 1}`);
    const amount = finite(f.amount, `Cash flow ${i + 1}'s amount (${f.date})`);
    if (day < from || day > to)
      throw new RangeError(`The cash flow on ${f.date} is outside the period ${start.date} to ${end.date}.`);
    netFlows += amount;
    weighted += (amount * (cd - (day - from))) / cd;
  });
  const averageCapital = v0 + weighted;
  if (averageCapital === 0)
    throw new RangeError("The Modified Dietz return is undefined: the average capital is zero.");
  return (v1 - v0 - netFlows) / averageCapital;
}
