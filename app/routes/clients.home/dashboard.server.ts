// The clients home dashboard (spec 001 §2.1, §2.6): what the page shows, built on the server from
// the platform's answers so the page needs no script to read it (docs/decisions/074-home-dashboard.md).
import type { TFunction } from "i18next";
import type { ChartTable } from "~/components/charts/chart-data";
import {
  LINE_CHART_SIZE,
  type LineChartInput,
  lineChartTable,
  NARROW_LINE_CHART_SIZE,
} from "~/components/charts/line-chart";
import { renderLineChartSvg } from "~/components/charts/line-chart-svg.server";
import type { ChartSvg } from "~/lib/chart-svg";
import { type AssetCard, type AssetTab, assetCards, filterAssets, netTotal, selectedMember } from "~/lib/assets";
import { summaryLayout, TABLE_DECIMALS, TILE_DECIMALS } from "~/lib/dashboard";
import { balanceSheetHref } from "~/lib/balance-sheet";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { AVAILABLE_PAGES, PAGE_PATHS } from "~/lib/navigation";
import { roundPercentages } from "~/lib/percent";
import {
  type ChartNoData,
  chartShown,
  COLLECTION,
  figure,
  type Figure,
  type Performance,
  type PortfolioSettings,
  portfolioSettings,
  startsBeforeOpening,
} from "~/lib/performance";
import { performanceOf } from "~/lib/performance.server";
import type { PlanningClient } from "~/planning/client.server";
import type { ClientGroupMember } from "~/planning/entity.server";
import {
  type AssetLists,
  fetchAssetLists,
  fetchSeries,
  fetchSummary,
  type PricingType,
  rawAssetsOf,
  type SeriesAnswer,
  type SummaryRequest,
  type SummaryAnswer,
  type SummaryData,
  type SummaryItem,
} from "~/planning/portfolio.server";
import type { Site } from "~/planning/site.server";
import { type CurrencyMode, homeHref, type HomeQuery, type Timeframe } from "./home-query";
import { isLostSession } from "~/planning/client.server";
import { chartSvgOfPage } from "~/runtime/chart-markup.server";

const LEVEL = COLLECTION;

// ── the view ────────────────────────────────────────────────────────────────────────────────────

export type SummaryRow = {
  key: string;
  name: string;
  accountCount: number | null;
  value: string;
  /**
   * null is 'Not available'; absent when the profit analysis type is neither twrr nor irr, so that
   * rows, like the overview (spec 001 §2.1), show no performance at all.
   */
  performance?: Performance | null;
  movement: Figure;
  /**
   * Share of the total the row is part of (spec 001 §2.1 percent rounding); null for a linked row
   * beside the client's own ones: it is in no total of theirs (decision 107).
   */
  percent: number | null;
  percentLabel: string | null;
  analysisHref: string | null;
  /** Rows that open onto their accounts (portfolios and groups). */
  expandable: boolean;
  expanded: boolean;
  /** The expand list after toggling this row. */
  toggle: string;
  /** The accounts of an expanded row; null while not loaded. */
  accounts: SummaryRow[] | null;
  accountsError: boolean;
  accountsEmpty: boolean;
};

export type ChartView = {
  caption: string;
  /** The chart's SVG, or on a document request a reference to it in the page (decision 156). */
  svg: ChartSvg;
  narrowSvg: ChartSvg;
  table: ChartTable;
  /** The data again, for the interactive chart loaded when JavaScript runs. */
  interactive: LineChartInput;
  href: string | null;
};

export type PortfolioView =
  | { state: "error" }
  | { state: "noPortfolios" }
  | { state: "noAccounts" }
  | {
      state: "ok";
      period: string;
      overview: {
        value: string;
        performance: Performance | null;
        performanceLabel: string | null;
        movement: Figure;
        coverage: string;
      };
      chart: ChartView | ChartNoData | null;
      layout: "tiles" | "table";
      collection: "portfolio" | "group" | "account";
      own: SummaryRow[];
      linked: SummaryRow[];
      currencyNote: boolean;
    };

