import type { Holding, HoldingAccount, Money } from "./investments";

// The holdings answer's fixtures shared by the investments tests (investments.test.ts beside this
// file, app/routes/clients.analysis/investments.server.test.ts): securities of 100 shares at £10 in
// pound accounts of £2,000, and dollar ones at $12.80 (1 USD = 0.78125 GBP), with the report
// currency and rate each test file chooses. Test data only: nothing the portal runs imports it.

export const money = (amount: number, currency = "GBP"): Money => ({ amount, currency });

/** The currency the client reports in and its rate per pound (1.2 for euros; 1 for pounds). */
export type ReportCurrency = { currency: string; rate: number };

export function holdingsFixtures(report: ReportCurrency, defaults: Partial<Holding> = {}) {
  const inReport = (pounds: number) => money(pounds * report.rate, report.currency);

  /** A holding in pounds in a pound account. */
  function holding(key: string, accountId: number, fields: Partial<Holding> = {}): Holding {
    return {
      key,
      accountId,
      description: `Security ${key}`,
      code: `SEC${key}`,
      exchange: "LSE",
      isin: null,
      cash: false,
      volume: 100,
      weight: 10,
      nativeCurrency: "GBP",
      planCurrency: "GBP",
      price: { native: 10, plan: 10, report: 10 * report.rate },
      value: { native: money(1000), plan: money(1000), report: inReport(1000) },
      cost: money(800),
      gain: money(200),
      gainPercent: 25,
      income: { native: money(50), plan: money(50), report: inReport(50) },
      grossIncome: { native: money(55), report: inReport(55) },
      yieldPercent: 5,
      grossYieldPercent: 5.5,
      parcels: [],
      ...defaults,
      ...fields,
    };
  }

  /** A dollar holding in a pound account. */
  function dollars(key: string, accountId: number, fields: Partial<Holding> = {}): Holding {
    return holding(key, accountId, {
      nativeCurrency: "USD",
      price: { native: 12.8, plan: 10, report: 10 * report.rate },
      value: { native: money(1280, "USD"), plan: money(1000), report: inReport(1000) },
      cost: money(1000, "USD"),
      gain: money(280, "USD"),
      gainPercent: 28,
      income: { native: money(64, "USD"), plan: money(50), report: inReport(50) },
      ...fields,
    });
  }

  /** A pound account of two such holdings. */
  function account(accountId: number, fields: Partial<HoldingAccount> = {}): HoldingAccount {
    return {
      accountId,
      name: `Account ${accountId}`,
      planCurrency: "GBP",
      weight: 50,
      value: { plan: money(2000), report: inReport(2000) },
      income: { plan: money(100), report: inReport(100) },
      ...fields,
    };
  }

  return { holding, dollars, account };
}
