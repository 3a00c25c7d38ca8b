import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { categorise, holdingsOn } from "../../server/domain/holdings";
import {
  apportionMinor,
  convertMinor,
  decimalOf,
  divideRounded,
  divideRoundedBig,
  holdingMinor,
  minorOf,
  shareMinor,
  sumMinor,
  unitsOf,
} from "../../server/domain/money";
import { type Book, type LedgerTransaction, periodPerformance, valuesOn } from "../../server/domain/performance";
import { valueAt } from "../../server/domain/valuation";

// Decision 106: one rounding rule for money. Property tests (fast-check) of the arithmetic against
// an independent reference in BigInt rationals, and of rows against totals.

/** The reference: n / d rounded half away from zero, as the decision states it (d > 0). */
function reference(n: bigint, d: bigint): bigint {
  const magnitude = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
  return n < 0n ? -magnitude : magnitude;
}

const MAX_QUANTITY = 10n ** 15n; // a billion units in micro-units
const quantity = fc.bigInt({ min: -MAX_QUANTITY, max: MAX_QUANTITY }).map(Number);
const price = fc.integer({ min: 1, max: 50_000 * 1_000_000 }); // up to 50,000 a unit
const rate = fc.integer({ min: 1_000, max: 300_000_000 }); // 0.001 to 300 units for one GBP
const minor = fc.integer({ min: -(10 ** 13), max: 10 ** 13 });