/** The summary data of one account measured in its plan currency. */
function inPlanCurrency(data: SummaryData): SummaryData {
  return {
    ...data,
    twrr: data.plan_currency_twrr ?? null,
    twrr_period: data.plan_currency_twrr_period ?? null,
    irr: data.plan_currency_irr ?? null,
    irr_period: data.plan_currency_irr_period ?? null,
  };
}

type RowContext = {
  t: TFunction;
  locale: string;
  settings: PortfolioSettings;
  timeframe: Timeframe;
  currency: CurrencyMode;
  decimals: number;
  query: HomeQuery;
};

function rowsOf(
  items: readonly SummaryItem[],
  c: RowContext,
  level: "portfolio" | "group" | "account",
  withShares = true,
): SummaryRow[] {
  const dataOf = (i: SummaryItem) => (c.timeframe === "default" ? i.defaultData : i.secondaryData);
  const shares = withShares
    ? roundPercentages(
        items.map((i) => Math.max(0, dataOf(i).value.amount)),
        c.locale,
      )
    : [];
  const analysis = AVAILABLE_PAGES.has("analysis");
  return items.map((item, index) => {
    const data = dataOf(item);
    // spec 001 §4 currency toggle: one account's figures in its plan currency; several accounts'
    // stay in the reporting currency (they cannot be added across currencies)
    const planValue = c.currency === "plan" ? data.plan_currency_value : null;
    const planMovement = c.currency === "plan" ? data.plan_currency_movement : null;
    const shownValue = planValue ?? data.value;
    const shownMovement = planMovement ?? data.movement;
    const value = formatMoney(shownValue.amount, shownValue.currency, c.locale, { decimals: c.decimals });
    const expandable = level !== "account";
    const expanded = expandable && c.query.expand.includes(item.key);
    const toggle = expanded ? c.query.expand.filter((k) => k !== item.key) : [...c.query.expand, item.key];
    // spec 001 §2.1 ?id={accountId} or {groupCode}; a portfolio as portfolio-{id}, the ungrouped and linked rows by their keys
    const id =
      level === "group"
        ? (item.group_code ?? item.key)
        : level === "account"
          ? item.accountid
          : item.portfolioid != null
            ? `portfolio-${item.portfolioid}`
            : null;
    const share = shares[index];
    return {
      key: item.key,
      name: item.name ?? c.t(item.isLinked ? "home.summary.linkedAccounts" : "home.summary.ungrouped"),
      accountCount: level === "account" ? null : item.account_count,
      value,
      ...(c.settings.profitAnalysisType === "none"
        ? {}
        : {
            performance: performanceOf(
              planValue ? inPlanCurrency(data) : data,
              c.settings.profitAnalysisType,
              c.locale,
            ),
          }),
      movement: figure(
        formatMoney(shownMovement.amount, shownMovement.currency, c.locale, { decimals: c.decimals }),
        shownMovement.amount,
      ),
      percent: withShares ? (share?.percent ?? 0) : null,
      percentLabel: withShares ? (share?.label ?? "0%") : null,
      // spec 001 §2.1: rows link to the analysis page with ?id= (once that page exists)
      analysisHref: analysis && id != null ? `${PAGE_PATHS.analysis}?id=${encodeURIComponent(String(id))}` : null,
      expandable,
      expanded,
      toggle: toggle.join(","),
      accounts: null,
      accountsError: false,
      accountsEmpty: false,
    };
  });
}

export type HomeInput = {
  planning: PlanningClient;
  t: TFunction;
  locale: string;
  site: Site;
  query: HomeQuery;
  pricingType: PricingType;
};

function summaryRequest(
  settings: PortfolioSettings,
  pricingType: PricingType,
  level: "portfolio" | "group" | "account",
) {
  return {
    level,
    defaultTimeframe: settings.defaultTimeframe,
    secondaryTimeframe: settings.secondaryTimeframe,
    pricingType,
    holdBack: settings.holdBack,
    feesAndTaxes: settings.feesAndTaxes,
  };
}

export function timeframeLabel(t: TFunction, code: string): string {
  return t(`home.timeframes.${code}`);
}

