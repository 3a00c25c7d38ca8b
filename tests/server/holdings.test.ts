import { describe, expect, it } from "vitest";
import {
  assetClassKey,
  assetClassSplit,
  categorise,
  holdingsOn,
  isCashSecurity,
  parcelsAt,
  parseSplit,
  regionalSplit,
  type SecurityFacts,
  weightOf,
  yieldOf,
} from "../../server/domain/holdings";
import { type Book, type LedgerTransaction, valueOn } from "../../server/domain/performance";
import { MICROS, type SecurityPricing } from "../../server/domain/valuation";

// Positions, parcels (FIFO book cost), income and allocation of a small book with known answers.

const u = (units: number) => Math.round(units * MICROS);
const ISA = 1; // a GBP ISA
const GIA = 2; // a USD-plan general account ("Personal" tax structure)
const CASH = 100;
const USD_CASH = 101;
const SHARE = 7; // GBP, 4% yield
const US = 8; // USD, 2% yield

const tx = (
  t: Partial<LedgerTransaction> & Pick<LedgerTransaction, "type" | "tradeDate" | "securityId">,
): LedgerTransaction => ({
  accountId: ISA,
  quantityMicros: 0,
  netMinor: 0,
  cashSecurityId: null,
  currency: "GBP",
  feeMinor: 0,
  taxMinor: 0,
  ...t,
});

// The ISA: £5,000 in; 100 shares for £1,010 (£10 fee) in January, 50 for £760 in March; 120 sold
// in June (FIFO: the whole first parcel and 20 of the second); 10 more come in by transfer in
// September at £16 (net £160). The GIA: $2,000 in, 20 US shares for $1,000.
const TRANSACTIONS: LedgerTransaction[] = [
  tx({ type: "transfer_in", tradeDate: "2024-01-02", securityId: CASH, quantityMicros: u(5_000), netMinor: 500_000 }),
  tx({
    type: "buy",
    tradeDate: "2024-01-03",
    securityId: SHARE,
    quantityMicros: u(100),
    netMinor: 101_000,
    feeMinor: 1_000,
    cashSecurityId: CASH,
  }),
  tx({
    type: "buy",
    tradeDate: "2024-03-01",
    securityId: SHARE,
    quantityMicros: u(50),
    netMinor: 76_000,
    cashSecurityId: CASH,
  }),
  tx({
    type: "sell",
    tradeDate: "2024-06-03",
    securityId: SHARE,
    quantityMicros: u(120),
    netMinor: 168_000,
    cashSecurityId: CASH,
  }),
  tx({ type: "transfer_in", tradeDate: "2024-09-02", securityId: SHARE, quantityMicros: u(10), netMinor: 16_000 }),
  tx({
    accountId: GIA,
    type: "transfer_in",
    tradeDate: "2024-01-02",
    securityId: USD_CASH,
    currency: "USD",
    quantityMicros: u(2_000),
    netMinor: 200_000,
  }),
  tx({
    accountId: GIA,
    type: "buy",
    tradeDate: "2024-01-04",
    securityId: US,
    currency: "USD",
    quantityMicros: u(20),
    netMinor: 100_000,
    cashSecurityId: USD_CASH,
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
        { date: "2024-01-02", micros: u(10) },
        { date: "2024-06-03", micros: u(14) },
        { date: "2025-03-13", micros: u(20) },
      ],
    },
  ],
  [
    US,
    {
      currency: "USD",
      series: [
        { date: "2024-01-02", micros: u(50) },
        { date: "2025-03-13", micros: u(60) },
      ],
    },
  ],
]);
const FX = {
  USD: [
    { date: "2020-01-01", micros: u(1.25) },
    { date: "2025-03-13", micros: u(1.2) },
  ],
};
const TODAY = "2025-03-14";

const book: Book = {
  transactions: TRANSACTIONS,
  prices: PRICES,
  fx: FX,
  planCurrencies: new Map([
    [ISA, "GBP"],
    [GIA, "USD"],
  ]),
  today: TODAY,
};
const FACTS = new Map<number, SecurityFacts>([
  [CASH, { code: "GBPCASH", exchange: "CASH", currency: "GBP", yieldBp: 0 }],
  [USD_CASH, { code: "USDCASH", exchange: "Cash", currency: "USD", yieldBp: 0 }],
  [SHARE, { code: "SHR", exchange: "LSE", currency: "GBP", yieldBp: 400 }],
  [US, { code: "US", exchange: "NYSE", currency: "USD", yieldBp: 200 }],
]);
const TAX = new Map([
  [ISA, "ISA"],
  [GIA, "Personal"],
]);
const currencyOf = (id: number) => PRICES.get(id)?.currency;

