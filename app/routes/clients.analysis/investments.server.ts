// spec 001 §2.3 the investments and allocation tabs as the page shows them: the holdings table's
// texts (docs/decisions/094-investments-and-allocation.md) and the allocation's charts and tables.
import type { TFunction } from "i18next";
import type { ChartLegendItem, ChartTable } from "~/components/charts/chart-data";
import { allocationChartFigure } from "~/components/charts/allocation-chart-svg.server";
import type { ChartSvg } from "~/lib/chart-svg";
import { chartSvgOfPage } from "~/runtime/chart-markup.server";
import {
  type AllocationAnswer,
  type AllocationType,
  type Cells,
  type HoldingsAnswer,
  investmentsTable,
  type InvestmentsTable,
  type Money,
  type NotAvailableReason,
  type TotalFigure,
  type TotalRow,
} from "~/lib/analysis/investments";
import {
  analysisDownloadHref,
  analysisHref,
  type AnalysisQuery,
  convertFormFields,
  type InvestmentSort,
} from "~/lib/analysis/query";
import type { AnalysisSettings } from "~/lib/analysis/settings";
import { formatMoney, numberFormat } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { allocationPercentages } from "~/lib/analysis/allocation-percentages";
import { formatPercentLabel } from "~/lib/percent";
import { inSiteLanguage, type NamedList, type Worded } from "~/lib/site-words";

/** spec 001 §9: 2 decimals for money and percentages, 4 for volumes. */
const MONEY_DECIMALS = 2;
const VOLUME_DECIMALS = 4;

export type CellTexts = {
  units: string;
  price: string;
  /** decision 108: units and unit price as one line under the security's name ('125.5 units at £7.97'), so the table fits a laptop screen. */
  quantity: string;
  cost: string;
  weight: string;
  value: string;
  gain: string;
  gainPercent: string;
  gainNegative: boolean;
  income: string;
  yield: string;
};

export type InvestmentHeader = {
  key: "name" | "cost" | "weight" | "value" | "gain" | "income";
  label: string;
  /** The sort this heading applies, null when it cannot sort (spec 001 §2.3: not in multi-currency mode). */
  href: string | null;
  ariaSort: "ascending" | "descending" | null;
  numeric: boolean;
};

export type ParcelView = { key: string; name: string; cells: CellTexts };
export type PositionView = {
  key: string;
  name: string;
  /** A security's name is the records' own, in the site's language (decision 210). */
  nameLang: "en" | null;
  invalid: boolean;
  code: string;
  cash: boolean;
  currency: string;
  /** '1 USD = 0.7812 GBP' or 'Conversion rate unavailable' for a converted holding. */
  conversion: string | null;
  cells: CellTexts;
  parcels: ParcelView[];
};
/** A total's figure: the amount, or 'Not available', with the number of the note under the table that explains it. */
export type TotalCell = { text: string; note: number | null; negative: boolean };
export type TotalView = { label: string; value: TotalCell; cost: TotalCell; gain: TotalCell };
/** The notes under the table, numbered as the totals refer to them; `link` shows how to see what is not available. */
export type TableNote = { key: NoteKey; number: number; text: string; link: { href: string; label: string } | null };
type NoteKey = NotAvailableReason | "valueConverted";

export type ConvertChoice = {
  /** Its holdings are shown converted to the account currency. */
  converted: boolean;
  /** The `convert` value with the account in ('Convert to account currency') and out ('Convert to original currency'). */
  toAccount: string;
  toOriginal: string;
  /** The form's other fields as the page was asked for; with JavaScript the page's address now (rows opened since) is read instead. */
  hidden: Array<[string, string]>;
};

export type AccountView = {
  key: string;
  name: string;
  currency: string;
  cells: CellTexts;
  /** The account's total row, under its holdings when they are shown (several accounts only: one account's is the grand total). */
  total: TotalView | null;
  /**
   * spec 001 §2.3 the per-account currency dropdown ('Original currency' only, holdings in other
   * currencies): a GET form whose select's options are the whole `convert` list with the account in
   * or out, the rest of the view in hidden fields.
   */
  convert: ConvertChoice | null;
  positions: PositionView[];
};