/** The chart, requested before the summaries and in parallel with them; a failure only hides the chart. */
function startChart(input: HomeInput, settings: PortfolioSettings): Promise<ChartView | ChartNoData | null> {
  const chartPromise = chartOf(input, settings).catch((error: unknown) => {
    if (isLostSession(error)) throw error;
    return { noData: true as const, beforeOpening: false };
  });
  // a failed summary answers without waiting for the chart, which must not fail unobserved
  chartPromise.catch(() => undefined);
  return chartPromise;
}

type Summaries = { summary: SummaryAnswer; expanded: Map<string, SummaryAnswer | null> };

/**
 * The summary of the collection level, with the accounts of the expanded rows: the portfolios' and
 * groups' alongside it, the rows opened by their account ids (own accounts without a group, linked
 * accounts) after it, as those ids come from it. A failed expansion is null (its row says so).
 */
async function fetchSummaries(
  planning: PlanningClient,
  request: SummaryRequest,
  expansions: readonly string[],
): Promise<Summaries> {
  const level = request.level;
  const byAccounts = new Set(["group-none", "group-linked"]);
  const direct = expansions.filter((k) => !byAccounts.has(k));
  const accountSummary = (filter: Partial<SummaryRequest>) =>
    fetchSummary(planning, { ...request, level: "account", ...filter }).catch(() => null);

  const expanded = new Map<string, SummaryAnswer | null>();
  const [main, ...more] = await Promise.all([
    fetchSummary(planning, request),
    ...direct.map((key) =>
      accountSummary(
        level === "portfolio"
          ? { portfolioId: Number(key.slice("portfolio-".length)) }
          : { groupCode: key.slice("group-".length) },
      ),
    ),
  ]);
  const summary = main as SummaryAnswer;
  direct.forEach((key, i) => expanded.set(key, (more[i] as SummaryAnswer | null) ?? null));
  const later = expansions.filter((k) => byAccounts.has(k));
  const answers = await Promise.all(
    later.map((key) => {
      const ids = summary.items.find((i) => i.key === key)?.accountids;
      return ids?.length ? accountSummary({ accountIds: ids }) : Promise.resolve(null);
    }),
  );
  later.forEach((key, i) => expanded.set(key, answers[i] ?? null));
  return { summary, expanded };
}

/** The expanded rows with their accounts, or the note that they could not be loaded. */
function withAccounts(
  rows: SummaryRow[],
  expanded: ReadonlyMap<string, SummaryAnswer | null>,
  rowContext: RowContext,
): SummaryRow[] {
  return rows.map((row) => {
    if (!row.expanded) return row;
    const answer = expanded.get(row.key);
    if (answer === undefined) return row;
    if (answer === null) return { ...row, accountsError: true };
    return {
      ...row,
      accounts: rowsOf(answer.items, rowContext, "account"),
      accountsEmpty: answer.items.length === 0,
    };
  });
}

/** The overview tiles: the total value, its performance and movement, and what the total covers. */
function overviewOf(
  totals: SummaryData,
  hasOwn: boolean,
  hasLinked: boolean,
  settings: PortfolioSettings,
  t: TFunction,
  locale: string,
): Extract<PortfolioView, { state: "ok" }>["overview"] {
  const performance = performanceOf(totals, settings.profitAnalysisType, locale);
  return {
    value: formatMoney(totals.value.amount, totals.value.currency, locale, { decimals: TILE_DECIMALS }),
    performance,
    performanceLabel: performance ? t(`home.overview.performance.${settings.profitAnalysisType}`) : null,
    movement: figure(
      formatMoney(totals.movement.amount, totals.movement.currency, locale, { decimals: TILE_DECIMALS }),
      totals.movement.amount,
    ),
    // decision 107: what the totals cover — the client's own accounts, or the linked ones of a client who has none
    coverage: hasOwn
      ? [t("home.overview.covers.own"), ...(hasLinked ? [t("home.overview.covers.linkedApart")] : [])].join(" ")
      : t("home.overview.covers.linked"),
  };
}