describe("the rounding rule", () => {
  it("divides and rounds half away from zero, exactly, for any size", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        (n, d) => {
          expect(divideRoundedBig(n, d)).toBe(reference(n, d));
        },
      ),
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 1, max: 2 ** 31 }), (n, d) => {
        expect(divideRounded(n, d)).toBe(Number(reference(BigInt(n), BigInt(d))));
      }),
    );
    // halves go away from zero, never to even
    expect([
      divideRounded(5, 10),
      divideRounded(-5, 10),
      divideRounded(15, 10),
      divideRounded(25, 10),
      divideRounded(-25, 10),
    ]).toEqual([1, -1, 2, 3, -3]);
    expect(Object.is(divideRounded(-4, 10), 0)).toBe(true); // 0, never −0
  });

  it("values a holding as quantity × price rounded once, past 2^53 as well (the plain-number paths agree with BigInt)", () => {
    fc.assert(
      fc.property(quantity, price, (q, p) => {
        const exact = reference(BigInt(q) * BigInt(p), 10n ** 10n);
        expect(holdingMinor(q, p)).toBe(Number(exact));
      }),
      { numRuns: 2_000 },
    );
    // £100,000 of cash: 10^11 micro-units at 1.000000 is 10^17, beyond 2^53, and still exact
    expect(holdingMinor(100_000 * 1_000_000, 1_000_000)).toBe(10_000_000);
    // a half penny: 1.5 units at 0.003333 is 0.0049995 (down); 0.5 units at 0.01 is 0.005 (up, and −0.005 down)
    expect(holdingMinor(1_500_000, 3_333)).toBe(0);
    expect(holdingMinor(500_000, 10_000)).toBe(1);
    expect(holdingMinor(-500_000, 10_000)).toBe(-1);
    // a tie whose product passes 2^53: (2·10^12 + 1) × 5·10^9 is 10^12 + 0.5 pence, up
    expect(holdingMinor(2 * 10 ** 12 + 1, 5 * 10 ** 9)).toBe(10 ** 12 + 1);
    expect(holdingMinor(-(2 * 10 ** 12 + 1), 5 * 10 ** 9)).toBe(-(10 ** 12 + 1));
  });

  it("converts with the rates of the day, rounding the product once; a currency into itself is the identity", () => {
    fc.assert(
      fc.property(quantity, price, rate, rate, (q, p, from, to) => {
        const exact = reference(BigInt(q) * BigInt(p) * BigInt(to), 10n ** 10n * BigInt(from));
        expect(holdingMinor(q, p, from, to)).toBe(Number(exact));
        // GBP → GBP (or any currency into itself) is the native value, whatever the rate
        expect(holdingMinor(q, p, from, from)).toBe(holdingMinor(q, p));
      }),
      { numRuns: 1_000 },
    );
    // at and next to a half: q × p × to = (k + ½) · 10^10 · from, and one either side
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 5 }),
        rate,
        fc.constantFrom(-1n, 0n, 1n),
        fc.boolean(),
        (k, from, nudge, negative) => {
          const n = (2n * BigInt(k) + 1n) * 5_000_000_000n * BigInt(from) + nudge;
          const q = Number(negative ? -n : n);
          expect(holdingMinor(q, 1, from, 1)).toBe(Number(reference(BigInt(q), 10n ** 10n * BigInt(from))));
        },
      ),
    );
    fc.assert(
      fc.property(minor, rate, rate, (m, from, to) => {
        expect(convertMinor(m, from, from)).toBe(m);
        expect(convertMinor(m, from, to)).toBe(Number(reference(BigInt(m) * BigInt(to), BigInt(from))));
        // converting is symmetric in sign: half away from zero
        expect(convertMinor(-m, from, to)).toBe(-convertMinor(m, from, to) + 0);
      }),
    );
  });

  it("takes shares (costs of units still held, incomes at a yield) rounded once", () => {
    fc.assert(
      fc.property(minor, fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 9 }), (m, num, den) => {
        expect(shareMinor(m, num, den)).toBe(Number(reference(BigInt(m) * BigInt(num), BigInt(den))));
      }),
    );
  });

  it("writes minor units as exact two-decimal amounts and reads them back", () => {
    fc.assert(
      fc.property(minor, (m) => {
        const text = decimalOf(m);
        expect(text).toMatch(/^-?\d+\.\d{2}$/);
        expect(Math.round(Number(text) * 100)).toBe(m);
        expect(minorOf(unitsOf(m))).toBe(m);
      }),
    );
    expect([decimalOf(0), decimalOf(5), decimalOf(-5), decimalOf(-12_345), decimalOf(100)]).toEqual([
      "0.00",
      "0.05",
      "-0.05",
      "-123.45",
      "1.00",
    ]);
  });

  it("shares a total out over parts that add up to it exactly, each within a minor unit of its exact share", () => {
    fc.assert(
      fc.property(
        minor,
        fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const shares = apportionMinor(total, weights);
          expect(shares).toHaveLength(weights.length);
          expect(sumMinor(shares)).toBe(total);
          const sum = weights.reduce((s, w) => s + w, 0);
          if (sum > 0)
            for (const [i, share] of shares.entries())
              expect(Math.abs(share - (total * weights[i]!) / sum)).toBeLessThan(1 + 1e-6);
        },
      ),
    );
  });

  it("groups values into categories whose members add up to them, and which add up to the whole", () => {
    const slices = fc.array(
      fc.record({ key: fc.constantFrom("A", "B", "C", "D"), weight: fc.integer({ min: 0, max: 100 }) }),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ value: fc.integer({ min: 0, max: 10 ** 10 }), slices }), { maxLength: 15 }),
        (items) => {
          const unique = items.map((item, i) => ({
            item: i,
            value: item.value,
            slices: [...new Map(item.slices.map((s) => [s.key, { ...s, name: s.key }])).values()],
          }));
          const categories = categorise(unique);
          const counted = unique.filter((u) => u.slices.some((s) => s.weight > 0));
          expect(sumMinor(categories.map((c) => c.value))).toBe(sumMinor(counted.map((u) => u.value)));
          for (const c of categories) expect(sumMinor(c.members.map((m) => m.value))).toBe(c.value);
        },
      ),
    );
  });
});

// ── rows against totals on random books ────────────────────────────────────────────────────────

