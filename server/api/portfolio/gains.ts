// Realised gains and losses of the accounts taxed on gains, by UK tax year
// (docs/decisions/201-realised-gains-uk-matching.md, docs/platform-api.md "Realised gains"): each
// disposal identified with its acquisitions by the UK share-matching rules, in the account's plan
// currency with each side converted at its own date's rate; tax-wrapped accounts named as excluded.
import { z } from "zod";
import type { Db } from "../../db/connection";
import {
  ANNUAL_EXEMPT_AMOUNT_SOURCE,
  annualExemptAmount,
  type Deal,
  type Disposal,
  matchHolding,
  taxYearDates,
  taxYearLabel,
  ukTaxYearOf,
  yearTotals,
} from "../../domain/gains";
import { convertMinor } from "../../domain/money";
import { wireDate } from "../../lib/wire";
import { validate } from "../http";
import { json, type Route, type SignedInContext, signedIn } from "../router";
import { IdList, scope } from "./requests";
import { accountsOfView, isManaged, type VisibleAccount } from "./visibility";
import { moneyMinor } from "./views";

const GainsQuery = z.object({ accountid: IdList });

/**
 * Accounts taxed on their gains: general investment accounts and trusts. ISAs, pensions (SIPPs)
 * and any other wrapper are not (decision 201): a tax type the platform does not know as taxed is
 * excluded rather than guessed at, and named as such.
 */
const TAXED_ON_GAINS = new Set(["GEN", "TRUST"]);
export const isTaxedOnGains = (a: VisibleAccount) => TAXED_ON_GAINS.has(a.account.taxType ?? "");

const MICROS = 1_000_000;
const GBP = "GBP";

type Row = {
  id: number;
  securityId: number;
  type: string;
  tradeDate: string;
  quantityMicros: number;
  currency: string;
  grossMinor: number;
  netMinor: number;
  code: string;
  exchange: string;
  isin: string | null;
  description: string;
};

// the deals of one account: purchases, sales and transfers in or out of securities (not cash)
const DEALS_SQL = `SELECT t.id, t.security_id AS securityId, t.type, t.trade_date AS tradeDate, t.quantity_micros AS quantityMicros,
    t.currency, t.gross_minor AS grossMinor, t.net_minor AS netMinor, s.code, s.exchange, s.isin, s.description
  FROM transactions t JOIN securities s ON s.id = t.security_id
  WHERE t.account_id = ? AND s.is_cash = 0 AND t.type IN ('buy', 'sell', 'transfer_in', 'transfer_out') AND t.quantity_micros > 0
  ORDER BY t.trade_date, t.id`;
const RATE_SQL = "SELECT rate_micros AS r FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1";

/** Units of `currency` for one GBP on `date` (the last rate on or before it), in micro-units. */
function perGbpOn(db: Db, currency: string, date: string): number {
  if (currency === GBP) return MICROS;
  const row = db.$client.prepare(RATE_SQL).get(currency, date) as { r: number } | undefined;
  // before the first rate there is none to use: the earliest one (the book starts before any deal)
  if (row) return row.r;
  const first = db.$client
    .prepare("SELECT rate_micros AS r FROM fx_rates WHERE currency = ? ORDER BY date LIMIT 1")
    .get(currency) as { r: number } | undefined;
  if (!first) throw new RangeError(`No ${GBP}/${currency} rate.`);
  return first.r;
}

/**
 * A transaction as a deal in the plan currency: a purchase costs what was paid (dealing costs and
 * stamp duty included), a sale brings what was received (net of dealing costs); a transfer in or
 * out of a security is an acquisition or a disposal at its value on the day.
 */
export function dealOf(row: Row, planCurrency: string, perGbp: (currency: string, date: string) => number): Deal {
  const acquisition = row.type === "buy" || row.type === "transfer_in";
  const native = row.type === "buy" || row.type === "sell" ? row.netMinor : row.grossMinor;
  const amountMinor =
    row.currency === planCurrency
      ? native
      : convertMinor(native, perGbp(row.currency, row.tradeDate), perGbp(planCurrency, row.tradeDate));
  return {
    id: row.id,
    date: row.tradeDate,
    kind: acquisition ? "acquisition" : "disposal",
    quantityMicros: row.quantityMicros,
    amountMinor,
  };
}

type AccountDisposal = { account: VisibleAccount; security: Row; disposal: Disposal };

