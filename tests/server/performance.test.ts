import { describe, expect, it } from "vitest";
import {
  type Book,
  externalFlows,
  holdBackEnd,
  type LedgerTransaction,
  type Measure,
  periodPerformance,
  previousBusinessDay,
  pricingDate,
  seriesDates,
  timeSeries,
  transactionValueMinor,
  valueOn,
  valuesOn,
} from "../../server/domain/performance";
import { MICROS, positionsAt, type SecurityPricing, valueAt } from "../../server/domain/valuation";

const u = (units: number) => Math.round(units * MICROS); // units → micros
const ACCOUNT = 1;
const CASH = 100; // GBP cash line, always 1.00
const USD_CASH = 101; // USD cash line, always 1.00
const SHARE = 7; // a GBP share
const US = 8; // a USD share

// A tiny book with known answers. One account:
// - 2024-01-02 £1,000 in, 100 shares bought at £10 (all of it): worth £1,000 at the close.
// - 2024-07-01 the share is at £15 (£1,500) and £500 comes in: £2,000 at the close.
// - 2024-10-01 a £10 fee (the share still at £15): £1,990.
// - 2024-12-31 the share doubles to £30: 100 × 30 + £490 cash = £3,490.
const tx = (
  t: Partial<LedgerTransaction> & Pick<LedgerTransaction, "type" | "tradeDate" | "securityId">,
): LedgerTransaction => ({
  accountId: ACCOUNT,
  quantityMicros: 0,
  netMinor: 0,
  cashSecurityId: null,
  currency: "GBP",
  feeMinor: 0,
  taxMinor: 0,
  ...t,
});

const TRANSACTIONS: LedgerTransaction[] = [
  tx({ type: "transfer_in", tradeDate: "2024-01-02", securityId: CASH, quantityMicros: u(1_000), netMinor: 100_000 }),
  tx({
    type: "buy",
    tradeDate: "2024-01-02",
    securityId: SHARE,
    quantityMicros: u(100),
    netMinor: 100_000,
    cashSecurityId: CASH,
  }),
  tx({ type: "transfer_in", tradeDate: "2024-07-01", securityId: CASH, quantityMicros: u(500), netMinor: 50_000 }),
  tx({
    type: "fee",
    tradeDate: "2024-10-01",
    securityId: CASH,
    netMinor: 1_000,
    feeMinor: 1_000,
    cashSecurityId: CASH,
  }),
];

const PRICES = new Map<number, SecurityPricing>([
  [CASH, { currency: "GBP", series: [{ date: "2020-01-01", micros: MICROS }] }],
  [USD_CASH, { currency: "USD", series: [{ date: "2020-01-01", micros: MICROS }] }],
  [
    SHARE,
    {
      currency: "GBP",
      series: [
        { date: "2023-01-02", micros: u(10) },
        { date: "2024-07-01", micros: u(15) },
        { date: "2024-12-31", micros: u(30) },
      ],
    },
  ],
  [
    US,
    {
      currency: "USD",
      series: [
        { date: "2024-01-02", micros: u(50) },
        { date: "2024-03-01", micros: u(60) },
      ],
    },
  ],
]);

// 1.25 USD per GBP until March 2024, then 1.20.
const FX = {
  USD: [
    { date: "2020-01-01", micros: u(1.25) },
    { date: "2024-03-01", micros: u(1.2) },
  ],
};

const book = (transactions: LedgerTransaction[] = TRANSACTIONS, today = "2025-03-14"): Book => ({
  transactions,
  prices: PRICES,
  fx: FX,
  planCurrencies: new Map([[ACCOUNT, "GBP"]]),
  today,
});

const AFTER: Measure = { currency: "GBP", pricing: "close", basis: "after" };
const BEFORE: Measure = { ...AFTER, basis: "before" };