describe("cash, yields and weights", () => {
  it("calls a security cash when its code or exchange is 'cash' in any case (spec 001 §5)", () => {
    expect(isCashSecurity("GBPCASH", "CASH")).toBe(true);
    expect(isCashSecurity("cash", "LSE")).toBe(true);
    expect(isCashSecurity("X", "Cash")).toBe(true);
    expect(isCashSecurity("GBPCASH", "LSE")).toBe(false);
  });

  it("takes US withholding off the yield of a personal account only", () => {
    expect(yieldOf(200, "USD", "Personal")).toEqual({ gross: 2, net: 1.7, grossPpm: 20_000, netPpm: 17_000 });
    expect(yieldOf(200, "USD", "ISA")).toEqual({ gross: 2, net: 2, grossPpm: 20_000, netPpm: 20_000 });
    expect(yieldOf(350, "GBP", "Personal")).toEqual({ gross: 3.5, net: 3.5, grossPpm: 35_000, netPpm: 35_000 });
    expect(weightOf(25, 200)).toBe(12.5);
    expect(weightOf(25, 0)).toBe(0);
  });
});

describe("parcels (FIFO)", () => {
  it("takes a sale from the oldest parcel first, with the same share of its cost", () => {
    const lots = parcelsAt(TRANSACTIONS, TODAY, currencyOf).get(`${ISA}:${SHARE}`);
    expect(lots).toEqual([
      { tradeDate: "2024-03-01", quantityMicros: u(30), cost: 456 }, // 30 of 50 for £760
      { tradeDate: "2024-09-02", quantityMicros: u(10), cost: 160 },
    ]);
    // before the sale both purchases are whole
    expect(
      parcelsAt(TRANSACTIONS, "2024-05-31", currencyOf)
        .get(`${ISA}:${SHARE}`)
        ?.map((l) => l.cost),
    ).toEqual([1010, 760]);
    // a holding sold out has no parcels
    const sold = [
      ...TRANSACTIONS,
      tx({
        type: "sell",
        tradeDate: "2024-12-02",
        securityId: SHARE,
        quantityMicros: u(40),
        netMinor: 1,
        cashSecurityId: CASH,
      }),
    ];
    expect(parcelsAt(sold, TODAY, currencyOf).has(`${ISA}:${SHARE}`)).toBe(false);
  });

  it("does not know a cost paid in another currency than the security's", () => {
    const odd = [
      tx({
        type: "buy",
        tradeDate: "2024-01-03",
        securityId: US,
        currency: "GBP",
        quantityMicros: u(5),
        netMinor: 20_000,
        cashSecurityId: CASH,
      }),
    ];
    expect(parcelsAt(odd, TODAY, currencyOf).get(`${ISA}:${US}`)).toEqual([
      { tradeDate: "2024-01-03", quantityMicros: u(5), cost: null },
    ]);
  });
});

describe("holdings on a date", () => {
  const measure = { currency: "GBP", pricing: "close" as const };
  const result = holdingsOn(book, TODAY, measure, FACTS, TAX);
  const line = (accountId: number, securityId: number) =>
    result.holdings.find((h) => h.accountId === accountId && h.securityId === securityId)!;

  it("values every line as valuesOn does, so they add up to the book's value", () => {
    expect(result.pricingDate).toBe("2025-03-13"); // a close is yesterday's
    expect(result.total).toBe(valueOn(book, TODAY, measure).total);
    expect(result.holdings.map((h) => [h.accountId, h.securityId])).toEqual(
      [
        [ISA, SHARE],
        [ISA, CASH],
        [GIA, US],
        [GIA, USD_CASH],
      ].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!),
    );
    const usd = holdingsOn(book, TODAY, { currency: "USD", pricing: "close" }, FACTS, TAX);
    expect(usd.total).toBe(valueOn(book, TODAY, { currency: "USD", pricing: "close" }).total);
  });

  it("gives price, values in three currencies and the rates of the pricing date", () => {
    const us = line(GIA, US);
    expect(us).toMatchObject({
      nativeCurrency: "USD",
      nativePrice: 60,
      priceDate: "2025-03-13",
      nativeValue: 1_200,
      planCurrency: "USD",
      planValue: 1_200,
      fxToPlan: 1,
    });
    expect(us.fxToReport).toBeCloseTo(1 / 1.2, 12);
    expect(us.value).toBeCloseTo(1_000, 9);
    expect(us.cost).toBe(1_000);
    expect(us).toMatchObject({ grossYield: 2, netYield: 1.7, cash: false });
  });

  it("gives the book cost of the parcels still held and each parcel's value", () => {
    const share = line(ISA, SHARE);
    expect(share.quantityMicros).toBe(u(40));
    expect(share.cost).toBe(616);
    expect(share.parcels.map((p) => [p.tradeDate, p.quantityMicros / MICROS, p.cost, p.nativeValue])).toEqual([
      ["2024-03-01", 30, 456, 600],
      ["2024-09-02", 10, 160, 200],
    ]);
    expect(share).toMatchObject({ grossYield: 4, netYield: 4 });
  });

  it("has no parcels or cost on a cash line", () => {
    const cash = line(GIA, USD_CASH);
    expect(cash).toMatchObject({ cash: true, cost: null, parcels: [], nativeValue: 1_000 });
    expect(line(ISA, CASH)).toMatchObject({ cash: true, cost: null, parcels: [] });
  });

  it("holds only what was traded by the date", () => {
    const earlier = holdingsOn(book, "2024-02-01", measure, FACTS, TAX);
    expect(line(ISA, SHARE).quantityMicros).toBe(u(40));
    expect(earlier.holdings.find((h) => h.securityId === SHARE)).toMatchObject({
      quantityMicros: u(100),
      cost: 1_010,
      nativePrice: 10,
      priceDate: "2024-01-02",
    });
    expect(earlier.total).toBe(valueOn(book, "2024-02-01", measure).total);
  });
});

