import { describe, expect, it } from "vitest";
import {
  type BookTransaction,
  businessDays,
  fxOn,
  isBusinessDay,
  MICROS,
  positionsAt,
  priceOn,
  valueAt,
} from "../../server/domain/valuation";

const u = (units: number) => Math.round(units * MICROS); // units → micros
const ACCOUNT = 1;
const CASH = 100;
const SHARE = 7; // a GBP share
const US = 8; // a USD share

// Opening £10,000 transfer; buy 100 at £20 (£2,000 + £10 fee = £2,010 net); sell 40 at £25
// (£1,000 − £10 fee = £990); dividend £30 (no quantity change); transfer in 10 shares in specie.
const book: BookTransaction[] = [
  {
    accountId: ACCOUNT,
    securityId: CASH,
    type: "transfer_in",
    tradeDate: "2024-01-02",
    quantityMicros: u(10_000),
    netMinor: 1_000_000,
  },
  {
    accountId: ACCOUNT,
    securityId: SHARE,
    type: "buy",
    tradeDate: "2024-01-04",
    quantityMicros: u(100),
    netMinor: 201_000,
    cashSecurityId: CASH,
  },
  {
    accountId: ACCOUNT,
    securityId: SHARE,
    type: "sell",
    tradeDate: "2024-03-01",
    quantityMicros: u(40),
    netMinor: 99_000,
    cashSecurityId: CASH,
  },
  {
    accountId: ACCOUNT,
    securityId: SHARE,
    type: "income",
    tradeDate: "2024-03-15",
    quantityMicros: 0,
    netMinor: 3_000,
    cashSecurityId: CASH,
  },
  {
    accountId: ACCOUNT,
    securityId: SHARE,
    type: "transfer_in",
    tradeDate: "2024-04-02",
    quantityMicros: u(10),
    netMinor: 0,
  },
  {
    accountId: ACCOUNT,
    securityId: CASH,
    type: "fee",
    tradeDate: "2024-04-05",
    quantityMicros: 0,
    netMinor: 2_500,
    cashSecurityId: CASH,
  },
];

const qty = (date: string) =>
  Object.fromEntries(positionsAt(book, date).map((p) => [p.securityId, p.quantityMicros / MICROS]));

describe("positionsAt", () => {
  it("counts only what was traded on or before the date", () => {
    expect(positionsAt(book, "2024-01-01")).toEqual([]);
    expect(qty("2024-01-02")).toEqual({ [CASH]: 10_000 });
  });

  it("a buy adds the security and pays its net amount from cash", () => {
    expect(qty("2024-01-04")).toEqual({ [SHARE]: 100, [CASH]: 7_990 });
  });

  it("a partial sell reduces the holding and credits the net proceeds", () => {
    expect(qty("2024-03-01")).toEqual({ [SHARE]: 60, [CASH]: 8_980 });
  });

  it("income changes cash, not the quantity held", () => {
    expect(qty("2024-03-15")).toEqual({ [SHARE]: 60, [CASH]: 9_010 });
  });

  it("a transfer in adds units without touching cash; a fee only takes cash", () => {
    expect(qty("2024-04-02")).toEqual({ [SHARE]: 70, [CASH]: 9_010 });
    expect(qty("2024-04-05")).toEqual({ [SHARE]: 70, [CASH]: 8_985 });
  });

  it("drops lines sold out and keeps accounts apart", () => {
    const two: BookTransaction[] = [
      {
        accountId: 2,
        securityId: SHARE,
        type: "transfer_in",
        tradeDate: "2024-01-02",
        quantityMicros: u(5),
        netMinor: 0,
      },
      {
        accountId: 3,
        securityId: SHARE,
        type: "transfer_in",
        tradeDate: "2024-01-02",
        quantityMicros: u(5),
        netMinor: 0,
      },
      {
        accountId: 2,
        securityId: SHARE,
        type: "transfer_out",
        tradeDate: "2024-01-03",
        quantityMicros: u(5),
        netMinor: 0,
      },
    ];
    expect(positionsAt(two, "2024-01-03")).toEqual([{ accountId: 3, securityId: SHARE, quantityMicros: u(5) }]);
  });
});

// Friday 2024-03-01 and Monday 2024-03-04 only
const shareSeries = [
  { date: "2024-03-01", micros: u(25) },
  { date: "2024-03-04", micros: u(26.5) },
];

describe("priceOn", () => {
  it("takes the day's price, or the last business day's on a weekend", () => {
    expect(priceOn(shareSeries, "2024-03-01")).toBe(u(25));
    expect(priceOn(shareSeries, "2024-03-02")).toBe(u(25)); // Saturday
    expect(priceOn(shareSeries, "2024-03-03")).toBe(u(25)); // Sunday
    expect(priceOn(shareSeries, "2024-03-04")).toBe(u(26.5));
    expect(priceOn(shareSeries, "2024-12-31")).toBe(u(26.5));
  });

  it("has no price before the series starts", () => {
    expect(priceOn(shareSeries, "2024-02-29")).toBeNull();
    expect(priceOn([], "2024-03-01")).toBeNull();
  });

  it("refuses a date that is not YYYY-MM-DD", () => {
    expect(() => priceOn(shareSeries, "1/3/2024")).toThrow(RangeError);
  });
});

