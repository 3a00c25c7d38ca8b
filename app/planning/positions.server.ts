import { z } from "zod/v4";
import type { AllocationAnswer, AllocationType, Holding, HoldingsAnswer } from "~/lib/analysis/investments";
import { type PlanningClient, isLostSession } from "./client.server";
import type { PricingType } from "./portfolio.server";
import { WireDate, WireMoney } from "./wire";

// spec 001 §3 "Position", §7 "Positions and allocation": the holdings of a selection on a date, their
// allocation, and foreign-exchange rates by pair (docs/platform-api.md "Portfolio").

const Num = z.number().nullable();
const Split = z.array(z.object({ name: z.string(), weight: z.number() }));

const SubPosition = z.object({
  row_id: z.string(),
  trade_date: WireDate,
  volume: z.number(),
  native_cost: WireMoney.nullable(),
  native_value: WireMoney,
  native_unrealised_gain: WireMoney.nullable(),
  plan_currency_value: WireMoney,
  value: WireMoney,
});

const Position = z.object({
  row_id: z.string(),
  accountid: z.number(),
  security_id: z.number(),
  security: z.object({
    code: z.string(),
    exchange: z.string(),
    isin: z.string().nullable(),
    sector_name: z.string().nullable(),
    asset_class_code: z.string().nullable(),
    region: z.string().nullable(),
  }),
  description: z.string().nullable(),
  cash: z.boolean(),
  volume: z.number(),
  native_currency: z.string(),
  native_marketprice: z.number(),
  price_date: WireDate,
  native_value: WireMoney,
  plan_currency: z.string(),
  plan_currency_marketprice: z.number(),
  plan_currency_value: WireMoney,
  value: WireMoney,
  weight: z.number(),
  native_cost: WireMoney.nullable(),
  native_unrealised_gain: WireMoney.nullable(),
  percent_gain_loss: Num,
  annual_income: WireMoney,
  plan_currency_annual_income: WireMoney,
  native_annual_income: WireMoney,
  gross_annual_income: WireMoney,
  native_gross_annual_income: WireMoney,
  percent_yield: z.number(),
  gross_percent_yield: z.number(),
  fx_rate_to_plan: Num,
  fx_rate_to_report: Num,
  asset_class_allocation: Split.prefault([]),
  regional_allocation: Split.prefault([]),
  sub_positions: z.array(SubPosition).prefault([]),
});

const PositionsAnswer = z.object({
  date: WireDate,
  report_currency: z.string(),
  total_value: WireMoney,
  accounts: z.array(
    z.object({
      accountid: z.number(),
      description: z.string(),
      plan_currency: z.string(),
      value: WireMoney,
      plan_currency_value: WireMoney,
      annual_income: WireMoney,
      plan_currency_annual_income: WireMoney,
      weight: z.number(),
    }),
  ),
  positions: z.array(Position),
});

/** The wire's position in the portal's terms (the rules of spec 001 §5 are applied by `investmentsView`). */
function holdingOf(p: z.output<typeof Position>): Holding {
  return {
    key: p.row_id,
    accountId: p.accountid,
    description: p.description,
    code: p.security.code,
    exchange: p.security.exchange,
    isin: p.security.isin,
    cash: p.cash,
    volume: p.volume,
    weight: p.weight,
    nativeCurrency: p.native_currency,
    planCurrency: p.plan_currency,
    price: {
      native: p.native_marketprice,
      plan: p.plan_currency_marketprice,
      report: p.fx_rate_to_report === null ? null : p.native_marketprice * p.fx_rate_to_report,
    },
    value: { native: p.native_value, plan: p.plan_currency_value, report: p.value },
    cost: p.native_cost,
    gain: p.native_unrealised_gain,
    gainPercent: p.percent_gain_loss,
    income: { native: p.native_annual_income, plan: p.plan_currency_annual_income, report: p.annual_income },
    grossIncome: { native: p.native_gross_annual_income, report: p.gross_annual_income },
    yieldPercent: p.percent_yield,
    grossYieldPercent: p.gross_percent_yield,
    parcels: p.sub_positions.map((s) => ({
      key: s.row_id,
      tradeDate: s.trade_date,
      volume: s.volume,
      cost: s.native_cost,
      gain: s.native_unrealised_gain,
      value: { native: s.native_value, plan: s.plan_currency_value, report: s.value },
    })),
  };
}

export type PositionsRequest = {
  accountIds: number[] | null;
  /** The valuation date (YYYY-MM-DD); null: today, moved back by the hold-back period. */
  date: string | null;
  holdBack: boolean;
  pricingType: PricingType;
};

