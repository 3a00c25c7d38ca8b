// spec 001 §2.3 "Investments tab", §4 "Currency toggle" and "Investments table expand modes", §5
// "Display rules": the holdings of a selection as the investments table shows them. Pure: the page,
// its CSV download and the browser's expand toggles share these rules.
import type { ExpandMode, InvestmentSort } from "./query";
import { sumAmounts } from "../money";
import { nameCollator } from "../collation";

export type Money = { amount: number; currency: string };
/** A figure in the three currencies of spec 001 §4: the security's own (native), the account's (plan) and the client's preferred one (report). */
export type InThree = { native: Money; plan: Money; report: Money };

export type Parcel = {
  key: string;
  tradeDate: string;
  volume: number;
  cost: Money | null;
  gain: Money | null;
  value: InThree;
};

export type Holding = {
  key: string;
  accountId: number;
  /** As the platform has it: an empty or missing name is shown as 'INVALID DATA'. */
  description: string | null;
  code: string;
  exchange: string;
  isin: string | null;
  cash: boolean;
  volume: number;
  /** Percent of the selection's total value. */
  weight: number;
  nativeCurrency: string;
  planCurrency: string;
  price: { native: number; plan: number; report: number | null };
  value: InThree;
  /** Book cost, in the security's own currency; null when unknown. */
  cost: Money | null;
  gain: Money | null;
  gainPercent: number | null;
  income: InThree;
  grossIncome: { native: Money; report: Money };
  yieldPercent: number;
  grossYieldPercent: number;
  parcels: Parcel[];
};

export type HoldingAccount = {
  accountId: number;
  name: string;
  planCurrency: string;
  weight: number;
  value: { plan: Money; report: Money };
  income: { plan: Money; report: Money };
};

export type HoldingsAnswer = {
  date: string;
  reportCurrency: string;
  total: Money;
  accounts: HoldingAccount[];
  holdings: Holding[];
};

export type AllocationType = "asset_class" | "sector" | "region";
export type AllocationCategory = {
  key: string;
  name: string;
  value: Money;
  weight: number;
  positions: Array<{
    key: string;
    accountId: number;
    account: string;
    description: string | null;
    value: Money;
    weight: number;
  }>;
};
export type AllocationAnswer = { date: string; total: Money; types: Record<AllocationType, AllocationCategory[]> };

// ── settings ────────────────────────────────────────────────────────────────────────────────────

/** spec 001 §5: unrealised gain values and percentages, annual income values and yields each show on none, security rows only, or all rows. */
export type ColumnLevel = "none" | "SecurityLevelOnly" | "all";
export type InvestmentColumnSettings = {
  gainValue: ColumnLevel;
  gainPercent: ColumnLevel;
  incomeValue: ColumnLevel;
  yieldPercent: ColumnLevel;
};

export function readColumnLevel(value: unknown): ColumnLevel {
  return value === "none" || value === "SecurityLevelOnly" ? value : "all";
}

/** spec 001 §5: a column is hidden when all its settings are none. */
export function visibleColumns(s: InvestmentColumnSettings): { gain: boolean; income: boolean } {
  return {
    gain: s.gainValue !== "none" || s.gainPercent !== "none",
    income: s.incomeValue !== "none" || s.yieldPercent !== "none",
  };
}

const shownOn = (level: ColumnLevel, row: "account" | "position") =>
  level === "all" || (level === "SecurityLevelOnly" && row === "position");

// ── rules ───────────────────────────────────────────────────────────────────────────────────────

/** spec 001 §5: the cash flag is set when a security's exchange or code equals cash, case-insensitively. */
export function isCashSecurity(s: { code: string; exchange: string }): boolean {
  return s.code.trim().toLowerCase() === "cash" || s.exchange.trim().toLowerCase() === "cash";
}

/** spec 001 §5: an invalid or empty security name is shown as 'INVALID DATA' (null here; the caller says it). */
export function securityName(description: string | null | undefined): string | null {
  const name = (description ?? "").trim();
  return name && !/^[\s\-_.?]+$/.test(name) ? name : null;
}

/** Which currency a row is shown in (spec 001 §4 "Currency toggle"). */
export type CurrencyLevel = keyof InThree;