export type InvestmentsView =
  | { state: "error" }
  | { state: "empty" }
  | {
      state: "ok";
      asAt: string;
      show: "preferred" | "original";
      /** 'Show in' is offered: multi-currency access and a currency other than the preferred one. */
      currencySwitch: boolean;
      multiCurrency: boolean;
      columns: { gain: boolean; income: boolean };
      headers: InvestmentHeader[];
      accounts: AccountView[];
      /** The grand total of the accounts shown. */
      total: TotalView;
      notes: TableNote[];
      links: { preferred: string; original: string; expandAll: string; collapseAll: string; csv: string };
      preferredCurrency: string;
    };

type Format = { t: TFunction; locale: string };

/** `gainShown`: the row shows unrealised gain values (spec 001 §5 setting); when not, an absent gain is blank, not 'Not available'. */
function texts(cells: Cells, volume: number | null, f: Format, gainShown: boolean): CellTexts {
  const { t, locale } = f;
  const money = (m: Money | null) => (m ? formatMoney(m.amount, m.currency, locale, { decimals: MONEY_DECIMALS }) : "");
  const percentFormat = numberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = (n: number | null) => (n === null ? "" : percentFormat.format(n / 100));
  const notAvailable = t("analysis.investments.notAvailable");
  const units =
    volume === null
      ? ""
      : numberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: VOLUME_DECIMALS }).format(volume);
  const price =
    cells.price === null
      ? ""
      : formatMoney(cells.price, cells.currency, locale, {
          decimals: cells.price < 10 ? VOLUME_DECIMALS : MONEY_DECIMALS,
        });
  return {
    units,
    price,
    quantity:
      volume === null
        ? ""
        : price
          ? t("analysis.investments.unitsAtPrice", { units, price })
          : t("analysis.investments.unitsOnly", { units }),
    cost: cells.cost ? money(cells.cost) : notAvailable,
    weight: percent(cells.weight),
    value: money(cells.value),
    gain: cells.gain ? money(cells.gain) : gainShown ? notAvailable : "",
    gainPercent: percent(cells.gainPercent),
    gainNegative: (cells.gain?.amount ?? 0) < 0,
    income: money(cells.income),
    yield: percent(cells.yieldPercent),
  };
}

type Here = (change: Partial<AnalysisQuery>) => string;
type GainShown = (row: "account" | "position") => boolean;

/** spec 001 §5: the currency switch only with multi-currency access and another currency than the preferred one. */
function hasCurrencySwitch(answer: HoldingsAnswer, options: { multiCurrencyAccess?: boolean }): boolean {
  return (
    (options.multiCurrencyAccess ?? true) &&
    (answer.holdings.some((h) => h.nativeCurrency !== answer.reportCurrency) ||
      answer.accounts.some((a) => a.planCurrency !== answer.reportCurrency))
  );
}

/** The column headers, each sorting the table by its figure (ascending first, then the other way). */
function headersOf(table: InvestmentsTable, t: TFunction, here: Here): InvestmentHeader[] {
  const header = (key: InvestmentHeader["key"], sort: InvestmentSort | null, numeric = true): InvestmentHeader => {
    const sorted = sort !== null && table.sort === sort;
    return {
      key,
      label: t(`analysis.investments.columns.${key}`),
      href:
        sort && table.sortable.has(sort) ? here({ sort, dir: sorted && table.dir === "asc" ? "desc" : "asc" }) : null,
      ariaSort: sorted ? (table.dir === "asc" ? "ascending" : "descending") : null,
      numeric,
    };
  };
  return [
    // decision 108: units and unit price are read under the security's name, not in columns of their own
    header("name", "description", false),
    header("cost", "cost"),
    header("weight", "weight"),
    header("value", "value"),
    ...(table.columns.gain ? [header("gain", "gain")] : []),
    ...(table.columns.income ? [header("income", "income")] : []),
  ];
}

/**
 * decision 108: the totals of each account (when there are several) and of all, with the notes they
 * refer to, numbered in the order they are first needed.
 */