const DATES = ["2024-01-02", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"];
const TODAY = "2024-06-03";
const CURRENCIES = ["GBP", "USD", "EUR"] as const;
// books of real sizes (sums past 2^53 minor units are refused rather than rounded): 0.2 to 5 a pound
const bookRate = fc.integer({ min: 200_000, max: 5_000_000 });

const bookArbitrary = fc
  .record({
    securities: fc.array(
      fc.record({
        currency: fc.constantFrom(...CURRENCIES),
        prices: fc.array(price, { minLength: DATES.length, maxLength: DATES.length }),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    rates: fc.record({
      USD: fc.array(bookRate, { minLength: DATES.length, maxLength: DATES.length }),
      EUR: fc.array(bookRate, { minLength: DATES.length, maxLength: DATES.length }),
    }),
    accounts: fc.array(fc.constantFrom(...CURRENCIES), { minLength: 1, maxLength: 3 }),
    trades: fc.array(
      fc.record({
        account: fc.nat(),
        security: fc.nat(),
        date: fc.constantFrom(...DATES),
        units: fc.integer({ min: 1, max: 10 ** 12 }),
        type: fc.constantFrom("buy", "transfer_in", "transfer_out", "fee"),
      }),
      { minLength: 1, maxLength: 25 },
    ),
  })
  .map(({ securities, rates, accounts, trades }) => {
    const prices = new Map(
      securities.map((s, i) => [
        i + 1,
        { currency: s.currency, series: DATES.map((date, d) => ({ date, micros: s.prices[d]! })) },
      ]),
    );
    const fx = {
      USD: DATES.map((date, d) => ({ date, micros: rates.USD[d]! })),
      EUR: DATES.map((date, d) => ({ date, micros: rates.EUR[d]! })),
    };
    const planCurrencies = new Map(accounts.map((c, i) => [i + 1, c]));
    const transactions: LedgerTransaction[] = trades
      .map((t) => {
        const accountId = (t.account % accounts.length) + 1;
        const securityId = (t.security % securities.length) + 1;
        const currency = securities[securityId - 1]!.currency;
        return {
          accountId,
          securityId,
          type: t.type as LedgerTransaction["type"],
          tradeDate: t.date,
          quantityMicros: t.units,
          netMinor: 0,
          cashSecurityId: null,
          currency,
          feeMinor: t.type === "fee" ? t.units % 100_000 : 0,
          taxMinor: 0,
        };
      })
      .sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
    return { transactions, prices, fx, planCurrencies, today: TODAY } satisfies Book;
  });

describe("rows against totals", () => {
  it("values every account as the exact sum of its holdings' rounded values, and the total as the sum of the accounts", () => {
    fc.assert(
      fc.property(bookArbitrary, fc.constantFrom(...CURRENCIES), fc.constantFrom(...DATES), (book, currency, date) => {
        const measure = { currency, pricing: "close" as const };
        const [value] = valuesOn(book, [date], measure);
        const held = holdingsOn(book, date, measure, new Map(), new Map());
        // the performance calls and the position call: the same rows, the same total
        expect(value!.totalMinor).toBe(held.totalMinor);
        expect(value!.totalMinor).toBe(sumMinor([...value!.accounts.values()].map((a) => a.valueMinor)));
        for (const [accountId, account] of value!.accounts) {
          const mine = held.holdings.filter((h) => h.accountId === accountId);
          expect(account.valueMinor).toBe(sumMinor(mine.map((h) => h.valueMinor)));
          expect(account.planMinor).toBe(sumMinor(mine.map((h) => h.planMinor)));
          expect(account.value).toBe(unitsOf(account.valueMinor));
        }
        for (const h of held.holdings) {
          expect(h.valueMinor).toBe(
            holdingMinor(
              h.quantityMicros,
              Math.round(h.nativePrice * 1_000_000),
              ...ratesOf(book, h.nativeCurrency, currency, date),
            ),
          );
          if (h.nativeCurrency === currency) expect(h.valueMinor).toBe(h.nativeMinor);
        }
        // valueAt, the plain valuation of a date, agrees
        const positions = held.holdings.map((h) => ({
          accountId: h.accountId,
          securityId: h.securityId,
          quantityMicros: h.quantityMicros,
        }));
        const plain = valueAt({
          positions,
          prices: book.prices,
          fx: book.fx,
          date,
          currency,
          planCurrencies: book.planCurrencies,
        });
        expect(plain.reportTotalMinor).toBe(held.totalMinor);
        expect(plain.accounts.map((a) => a.planMinor)).toEqual(
          [...value!.accounts.entries()].sort((a, b) => a[0] - b[0]).map(([, a]) => a.planMinor),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("measures movement as value to − value from − net flows exactly, each flow rounded once", () => {
    fc.assert(
      fc.property(
        bookArbitrary,
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom("after" as const, "before" as const),
        (book, currency, basis) => {
          const p = periodPerformance(book, DATES[0]!, DATES.at(-1)!, { currency, pricing: "close", basis });
          expect(p.minor.movement).toBe(p.minor.valueTo - p.minor.valueFrom - p.minor.netFlows);
          expect([p.valueFrom, p.valueTo, p.netFlows, p.movement]).toEqual(
            [p.minor.valueFrom, p.minor.valueTo, p.minor.netFlows, p.minor.movement].map(unitsOf),
          );
          expect(Number.isSafeInteger(p.minor.netFlows)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The rates per GBP (micros) of two currencies on a date, from the book's series. */
function ratesOf(book: Book, from: string, to: string, date: string): [number, number] {
  const on = (c: string) =>
    c === "GBP" ? 1_000_000 : ((book.fx[c] ?? []).filter((p) => p.date <= date).at(-1)?.micros as number);
  return [on(from), on(to)];
}
