// Issue 41: the realised gains as a CSV file (the analysis downloads' rules, decision 094): the page's
// selection, one row per matched part of a disposal, ISO dates and numbers as numbers.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileNamePart, csvResponse } from "~/lib/csv.server";
import { getSite } from "~/planning/site.server";
import { orFail } from "~/session/failures.server";
import { notFound, requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { fetchRealisedGains, gainsCsv, selectionOf } from "~/planning/gains.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 001 §6: the analysis page's data, for site access level Portfolio only
  requireSiteAccess(context, ["Portfolio"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const id = new URL(request.url).searchParams.get("id") || null;
  const selection = await orFail(request, selectionOf(context.planning, site, id, t));
  if (!selection) throw notFound();
  const answer = await orFail(request, fetchRealisedGains(context.planning, selection.accountIds));
  const table = gainsCsv(answer, t);
  const client = context.user.clientInContext?.displayName ?? context.user.displayName;
  const years = answer.tax_years.map((y) => y.tax_year);
  const span = years.length ? `${years.at(-1)}-to-${years[0]}` : "none";
  return csvResponse(`realised-gains-${fileNamePart(client)}-${span}.csv`, table.header, table.rows);
}