const selectionQuery = (r: PositionsRequest) => ({
  accountid: r.accountIds?.join(","),
  date: r.date ?? undefined,
  hold_back_period: r.holdBack ? "true" : "false",
  pricing_type: r.pricingType,
});

/** spec 001 §7 `portfolio/position`: the holdings of the accounts (the client's own when null) on a date, per account. */
export async function fetchHoldings(planning: PlanningClient, r: PositionsRequest): Promise<HoldingsAnswer> {
  const answer = await planning.get("resourceful/portfolio/position", PositionsAnswer, {
    query: { ...selectionQuery(r), aggregation: "account" },
  });
  return {
    date: answer.date,
    reportCurrency: answer.report_currency,
    total: answer.total_value,
    accounts: answer.accounts.map((a) => ({
      accountId: a.accountid,
      name: a.description,
      planCurrency: a.plan_currency,
      weight: a.weight,
      value: { plan: a.plan_currency_value, report: a.value },
      income: { plan: a.plan_currency_annual_income, report: a.annual_income },
    })),
    holdings: answer.positions.map(holdingOf),
  };
}

const Category = z.object({
  key: z.string(),
  name: z.string(),
  value: WireMoney,
  weight: z.number(),
  positions: z.array(
    z.object({
      row_id: z.string(),
      accountid: z.number(),
      account_name: z.string(),
      description: z.string().nullable(),
      value: WireMoney,
      weight: z.number(),
    }),
  ),
});
const AllocationWire = z.object({
  date: WireDate,
  report_currency: z.string(),
  method: z.enum(["principal", "detailed"]),
  total: WireMoney,
  asset_class: z.array(Category).optional(),
  sector: z.array(Category).optional(),
  region: z.array(Category).optional(),
});

/** spec 001 §7 the allocation of the selection by asset class, sector and region (principal or detailed method). */
export async function fetchAllocation(
  planning: PlanningClient,
  r: PositionsRequest & { method: "principal" | "detailed"; types: AllocationType[] },
): Promise<AllocationAnswer> {
  const answer = await planning.get("resourceful/portfolio/allocation", AllocationWire, {
    query: { ...selectionQuery(r), allocation_method: r.method, types: r.types.join(",") },
  });
  const categories = (list: z.output<typeof Category>[] | undefined) =>
    (list ?? []).map((c) => ({
      key: c.key,
      name: c.name,
      value: c.value,
      weight: c.weight,
      positions: c.positions.map((p) => ({
        key: p.row_id,
        accountId: p.accountid,
        account: p.account_name,
        description: p.description,
        value: p.value,
        weight: p.weight,
      })),
    }));
  return {
    date: answer.date,
    total: answer.total,
    types: {
      asset_class: categories(answer.asset_class),
      sector: categories(answer.sector),
      region: categories(answer.region),
    },
  };
}

const FxAnswer = z.object({
  pair: z.string(),
  from_currency: z.string(),
  to_currency: z.string(),
  date: WireDate,
  rate: z.number().nullable(),
});

/**
 * spec 001 §7 FX by pair, in one batch; §5: pairs of identical or empty currencies are not asked
 * for. A pair the platform has no rate for answers null ('Conversion rate unavailable').
 */
export async function fetchFxRates(
  planning: PlanningClient,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  date: string,
): Promise<Map<string, number | null>> {
  const wanted = [
    ...new Set(pairs.filter((p) => p.from && p.to && p.from !== p.to).map((p) => `${p.from}${p.to}`)),
  ].filter((pair) => /^[A-Z]{6}$/.test(pair));
  const rates = new Map<string, number | null>();
  if (!wanted.length) return rates;
  const items = Object.fromEntries(
    wanted.map((pair) => [pair, { url: `portfolio/security/${pair}/FX?date=${date}`, schema: FxAnswer }]),
  );
  try {
    const answers = await planning.batch(items);
    for (const pair of wanted) rates.set(pair, answers[pair]?.rate ?? null);
  } catch (error) {
    if (isLostSession(error)) throw error;
    // one missing pair fails the batch: ask for each alone, so the others still show
    const each = await Promise.allSettled(
      wanted.map((pair) => planning.get(`resourceful/portfolio/security/${pair}/FX`, FxAnswer, { query: { date } })),
    );
    each.forEach((result, i) => {
      if (result.status === "rejected" && isLostSession(result.reason)) throw result.reason;
      rates.set(wanted[i]!, result.status === "fulfilled" ? result.value.rate : null);
    });
  }
  return rates;
}
