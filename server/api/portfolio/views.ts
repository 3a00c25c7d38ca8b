// The wire shapes of portfolios, accounts and summary items (docs/platform-api.md "Portfolio").
import { decimalOf, MINOR_PER_UNIT, roundHalfAwayFromZero } from "../../domain/money";
import type { PeriodPerformance } from "../../domain/performance";
import { wireDate, wireMoney } from "../../lib/wire";
import { type VisibleAccount, type VisiblePortfolio, portfolioType } from "./visibility";

export const round = (x: number, places = 10) => Math.round(x * 10 ** places) / 10 ** places;
/**
 * An amount in minor units on the wire: exactly two decimals (decision 106). Every money figure the
 * platform sends is a whole number of minor units computed once, so rows and totals add up as sent.
 */
export const moneyMinor = (currency: string, minor: number) => wireMoney(currency, decimalOf(minor));
/**
 * An amount in units on the wire, rounded once to the minor unit (half away from zero). A figure of
 * the valuation is already a whole number of minor units and goes as it is: prefer `moneyMinor`.
 */
export const money = (currency: string, amount: number) =>
  moneyMinor(currency, roundHalfAwayFromZero(amount * MINOR_PER_UNIT));

export function accountView(a: VisibleAccount) {
  const { account, group, portfolio } = a;
  return {
    accountid: account.id,
    description: account.description,
    portfolioid: account.portfolioId,
    portfolioName: portfolio.portfolio.name,
    group_code: group?.groupCode ?? null,
    group_name: group?.groupName ?? null,
    account_group_code: group?.groupCode ?? null,
    plan_currency: account.planCurrency,
    report_currency: account.reportCurrency,
    service_type: account.serviceType,
    tax_structure: account.taxStructure,
    product: account.product,
    external_account_id: account.externalAccountId,
    subfund: account.subfund,
    tax_type: account.taxType,
    tax_type_title: account.taxTypeTitle,
    active_date: wireDate(account.activeDate),
    inception_date: wireDate(account.inceptionDate),
    vendor_id: account.vendorId,
    account_owner: account.accountOwner,
    type: portfolioType(portfolio.portfolio.ptype),
    isLinked: portfolio.isLinked,
  };
}

export function portfolioView(p: VisiblePortfolio, accountCount: number) {
  return {
    portfolioid: p.portfolio.id,
    portfolio_name: p.portfolio.name,
    fullName: p.portfolio.fullName,
    report_currency: p.portfolio.reportCurrency,
    ptype: p.portfolio.ptype,
    entityid: p.portfolio.entityId,
    isLinked: p.isLinked,
    sortOrder: p.sortOrder,
    reasonForVisibility: p.reasonForVisibility,
    account_count: accountCount,
  };
}

/** spec 001 §3 summary item. */
export function summaryData(p: PeriodPerformance, currency: string) {
  return {
    start_date: wireDate(p.start),
    end_date: wireDate(p.end),
    base_currency: currency,
    value: moneyMinor(currency, p.minor.valueTo),
    market_value_from: moneyMinor(currency, p.minor.valueFrom),
    market_value_to: moneyMinor(currency, p.minor.valueTo),
    net_flows: moneyMinor(currency, p.minor.netFlows),
    movement: moneyMinor(currency, p.minor.movement),
    twrr: p.twr ? round(p.twr.annualised ?? p.twr.period) : null,
    twrr_period: p.twr ? round(p.twr.period) : null,
    irr: p.irr ? round(p.overAYear ? p.irr.annual : p.irr.period) : null,
    irr_period: p.irr ? round(p.irr.period) : null,
    over_a_year: p.overAYear,
    // the date the returns are measured from: the start, or the later first funding (decision 109)
    since: wireDate(p.since),
  };
}
