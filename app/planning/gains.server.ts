// Issue 41: the platform's realised gains and losses by UK tax year (docs/platform-api.md "Realised
// gains", decision 201), validated at the boundary; the analysis page's selection they are asked
// for (decision 107's rule), and the page's and the CSV's rows made from them.
import type { TFunction } from "i18next";
import { z } from "zod/v4";
import { resolveFilter } from "~/lib/analysis/filter";
import { analysisSettings } from "~/lib/analysis/settings";
import { viewOf, viewOptions } from "~/lib/analysis/view";
import type { CsvCell } from "~/lib/csv.server";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { toMinor } from "~/lib/money";
import type { PlanningClient } from "./client.server";
import { isToggleOn, readFeatureToggles } from "./feature-toggles.server";
import { fetchAccounts } from "./portfolio.server";
import type { Site } from "./site.server";
import { WireDate, WireMoney } from "./wire";

const GainsAccount = z.object({
  accountid: z.number(),
  description: z.string(),
  portfolio_name: z.string(),
  plan_currency: z.string(),
  tax_type: z.string().nullable(),
  tax_type_title: z.string().nullable(),
});

const Rule = z.enum(["same-day", "thirty-day", "section-104", "no-acquisition"]);
export type MatchRule = z.output<typeof Rule>;

const GainsMatch = z.object({
  rule: Rule,
  quantity: z.number(),
  proceeds: WireMoney,
  allowable_cost: WireMoney,
  gain: WireMoney,
  acquired_on: WireDate.nullable(),
});

const GainsDisposal = z.object({
  accountid: z.number(),
  account: z.string(),
  date: WireDate,
  security: z.object({ description: z.string(), code: z.string(), exchange: z.string(), isin: z.string().nullable() }),
  transaction_ids: z.array(z.number()),
  currency: z.string(),
  quantity: z.number(),
  proceeds: WireMoney,
  allowable_cost: WireMoney,
  gain: WireMoney,
  matches: z.array(GainsMatch),
});
export type GainsDisposal = z.output<typeof GainsDisposal>;

const GainsYear = z.object({
  tax_year: z.string(),
  start_date: WireDate,
  end_date: WireDate,
  disposals: z.array(GainsDisposal),
  totals: z.array(
    z.object({
      currency: z.string(),
      proceeds: WireMoney,
      allowable_cost: WireMoney,
      gains: WireMoney,
      losses: WireMoney,
      net: WireMoney,
    }),
  ),
  annual_exempt_amount: z
    .object({
      individual: WireMoney,
      trustees: WireMoney,
      source: z.object({ name: z.string(), url: z.string() }),
    })
    .nullable(),
});

export const GainsAnswer = z.object({
  jurisdiction: z.string(),
  accounts: z.array(GainsAccount),
  excluded_accounts: z.array(GainsAccount),
  tax_years: z.array(GainsYear),
});
export type GainsAnswer = z.output<typeof GainsAnswer>;

/** The realised gains of the accounts of a view (decision 107: the portal always sends them). */
export async function fetchRealisedGains(
  planning: PlanningClient,
  accountIds: readonly number[],
): Promise<GainsAnswer> {
  return planning.get("resourceful/portfolio/realised_gains", GainsAnswer, {
    query: { accountid: accountIds.join(",") },
  });
}

/** The selection of the analysis page (its `id`), resolved as every tab resolves it; null when unknown or empty. */
export async function selectionOf(planning: PlanningClient, site: Site, id: string | null, t: TFunction) {
  const [accounts, toggles] = await Promise.all([fetchAccounts(planning), readFeatureToggles(planning)]);
  const settings = analysisSettings(site.settings);
  const options = viewOptions(site.settings, isToggleOn(toggles, "client_analysis"));
  const shown = viewOf(accounts, null, options).shown;
  const filter = resolveFilter(id, shown, settings.grouping, {
    allPortfolios: t("analysis.heading.allPortfolios"),
    allAccounts: t("analysis.heading.allAccounts"),
    ungrouped: t("analysis.accounts.ungrouped"),
    linked: t("analysis.accounts.linkedAccounts"),
  });
  if (filter.kind === "unknown") return null;
  const { counted } = viewOf(shown, filter.accountIds, options);
  if (!counted.length) return null;
  return { heading: filter.heading, accountIds: counted };
}

const RULE_KEYS: Record<MatchRule, string> = {
  "same-day": "gains.rules.sameDay",
  "thirty-day": "gains.rules.thirtyDay",
  "section-104": "gains.rules.section104",
  "no-acquisition": "gains.rules.noAcquisition",
};

