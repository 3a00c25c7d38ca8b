// What a valuation report shows (docs/platform-api.md "Valuation reports"): the accounts a run
// covers, their holdings on the date as `portfolio/position` answers them (the same domain
// functions, the same rounding: decision 106), the performance over a period as `portfolio/summary` measures it,
// and the allocation by asset class as `portfolio/allocation` splits it.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { capabilities, entities, firms, reportJobs, reportTemplates, siteSettings, users } from "../../db/schema";
import { assetClassKey, assetClassSplit, categorise, type Holding, weightOf } from "../../domain/holdings";
import { sumMinor, unitsOf } from "../../domain/money";
import { holdBackEnd, type Measure, periodPerformance } from "../../domain/performance";
import type { ReportAccount, ValuationReportInput } from "../../domain/valuation-report-pdf";
import { sitePage } from "../site";
import { bookOfAccounts } from "../portfolio/book";
import { holdingsOfAccounts, inDisplayOrder, type SecurityRow } from "../portfolio/positions";
import {
  accountsOfView,
  isManaged,
  preferredCurrencyOf,
  type VisibleAccount,
  visibleAccounts,
} from "../portfolio/visibility";

export type ReportTemplateRow = typeof reportTemplates.$inferSelect;
export type ReportJobRow = typeof reportJobs.$inferSelect;

/** spec 002 §7 report variables, as stored with the job. */
export type ReportVariables = {
  as_at_date?: string;
  from_date?: string;
  to_date?: string;
  report_type?: "account" | "group";
  accountid?: number;
  since_inception?: boolean;
};

/**
 * The accounts a run without an account or group covers, as every call without a list: the view's
 * (`accountsOfView`: its own managed accounts, the linked ones when it has none).
 */
export function defaultAccounts(all: readonly VisibleAccount[]): VisibleAccount[] {
  return accountsOfView(all);
}

/** The client's own (not linked) accounts of an account group. */
export const groupAccounts = (all: readonly VisibleAccount[], code: string) =>
  all.filter((a) => a.group?.groupCode === code && !a.portfolio.isLinked);

/** The managed accounts a run covers: its account, its group, or the client's own accounts. */
export function accountsOfRun(
  all: readonly VisibleAccount[],
  selector: ReportTemplateRow["requiredSelector"] | null,
  groupCode: string | null,
  variables: ReportVariables,
): VisibleAccount[] {
  let list: VisibleAccount[];
  if (
    selector === "Account Group Or Account" &&
    variables.report_type === "account" &&
    variables.accountid !== undefined
  ) {
    list = all.filter((a) => a.account.id === variables.accountid);
  } else if ((selector === "Account Group" || selector === "Account Group Or Account") && groupCode) {
    list = groupAccounts(all, groupCode);
  } else {
    list = defaultAccounts(all);
  }
  return list.filter(isManaged);
}

/** The date (or period) of a run: today unless the template asks for a date; never after today. */
export function periodOfRun(
  dateParameters: ReportTemplateRow["dateParameters"] | null,
  variables: ReportVariables,
  today: string,
): ValuationReportInput["period"] {
  if (dateParameters === "Date Range" && variables.from_date && variables.to_date) {
    const to = holdBackEnd(variables.to_date, today, false);
    return { kind: "range", from: variables.from_date > to ? to : variables.from_date, to };
  }
  const asAt = dateParameters === "No Date Required" ? today : (variables.as_at_date ?? today);
  return { kind: "asAt", date: holdBackEnd(asAt, today, false) };
}