describe("business days, hold-back and pricing dates", () => {
  it("steps back to the previous Monday-to-Friday day", () => {
    expect(previousBusinessDay("2025-03-12")).toBe("2025-03-11"); // Wednesday → Tuesday
    expect(previousBusinessDay("2025-03-10")).toBe("2025-03-07"); // Monday → Friday
    expect(previousBusinessDay("2025-03-09")).toBe("2025-03-07"); // Sunday → Friday
    expect(previousBusinessDay("2025-03-08")).toBe("2025-03-07"); // Saturday → Friday
    expect(previousBusinessDay("2024-03-01")).toBe("2024-02-29"); // over a leap day
  });

  it("holds an end of today back to the previous business day, and only then", () => {
    expect(holdBackEnd("2025-03-14", "2025-03-14", true)).toBe("2025-03-13");
    expect(holdBackEnd("2025-03-17", "2025-03-17", true)).toBe("2025-03-14"); // Monday → Friday
    expect(holdBackEnd("2025-03-14", "2025-03-14", false)).toBe("2025-03-14");
    expect(holdBackEnd("2025-01-31", "2025-03-14", true)).toBe("2025-01-31");
    // a future end is today, then held back
    expect(holdBackEnd("2025-06-30", "2025-03-14", false)).toBe("2025-03-14");
    expect(holdBackEnd("2025-06-30", "2025-03-14", true)).toBe("2025-03-13");
  });

  it("never uses today's price for close pricing; delayed and live take today's", () => {
    expect(pricingDate("2025-03-14", "2025-03-14", "close")).toBe("2025-03-13");
    expect(pricingDate("2025-03-17", "2025-03-17", "close")).toBe("2025-03-14");
    expect(pricingDate("2025-03-14", "2025-03-14", "delayed")).toBe("2025-03-14");
    expect(pricingDate("2025-03-14", "2025-03-14", "live")).toBe("2025-03-14");
    expect(pricingDate("2025-03-13", "2025-03-14", "close")).toBe("2025-03-13");
    expect(pricingDate("2024-06-01", "2025-03-14", "delayed")).toBe("2024-06-01");
  });
});

describe("seriesDates", () => {
  it("monthly steps keep to month ends (31 January → 29 February → 31 March) and end on the end date", () => {
    expect(seriesDates("2024-01-31", "2024-05-15", "monthly")).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-31",
      "2024-04-30",
      "2024-05-15",
    ]);
  });

  it("weekly steps of seven days", () => {
    expect(seriesDates("2024-01-01", "2024-01-20", "weekly")).toEqual([
      "2024-01-01",
      "2024-01-08",
      "2024-01-15",
      "2024-01-20",
    ]);
  });

  it("daily steps over business days only", () => {
    expect(seriesDates("2024-01-05", "2024-01-09", "daily")).toEqual(["2024-01-05", "2024-01-08", "2024-01-09"]);
  });

  it("quarterly and yearly steps from the start date", () => {
    expect(seriesDates("2023-11-30", "2024-09-01", "quarterly")).toEqual([
      "2023-11-30",
      "2024-02-29",
      "2024-05-30",
      "2024-08-30",
      "2024-09-01",
    ]);
    expect(seriesDates("2020-02-29", "2023-01-01", "yearly")).toEqual([
      "2020-02-29",
      "2021-02-28",
      "2022-02-28",
      "2023-01-01",
    ]);
  });

  it("a step landing on the end date is not repeated; one date, or none when the start is after the end", () => {
    expect(seriesDates("2024-01-15", "2024-03-15", "monthly")).toEqual(["2024-01-15", "2024-02-15", "2024-03-15"]);
    expect(seriesDates("2024-01-15", "2024-01-15", "monthly")).toEqual(["2024-01-15"]);
    expect(seriesDates("2024-01-16", "2024-01-15", "daily")).toEqual([]);
  });
});

describe("transactionValueMinor (decision 207)", () => {
  it("values a transfer as the flows do and anything else at its gross amount, at its date's rate, unsigned", () => {
    const usdIn = tx({
      type: "transfer_in",
      tradeDate: "2024-02-01",
      securityId: USD_CASH,
      currency: "USD",
      quantityMicros: u(1_250),
      netMinor: 125_000,
    });
    const sharesOut = tx({
      type: "transfer_out",
      tradeDate: "2024-03-04",
      securityId: US,
      currency: "USD",
      quantityMicros: u(10),
    });
    const buy = tx({ type: "buy", tradeDate: "2024-03-04", securityId: US, currency: "USD", netMinor: 60_000 });
    const transactions = [usdIn, sharesOut, buy];
    const gbp = { currency: "GBP", pricing: "close" } as const;
    // $1,250 at 1.25 = £1,000; 10 shares at $60 at 1.20 = £500; a $600.01 purchase at 1.20 = £500.01
    expect(transactionValueMinor(book(transactions), { ...usdIn, grossMinor: 125_000 }, gbp)).toBe(100_000);
    expect(transactionValueMinor(book(transactions), { ...sharesOut, grossMinor: 0 }, gbp)).toBe(50_000);
    expect(transactionValueMinor(book(transactions), { ...buy, grossMinor: 60_001 }, gbp)).toBe(50_001);
    // in its own currency, unchanged
    expect(transactionValueMinor(book(transactions), { ...buy, grossMinor: 60_001 }, { ...gbp, currency: "USD" })).toBe(
      60_001,
    );
    // the transfers' values are the flows', to the minor unit
    const flows = externalFlows(book(transactions), "2024-01-01", "2024-12-31", AFTER);
    expect(flows.map((f) => Math.abs(f.minor))).toEqual([100_000, 50_000]);
  });
});

