import { z } from "zod/v4";
import type { AssetTab, RawAsset } from "~/lib/assets";
import type { PlanningClient } from "./client.server";
import { ClientGroupMembers } from "./entity.server";
import { readFeatureToggles } from "./feature-toggles.server";
import { CapabilitiesAnswer, IdRows, WireDate, WireMoney } from "./wire";

// spec 001 §3 and §7: portfolios, accounts, summaries, time series and balance-sheet assets
// (docs/platform-api.md "Portfolio").

export type PricingType = "close" | "delayed" | "live";
export type Money = z.output<typeof WireMoney>;

const Num = z.number().nullable();

export const AccountAnswer = z.object({
  accountid: z.number(),
  description: z.string(),
  portfolioid: z.number(),
  portfolioName: z.string(),
  group_code: z.string().nullable(),
  group_name: z.string().nullable(),
  plan_currency: z.string(),
  report_currency: z.string(),
  service_type: z.string(),
  inception_date: WireDate,
  type: z.enum(["single", "joint", "shared"]),
  isLinked: z.boolean(),
  /** spec 001 §5: whether the account has any transaction (decision 107's view rule). */
  has_transactions: z.boolean().optional(),
  vendor_id: z.string().nullish(),
});
export type AccountAnswer = z.output<typeof AccountAnswer>;
export const AccountAnswers = z.array(AccountAnswer);

/** session/feature_access: each feature asked for, on or off. */
const FeatureAccessAnswer = z.record(z.string(), z.boolean());

/** The figures of one period (spec 001 §3 summary item), in a summary and in a profit-analysis row. */
const PeriodFields = {
  start_date: WireDate,
  end_date: WireDate,
  value: WireMoney,
  market_value_from: WireMoney,
  market_value_to: WireMoney,
  net_flows: WireMoney,
  movement: WireMoney,
  twrr: Num,
  twrr_period: Num,
  irr: Num,
  irr_period: Num,
  over_a_year: z.boolean(),
  /** The date the returns are measured from: the start, or the selection's later first funding (decision 109). */
  since: WireDate.nullish().default(null),
};

const SummaryData = z.object({
  timeframe: z.string(),
  base_currency: z.string(),
  ...PeriodFields,
  /** For an item of one account: the same figures in its plan currency. */
  plan_currency_value: WireMoney.nullish(),
  plan_currency_movement: WireMoney.nullish(),
  plan_currency_twrr: Num.optional(),
  plan_currency_twrr_period: Num.optional(),
  plan_currency_irr: Num.optional(),
  plan_currency_irr_period: Num.optional(),
});
export type SummaryData = z.output<typeof SummaryData>;

const SummaryItem = z.object({
  key: z.string(),
  name: z.string().nullable(),
  isLinked: z.boolean(),
  account_count: z.number().default(1),
  accountids: z.array(z.number()),
  portfolioid: z.number().optional(),
  accountid: z.number().optional(),
  group_code: z.string().nullable().optional(),
  sortOrder: z.number().optional(),
  ptype: z.string().optional(),
  type: z.string().optional(),
  plan_currency: z.string().nullable(),
  plan_currency_value: WireMoney.nullable(),
  defaultData: SummaryData,
  secondaryData: SummaryData,
});
export type SummaryItem = z.output<typeof SummaryItem>;

export const SummaryAnswer = z.object({
  level: z.enum(["portfolio", "account", "group"]),
  end_date: WireDate,
  report_currency: z.string(),
  items: z.array(SummaryItem),
  totals: z.object({ defaultData: SummaryData, secondaryData: SummaryData }).nullable(),
});
export type SummaryAnswer = z.output<typeof SummaryAnswer>;

export const SeriesAnswer = z.object({
  start_date: WireDate,
  end_date: WireDate,
  frequency: z.string(),
  report_currency: z.string(),
  inception_date: WireDate.nullable(),
  points: z.array(z.object({ date: WireDate, value: WireMoney, cumulative_twrr: Num, net_flows: WireMoney })),
});
export type SeriesAnswer = z.output<typeof SeriesAnswer>;

