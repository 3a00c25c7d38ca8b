// The analysis page's CSV downloads (beyond the spec; docs/decisions/094-investments-and-allocation.md,
// 208-balance-sheet-and-allocation-downloads.md): /clients/analysis/download/investments,
// /allocation and /transactions with the page's own query, so a file holds what the tab shows: the
// selected accounts and dates, the columns shown, in the currency shown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { type AnalysisSettings, analysisSettings } from "~/lib/analysis/settings";
import { investmentsTable } from "~/lib/analysis/investments";
import { resolveFilter } from "~/lib/analysis/filter";
import { viewOf, viewOptions } from "~/lib/analysis/view";
import { type AnalysisQuery, periodOfQuery, type QueryPeriod, readAnalysisQuery } from "~/lib/analysis/query";
import { fileNamePart, csvResponse } from "~/lib/csv.server";
import { PlanningError, type PlanningClient, isLostSession } from "~/planning/client.server";
import {
  type AccountAnswer,
  fetchAccounts,
  fetchCapabilities,
  fetchDetail,
  fetchTransactions,
  pricingTypeFor,
} from "~/planning/portfolio.server";
import { fetchAllocation, fetchHoldings } from "~/planning/positions.server";
import { isToggleOn, readFeatureToggles } from "~/planning/feature-toggles.server";
import { getSite } from "~/planning/site.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { notFound, requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { type CsvTable, investmentsCsv, transactionsCsv } from "./csv-rows";
import { incomeCsv } from "./income-csv";
import { jurisdictionOf } from "~/lib/analysis/income";
import { fetchIncome } from "~/planning/income.server";
import { allocationCsv } from "./allocation-csv";
import type { TFunction } from "i18next";

/** The most transactions one file holds (the platform's largest page). */
const MAX_TRANSACTIONS = 2000;

type Download = { table: CsvTable; dates: string };

async function investments(
  planning: PlanningClient,
  query: AnalysisQuery,
  accountIds: number[],
  period: QueryPeriod,
  settings: AnalysisSettings,
  pricing: ReturnType<typeof pricingTypeFor>,
  t: TFunction,
  locale: string,
): Promise<Download> {
  const answer = await fetchHoldings(planning, {
    accountIds,
    date: "end" in period ? period.end : null,
    holdBack: settings.holdBack,
    pricingType: pricing,
  });
  const table = investmentsTable(answer, {
    sort: query.sort,
    dir: query.dir,
    show: query.show,
    convert: query.convert,
    columns: settings.investmentColumns,
    locale,
  });
  return { table: investmentsCsv(table, t), dates: answer.date };
}

/** spec 001 §2.3 allocation: the breakdowns the site enables, valued as the tab values them. */
async function allocation(
  planning: PlanningClient,
  accountIds: number[],
  period: QueryPeriod,
  settings: AnalysisSettings,
  pricing: ReturnType<typeof pricingTypeFor>,
  t: TFunction,
): Promise<Download> {
  const answer = await fetchAllocation(planning, {
    accountIds,
    date: "end" in period ? period.end : null,
    holdBack: settings.holdBack,
    pricingType: pricing,
    method: settings.allocationMethod,
    types: settings.allocationTypes,
  });
  return { table: allocationCsv(answer, settings.allocationTypes, t), dates: answer.date };
}

async function transactions(
  planning: PlanningClient,
  accounts: AccountAnswer[],
  accountIds: number[],
  period: QueryPeriod,
  settings: AnalysisSettings,
  pricing: ReturnType<typeof pricingTypeFor>,
  t: TFunction,
): Promise<Download> {
  // the period's dates, as the page shows them, for the file's name, and its report currency
  const detail = await fetchDetail(planning, {
    period,
    grouping: "all",
    accountIds,
    pricingType: pricing,
    holdBack: settings.holdBack,
    feesAndTaxes: settings.feesAndTaxes,
  });
  // decision 207: each value in the report currency at its trade date too, priced as the page's figures
  const list = await fetchTransactions(planning, {
    accountIds,
    period,
    holdBack: settings.holdBack,
    pageSize: MAX_TRANSACTIONS,
    report: { currency: detail.report_currency, pricingType: pricing },
  });
  const names = new Map(accounts.map((a) => [a.accountid, a.description]));
  return {
    table: transactionsCsv(list, names, settings.hide, t, detail.report_currency),
    dates: `${detail.start_date}-to-${detail.end_date}`,
  };
}