describe("externalFlows", () => {
  it("after fees and taxes: only transfers, after the start up to the end", () => {
    expect(externalFlows(book(), "2024-01-01", "2024-12-31", AFTER)).toEqual([
      { date: "2024-01-02", amount: 1_000, minor: 100_000 },
      { date: "2024-07-01", amount: 500, minor: 50_000 },
    ]);
    // the start day's flows are in the start value; the end day's are in the period
    expect(externalFlows(book(), "2024-01-02", "2024-07-01", AFTER)).toEqual([
      { date: "2024-07-01", amount: 500, minor: 50_000 },
    ]);
  });

  it("before fees and taxes: every transaction's fees and taxes are outflows too", () => {
    const withTaxes = [
      ...TRANSACTIONS,
      tx({
        type: "buy",
        tradeDate: "2024-11-01",
        securityId: SHARE,
        quantityMicros: u(1),
        netMinor: 1_600,
        feeMinor: 50,
        taxMinor: 50,
        cashSecurityId: CASH,
      }),
      tx({
        type: "income",
        tradeDate: "2024-11-04",
        securityId: SHARE,
        netMinor: 850,
        taxMinor: 150,
        cashSecurityId: CASH,
      }),
    ];
    expect(externalFlows(book(withTaxes), "2024-01-01", "2024-12-31", BEFORE)).toEqual([
      { date: "2024-01-02", amount: 1_000, minor: 100_000 },
      { date: "2024-07-01", amount: 500, minor: 50_000 },
      { date: "2024-10-01", amount: -10, minor: -1_000 },
      { date: "2024-11-01", amount: -1, minor: -100 },
      { date: "2024-11-04", amount: -1.5, minor: -150 },
    ]);
  });

  it("values a foreign transfer in the measure's currency at the FX rate of its date, and a transfer out as negative", () => {
    const usd = [
      tx({
        type: "transfer_in",
        tradeDate: "2024-02-01",
        securityId: USD_CASH,
        currency: "USD",
        quantityMicros: u(1_250),
        netMinor: 125_000,
      }),
      tx({ type: "transfer_in", tradeDate: "2024-03-04", securityId: US, currency: "USD", quantityMicros: u(10) }),
      tx({
        type: "transfer_out",
        tradeDate: "2024-04-02",
        securityId: USD_CASH,
        currency: "USD",
        quantityMicros: u(600),
        netMinor: 60_000,
      }),
    ];
    const flows = externalFlows(book(usd), "2024-01-01", "2024-12-31", AFTER);
    expect(flows.map((f) => f.date)).toEqual(["2024-02-01", "2024-03-04", "2024-04-02"]);
    expect(flows[0]?.amount).toBeCloseTo(1_000, 9); // 1,250 USD at 1.25
    expect(flows[1]?.amount).toBeCloseTo((10 * 60) / 1.2, 9); // 10 shares at $60, at 1.20
    expect(flows[2]?.amount).toBeCloseTo(-500, 9); // 600 USD at 1.20
    expect(externalFlows(book(usd), "2024-01-01", "2024-12-31", { ...AFTER, currency: "USD" })[0]?.amount).toBeCloseTo(
      1_250,
      9,
    );
  });
});