/**
 * spec 001 §2.3: 'Show in' the client's preferred currency puts every row in it; 'Original currency'
 * shows each account in its own currency and its holdings in theirs, unless the account is
 * converted to its account currency.
 */
export function levelOf(
  row: "account" | "position",
  show: "preferred" | "original",
  converted: boolean,
): CurrencyLevel {
  if (show === "preferred") return "report";
  return row === "account" || converted ? "plan" : "native";
}

/** spec 001 §5: book cost is 'Not available' when unknown or when converted out of the security's own currency. */
export function shownCost(cost: Money | null, currency: string): Money | null {
  return cost && cost.currency === currency ? cost : null;
}

/** spec 001 §5: unrealised gain is 'Not available' when the book cost is zero or not shown (converted, or viewed in plan currency). */
export function shownGain(cost: Money | null, gain: Money | null, currency: string): Money | null {
  const shown = shownCost(cost, currency);
  return shown && shown.amount !== 0 && gain && gain.currency === currency ? gain : null;
}

// ── the table ───────────────────────────────────────────────────────────────────────────────────

export type Cells = {
  currency: string;
  price: number | null;
  cost: Money | null;
  value: Money;
  weight: number | null;
  gain: Money | null;
  gainPercent: number | null;
  income: Money | null;
  yieldPercent: number | null;
};

export type ParcelRow = { key: string; tradeDate: string; volume: number; cells: Cells };
export type PositionRow = {
  key: string;
  /** null: 'INVALID DATA'. */
  name: string | null;
  code: string;
  isin: string | null;
  cash: boolean;
  volume: number;
  nativeCurrency: string;
  /** Shown in another currency than its own: the rate used, or null ('Conversion rate unavailable'). */
  conversion: { from: string; to: string; rate: number | null } | null;
  cells: Cells;
  /** Why its book cost reads 'Not available': not known, or known only in another currency than the one shown. */
  costMissing: "unknown" | "converted" | null;
  /** Its market value in its account row's currency and in the report currency, for totals in those currencies. */
  valueIn: { account: Money; report: Money };
  /** Its unrealised gain by the display rules before the column settings (for totals), null when 'Not available'. */
  gainShown: Money | null;
  parcels: ParcelRow[];
};
export type AccountRow = {
  key: string;
  accountId: number;
  name: string;
  planCurrency: string;
  /** Its holdings are converted to the account currency ('Original currency' only). */
  converted: boolean;
  /** Holdings in another currency than the account's: the per-account currency choice applies. */
  multiCurrency: boolean;
  cells: Cells;
  positions: PositionRow[];
  /** The total row of its holdings. */
  total: TotalRow;
};

export type InvestmentsOptions = {
  sort: InvestmentSort;
  dir: "asc" | "desc";
  show: "preferred" | "original";
  convert: readonly number[];
  columns: InvestmentColumnSettings;
  /** FX rates by pair ('USDGBP'), for the conversion rate shown beside a converted holding. */
  rates?: ReadonlyMap<string, number | null>;
  locale: string;
};

export type InvestmentsTable = {
  accounts: AccountRow[];
  /** spec 001 §2.3: several currencies on screen: market value, book cost and unrealised gain cannot be sorted. */
  multiCurrency: boolean;
  sortable: ReadonlySet<InvestmentSort>;
  /** The sort applied (a sort that is not allowed falls back to the name). */
  sort: InvestmentSort;
  dir: "asc" | "desc";
  columns: { gain: boolean; income: boolean };
  /** The grand total of the accounts shown. */
  total: TotalRow;
};

function sortKey(sort: InvestmentSort, row: { name: string | null; cells: Cells }): string | number | null {
  switch (sort) {
    case "description":
      return row.name;
    case "cost":
      return row.cells.cost?.amount ?? null;
    case "weight":
      return row.cells.weight;
    case "value":
      return row.cells.value.amount;
    case "gain":
      return row.cells.gain?.amount ?? null;
    case "income":
      return row.cells.income?.amount ?? null;
  }
}