const setting = (db: Db, key: string): unknown => {
  const row = db.select().from(siteSettings).where(eq(siteSettings.key, key)).get();
  return row ? (JSON.parse(row.valueJson) as unknown) : undefined;
};
const colour = (value: unknown) => (typeof value === "string" && /^#[0-9a-f]{6}$/i.test(value) ? value : null);

const ENTITY_TEXT: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** The paragraphs of a content page's HTML as plain text. */
export function paragraphsOfHtml(html: string): string[] {
  return html
    .split(/<\/p>|<br\s*\/?>/i)
    .map((part) =>
      part
        .replace(/<[^>]*>/g, " ")
        .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITY_TEXT[name] ?? "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter(Boolean);
}

/** The job's template (none for the single-click valuation) and its stored variables. */
function templateOf(db: Db, job: ReportJobRow): ReportTemplateRow | undefined {
  return job.templateId === null
    ? undefined
    : db.select().from(reportTemplates).where(eq(reportTemplates.id, job.templateId)).get();
}

/**
 * The prices the client sees in the portal (spec 001 §6: live, delayed or close by capability), so
 * that a report as at today totals what the home shows today.
 */
function pricingOf(db: Db, entityId: number): Measure["pricing"] {
  const held = new Set(
    db
      .select({ name: capabilities.name })
      .from(capabilities)
      .where(eq(capabilities.entityId, entityId))
      .all()
      .map((c) => c.name),
  );
  return held.has("live_marketdata_access") ? "live" : held.has("view_marketdata") ? "delayed" : "close";
}

/** Each account with its holdings, each figure exactly as the position call sends it. */
function reportAccounts(
  list: readonly VisibleAccount[],
  holdings: readonly Holding[],
  securityOf: ReadonlyMap<number, SecurityRow>,
): ReportAccount[] {
  return list.map((a) => {
    const mine = holdings.filter((h) => h.accountId === a.account.id);
    return {
      name: a.account.description,
      number: a.account.externalAccountId ?? String(a.account.id),
      holdings: mine.map((h) => {
        const s = securityOf.get(h.securityId) as SecurityRow;
        return {
          name: s.description,
          units: h.quantityMicros / 1_000_000,
          price: h.nativePrice,
          currency: h.nativeCurrency,
          // each figure exactly as the position call sends it: rounded once, summed in minor units
          value: unitsOf(h.valueMinor),
        };
      }),
      total: unitsOf(sumMinor(mine.map((h) => h.valueMinor))),
    };
  });
}

/** The grand total: the exact sum of the accounts' totals as printed. */
function grandTotalOf(list: readonly VisibleAccount[], holdings: readonly Holding[]): number {
  return unitsOf(
    sumMinor(list.map((a) => sumMinor(holdings.filter((h) => h.accountId === a.account.id).map((h) => h.valueMinor)))),
  );
}

/** The performance over a period as the summary call measures it (none for a report as at a date). */
function performanceOf(
  db: Db,
  list: readonly VisibleAccount[],
  period: ValuationReportInput["period"],
  today: string,
  measure: Measure,
  sinceInception: boolean,
): ValuationReportInput["performance"] {
  if (period.kind !== "range" || list.length === 0) return null;
  const book = bookOfAccounts(db, list, today, period.from);
  const p = periodPerformance(book, period.from, period.to, measure);
  // the summary call's figures (the same valuation: its value to is the holdings' total)
  return {
    valueFrom: unitsOf(p.minor.valueFrom),
    netFlows: unitsOf(p.minor.netFlows),
    movement: unitsOf(p.minor.movement),
    valueTo: unitsOf(p.minor.valueTo),
    twrPeriod: p.twr?.period ?? null,
    twrAnnualised: p.twr?.annualised ?? null,
    // the accounts began inside the range: the returns cover the period since then (decision 109)
    since: p.since !== null && p.since > period.from ? p.since : null,
    sinceInception,
  };
}

/** The allocation by asset class as the allocation call splits it. */
function allocationOf(
  holdings: readonly Holding[],
  securityOf: ReadonlyMap<number, SecurityRow>,
  totalMinor: number,
): ValuationReportInput["allocation"] {
  const categories = categorise(
    holdings.map((h) => {
      const s = securityOf.get(h.securityId) as SecurityRow;
      return {
        item: h,
        value: h.valueMinor,
        slices: assetClassSplit(s.assetClassCode, s.assetClassAllocation).map((p) => ({
          key: assetClassKey(p.name),
          name: p.name,
          weight: p.weight,
        })),
      };
    }),
  );
  return categories.map((c) => ({
    name: c.name,
    value: unitsOf(c.value),
    weight: weightOf(c.value, totalMinor),
  }));
}

const DEFAULT_PALETTE = ["#1d4f91", "#00857c", "#c4511a", "#6b3fa0", "#8a6d00", "#b0265f"];

/** The site's chart colours (the first is the firm's colour), else the default palette. */
function paletteOf(db: Db): string[] {
  const palette = [1, 2, 3, 4, 5, 6]
    .map((n) => colour(setting(db, `chartColour${n}`)))
    .filter((c): c is string => c !== null);
  return palette.length ? palette : [...DEFAULT_PALETTE];
}

/** Everything the PDF prints for a job, computed from the platform's records as they are now. */
export function valuationReportInput(db: Db, job: ReportJobRow, today: string): ValuationReportInput {
  const template = templateOf(db, job);
  const variables = JSON.parse(job.variables) as ReportVariables;
  const entity = db.select().from(entities).where(eq(entities.id, job.entityId)).get();
  if (!entity) throw new Error(`entity ${job.entityId} not found`);
  const firm = db.select().from(firms).where(eq(firms.id, entity.firmId)).get();
  const locale =
    db.select({ locale: users.locale }).from(users).where(eq(users.id, job.userId)).get()?.locale ?? "en-GB";

  const list = accountsOfRun(
    visibleAccounts(db, job.entityId),
    template?.requiredSelector ?? null,
    job.groupCode,
    variables,
  );
  const period = periodOfRun(template?.dateParameters ?? null, variables, today);
  const date = period.kind === "asAt" ? period.date : period.to;
  const measure: Measure = {
    currency: preferredCurrencyOf(db, job.entityId),
    pricing: pricingOf(db, job.entityId),
    basis: "after",
  };
  const { result, securityOf } = holdingsOfAccounts(db, list, date, today, measure);
  const holdings = inDisplayOrder(result.holdings, securityOf);
  const page = sitePage(db, "basis-of-valuation", locale);
  const palette = paletteOf(db);
  return {
    firmName: firm?.name ?? "Client Online",
    brandColour: palette[0] as string,
    palette,
    title: template?.name ?? "Portfolio valuation",
    clientName: entity.displayName,
    period,
    currency: measure.currency,
    accounts: reportAccounts(list, holdings, securityOf),
    grandTotal: grandTotalOf(list, holdings),
    performance: performanceOf(db, list, period, today, measure, variables.since_inception === true),
    allocation: allocationOf(holdings, securityOf, result.totalMinor),
    basis: page ? { title: page.title, paragraphs: paragraphsOfHtml(page.html) } : null,
    createdAt: job.createdAt,
    locale,
  };
}
