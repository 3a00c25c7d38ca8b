import { formatDate } from "~/lib/format-date.server";
import { todayIn } from "~/lib/valuation-report";

/**
 * Today as the printed page's header says it (issue 25 item 20, decision 117), in the site's long
 * date format; server-only, so that the date rules stay out of every page's first load.
 */
export function printedOn(locale: string, now: Date = new Date()): string {
  return formatDate(todayIn(null, now), locale);
}
