// The day a user typed, checked in the browser as on the server (spec 000 §5, spec 001 §5). Its own
// small module so the pages that check a typed date load nothing else with it.

/**
 * 'YYYY-MM-DD' for a day that exists in years 1 to 9999; null for 31 February, month 13 or day 0.
 * The one check that a typed date's day exists: a validity check, not arithmetic, kept free of
 * date-fns because the browser's first load uses it (decision 149).
 */
export function calendarDayIso(year: number, month: number, day: number): string | null {
  if (![year, month, day].every(Number.isInteger) || year < 1 || year > 9999) return null;
  if (month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