function totalsOf(table: InvestmentsTable, f: Format, gainShown: GainShown) {
  const { t, locale } = f;
  const order: NoteKey[] = [];
  const note = (key: NoteKey) => {
    if (!order.includes(key)) order.push(key);
    return order.indexOf(key) + 1;
  };
  // spec 001 §5: a book cost shown 'Not available' because the view converts it: say how to see it, whether or not a total needs the note
  if (table.accounts.some((a) => a.positions.some((p) => !p.cash && p.costMissing === "converted"))) note("converted");
  const money = (m: Money) => formatMoney(m.amount, m.currency, locale, { decimals: MONEY_DECIMALS });
  // a figure that leaves cash out says so (cash has no book cost)
  const figure = (total: TotalFigure, cashLeftOut: boolean, shown = true): TotalCell =>
    !shown
      ? { text: "", note: null, negative: false }
      : total.amount
        ? { text: money(total.amount), note: cashLeftOut ? note("cashOnly") : null, negative: total.amount.amount < 0 }
        : { text: t("analysis.investments.notAvailable"), note: note(total.reason), negative: false };
  const totalView = (label: string, total: TotalRow): TotalView => ({
    label,
    value: { text: money(total.value), note: total.valueConverted ? note("valueConverted") : null, negative: false },
    cost: figure(total.cost, total.cashLeftOut),
    gain: figure(total.gain, false, table.columns.gain && gainShown("account")),
  });
  const accounts = table.accounts.map((a) =>
    table.accounts.length > 1 ? totalView(t("analysis.investments.totals.account", { name: a.name }), a.total) : null,
  );
  const all = totalView(t("analysis.investments.totals.all"), table.total);
  return { accounts, all, notes: order };
}

/** The notes under the table; the one on converted book costs links to the original currencies when the switch is there. */
function notesOf(order: NoteKey[], t: TFunction, originalView: string | null): TableNote[] {
  return order.map((key, i) => ({
    key,
    number: i + 1,
    text: t(`analysis.investments.totals.notes.${key}`),
    link:
      key === "converted" && originalView
        ? { href: originalView, label: t("analysis.investments.totals.showOriginal") }
        : null,
  }));
}

type TableAccount = InvestmentsTable["accounts"][number];
type TablePosition = TableAccount["positions"][number];