const Owner = z.object({ owner_id: z.number(), owner_name: z.string(), percentage: z.number() });
const Text = z.string().nullish();
const AssetCommon = {
  id: z.number(),
  /** A portfolio account under advice, or one of the member's other assets (ids of two sequences; decision 109). */
  source: z.enum(["portfolio", "other"]).catch("other").default("other"),
  accountid: z.number().nullish(),
  desc: z.string(),
  type: z.string(),
  owners: z.array(Owner),
  percentOwned: z.number(),
  value_owned: WireMoney.nullable(),
  is_sipp_wrapper: z.boolean(),
  // spec 001 §4: 1 or set means under advice; a field the platform could not give is absent
  under_advice: z.union([z.boolean(), z.number(), z.string()]).nullish().catch(null),
  currency: z.string(),
};
export const InvestmentAsset = z.object({
  ...AssetCommon,
  amount: WireMoney,
  amount_in_report_currency: WireMoney.nullish(),
  status: z.string().nullable(),
  provider: Text,
  supplier: Text,
  policy_number: Text,
  valuation_date: WireDate.nullish(),
});
export const PensionFund = z.object({
  ...AssetCommon,
  fund_value: WireMoney,
  fund_value_in_report_currency: WireMoney.nullish(),
  policy_status: z.string().nullable(),
  product_provider: Text,
  fund_or_policy_num: Text,
  fund_valuation_date: WireDate.nullish(),
});
export const Annuity = z.object({
  ...AssetCommon,
  current_value: WireMoney,
  current_value_in_report_currency: WireMoney.nullish(),
  policy_status: z.string().nullable(),
  product_provider: Text,
  policy_number: Text,
  valuation_date: WireDate.nullish(),
  income_value: WireMoney.nullish(),
  frequency: Text,
});
export const Liability = z.object({
  ...AssetCommon,
  package_name: z.string(),
  amount: WireMoney,
  amount_in_report_currency: WireMoney.nullish(),
  status: z.string().nullable(),
  supplier: Text,
  rate: z.number().nullish(),
  policy_number: Text,
  valuation_date: WireDate.nullish(),
});

const InvestmentAssets = z.array(InvestmentAsset);
const PensionFunds = z.array(PensionFund);
const Annuities = z.array(Annuity);
const Liabilities = z.array(Liability);

export type AssetLists = {
  investments: z.output<typeof InvestmentAsset>[];
  pensions: z.output<typeof PensionFund>[];
  annuities: z.output<typeof Annuity>[];
  liabilities: z.output<typeof Liability>[];
};

type AnyAsset = AssetLists[AssetTab][number];

/** One platform asset as the filter rules of spec 001 §4 (app/lib/assets.ts) read it. */
export function rawAssetOf(a: AnyAsset, status: string | null): RawAsset {
  return {
    id: a.id,
    desc: "package_name" in a ? a.package_name : a.desc,
    type: a.type,
    status,
    isSippWrapper: a.is_sipp_wrapper,
    valueOwned: a.value_owned?.amount ?? null,
    percentOwned: a.percentOwned,
    currency: a.currency,
  };
}

/** The four platform lists as the filter rules read them (each kind has its own status field). */
export function rawAssetsOf(lists: AssetLists): Record<AssetTab, RawAsset[]> {
  return {
    investments: lists.investments.map((a) => rawAssetOf(a, a.status)),
    pensions: lists.pensions.map((a) => rawAssetOf(a, a.policy_status)),
    annuities: lists.annuities.map((a) => rawAssetOf(a, a.policy_status)),
    liabilities: lists.liabilities.map((a) => rawAssetOf(a, a.status)),
  };
}

/** spec 001 §6: live prices with live_marketdata_access, delayed with view_marketdata, else close. */
export function pricingTypeFor(capabilities: readonly string[]): PricingType {
  if (capabilities.includes("live_marketdata_access")) return "live";
  if (capabilities.includes("view_marketdata")) return "delayed";
  return "close";
}

export async function fetchCapabilities(planning: PlanningClient): Promise<string[]> {
  const answer = await planning.get("resourceful/session/capability", CapabilitiesAnswer);
  return answer.capabilities;
}

export async function fetchAccounts(planning: PlanningClient): Promise<AccountAnswer[]> {
  return planning.get("resourceful/portfolio/account", AccountAnswers);
}

export type SummaryRequest = {
  level: "portfolio" | "account" | "group";
  defaultTimeframe: string;
  secondaryTimeframe: string;
  pricingType: PricingType;
  holdBack: boolean;
  feesAndTaxes: 0 | 1;
  portfolioId?: number;
  groupCode?: string;
  accountIds?: number[];
};