describe("valuesOn", () => {
  it("carries positions forward to give what positionsAt and valueAt give for each date, in the order asked", () => {
    const many = [
      ...TRANSACTIONS,
      tx({
        type: "sell",
        tradeDate: "2024-08-01",
        securityId: SHARE,
        quantityMicros: u(40),
        netMinor: 60_000,
        cashSecurityId: CASH,
      }),
      tx({ type: "transfer_in", tradeDate: "2024-03-04", securityId: US, currency: "USD", quantityMicros: u(10) }),
      tx({ type: "transfer_out", tradeDate: "2024-09-02", securityId: CASH, quantityMicros: u(100), netMinor: 10_000 }),
    ];
    const b = book([...many].reverse()); // not in date order
    const dates = ["2024-12-31", "2023-12-29", "2024-03-04", "2024-08-01", "2024-01-02", "2024-09-02", "2024-03-04"];
    const values = valuesOn(b, dates, AFTER);
    dates.forEach((date, i) => {
      const expected = valueAt({ positions: positionsAt(many, date), prices: PRICES, fx: FX, date, currency: "GBP" });
      expect(values[i]?.total, date).toBeCloseTo(expected.reportTotal, 9);
    });
    expect(values[1]?.total).toBe(0);
    expect(valueOn(b, "2024-12-31", AFTER).total).toBeCloseTo(60 * 30 + 490 + 600 + (10 * 60) / 1.2 - 100, 9);
  });

  it("values today at the previous business day's close for close pricing, at today's price otherwise", () => {
    const onTheDay = book(TRANSACTIONS, "2024-07-01");
    // the £500 of the day is counted either way; the share is £10 on Friday 28 June, £15 on the day
    expect(valueOn(onTheDay, "2024-07-01", AFTER).total).toBeCloseTo(100 * 10 + 500, 9);
    expect(valueOn(onTheDay, "2024-07-01", { ...AFTER, pricing: "delayed" }).total).toBeCloseTo(100 * 15 + 500, 9);
    expect(valueOn(onTheDay, "2024-07-01", { ...AFTER, pricing: "live" }).total).toBeCloseTo(100 * 15 + 500, 9);
  });
});