function positionView(p: TablePosition, f: Format, gainShown: boolean): PositionView {
  const { t, locale } = f;
  const rate = numberFormat(locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  return {
    key: p.key,
    name: p.name ?? t("analysis.investments.invalidName"),
    nameLang: p.name !== null && !inSiteLanguage(locale) ? "en" : null,
    invalid: p.name === null,
    code: p.code,
    cash: p.cash,
    currency: p.cells.currency,
    conversion: p.conversion
      ? p.conversion.rate === null
        ? t("analysis.investments.rateUnavailable")
        : t("analysis.investments.rate", {
            from: p.conversion.from,
            to: p.conversion.to,
            rate: rate.format(p.conversion.rate),
          })
      : null,
    cells: texts(p.cells, p.volume, f, gainShown),
    parcels: p.parcels.map((parcel) => ({
      key: parcel.key,
      name: t("analysis.investments.parcel", { date: formatDate(parcel.tradeDate, locale) }),
      cells: texts(parcel.cells, parcel.volume, f, gainShown),
    })),
  };
}

/** spec 001 §5: in original currencies, an account holding several converts to its own currency and back. */
function convertChoice(a: TableAccount, show: string, query: AnalysisQuery): ConvertChoice | null {
  if (show !== "original" || !a.multiCurrency) return null;
  const others = query.convert.filter((id) => id !== a.accountId);
  return {
    converted: a.converted,
    toAccount: [...others, a.accountId].join(","),
    toOriginal: others.join(","),
    hidden: convertFormFields(query),
  };
}

/** spec 001 §2.3 investments tab. */
export function investmentsView(
  answer: HoldingsAnswer,
  query: AnalysisQuery,
  settings: AnalysisSettings,
  rates: ReadonlyMap<string, number | null>,
  f: Format,
  options: { multiCurrencyAccess?: boolean } = {},
): InvestmentsView {
  if (!answer.holdings.length) return { state: "empty" };
  const { t, locale } = f;
  const currencySwitch = hasCurrencySwitch(answer, options);
  const show = currencySwitch ? query.show : "preferred";
  const table: InvestmentsTable = investmentsTable(answer, {
    sort: query.sort,
    dir: query.dir,
    show,
    convert: query.convert,
    columns: settings.investmentColumns,
    rates,
    locale,
  });
  const here: Here = (change) => analysisHref(query, { tab: "investments", tx: null, pages: 1, ...change });
  const gainLevel = settings.investmentColumns.gainValue;
  const gainShown: GainShown = (row) =>
    gainLevel === "all" || (gainLevel === "SecurityLevelOnly" && row === "position");
  const totals = totalsOf(table, f, gainShown);
  return {
    state: "ok",
    asAt: formatDate(answer.date, locale),
    show,
    currencySwitch,
    multiCurrency: table.multiCurrency,
    columns: table.columns,
    headers: headersOf(table, t, here),
    preferredCurrency: answer.reportCurrency,
    accounts: table.accounts.map((a, i) => ({
      key: a.key,
      name: a.name,
      currency: a.cells.currency,
      cells: texts(a.cells, null, f, gainShown("account")),
      total: totals.accounts[i] ?? null,
      convert: convertChoice(a, show, query),
      positions: a.positions.map((p) => positionView(p, f, gainShown("position"))),
    })),
    total: totals.all,
    notes: notesOf(totals.notes, t, currencySwitch ? here({ show: "original", convert: [] }) : null),
    links: {
      preferred: here({ show: "preferred", convert: [] }),
      original: here({ show: "original" }),
      expandAll: here({ expand: "all", open: [] }),
      collapseAll: here({ expand: "none", open: [] }),
      csv: analysisDownloadHref("investments", query),
    },
  };
}

// ── allocation ──────────────────────────────────────────────────────────────────────────────────

export type AllocationPanel = {
  type: AllocationType;
  title: string;
  kind: "pie" | "column";
  /** The title inside a sentence ('Investments by asset class'). */
  lower: string;
  caption: string;
  /** The chart's SVG, or on a document request a reference to it in the page (decision 156). */
  svg: ChartSvg;
  legend: ChartLegendItem[];
  table: ChartTable;
  /** The expandable table: each category with its investments, largest first. */
  categories: Array<{
    key: string;
    name: string;
    /** The name's language where the site has none in the page's (decision 210). */
    nameLang: "en" | null;
    amount: string;
    percent: string;
    /** `investmentLang`: a security's name is the records' own, in the site's language. */
    rows: Array<{ key: string; investment: string; investmentLang: "en" | null; account: string; amount: string }>;
  }>;
  /** The panel's total: the valuation's, and its percentage (the categories' add up to it). */
  total: { amount: string; percent: string };
  /**
   * decision 207: the amounts shown (whole units) of the categories or of a category's investments
   * do not add up to the total shown beside them, each being rounded on its own: the page says so.
   */
  roundingNote: boolean;
};

export type AllocationView =
  | { state: "error"; message: string | null }
  | { state: "empty" }
  | {
      state: "ok";
      asAt: string;
      collapsed: boolean;
      panels: AllocationPanel[];
      /** The tab's CSV download (decision 208), for the same view. */
      csv?: string;
    };

/** An amount as shown at 0 decimals, in whole units: halves away from zero, as Intl rounds. */
function wholeUnits(amount: number): number {
  const minor = Math.round(Math.abs(amount) * 100);
  return Math.sign(amount) * Math.floor((minor + 50) / 100);
}

/** spec 001 §4 "Chart display": asset class and region are pies, sector a column chart. */
export const ALLOCATION_CHART: Record<AllocationType, "pie" | "column"> = {
  asset_class: "pie",
  sector: "column",
  region: "pie",
};

/** The site's list that names each allocation type's categories (decision 210). */
const CATEGORY_NAMES: Record<AllocationType, NamedList> = {
  asset_class: "assetClassNames",
  sector: "sectorNames",
  region: "regionNames",
};

const asTheyAre =
  () =>
  (english: string): Worded => ({ text: english, lang: null });

/** Whole amounts shown (0 decimals) of `parts` add up to that of `whole`. */
const addsUp = (parts: readonly Money[], whole: Money) =>
  parts.reduce((sum, m) => sum + wholeUnits(m.amount), 0) === wholeUnits(whole.amount);

/** One type's panel: its chart, its categories with their investments, largest first, and its total. */
function allocationPanel(
  type: AllocationType,
  answer: AllocationAnswer,
  colours: string[],
  f: Format,
  shownBefore: Map<string, number>,
  names: (list: NamedList) => (english: string) => Worded,
): AllocationPanel {
  const { t, locale } = f;
  const records = inSiteLanguage(locale) ? null : "en";
  const named = names(CATEGORY_NAMES[type]);
  // spec 001 §9: allocation amounts at 0 decimals
  const amount = (m: Money) => formatMoney(m.amount, m.currency, locale, { decimals: 0 });
  const categories = answer.types[type].map((c) => ({ ...c, worded: named(c.name) }));
  const percents = allocationPercentages(categories, answer.total, shownBefore);
  const labels = percents.map((p, i) => formatPercentLabel(p, categories[i]!.value.amount > 0, locale));
  const title = t(`analysis.allocation.types.${type}`);
  const caption = t("analysis.allocation.caption", { type: title, date: formatDate(answer.date, locale) });
  const figure = allocationChartFigure(
    {
      kind: ALLOCATION_CHART[type],
      slices: categories.map((c, i) => ({
        id: c.key,
        label: c.worded.text,
        value: c.value.amount,
        percentLabel: labels[i]!,
      })),
      colours,
      title: caption,
      locale,
      currency: answer.total.currency,
    },
    {
      tableCaption: caption,
      categoryHeading: title,
      amountHeading: t("analysis.allocation.columns.amount"),
      percentHeading: t("analysis.allocation.columns.percent"),
    },
  );
  return {
    type,
    title,
    lower: title.toLocaleLowerCase(locale),
    kind: ALLOCATION_CHART[type],
    caption,
    svg: chartSvgOfPage(figure.svg),
    legend: figure.legend ?? [],
    table: figure.table,
    categories: categories.map((c, i) => ({
      key: c.key,
      name: c.worded.text,
      nameLang: c.worded.lang,
      amount: amount(c.value),
      percent: labels[i]!,
      rows: [...c.positions]
        .sort((a, b) => b.value.amount - a.value.amount)
        .map((p) => ({
          key: `${c.key}-${p.key}`,
          investment: p.description?.trim() || t("analysis.investments.invalidName"),
          investmentLang: p.description?.trim() ? records : null,
          account: p.account,
          amount: amount(p.value),
        })),
    })),
    total: { amount: amount(answer.total), percent: formatPercentLabel(100, true, locale) },
    // decision 207: the conventions' rule, a total beside its rows is their sum as shown or the page says why not
    roundingNote: needsRoundingNote(categories, answer.total),
  };
}

/** decision 207: the whole amounts shown of a panel's categories, or of a category's investments, do not add up. */
function needsRoundingNote(categories: AllocationAnswer["types"][AllocationType], total: Money): boolean {
  return (
    !addsUp(
      categories.map((c) => c.value),
      total,
    ) ||
    categories.some(
      (c) =>
        c.positions.length > 0 &&
        !addsUp(
          c.positions.map((p) => p.value),
          c.value,
        ),
    )
  );
}

/** spec 001 §2.3 allocation tab: one panel per enabled type, collapsed at first when there are several. */
export function allocationView(
  answer: AllocationAnswer,
  types: readonly AllocationType[],
  colours: string[],
  f: Format,
  names: (list: NamedList) => (english: string) => Worded = asTheyAre,
): AllocationView {
  const shown = types.filter((type) => answer.types[type].length);
  if (!shown.length || answer.total.amount <= 0) return { state: "empty" };
  // decision 207: cash as an asset class and as a sector reads the same percentage in each
  const shownBefore = new Map<string, number>();
  const panels = shown.map((type) => allocationPanel(type, answer, colours, f, shownBefore, names));
  return { state: "ok", asAt: formatDate(answer.date, f.locale), collapsed: panels.length > 1, panels };
}