export async function fetchSummary(planning: PlanningClient, r: SummaryRequest): Promise<SummaryAnswer> {
  return planning.get("resourceful/portfolio/summary", SummaryAnswer, {
    query: {
      level: r.level,
      default_timeframe: r.defaultTimeframe,
      secondary_timeframe: r.secondaryTimeframe,
      pricing_type: r.pricingType,
      hold_back_period: r.holdBack ? "true" : "false",
      fees_and_taxes: String(r.feesAndTaxes),
      portfolioid: r.portfolioId,
      group_code: r.groupCode,
      accountid: r.accountIds?.join(","),
    },
  });
}

export type SeriesRequest = {
  /** The period of a timeframe code (1Y … SI), as the summary measures it. */
  timeframe: string;
  holdBack: boolean;
  pricingType: PricingType;
  feesAndTaxes: 0 | 1;
};

/**
 * The time series of all the client's own managed accounts over a timeframe, at the frequency
 * spec 001 §4 gives its length (the platform's `frequency=auto`).
 */
export async function fetchSeries(planning: PlanningClient, r: SeriesRequest): Promise<SeriesAnswer> {
  return planning.get("resourceful/portfolio/profit_analysis/historic_time_series_twrr", SeriesAnswer, {
    query: {
      timeframe: r.timeframe,
      hold_back_period: r.holdBack ? "true" : "false",
      frequency: "auto",
      to_pricing_type: r.pricingType,
      fees_and_taxes: String(r.feesAndTaxes),
    },
  });
}

/** How the portfolio accounts on a balance sheet are valued: as the analysis page values them (decision 109). */
export type AssetValuation = { pricingType: PricingType; holdBack: boolean };

/** One member's four balance-sheet lists, in one round trip. */
export async function fetchAssetLists(
  planning: PlanningClient,
  memberId: number,
  valuation: AssetValuation,
): Promise<AssetLists> {
  const base = `entity/client/${memberId}`;
  const query = `?pricing_type=${valuation.pricingType}&hold_back_period=${valuation.holdBack ? "true" : "false"}`;
  return planning.batch({
    investments: { url: `${base}/asset${query}`, schema: InvestmentAssets },
    pensions: { url: `${base}/pension${query}`, schema: PensionFunds },
    annuities: { url: `${base}/annuity`, schema: Annuities },
    liabilities: { url: `${base}/liability`, schema: Liabilities },
  });
}

/**
 * What the home page's views depend on: capabilities, the visible accounts, the client group's
 * members and multi-currency access in one round trip, and beside it the feature toggles, which
 * are all off when their call fails (spec 000 §1) rather than failing the batch.
 */
export async function fetchHomeBasics(planning: PlanningClient, entityId: number) {
  const [basics, toggles] = await Promise.all([
    planning.batch({
      capabilities: { url: "session/capability", schema: CapabilitiesAnswer },
      accounts: { url: "portfolio/account", schema: AccountAnswers },
      members: { url: `entity/client/${entityId}/client_group/member`, schema: ClientGroupMembers },
      access: { url: "session/feature_access?feature_names=multi_currency", schema: FeatureAccessAnswer },
    }),
    readFeatureToggles(planning),
  ]);
  return { ...basics, toggles };
}

/**
 * What the balance sheet depends on, in one round trip: capabilities (view_partner), the client
 * group's members and multi-currency access; beside it the feature toggles (enhanced SIPP wrapper),
 * all off when their call fails (spec 000 §1).
 */
export async function fetchBalanceSheetBasics(planning: PlanningClient, entityId: number) {
  const [basics, toggles] = await Promise.all([
    planning.batch({
      capabilities: { url: "session/capability", schema: CapabilitiesAnswer },
      members: { url: `entity/client/${entityId}/client_group/member`, schema: ClientGroupMembers },
      access: { url: "session/feature_access?feature_names=multi_currency", schema: FeatureAccessAnswer },
    }),
    readFeatureToggles(planning),
  ]);
  return { ...basics, toggles };
}

// ── the analysis page (spec 001 §2.2, §2.4, §7 "Performance") ────────────────────────────────────

export const DetailRow = z.object({
  ...PeriodFields,
  level: z.enum(["portfolio", "group", "account", "all"]),
  key: z.string(),
  name: z.string().nullable(),
  accountid: z.number().nullable(),
  portfolioid: z.number().optional(),
  group_code: z.string().nullable().optional(),
  isLinked: z.boolean().optional(),
  account_count: z.number().optional(),
  native_currency: z.string(),
  plan_currency_value: WireMoney.nullable(),
});
export type DetailRow = z.output<typeof DetailRow>;