/**
 * Income received (issue 41, decision 199): the period the tab shows (the last 24 months, or the
 * tax year asked for when the answer lists it), in the currency the tab shows.
 */
async function income(
  planning: PlanningClient,
  accounts: AccountAnswer[],
  accountIds: number[],
  query: AnalysisQuery,
  reportCurrency: string | undefined,
  t: TFunction,
  locale: string,
): Promise<Download> {
  const answer = await fetchIncome(planning, { accountIds, jurisdiction: jurisdictionOf(locale), reportCurrency });
  const year = answer.tax_years.find((y) => y.tax_year === query.taxYear) ?? null;
  const names = new Map(accounts.map((a) => [a.accountid, a.description]));
  return {
    table: incomeCsv(answer, year?.tax_year ?? null, names, t),
    dates: year ? `${year.start_date}-to-${year.end_date}` : `${answer.months[0]!.start_date}-to-${answer.end_date}`,
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const kind = params.kind;
  if (kind !== "investments" && kind !== "allocation" && kind !== "transactions" && kind !== "income") throw notFound();
  const context = await requireClientContext(request);
  // spec 001 §6: the analysis page's data, for site access level Portfolio only
  requireSiteAccess(context, ["Portfolio"]);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const site = await getSite(locale);
  const settings = analysisSettings(site.settings);
  const query = readAnalysisQuery(new URL(request.url), settings.disabledRanges);
  const { period } = periodOfQuery(query);
  if (!period)
    return new Response(t("analysis.csv.invalidRange"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const planning = context.planning;
  try {
    const [accounts, capabilities, toggles] = await Promise.all([
      fetchAccounts(planning),
      fetchCapabilities(planning),
      readFeatureToggles(planning),
    ]);
    // decision 107: the page's set of accounts, by the same rule as every tab
    const options = viewOptions(site.settings, isToggleOn(toggles, "client_analysis"));
    const shown = viewOf(accounts, null, options).shown;
    const filter = resolveFilter(query.id, shown, settings.grouping, {
      allPortfolios: "",
      allAccounts: "",
      ungrouped: "",
      linked: "",
    });
    // an id the client does not see selects nothing: no file, never someone else's figures
    if (filter.kind === "unknown") throw notFound();
    const { counted, linked } = viewOf(shown, filter.accountIds, options);
    // nothing counted: no file rather than the platform's default set
    if (!counted.length) throw notFound();
    // spec 001 §5 (decision 205): no custom range that starts before the selection's since-inception date
    const inceptions = shown.filter((a) => [...counted, ...linked].includes(a.accountid)).map((a) => a.inception_date);
    if (!periodOfQuery(query, inceptions.length ? inceptions.reduce((a, b) => (b < a ? b : a)) : null).period)
      return new Response(t("analysis.csv.invalidRange"), {
        status: 400,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    const pricing = pricingTypeFor(capabilities);
    // the tab's currency: one account's own when the page shows it in its plan currency
    const planCurrency =
      query.currency === "plan" && filter.kind === "account"
        ? accounts.find((a) => a.accountid === filter.account.accountid)?.plan_currency
        : undefined;
    // a site without the allocation tab has no allocation file
    if (kind === "allocation" && !(settings.sections.has("allocation") && settings.allocationTypes.length))
      throw notFound();
    const download =
      kind === "investments"
        ? await investments(planning, query, counted, period, settings, pricing, t, locale)
        : kind === "income"
          ? await income(planning, accounts, counted, query, planCurrency, t, locale)
          : kind === "allocation"
            ? await allocation(planning, counted, period, settings, pricing, t)
            : await transactions(planning, accounts, counted, period, settings, pricing, t);
    const client = context.user.clientInContext?.displayName ?? context.user.displayName;
    const filename = `${kind}-${fileNamePart(client)}-${download.dates}.csv`;
    return csvResponse(filename, download.table.header, download.table.rows);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    if (error instanceof PlanningError && error.status === 404) throw notFound();
    throw error;
  }
}