export const ruleLabel = (rule: MatchRule, t: TFunction) => t(RULE_KEYS[rule]);

type Money = { currency: string; amount: number };
/** A figure as shown, and for screen readers whether it is a loss (a minus sign is easily missed). */
export type Shown = { text: string; spoken: string | null };

export type GainsRow = {
  key: string;
  date: string;
  isoDate: string;
  security: string;
  code: string;
  account: string;
  units: string;
  proceeds: string;
  cost: string;
  gain: Shown;
  parts: Array<{ rule: MatchRule; label: string; units: string; gain: Shown }>;
};

export type GainsView = {
  included: string[];
  excluded: Array<{ name: string; type: string | null }>;
  years: Array<{
    label: string;
    period: string;
    rows: GainsRow[];
    totals: Array<{ currency: string; gains: string; losses: string; net: Shown }>;
    allowance: { individual: string; trustees: string; sourceName: string; sourceUrl: string } | null;
  }>;
};

/** The page's view of the platform's answer: figures formatted once, as the CSV reads them. */
export function gainsView(answer: GainsAnswer, t: TFunction, locale: string): GainsView {
  const units = numberFormat(locale, { maximumFractionDigits: 4 });
  const money = (m: Money) => formatMoney(m.amount, m.currency, locale);
  const signed = (m: Money): Shown => ({
    text: money(m),
    spoken: toMinor(m.amount) < 0 ? t("gains.loss") : toMinor(m.amount) > 0 ? t("gains.gain") : null,
  });
  const row = (d: GainsDisposal): GainsRow => ({
    key: `${d.accountid}-${d.security.code}-${d.date}`,
    date: formatDate(d.date, locale, "short"),
    isoDate: d.date,
    security: d.security.description.trim() || t("analysis.investments.invalidName"),
    code: d.security.code,
    account: d.account,
    units: units.format(d.quantity),
    proceeds: money(d.proceeds),
    cost: money(d.allowable_cost),
    gain: signed(d.gain),
    parts: d.matches.map((m) => ({
      rule: m.rule,
      label: ruleLabel(m.rule, t),
      units: units.format(m.quantity),
      gain: signed(m.gain),
    })),
  });
  return {
    included: answer.accounts.map((a) => a.description),
    excluded: answer.excluded_accounts.map((a) => ({ name: a.description, type: a.tax_type_title })),
    years: answer.tax_years.map((y) => ({
      label: y.tax_year,
      period: t("gains.year.period", {
        start: formatDate(y.start_date, locale, "long"),
        end: formatDate(y.end_date, locale, "long"),
      }),
      rows: y.disposals.map(row),
      totals: y.totals.map((x) => ({
        currency: x.currency,
        gains: money(x.gains),
        losses: money(x.losses),
        net: signed(x.net),
      })),
      allowance: y.annual_exempt_amount
        ? {
            individual: money(y.annual_exempt_amount.individual),
            trustees: money(y.annual_exempt_amount.trustees),
            sourceName: y.annual_exempt_amount.source.name,
            sourceUrl: y.annual_exempt_amount.source.url,
          }
        : null,
    })),
  };
}

const round2 = (n: number) => toMinor(n) / 100;

/**
 * The CSV (the other downloads' rules: ISO dates, numbers as numbers, the page's words): one row per
 * part of a disposal, so that its rule, proceeds, cost and gain are each on one line and the parts'
 * lines add up to the page's disposal.
 */
export function gainsCsv(answer: GainsAnswer, t: TFunction): { header: string[]; rows: CsvCell[][] } {
  const column = (key: string) => t(`gains.csv.${key}`);
  const header = [
    column("taxYear"),
    column("date"),
    column("account"),
    column("security"),
    column("code"),
    column("isin"),
    column("currency"),
    column("units"),
    column("proceeds"),
    column("cost"),
    column("gain"),
    column("rule"),
    column("acquiredOn"),
  ];
  const rows = answer.tax_years.flatMap((y) =>
    y.disposals.flatMap((d) =>
      d.matches.map((m): CsvCell[] => [
        y.tax_year,
        d.date,
        d.account,
        d.security.description.trim() || t("analysis.investments.invalidName"),
        d.security.code,
        d.security.isin,
        d.currency,
        m.quantity,
        round2(m.proceeds.amount),
        round2(m.allowable_cost.amount),
        round2(m.gain.amount),
        ruleLabel(m.rule, t),
        m.acquired_on,
      ]),
    ),
  );
  return { header, rows };
}