/** Sorted by `sort`; figures not available go last whichever the direction; ties keep their order. */
export function sortRows<T extends { name: string | null; cells: Cells }>(
  rows: readonly T[],
  sort: InvestmentSort,
  dir: "asc" | "desc",
  locale: string,
): T[] {
  const collator = nameCollator(locale);
  const sign = dir === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: sortKey(sort, row) }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
      const order = typeof a.key === "string" ? collator.compare(a.key, b.key as string) : a.key - (b.key as number);
      return order * sign || a.index - b.index;
    })
    .map((x) => x.row);
}

/** A tertiary row: one parcel of a holding, in the currency its holding row shows. */
function parcelRow(p: Parcel, level: CurrencyLevel, columns: InvestmentColumnSettings): ParcelRow {
  const parcelValue = p.value[level];
  const parcelGain = shownGain(p.cost, p.gain, parcelValue.currency);
  return {
    key: p.key,
    tradeDate: p.tradeDate,
    volume: p.volume,
    cells: {
      currency: parcelValue.currency,
      price: null,
      cost: shownCost(p.cost, parcelValue.currency),
      value: parcelValue,
      weight: null,
      gain: shownOn(columns.gainValue, "position") ? parcelGain : null,
      gainPercent:
        shownOn(columns.gainPercent, "position") && parcelGain && p.cost
          ? (parcelGain.amount / p.cost.amount) * 100
          : null,
      income: null,
      yieldPercent: null,
    },
  };
}

/** What a holding's row needs to know of its account: the currency levels shown and whether it is converted. */
type AccountShown = { positionLevel: CurrencyLevel; accountLevel: "plan" | "report"; isConverted: boolean };

/** A sub-row: one holding, with its parcels. */
function positionRow(h: Holding, shown: AccountShown, o: InvestmentsOptions): PositionRow {
  const { positionLevel, accountLevel, isConverted } = shown;
  const value = h.value[positionLevel];
  const currency = value.currency;
  const cost = shownCost(h.cost, currency);
  const gain = shownGain(h.cost, h.gain, currency);
  const rate =
    positionLevel === "native" || h.nativeCurrency === currency
      ? undefined
      : o.rates?.get(`${h.nativeCurrency}${currency}`);
  return {
    key: `p${h.key}`,
    name: securityName(h.description),
    code: h.code,
    isin: h.isin,
    cash: h.cash || isCashSecurity(h),
    volume: h.volume,
    nativeCurrency: h.nativeCurrency,
    conversion:
      isConverted && h.nativeCurrency !== currency
        ? { from: h.nativeCurrency, to: currency, rate: rate ?? null }
        : null,
    costMissing: h.cost === null ? "unknown" : cost === null ? "converted" : null,
    valueIn: { account: h.value[accountLevel], report: h.value.report },
    gainShown: gain,
    cells: {
      currency,
      price: h.price[positionLevel],
      cost,
      value,
      weight: h.weight,
      gain: shownOn(o.columns.gainValue, "position") ? gain : null,
      gainPercent: shownOn(o.columns.gainPercent, "position") && gain ? h.gainPercent : null,
      income: shownOn(o.columns.incomeValue, "position") ? h.income[positionLevel] : null,
      yieldPercent: shownOn(o.columns.yieldPercent, "position") ? h.yieldPercent : null,
    },
    parcels: h.parcels.map((p) => parcelRow(p, positionLevel, o.columns)),
  };
}

/** A primary row: one account, its holdings' rows and its total. */
function accountRow(
  account: HoldingAccount,
  holdings: Holding[],
  o: InvestmentsOptions,
  converted: ReadonlySet<number>,
): AccountRow {
  const isConverted = o.show === "original" && converted.has(account.accountId);
  const positionLevel = levelOf("position", o.show, isConverted);
  const accountLevel = levelOf("account", o.show, isConverted) === "plan" ? "plan" : "report";
  const positions = holdings.map((h) => positionRow(h, { positionLevel, accountLevel, isConverted }, o));
  const income = account.income[accountLevel];
  // decision 108: the account row reads as its total: market value the exact sum of its holdings as
  // shown; book cost and gain the sums of its holdings' (cash aside) when every one shows them in the account row's currency
  const total = holdingsTotal(positions, account.value[accountLevel].currency, "account");
  const value = total.value;
  const cost = total.cost.amount;
  const gain = total.gain.amount;
  return {
    key: `a${account.accountId}`,
    accountId: account.accountId,
    name: account.name,
    planCurrency: account.planCurrency,
    converted: isConverted,
    multiCurrency: holdings.some((h) => h.nativeCurrency !== account.planCurrency),
    cells: {
      currency: value.currency,
      price: null,
      cost,
      value,
      weight: account.weight,
      gain: shownOn(o.columns.gainValue, "account") ? gain : null,
      gainPercent: shownOn(o.columns.gainPercent, "account") && gain && cost ? (gain.amount / cost.amount) * 100 : null,
      income: shownOn(o.columns.incomeValue, "account") ? income : null,
      yieldPercent:
        shownOn(o.columns.yieldPercent, "account") && value.amount > 0 ? (income.amount / value.amount) * 100 : null,
    },
    positions,
    total,
  };
}