/** Every disposal of an account's holdings, each holding (security) matched on its own. */
function disposalsOf(db: Db, account: VisibleAccount): AccountDisposal[] {
  const rows = db.$client.prepare(DEALS_SQL).all(account.account.id) as Row[];
  const bySecurity = new Map<number, Row[]>();
  for (const row of rows) bySecurity.set(row.securityId, [...(bySecurity.get(row.securityId) ?? []), row]);
  const perGbp = (currency: string, date: string) => perGbpOn(db, currency, date);
  const out: AccountDisposal[] = [];
  for (const list of bySecurity.values()) {
    const matching = matchHolding(list.map((r) => dealOf(r, account.account.planCurrency, perGbp)));
    for (const disposal of matching.disposals) out.push({ account, security: list[0] as Row, disposal });
  }
  return out;
}

const accountHead = (a: VisibleAccount) => ({
  accountid: a.account.id,
  description: a.account.description,
  portfolio_name: a.portfolio.portfolio.name,
  plan_currency: a.account.planCurrency,
  tax_type: a.account.taxType,
  tax_type_title: a.account.taxTypeTitle,
});

/** The answer: the accounts covered and excluded, and per tax year (newest first) its disposals and totals. */
export function realisedGains(db: Db, list: readonly VisibleAccount[]) {
  const taxed = list.filter(isTaxedOnGains);
  const excluded = list.filter((a) => !isTaxedOnGains(a));
  const all = taxed
    .flatMap((a) => disposalsOf(db, a))
    .sort(
      (x, y) =>
        x.disposal.date.localeCompare(y.disposal.date) ||
        x.account.account.id - y.account.account.id ||
        x.security.description.localeCompare(y.security.description),
    );
  const years = [...new Set(all.map((d) => ukTaxYearOf(d.disposal.date)))].sort((a, b) => b - a);
  return {
    jurisdiction: "GB",
    accounts: taxed.map(accountHead),
    excluded_accounts: excluded.map(accountHead),
    tax_years: years.map((year) => {
      const inYear = all.filter((d) => ukTaxYearOf(d.disposal.date) === year);
      const currencies = [...new Set(inYear.map((d) => d.account.account.planCurrency))].sort();
      const allowance = annualExemptAmount(year);
      const { start, end } = taxYearDates(year);
      return {
        tax_year: taxYearLabel(year),
        start_date: wireDate(start),
        end_date: wireDate(end),
        disposals: inYear.map((d) => disposalView(d)),
        totals: currencies.map((currency) => {
          const t = yearTotals(
            inYear.filter((d) => d.account.account.planCurrency === currency).map((d) => d.disposal),
          );
          return {
            currency,
            proceeds: moneyMinor(currency, t.proceedsMinor),
            allowable_cost: moneyMinor(currency, t.allowableCostMinor),
            gains: moneyMinor(currency, t.gainsMinor),
            losses: moneyMinor(currency, t.lossesMinor),
            net: moneyMinor(currency, t.netMinor),
          };
        }),
        annual_exempt_amount: allowance
          ? {
              individual: moneyMinor(GBP, allowance.individualPounds * 100),
              trustees: moneyMinor(GBP, allowance.trusteesPounds * 100),
              source: ANNUAL_EXEMPT_AMOUNT_SOURCE,
            }
          : null,
      };
    }),
  };
}

function disposalView({ account, security, disposal }: AccountDisposal) {
  const currency = account.account.planCurrency;
  return {
    accountid: account.account.id,
    account: account.account.description,
    date: wireDate(disposal.date),
    security: {
      description: security.description,
      code: security.code,
      exchange: security.exchange,
      isin: security.isin,
    },
    transaction_ids: disposal.dealIds,
    currency,
    quantity: disposal.quantityMicros / MICROS,
    proceeds: moneyMinor(currency, disposal.proceedsMinor),
    allowable_cost: moneyMinor(currency, disposal.allowableCostMinor),
    gain: moneyMinor(currency, disposal.gainMinor),
    matches: disposal.matches.map((m) => ({
      rule: m.rule,
      quantity: m.quantityMicros / MICROS,
      proceeds: moneyMinor(currency, m.proceedsMinor),
      allowable_cost: moneyMinor(currency, m.allowableCostMinor),
      gain: moneyMinor(currency, m.gainMinor),
      acquired_on: wireDate(m.acquiredOn),
    })),
  };
}

export const gainsRoutes: Route[] = [
  // issue 41: realised gains of the accounts asked for (default the view's accounts, decision 107)
  signedIn("GET", "/resourceful/portfolio/realised_gains", (request, context: SignedInContext) => {
    const query = validate(GainsQuery, request.query, "query");
    const { selected } = scope(context, query.accountid);
    // the view's rule (decision 107): without a list, the own managed accounts (or the linked ones);
    // with one, the managed accounts asked for
    const list = query.accountid ? selected.filter(isManaged) : accountsOfView(selected);
    return json(realisedGains(context.db, list));
  }),
];