export const DetailAnswer = z.object({
  start_date: WireDate,
  end_date: WireDate,
  report_currency: z.string(),
  inception_date: WireDate.nullable().default(null),
  rows: z.array(DetailRow),
  total: DetailRow.nullable(),
});
export type DetailAnswer = z.output<typeof DetailAnswer>;

/** A period: a timeframe code the platform dates (ending today, `SI` from the selection's inception), or two dates. */
export type Period = { timeframe: string } | { start: string; end: string };

export type DetailRequest = {
  period: Period;
  grouping: "portfolio" | "group" | "account" | "all";
  accountIds: number[] | null;
  pricingType: PricingType;
  holdBack: boolean;
  feesAndTaxes: 0 | 1;
  reportCurrency?: string;
};

const periodQuery = (period: Period, holdBack: boolean) =>
  "timeframe" in period
    ? { timeframe: period.timeframe, hold_back_period: holdBack ? "true" : "false" }
    : { start_date: period.start, end_date: period.end, hold_back_period: holdBack ? "true" : "false" };

/** spec 001 §7 `profit_analysis/detail`: rows by portfolio, group or account, and the selection's total. */
export async function fetchDetail(planning: PlanningClient, r: DetailRequest): Promise<DetailAnswer> {
  return planning.get("resourceful/portfolio/profit_analysis/detail", DetailAnswer, {
    query: {
      ...periodQuery(r.period, r.holdBack),
      grouping: r.grouping,
      accountid: r.accountIds?.join(","),
      from_pricing_type: r.pricingType,
      to_pricing_type: r.pricingType,
      fees_and_taxes: String(r.feesAndTaxes),
      report_currency: r.reportCurrency,
    },
  });
}

export const Benchmark = z.object({ code: z.string(), name: z.string() });
export type Benchmark = z.output<typeof Benchmark>;
const Benchmarks = z.array(Benchmark);

const BenchmarkSeries = z.object({
  name: z.string(),
  code: z.string(),
  points: z.array(z.object({ date: WireDate, cumulative: Num })),
});
export const TargetSeriesAnswer = SeriesAnswer.extend({ benchmarks: z.array(BenchmarkSeries).prefault([]) });
export type TargetSeriesAnswer = z.output<typeof TargetSeriesAnswer>;

/** What a series measures: an account, a portfolio, a group's own accounts, or a list of accounts (all own by default). */
export type SeriesTarget =
  | { kind: "account"; accountId: number }
  | { kind: "portfolio"; portfolioId: number }
  | { kind: "group"; code: string }
  | { kind: "accounts"; accountIds: number[] | null };

export type TargetSeriesRequest = {
  target: SeriesTarget;
  period: Period;
  pricingType: PricingType;
  holdBack: boolean;
  feesAndTaxes: 0 | 1;
  reportCurrency?: string;
  benchmarks: string[];
};

function seriesPath(target: SeriesTarget): string {
  const base = "resourceful/portfolio";
  const tail = "profit_analysis/historic_time_series_twrr";
  switch (target.kind) {
    case "account":
      return `${base}/account/${target.accountId}/${tail}`;
    case "portfolio":
      return `${base}/portfolio/${target.portfolioId}/${tail}`;
    case "group":
      return `${base}/group/account/code/${encodeURIComponent(target.code)}/${tail}`;
    default:
      return `${base}/${tail}`;
  }
}

/** spec 001 §7 historic time series of a selection, at spec 001 §4's frequency, with benchmark lines. */
export async function fetchTargetSeries(planning: PlanningClient, r: TargetSeriesRequest): Promise<TargetSeriesAnswer> {
  return planning.get(seriesPath(r.target), TargetSeriesAnswer, {
    query: {
      ...periodQuery(r.period, r.holdBack),
      accountid: r.target.kind === "accounts" ? r.target.accountIds?.join(",") : undefined,
      frequency: "auto",
      from_pricing_type: r.pricingType,
      to_pricing_type: r.pricingType,
      fees_and_taxes: String(r.feesAndTaxes),
      report_currency: r.reportCurrency,
      benchmark_name: r.benchmarks.length ? r.benchmarks.join(",") : undefined,
    },
  });
}

/**
 * What the analysis page depends on, in one round trip: capabilities (pricing), the visible
 * accounts, multi-currency access and the benchmarks; beside it the feature toggles (client
 * analysis), all off when their call fails (spec 000 §1).
 */