/** The investments table: primary rows per account, sub-rows per holding, tertiary rows per parcel. */
export function investmentsTable(answer: HoldingsAnswer, o: InvestmentsOptions): InvestmentsTable {
  const converted = new Set(o.convert);
  const shown = visibleColumns(o.columns);
  const accounts = answer.accounts.map((account) =>
    accountRow(
      account,
      answer.holdings.filter((h) => h.accountId === account.accountId),
      o,
      converted,
    ),
  );
  const currencies = new Set(accounts.flatMap((a) => [a.cells.currency, ...a.positions.map((p) => p.cells.currency)]));
  const multiCurrency = o.show === "original" && currencies.size > 1;
  const sortable = new Set<InvestmentSort>([
    "description",
    "weight",
    ...(shown.income ? (["income"] as const) : []),
    ...(multiCurrency ? [] : (["value", "cost", ...(shown.gain ? (["gain"] as const) : [])] as const)),
  ]);
  // spec 001 §8: sorting on a property that cannot be sorted is ignored
  const sort = sortable.has(o.sort) ? o.sort : "description";
  const dir = sort === o.sort ? o.dir : "asc";
  return {
    accounts: sortRows(accounts, sort, dir, o.locale).map((a) => ({
      ...a,
      positions: sortRows(a.positions, sort, dir, o.locale),
    })),
    multiCurrency,
    sortable,
    sort,
    dir,
    columns: shown,
    total: grandTotal(accounts, answer.reportCurrency),
  };
}

// ── expanding rows (spec 001 §4) ────────────────────────────────────────────────────────────────

/**
 * Whether a row is open: ExpandAllPrimaryItem opens the account rows, ExpandAll every row,
 * CollapseAll none; a row the user toggled (UserToggle) is the other way round.
 */
export function isRowOpen(key: string, expand: ExpandMode, toggled: ReadonlySet<string>): boolean {
  const byMode = expand === "all" ? true : expand === "none" ? false : key.startsWith("a");
  return toggled.has(key) ? !byMode : byMode;
}

/** The toggled rows after toggling `key`. */
export function toggleRow(open: readonly string[], key: string): string[] {
  return open.includes(key) ? open.filter((k) => k !== key) : [...open, key];
}

/** The foreign-exchange pairs a table needs for its conversion rates: each converted account's holdings in another currency. */
export function conversionPairs(
  answer: HoldingsAnswer,
  show: "preferred" | "original",
  convert: readonly number[],
): Array<{ from: string; to: string }> {
  if (show !== "original") return [];
  const converted = new Set(convert);
  return answer.holdings
    .filter((h) => converted.has(h.accountId) && h.nativeCurrency !== h.planCurrency)
    .map((h) => ({ from: h.nativeCurrency, to: h.planCurrency }));
}

// ── totals (docs/decisions/108-transaction-types-signs-and-investment-totals.md) ───────────────

/** The exact sum of amounts of one currency as shown: added in whole minor units (decision 106). */
export function addMoney(list: readonly Money[], currency: string): Money {
  for (const m of list) if (m.currency !== currency) throw new RangeError(`Cannot add ${m.currency} to ${currency}`);
  return { amount: sumAmounts(list.map((m) => m.amount)), currency };
}

/**
 * Why a total reads 'Not available': a holding's book cost is shown converted (known in its own
 * currency only, spec 001 §5), the holdings are shown in several currencies (each row has its figure;
 * they do not add up to one), a holding's book cost is not known (or zero, for the gain), or the
 * holdings are cash only (cash has no book cost).
 */