describe("business days", () => {
  it("skips Saturdays and Sundays", () => {
    expect(isBusinessDay("2024-03-02")).toBe(false);
    expect(businessDays("2024-02-29", "2024-03-05")).toEqual(["2024-02-29", "2024-03-01", "2024-03-04", "2024-03-05"]);
  });
});

// Units of each currency for one GBP: a year ago 1.25 USD and 1.20 EUR; today 1.30 USD and 1.15 EUR.
const fx = {
  USD: [
    { date: "2024-03-01", micros: u(1.25) },
    { date: "2025-03-03", micros: u(1.3) },
  ],
  EUR: [
    { date: "2024-03-01", micros: u(1.2) },
    { date: "2025-03-03", micros: u(1.15) },
  ],
};

describe("fxOn", () => {
  it("uses the rate of the date asked for, not today's", () => {
    expect(fxOn(fx, "GBP", "USD", "2024-03-02")).toBeCloseTo(1.25, 12);
    expect(fxOn(fx, "USD", "GBP", "2024-03-02")).toBeCloseTo(0.8, 12);
    expect(fxOn(fx, "USD", "GBP", "2025-03-03")).toBeCloseTo(1 / 1.3, 12);
  });

  it("crosses through GBP and is 1 for the same currency", () => {
    expect(fxOn(fx, "EUR", "USD", "2024-03-01")).toBeCloseTo(1.25 / 1.2, 12);
    expect(fxOn(fx, "EUR", "EUR", "2024-03-01")).toBe(1);
  });

  it("refuses a currency without a rate on the date", () => {
    expect(() => fxOn(fx, "GBP", "USD", "2024-01-01")).toThrow(RangeError);
    expect(() => fxOn(fx, "GBP", "JPY", "2024-03-01")).toThrow(RangeError);
  });
});

describe("valueAt", () => {
  const usSeries = [
    { date: "2024-03-01", micros: u(100) },
    { date: "2025-03-03", micros: u(120) },
  ];
  const prices = new Map([
    [SHARE, { currency: "GBP", series: shareSeries }],
    [US, { currency: "USD", series: usSeries }],
    [CASH, { currency: "GBP", series: [{ date: "2024-01-01", micros: MICROS }] }],
  ]);
  const positions = [
    { accountId: 1, securityId: SHARE, quantityMicros: u(60) },
    { accountId: 1, securityId: CASH, quantityMicros: u(8_980) },
    { accountId: 2, securityId: US, quantityMicros: u(10) },
  ];

  it("values a past date with that date's prices and FX, in native, plan and report currency", () => {
    // Saturday 2 March 2024: share £25 (Friday's), US share $100 at 1.25 USD/GBP
    const v = valueAt({
      positions,
      prices,
      fx,
      date: "2024-03-02",
      currency: "GBP",
      planCurrencies: { 1: "GBP", 2: "USD" },
    });
    const us = v.positions.find((p) => p.securityId === US);
    expect(us).toMatchObject({
      nativeCurrency: "USD",
      nativePrice: 100,
      priceDate: "2024-03-01",
      nativeValue: 1_000,
      planCurrency: "USD",
      planValue: 1_000,
    });
    expect(us?.reportValue).toBeCloseTo(800, 9); // $1,000 / 1.25
    expect(v.positions.find((p) => p.securityId === SHARE)?.nativeValue).toBe(1_500);
    expect(v.reportTotal).toBeCloseTo(1_500 + 8_980 + 800, 9);
    expect(v.accounts).toEqual([
      {
        accountId: 1,
        planCurrency: "GBP",
        planValue: 10_480,
        reportValue: 10_480,
        planMinor: 1_048_000,
        reportMinor: 1_048_000,
      },
      {
        accountId: 2,
        planCurrency: "USD",
        planValue: 1_000,
        reportValue: 800,
        planMinor: 100_000,
        reportMinor: 80_000,
      },
    ]);
  });

  it("values today with today's FX, so the same dollars are worth different pounds", () => {
    const v = valueAt({
      positions: [positions[2] as (typeof positions)[number]],
      prices,
      fx,
      date: "2025-03-03",
      currency: "GBP",
    });
    expect(v.positions[0]?.nativeValue).toBe(1_200);
    // $1,200 / 1.3 = £923.0769…, rounded once to the penny (decision 106)
    expect(v.positions[0]?.reportValue).toBe(923.08);
    expect(v.positions[0]?.reportMinor).toBe(92_308);
  });

  it("reports in another currency through GBP cross rates", () => {
    const v = valueAt({
      positions: [positions[2] as (typeof positions)[number]],
      prices,
      fx,
      date: "2024-03-01",
      currency: "EUR",
    });
    expect(v.reportTotal).toBeCloseTo((1_000 / 1.25) * 1.2, 9); // $1,000 → £800 → €960
  });

  it("refuses a security without a price on the date", () => {
    expect(() => valueAt({ positions, prices, fx, date: "2024-02-01", currency: "GBP" })).toThrow(RangeError);
  });
});