describe("periodPerformance", () => {
  it("one security that doubles, one top-up: value, flows, movement and the chained TWR", () => {
    const p = periodPerformance(book(TRANSACTIONS.slice(0, 3)), "2024-01-02", "2024-12-31", AFTER);
    expect(p.valueFrom).toBeCloseTo(1_000, 9);
    expect(p.valueTo).toBeCloseTo(3_500, 9);
    expect(p.netFlows).toBeCloseTo(500, 9);
    expect(p.movement).toBeCloseTo(3_500 - 1_000 - 500, 9);
    // (2,000 − 500) / 1,000 = 1.5, then 3,500 / 2,000 = 1.75
    expect(p.twr?.period).toBeCloseTo(1.5 * 1.75 - 1, 12);
    expect(p.twr?.annualised).toBeNull();
    expect(p.overAYear).toBe(false);
    expect(p.since).toBe("2024-01-02");
    expect(p.accounts.get(ACCOUNT)?.value).toBeCloseTo(3_500, 9);
  });

  it("the IRR is the rate that discounts the opening value, the flows and the closing value to zero", () => {
    const p = periodPerformance(book(TRANSACTIONS.slice(0, 3)), "2024-01-02", "2024-12-31", AFTER);
    const npv = (rate: number) => -1_000 - 500 / (1 + rate) ** (181 / 365) + 3_500 / (1 + rate) ** (364 / 365); // 2 Jan → 1 Jul → 31 Dec
    let lo = 0;
    let hi = 10;
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (npv(mid) > 0) lo = mid;
      else hi = mid;
    }
    expect(p.irr?.annual).toBeCloseTo(lo, 9);
    expect(p.irr?.period).toBeCloseTo((1 + lo) ** (364 / 365) - 1, 9);
  });

  it("a period starting before the account was funded counts the opening transfer as a flow, and returns from inception", () => {
    const p = periodPerformance(book(TRANSACTIONS.slice(0, 3)), "2023-12-01", "2024-12-31", AFTER);
    expect(p.valueFrom).toBe(0);
    expect(p.netFlows).toBeCloseTo(1_500, 9);
    expect(p.movement).toBeCloseTo(2_000, 9);
    expect(p.twr?.period).toBeCloseTo(1.625, 12);
    expect(p.since).toBe("2024-01-02");
    // from 1 Dec 2023 the period is over a year, but the money was there for less than one
    expect(p.overAYear).toBe(false);
    expect(p.twr?.annualised).toBeNull();
  });

  it("annualises only over a year: (1 + cumulative)^(365/days) − 1", () => {
    const p = periodPerformance(book(TRANSACTIONS.slice(0, 3)), "2024-01-02", "2025-03-13", AFTER);
    expect(p.overAYear).toBe(true);
    const cumulative = 1.5 * (3_500 / 2_000) - 1; // nothing moves after 31 December
    expect(p.twr?.period).toBeCloseTo(cumulative, 12);
    // 2 Jan 2024 → 13 Mar 2025 is 436 days
    expect(p.twr?.annualised).toBeCloseTo((1 + cumulative) ** (365 / 436) - 1, 12);
    expect(p.irr?.period).toBeCloseTo((1 + (p.irr?.annual ?? NaN)) ** (436 / 365) - 1, 12);
  });

  it("after fees the fee lowers the return; before fees it is a withdrawal and does not", () => {
    const after = periodPerformance(book(), "2024-01-02", "2024-12-31", AFTER);
    const before = periodPerformance(book(), "2024-01-02", "2024-12-31", BEFORE);
    expect(after.valueTo).toBeCloseTo(3_490, 9);
    expect(after.twr?.period).toBeCloseTo(1.5 * (3_490 / 2_000) - 1, 12);
    expect(after.movement).toBeCloseTo(3_490 - 1_000 - 500, 9);
    // before: 1 Oct worth 1,990 after a −10 flow is a 0% day; then 3,490 / 1,990
    expect(before.twr?.period).toBeCloseTo(1.5 * ((1_990 + 10) / 2_000) * (3_490 / 1_990) - 1, 12);
    expect(before.movement).toBeCloseTo(3_490 - 1_000 - (500 - 10), 9);
    expect(before.twr?.period ?? 0).toBeGreaterThan(after.twr?.period ?? 0);
    expect((before.irr?.annual ?? 0) > (after.irr?.annual ?? 0)).toBe(true);
  });

  it("has no returns for an empty book or an empty period", () => {
    const empty = periodPerformance(book([]), "2024-01-02", "2024-12-31", AFTER);
    expect(empty).toMatchObject({
      valueFrom: 0,
      valueTo: 0,
      netFlows: 0,
      movement: 0,
      since: null,
      twr: null,
      irr: null,
      overAYear: false,
    });
    const sameDay = periodPerformance(book(), "2024-07-01", "2024-07-01", AFTER);
    expect(sameDay.twr).toBeNull();
    expect(sameDay.valueTo).toBeCloseTo(2_000, 9);
  });
});

describe("timeSeries", () => {
  it("agrees with periodPerformance at every point: value, cumulative TWR from the start, and flows", () => {
    for (const measure of [AFTER, BEFORE]) {
      const points = seriesDates("2023-12-01", "2025-03-13", "monthly");
      const series = timeSeries(book(), points, measure);
      expect(series.map((p) => p.date)).toEqual(points);
      expect(series[0]).toEqual({
        date: "2023-12-01",
        value: 0,
        cumulative: null,
        netFlows: 0,
        valueMinor: 0,
        netFlowsMinor: 0,
      });
      for (const point of series.slice(2)) {
        const p = periodPerformance(book(), "2023-12-01", point.date, measure);
        expect(point.value, point.date).toBeCloseTo(p.valueTo, 9);
        expect(point.cumulative, point.date).toBeCloseTo(p.twr?.period ?? NaN, 12);
        expect(point.netFlows, point.date).toBeCloseTo(p.netFlows, 9);
      }
    }
  });

  it("shows the doubling and the top-up at month ends", () => {
    const series = timeSeries(
      book(TRANSACTIONS.slice(0, 3)),
      ["2024-01-02", "2024-06-28", "2024-07-01", "2024-12-31"],
      AFTER,
    );
    expect(series.map((p) => p.value)).toEqual([1_000, 1_000, 2_000, 3_500]);
    expect(series.map((p) => p.cumulative)).toEqual([0, 0, 0.5, 1.625]);
    expect(series.map((p) => p.netFlows)).toEqual([0, 0, 500, 500]);
    expect(timeSeries(book(), [], AFTER)).toEqual([]);
  });
});