/** Loads and builds the portfolio view: summaries, the expanded rows' accounts, the chart. */
export async function buildPortfolioView(input: HomeInput, accountsVisible: number): Promise<PortfolioView> {
  const { planning, t, locale, site, query, pricingType } = input;
  const settings = portfolioSettings(site.settings);
  const level = LEVEL[settings.grouping];
  const request = summaryRequest(settings, pricingType, level);
  const expansions = level === "account" ? [] : query.expand.filter((k) => k.startsWith(`${level}-`));
  const chartPromise = startChart(input, settings);

  let summaries: Summaries;
  try {
    summaries = await fetchSummaries(planning, request, expansions);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isLostSession(error)) throw error;
    return { state: "error" };
  }
  const { summary, expanded } = summaries;
  if (accountsVisible === 0 && summary.items.length === 0) return { state: "noPortfolios" };
  if (summary.items.length === 0 || !summary.totals) return { state: "noAccounts" };

  const timeframe = query.timeframe;
  const totals = timeframe === "default" ? summary.totals.defaultData : summary.totals.secondaryData;
  const own = summary.items.filter((i) => !i.isLinked);
  const linked = summary.items.filter((i) => i.isLinked);
  const countOf = (items: SummaryItem[]) => items.reduce((n, i) => n + i.account_count, 0);
  const layout = summaryLayout({ own: countOf(own), linked: countOf(linked) });
  const decimals = layout === "tiles" ? TILE_DECIMALS : TABLE_DECIMALS;
  const rowContext: RowContext = { t, locale, settings, timeframe, currency: query.currency, decimals, query };

  return {
    state: "ok",
    period: t("home.overview.period", {
      from: formatDate(totals.start_date, locale),
      to: formatDate(totals.end_date, locale),
    }),
    overview: overviewOf(totals, own.length > 0, linked.length > 0, settings, t, locale),
    chart: await chartPromise,
    layout,
    collection: level,
    own: withAccounts(rowsOf(own, rowContext, level), expanded, rowContext),
    // linked rows beside own ones are no part of the client's total: no share of it (decision 107);
    // for a client who sees only linked accounts they are the total, and their shares are of it
    linked: withAccounts(rowsOf(linked, rowContext, level, own.length === 0), expanded, rowContext),
    currencyNote: query.currency === "plan",
  };
}

/** The chart of the active timeframe; requested alongside the summary, not after it. */
async function chartOf(input: HomeInput, settings: PortfolioSettings): Promise<ChartView | ChartNoData | null> {
  if (!chartShown(settings)) return null;
  const { t, locale } = input;
  const series: SeriesAnswer = await fetchSeries(input.planning, {
    timeframe: input.query.timeframe === "default" ? settings.defaultTimeframe : settings.secondaryTimeframe,
    holdBack: settings.holdBack,
    pricingType: input.pricingType,
    feesAndTaxes: settings.feesAndTaxes,
  });
  const percent = settings.profitAnalysisType === "twrr";
  const points = series.points
    .filter((p) => (percent ? p.cumulative_twrr !== null : true))
    .map((p) => ({ date: p.date, value: percent ? (p.cumulative_twrr as number) : p.value.amount }));
  if (points.length < 2) return { noData: true, beforeOpening: startsBeforeOpening(series) };
  const caption = t(percent ? "home.chart.captionPercent" : "home.chart.captionValue", {
    from: formatDate(series.start_date, locale),
    to: formatDate(series.end_date, locale),
  });
  const chart: LineChartInput = {
    series: [{ id: "portfolio", label: t(percent ? "home.chart.performance" : "home.chart.value"), points }],
    colours: input.site.chartColours,
    yFormat: percent ? "percent" : "money",
    currency: series.report_currency,
    locale,
    title: caption,
  };
  return {
    caption,
    svg: chartSvgOfPage(renderLineChartSvg({ ...chart, ...LINE_CHART_SIZE })),
    narrowSvg: chartSvgOfPage(renderLineChartSvg({ ...chart, ...NARROW_LINE_CHART_SIZE })),
    table: lineChartTable(chart, { caption, dateHeading: t("home.chart.date") }),
    interactive: chart,
    href: AVAILABLE_PAGES.has("analysis") ? PAGE_PATHS.analysis : null,
  };
}

