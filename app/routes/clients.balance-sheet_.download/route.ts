// The balance sheet's CSV download (beyond the spec; docs/decisions/208-balance-sheet-and-allocation-downloads.md):
// /clients/balance-sheet/download with the page's view and currency, every member the page's
// selector offers and every tab, with the page's own figures.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { readBalanceSheetQuery } from "~/lib/balance-sheet";
import { fileNamePart, csvResponse } from "~/lib/csv.server";
import { todayIn } from "~/lib/valuation-report";
import { isLostSession } from "~/planning/client.server";
import { getSite } from "~/planning/site.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { notFound, requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { buildBalanceSheetExport } from "~/planning/balance-sheet.server";
import { balanceSheetCsv } from "./csv-rows";

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 001 §6: the balance sheet's access levels
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const { user, planning } = context;
  const client = (context.isAdviser ? user.clientInContext?.displayName : user.displayName) ?? user.displayName;
  let sheet: Awaited<ReturnType<typeof buildBalanceSheetExport>>;
  try {
    sheet = await buildBalanceSheetExport({
      planning,
      site,
      // every member, whichever the page shows; the tab does not matter
      query: { ...readBalanceSheetQuery(new URL(request.url)), memberId: null, asset: null },
      entityId: context.entityId,
      selfName: client,
    });
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    throw error;
  }
  // no view enabled: the page has nothing to download either
  if (sheet.state === "disabled") throw notFound();
  if (sheet.state === "error")
    return new Response(t("balanceSheet.error"), {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const table = balanceSheetCsv(sheet, t);
  const filename = `balance-sheet-${fileNamePart(client)}-${todayIn(user.userTimezone)}.csv`;
  return csvResponse(filename, table.header, table.rows);
}