describe("splits and categories", () => {
  it("reads a stored split, else the security's own class or region", () => {
    expect(parseSplit('[{"name":"Equities","weight":60},{"name":"Fixed income","weight":40}]')).toEqual([
      { name: "Equities", weight: 60 },
      { name: "Fixed income", weight: 40 },
    ]);
    for (const bad of [
      null,
      "",
      "nonsense",
      "[]",
      '{"name":"x"}',
      '[{"name":"","weight":1}]',
      '[{"name":"x","weight":-1}]',
      '[{"name":"x","weight":0}]',
    ]) {
      expect(parseSplit(bad), String(bad)).toBeNull();
    }
    expect(assetClassSplit("FIXED", null)).toEqual([{ name: "Fixed income", weight: 100 }]);
    expect(assetClassSplit("MIXED")).toEqual([{ name: "Multi-asset", weight: 100 }]);
    expect(regionalSplit("Europe", "oops")).toEqual([{ name: "Europe", weight: 100 }]);
    expect(assetClassKey("Equities")).toBe("EQUITY");
    expect(assetClassKey("Commodities")).toBe("Commodities");
  });

  it("splits values by normalised weights, largest category first", () => {
    const categories = categorise([
      {
        item: "fund",
        value: 100,
        slices: [
          { key: "EQUITY", name: "Equities", weight: 30 },
          { key: "FIXED", name: "Fixed income", weight: 20 },
        ],
      },
      { item: "share", value: 50, slices: [{ key: "EQUITY", name: "Equities", weight: 100 }] },
      { item: "bond", value: 10, slices: [{ key: "FIXED", name: "Fixed income", weight: 100 }] },
    ]);
    expect(categories.map((c) => [c.key, c.value])).toEqual([
      ["EQUITY", 110],
      ["FIXED", 50],
    ]);
    expect(categories[0]!.members).toEqual([
      { item: "fund", value: 60 },
      { item: "share", value: 50 },
    ]);
    expect(categories[1]!.members).toEqual([
      { item: "fund", value: 40 },
      { item: "bond", value: 10 },
    ]);
  });

  it("shares each value out in whole minor units that add up to it, so categories add up to the total", () => {
    const categories = categorise([
      {
        item: "fund",
        value: 1000,
        slices: [
          { key: "A", name: "A", weight: 1 },
          { key: "B", name: "B", weight: 1 },
          { key: "C", name: "C", weight: 1 },
        ],
      },
      {
        item: "share",
        value: 1,
        slices: [
          { key: "B", name: "B", weight: 50 },
          { key: "C", name: "C", weight: 50 },
        ],
      },
    ]);
    // 1000 in thirds is 334 + 333 + 333 (the earliest part takes the spare unit); 1 in halves is 1 + 0
    expect(categories.map((c) => [c.key, c.value])).toEqual([
      ["A", 334],
      ["B", 334],
      ["C", 333],
    ]);
    expect(categories.find((c) => c.key === "B")!.members).toEqual([
      { item: "fund", value: 333 },
      { item: "share", value: 1 },
    ]);
    expect(categories.reduce((s, c) => s + c.value, 0)).toBe(1001);
    for (const c of categories) expect(c.members.reduce((s, m) => s + m.value, 0)).toBe(c.value);
  });
});