export type NotAvailableReason = "converted" | "currencies" | "unknown" | "cashOnly";
export type TotalFigure = { amount: Money; reason: null } | { amount: null; reason: NotAvailableReason };

export type TotalRow = {
  currency: string;
  /** Always: the exact sum of the holdings' market values in `currency`. */
  value: Money;
  /** Some holdings are shown in another currency and are included at the valuation date's rate. */
  valueConverted: boolean;
  cost: TotalFigure;
  gain: TotalFigure;
  /** Cash lines are in the market value but not in book cost and gain (cash has no book cost). */
  cashLeftOut: boolean;
};

const available = (amount: Money): TotalFigure => ({ amount, reason: null });
const missing = (reason: NotAvailableReason): TotalFigure => ({ amount: null, reason });

/**
 * The total of some holdings in one currency: market value always; book cost and unrealised gain
 * only where every holding other than cash shows them in that currency, else why not. Sums of the
 * figures as shown, in minor units.
 */
export function holdingsTotal(
  positions: readonly PositionRow[],
  currency: string,
  valueIn: "account" | "report",
): TotalRow {
  const value = addMoney(
    positions.map((p) => (p.cells.value.currency === currency ? p.cells.value : p.valueIn[valueIn])),
    currency,
  );
  const costed = positions.filter((p) => !p.cash);
  const reason = ((): NotAvailableReason | null => {
    if (!costed.length) return "cashOnly";
    if (costed.some((p) => p.costMissing === "converted")) return "converted";
    if (costed.some((p) => p.cells.currency !== currency)) return "currencies";
    if (costed.some((p) => p.costMissing === "unknown" || p.cells.cost === null)) return "unknown";
    return null;
  })();
  const cost = reason
    ? missing(reason)
    : available(
        addMoney(
          costed.map((p) => p.cells.cost as Money),
          currency,
        ),
      );
  const gain = cost.reason
    ? missing(cost.reason)
    : costed.every((p) => p.gainShown)
      ? available(
          addMoney(
            costed.map((p) => p.gainShown as Money),
            currency,
          ),
        )
      : missing("unknown");
  return {
    currency,
    value,
    valueConverted: positions.some((p) => p.cells.value.currency !== currency),
    cost,
    gain,
    cashLeftOut: costed.length < positions.length && cost.reason === null,
  };
}

/**
 * The grand total of the accounts shown: the sum of their totals when they share a currency (always
 * so in the preferred currency); else the holdings' market values in the report currency, and book
 * cost and gain 'Not available' (several currencies).
 */
export function grandTotal(
  accounts: ReadonlyArray<{ total: TotalRow; positions: readonly PositionRow[] }>,
  reportCurrency: string,
): TotalRow {
  const currencies = new Set(accounts.map((a) => a.total.currency));
  if (currencies.size === 1) {
    const currency = accounts[0]!.total.currency;
    const add = (pick: (t: TotalRow) => TotalFigure): TotalFigure => {
      const failed = accounts.find((a) => pick(a.total).reason !== null && pick(a.total).reason !== "cashOnly");
      if (failed) return missing(pick(failed.total).reason as NotAvailableReason);
      const figures = accounts.map((a) => pick(a.total).amount).filter((m): m is Money => m !== null);
      return figures.length ? available(addMoney(figures, currency)) : missing("cashOnly");
    };
    return {
      currency,
      value: addMoney(
        accounts.map((a) => a.total.value),
        currency,
      ),
      valueConverted: accounts.some((a) => a.total.valueConverted),
      cost: add((t) => t.cost),
      gain: add((t) => t.gain),
      cashLeftOut: accounts.some((a) => a.total.cashLeftOut || a.total.cost.reason === "cashOnly"),
    };
  }
  return {
    currency: reportCurrency,
    value: addMoney(
      accounts.flatMap((a) =>
        a.positions.map((p) => (p.cells.value.currency === reportCurrency ? p.cells.value : p.valueIn.report)),
      ),
      reportCurrency,
    ),
    valueConverted: true,
    cost: missing("currencies"),
    gain: missing("currencies"),
    cashLeftOut: false,
  };
}