// ── other assets (spec 001 §2.6) ────────────────────────────────────────────────────────────────

export type AssetsView =
  | { state: "error" }
  | { state: "empty"; memberName: string }
  | {
      state: "ok";
      member: { id: number; name: string; total: string };
      cards: Array<{
        tab: AssetTab;
        index: number;
        title: string;
        total: string;
        href: string | null;
        /** `share`: 'Your share: 50%' when the value is the member's part of an asset held with others. */
        items: Array<{ desc: string; value: string; share: string | null }>;
      }>;
      balanceSheetHref: string | null;
      others: Array<{ id: number; name: string; href: string }>;
      partial: boolean;
    };

export async function buildAssetsView(
  /** members: the client first, then the others whose assets may be shown (`assetMembers`). */
  input: HomeInput & { members: ClientGroupMember[]; country: string; enhancedSippWrapper: boolean },
): Promise<AssetsView> {
  const { planning, t, locale, query, members } = input;
  const selected = selectedMember(members, query.memberId);
  if (!selected) return { state: "error" };
  let lists: AssetLists;
  try {
    // portfolio accounts valued as the portfolio view above values them (decision 109)
    lists = await fetchAssetLists(planning, selected.entity_id, {
      pricingType: input.pricingType,
      holdBack: portfolioSettings(input.site.settings).holdBack,
    });
  } catch (error) {
    if (isLostSession(error)) throw error;
    return { state: "error" };
  }
  const cards: AssetCard[] = assetCards(
    filterAssets(rawAssetsOf(lists), { country: input.country, enhancedSippWrapper: input.enhancedSippWrapper }),
  );
  const name = selected.display_name;
  if (cards.length === 0) return { state: "empty", memberName: name };
  const balanceSheet = AVAILABLE_PAGES.has("balanceSheet");
  // spec 001 §9: the currency falls back to the first asset's report currency
  const all = [...lists.investments, ...lists.pensions, ...lists.annuities, ...lists.liabilities];
  const currency = all.find((a) => a.value_owned)?.value_owned?.currency ?? "GBP";
  const money = (amount: number | null) =>
    amount === null
      ? t("home.assets.notAvailable")
      : formatMoney(amount, currency, locale, { decimals: TILE_DECIMALS });
  // decision 207: a joint asset's figure is the member's share (spec 001 §3 'value owned'): say so,
  // as the same account reads in full under Your portfolios
  const self = selected.entity_id === members[0]?.entity_id;
  const percent = numberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const shareOf = (owned: number | undefined) =>
    owned === undefined || owned >= 100
      ? null
      : t(self ? "home.assets.yourShare" : "home.assets.theirShare", { percent: percent.format(owned / 100) });
  return {
    state: "ok",
    member: { id: selected.entity_id, name, total: money(netTotal(cards)) },
    cards: cards.map((card) => ({
      tab: card.tab,
      index: card.index,
      title: t(`home.assets.tabs.${card.tab}`, { count: card.count }),
      total: money(card.total),
      href: balanceSheet ? balanceSheetHref({ memberId: selected.entity_id, asset: card.index }) : null,
      items: card.top.map((i) => ({
        desc: i.desc,
        value: money(i.value === null ? null : card.tab === "liabilities" ? -Math.abs(i.value) : i.value),
        share: shareOf(i.percentOwned),
      })),
    })),
    balanceSheetHref: balanceSheet ? balanceSheetHref({ memberId: selected.entity_id }) : null,
    others: members
      .filter((m) => m.entity_id !== selected.entity_id)
      // spec 001 §2.6: 'View assets' opens the member's full balance sheet
      .map((m) => ({
        id: m.entity_id,
        name: m.display_name,
        href: balanceSheet
          ? balanceSheetHref({ memberId: m.entity_id })
          : homeHref(query, { memberId: m.entity_id }, "#other-assets"),
      })),
    partial: cards.some((c) => c.top.some((i) => i.value === null)),
  };
}
