// Display rules of the home dashboard and the charts (spec 001 §2.1, §4 "Chart display", §9).
// Pure: shared by the server and the browser.

/** spec 001 §2.1 and §9: tiles show values at 0 decimals, tables at 2. */
export const TILE_DECIMALS = 0;
export const TABLE_DECIMALS = 2;

/** spec 001 §9 "Tile switch thresholds: own > 9, linked > 8, combined > 13". */
const MAX_OWN_TILES = 9;
const MAX_LINKED_TILES = 8;
const MAX_COMBINED_TILES = 13;

/** spec 001 §2.1: the account summary shows tiles until there are too many accounts for them. */
export function summaryLayout({ own, linked }: { own: number; linked: number }): "tiles" | "table" {
  return own > MAX_OWN_TILES || linked > MAX_LINKED_TILES || own + linked > MAX_COMBINED_TILES ? "table" : "tiles";
}

/** spec 001 §2.1 "Radial circle: radius 35, stroke 5 for account tiles; radius 45, stroke 8 for group tiles." */
export const RADIAL = {
  account: { radius: 35, stroke: 5 },
  group: { radius: 45, stroke: 8 },
} as const;

export type RadialKind = keyof typeof RADIAL;

export type RadialGeometry = {
  /** Width and height of the square SVG: the ring's outer diameter. */
  size: number;
  /** Centre of the ring on both axes. */
  centre: number;
  radius: number;
  stroke: number;
  circumference: number;
  /** `stroke-dashoffset` with `stroke-dasharray` = circumference: the part of the ring left empty. */
  dashOffset: number;
};

/**
 * The ring of a tile's radial percentage: a `<circle r={radius} stroke-width={stroke}>` centred in a
 * square of `size`, its dash offset showing `percent` (clamped to 0–100) of the circumference.
 */
export function radialGeometry(kind: RadialKind, percent: number): RadialGeometry {
  const { radius, stroke } = RADIAL[kind];
  const size = 2 * radius + stroke;
  const circumference = 2 * Math.PI * radius;
  const share = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) / 100 : 0;
  return { size, centre: size / 2, radius, stroke, circumference, dashOffset: circumference * (1 - share) };
}

export type SeriesFrequency = "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
export type BenchmarkFrequency = "monthly" | "quarterly" | "yearly";

type CalendarDate = { year: number; month: number; day: number };

function readIsoDate(iso: string): CalendarDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  const date = match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
  if (!date || date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new RangeError(`not a calendar date 'YYYY-MM-DD': ${iso}`);
  }
  return date;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** N calendar months later; a day the target month lacks becomes its last day (31 Jan + 1 month = 28/29 Feb). */
function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

const ordinal = (d: CalendarDate) => d.year * 10_000 + d.month * 100 + d.day;

/** "Up to N months": the end is on or before the start plus N calendar months. */
function withinMonths(start: CalendarDate, end: CalendarDate, months: number): boolean {
  return ordinal(end) <= ordinal(addMonths(start, months));
}

/**
 * spec 001 §4 "Chart display" and §9: the time series frequency for a date range ('YYYY-MM-DD'):
 * up to 1 month daily, up to 8 months weekly, up to 2 years monthly, up to 10 years quarterly,
 * longer yearly. An end before the start is the shortest range.
 */
export function seriesFrequency(start: string, end: string): SeriesFrequency {
  const from = readIsoDate(start);
  const to = readIsoDate(end);
  if (withinMonths(from, to, 1)) return "daily";
  if (withinMonths(from, to, 8)) return "weekly";
  if (withinMonths(from, to, 24)) return "monthly";
  if (withinMonths(from, to, 120)) return "quarterly";
  return "yearly";
}

/** spec 001 §4 "Chart display": benchmarks monthly up to 2 years, quarterly up to 10 years, else yearly. */
export function benchmarkFrequency(start: string, end: string): BenchmarkFrequency {
  const from = readIsoDate(start);
  const to = readIsoDate(end);
  if (withinMonths(from, to, 24)) return "monthly";
  if (withinMonths(from, to, 120)) return "quarterly";
  return "yearly";
}