export async function fetchAnalysisBasics(planning: PlanningClient) {
  const [basics, toggles] = await Promise.all([
    planning.batch({
      capabilities: { url: "session/capability", schema: CapabilitiesAnswer },
      accounts: { url: "portfolio/account", schema: AccountAnswers },
      access: { url: "session/feature_access?feature_names=multi_currency", schema: FeatureAccessAnswer },
      benchmarks: { url: "portfolio/benchmark", schema: Benchmarks },
    }),
    readFeatureToggles(planning),
  ]);
  return { ...basics, toggles };
}

/** spec 001 §7 the per-account existence check: whether any of the accounts (all the client sees when null) has a transaction. */
export async function fetchHasTransactions(planning: PlanningClient, accountIds: number[] | null): Promise<boolean> {
  const rows = await planning.get("resourceful/portfolio/transaction", IdRows, {
    query: { accountid: accountIds?.join(","), start_date: "1900-01-01", page_size: 1 },
  });
  return rows.length > 0;
}

export const TransactionAnswer = z.object({
  id: z.number(),
  accountId: z.number(),
  tradeDate: WireDate,
  settlementDate: WireDate,
  securityDescription: z.string(),
  type: z.string(),
  transactionTypeDesc: z.string(),
  nativeCurrency: z.string(),
  nativeTransactionValue: WireMoney,
  netAmount: WireMoney,
  fee: WireMoney,
  tax: WireMoney,
  volume: z.number(),
  pricePerUnit: z.number().nullable(),
  code: z.string(),
  /** With the code, says whether the security is a cash line (spec 001 §5): a transfer of cash is a deposit or a withdrawal. */
  exchange: z.string(),
  securityIsin: z.string().nullable(),
  comment: z.string().nullable(),
  /** Decision 207: the value in the report currency asked for, at the trade date (only when asked). */
  reportTransactionValue: WireMoney.optional(),
});
export type TransactionAnswer = z.output<typeof TransactionAnswer>;
const TransactionAnswers = z.array(TransactionAnswer);

/** spec 001 §7 transactions of a selection (all the client sees when null) over a period, newest first. */
export async function fetchTransactions(
  planning: PlanningClient,
  r: {
    accountIds: number[] | null;
    period: Period;
    holdBack: boolean;
    pageSize: number;
    /** Decision 207: each value in this currency at its trade date too, priced as the page's figures. */
    report?: { currency: string; pricingType: PricingType };
  },
): Promise<TransactionAnswer[]> {
  const period =
    "timeframe" in r.period
      ? { timeframe: r.period.timeframe, hold_back_period: r.holdBack ? "true" : "false" }
      : { start_date: r.period.start, stop_date: r.period.end };
  return planning.get("resourceful/portfolio/transaction", TransactionAnswers, {
    query: {
      accountid: r.accountIds?.join(","),
      ...period,
      page_size: r.pageSize,
      sort_type: 2,
      ...(r.report ? { report_currency: r.report.currency, to_pricing_type: r.report.pricingType } : {}),
    },
  });
}

export const TargetSet = z.object({
  id: z.number(),
  description: z.string(),
  securities: z.array(z.object({ code: z.string(), name: z.string(), weight: z.number() })),
});
export type TargetSet = z.output<typeof TargetSet>;
const TargetSets = z.array(TargetSet);

/** spec 001 §7 the target sets of one account (its investment instructions). */
export async function fetchTargetSets(planning: PlanningClient, accountId: number): Promise<TargetSet[]> {
  return planning.get("resourceful/portfolio/targetset", TargetSets, {
    query: { accountid: String(accountId) },
  });
}

export const PaymentInformation = z.object({
  bpays: z.array(z.object({ id: z.number(), billerCode: z.string().nullable(), reference: z.string().nullable() })),
  bankAccounts: z.array(
    z.object({
      id: z.number(),
      bank: z.string().nullable(),
      accountName: z.string().nullable(),
      bsb: z.string().nullable(),
      accountNumber: z.string().nullable(),
    }),
  ),
});
export type PaymentInformation = z.output<typeof PaymentInformation>;

/** spec 001 §7 payment information of one account: its BPAY billers and bank accounts. */
export async function fetchPaymentInformation(
  planning: PlanningClient,
  accountId: number,
): Promise<PaymentInformation> {
  return planning.get(`resourceful/portfolio/account/${accountId}/payment_information`, PaymentInformation);
}
