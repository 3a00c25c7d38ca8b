import { describe, expect, it } from "vitest";
import {
  annualise,
  chainReturns,
  isOverAYear,
  modifiedDietz,
  twr,
  xirr,
  xnpv,
  type CashFlow,
} from "../../server/domain/returns";

// Published figures (docs/decisions/070-returns-engine.md):
// - Microsoft Excel's XIRR and XNPV help pages share one example; XIRR = 0.373362535, XNPV at 9% = 2086.65.
// - The GIPS/CFA time-weighted example: 100 → 112 before a 20 inflow (132 after) → 145.2; 12% and 10%,
//   TWR 23.2%.
// - Wikipedia "Modified Dietz method": 100 at the start of year 1, 50 in at the end of year 1, 300 at the
//   end of year 2 → Modified Dietz 120%, IRR 50% a year.

const EXCEL_EXAMPLE: CashFlow[] = [
  { date: "2008-01-01", amount: -10000 },
  { date: "2008-03-01", amount: 2750 },
  { date: "2008-10-30", amount: 4250 },
  { date: "2009-02-15", amount: 3250 },
  { date: "2009-04-01", amount: 2750 },
];

/** A plain Newton–Raphson from 0.1 (what a naive XIRR does): the rate, or NaN when it breaks down. */
function naiveNewton(flows: CashFlow[], guess = 0.1): number {
  const t0 = Math.min(...flows.map((f) => Date.parse(f.date)));
  const timed = flows.map((f) => ({ t: (Date.parse(f.date) - t0) / 86_400_000 / 365, a: f.amount }));
  let rate = guess;
  for (let i = 0; i < 100; i++) {
    const npv = timed.reduce((s, f) => s + f.a * Math.pow(1 + rate, -f.t), 0);
    const slope = timed.reduce((s, f) => s - f.t * f.a * Math.pow(1 + rate, -f.t - 1), 0);
    const next = rate - npv / slope;
    if (!Number.isFinite(next)) return NaN;
    if (Math.abs(next - rate) <= 1e-12 * Math.max(1, Math.abs(rate))) return next;
    rate = next;
  }
  return NaN;
}

describe("xirr and xnpv", () => {
  it("matches Excel's documented XIRR example (0.373362535) and XNPV example (2086.65 at 9%)", () => {
    expect(xirr(EXCEL_EXAMPLE)).toBeCloseTo(0.373362535, 8);
    expect(xnpv(0.09, EXCEL_EXAMPLE)).toBeCloseTo(2086.65, 2);
    expect(xnpv(xirr(EXCEL_EXAMPLE), EXCEL_EXAMPLE)).toBeCloseTo(0, 6);
  });

  it("counts actual days over 365: a leap year (366 days) earning 10% is 9.9715% a year", () => {
    const rate = xirr([
      { date: "2020-01-01", amount: -1000 },
      { date: "2021-01-01", amount: 1100 },
    ]);
    expect(rate).toBeCloseTo(0.09971, 5);
    expect(rate).toBeCloseTo(Math.pow(1.1, 365 / 366) - 1, 12);
    // Over a 365-day year it is exactly 10%.
    expect(
      xirr([
        { date: "2021-01-01", amount: -1000 },
        { date: "2022-01-01", amount: 1100 },
      ]),
    ).toBeCloseTo(0.1, 12);
  });

  it("gives the IRR of Wikipedia's Modified Dietz example: 50% a year", () => {
    const flows = [
      { date: "2021-01-01", amount: -100 },
      { date: "2022-01-01", amount: -50 },
      { date: "2023-01-01", amount: 300 },
    ];
    expect(xirr(flows)).toBeCloseTo(0.5, 10);
  });

  it("converges near −100% where plain Newton from 0.1 leaves the domain", () => {
    // 1000 in, 10 back a (leap) year later: −98.99% a year.
    const flows = [
      { date: "2020-01-01", amount: -1000 },
      { date: "2021-01-01", amount: 10 },
    ];
    // Newton's first step from 0.1 lands at about −119.5, below −1, where (1 + r)^(−t) is NaN.
    expect(naiveNewton(flows)).toBeNaN();
    const rate = xirr(flows);
    expect(rate).toBeCloseTo(Math.pow(0.01, 365 / 366) - 1, 12);
    expect(rate).toBeCloseTo(-0.98987, 5);
    expect(xnpv(rate, flows)).toBeCloseTo(0, 9);
  });

  it("converges from a poor guess where plain Newton diverges (10% from a guess of 500%)", () => {
    const flows = [
      { date: "2021-01-01", amount: -1000 },
      { date: "2022-01-01", amount: 1100 },
    ];
    expect(naiveNewton(flows, 5)).toBeNaN(); // 6 → 2·6 − 6²/1.1 < 0: out of the domain
    expect(xirr(flows, { guess: 5 })).toBeCloseTo(0.1, 12);
  });

  it("finds rates above 10 (1000%+) by Newton and, from a poor guess, by the bracketing fallback", () => {
    // 30% in 10 days: 1.3^36.5 − 1 ≈ 14417.9 (1,441,790% a year).
    const flows = [
      { date: "2024-01-01", amount: -100 },
      { date: "2024-01-11", amount: 130 },
    ];
    const exact = Math.pow(1.3, 36.5) - 1;
    expect(xirr(flows) / exact).toBeCloseTo(1, 12);
    expect(naiveNewton(flows, 1e6)).toBeNaN();
    expect(xirr(flows, { guess: 1e6 }) / exact).toBeCloseTo(1, 12);
    // 10% in one day: 1.1^365 − 1 ≈ 1.28e15.
    const oneDay = xirr([
      { date: "2024-01-01", amount: -100 },
      { date: "2024-01-02", amount: 110 },
    ]);
    expect(oneDay / (Math.pow(1.1, 365) - 1)).toBeCloseTo(1, 9);
  });

  it("does not need the flows in date order", () => {
    const shuffled = [
      EXCEL_EXAMPLE[3],
      EXCEL_EXAMPLE[0],
      EXCEL_EXAMPLE[4],
      EXCEL_EXAMPLE[2],
      EXCEL_EXAMPLE[1],
    ] as CashFlow[];
    expect(xirr(shuffled)).toBeCloseTo(0.373362535, 8);
    expect(xnpv(0.09, shuffled)).toBeCloseTo(2086.65, 2);
  });

  it("gives the same rate with the signs reversed and with several flows on one date", () => {
    const reversed = EXCEL_EXAMPLE.map((f) => ({ ...f, amount: -f.amount }));
    expect(xirr(reversed)).toBeCloseTo(0.373362535, 8);
    const split = [
      ...EXCEL_EXAMPLE.slice(1),
      { date: "2008-01-01", amount: -4000 },
      { date: "2008-01-01", amount: -6000 },
    ];
    expect(xirr(split)).toBeCloseTo(0.373362535, 8);
  });

  it("throws a RangeError when all flows have the same sign", () => {
    const allIn = [
      { date: "2020-01-01", amount: -1000 },
      { date: "2021-01-01", amount: -100 },
    ];
    expect(() => xirr(allIn)).toThrow(RangeError);
    expect(() => xirr(allIn)).toThrow(/at least one negative and one positive/);
    expect(() => xirr(EXCEL_EXAMPLE.map((f) => ({ ...f, amount: Math.abs(f.amount) })))).toThrow(RangeError);
    expect(() =>
      xirr([
        { date: "2020-01-01", amount: -1 },
        { date: "2020-06-01", amount: 0 },
      ]),
    ).toThrow(RangeError);
    expect(() => xirr([])).toThrow(RangeError);
  });

  it("throws a RangeError when the flows change sign but no rate solves them", () => {
    // −100, +50, −100 a year apart: −100 + 50v − 100v² < 0 for every v = 1/(1+r) > 0.
    const flows = [
      { date: "2021-01-01", amount: -100 },
      { date: "2022-01-01", amount: 50 },
      { date: "2023-01-01", amount: -100 },
    ];
    expect(() => xirr(flows)).toThrow(RangeError);
    expect(() => xirr(flows)).toThrow(/no solution/);
  });

  it("refuses dates that are not calendar dates and non-finite amounts", () => {
    expect(() =>
      xirr([
        { date: "2021-02-29", amount: -1 },
        { date: "2022-01-01", amount: 2 },
      ]),
    ).toThrow(/2021-02-29/);
    expect(() =>
      xirr([
        { date: "1/1/2021", amount: -1 },
        { date: "2022-01-01", amount: 2 },
      ]),
    ).toThrow(RangeError);
    expect(() =>
      xirr([
        { date: "2021-01-01", amount: NaN },
        { date: "2022-01-01", amount: 2 },
      ]),
    ).toThrow(RangeError);
    expect(() => xnpv(-1, EXCEL_EXAMPLE)).toThrow(RangeError);
  });
});

describe("chainReturns and annualise", () => {
  it("chains geometrically: 12% then 10% is 23.2%; empty is 0", () => {
    expect(chainReturns([0.12, 0.1])).toBeCloseTo(0.232, 12);
    expect(chainReturns([])).toBe(0);
    expect(chainReturns([0.05])).toBeCloseTo(0.05, 15);
    expect(chainReturns([0.5, -1, 0.3])).toBe(-1);
  });

  it("is associative and order-free (the chaining identity)", () => {
    const r = [0.031, -0.0125, 0.07, 0.0004, -0.2];
    const whole = chainReturns(r);
    expect(chainReturns([chainReturns(r.slice(0, 2)), chainReturns(r.slice(2))])).toBeCloseTo(whole, 14);
    expect(chainReturns([...r].reverse())).toBeCloseTo(whole, 14);
    // ln(1 + TWR) = Σ ln(1 + rᵢ)
    expect(Math.log1p(whole)).toBeCloseTo(
      r.reduce((s, x) => s + Math.log1p(x), 0),
      14,
    );
  });

  it("annualises with actual/365: 21% over two 365-day years is 10% a year", () => {
    expect(annualise(0.21, 730)).toBeCloseTo(0.1, 12);
    expect(annualise(0.1, 365)).toBeCloseTo(0.1, 15);
    expect(annualise(0.21, 731)).toBeCloseTo(Math.pow(1.21, 365 / 731) - 1, 15); // with a 29 February
    expect(annualise(-1, 400)).toBe(-1);
  });

  it("refuses a period without days and returns below −100%", () => {
    expect(() => annualise(0.1, 0)).toThrow(RangeError);
    expect(() => annualise(-1.5, 365)).toThrow(RangeError);
    expect(() => chainReturns([0.1, -1.2])).toThrow(RangeError);
    expect(() => chainReturns([Number.NaN])).toThrow(RangeError);
  });

  it("calls a period over a year only when it ends after the anniversary of its start", () => {
    expect(isOverAYear("2024-01-01", "2025-01-01")).toBe(false); // exactly a (leap) year, 366 days
    expect(isOverAYear("2023-01-01", "2024-01-01")).toBe(false);
    expect(isOverAYear("2023-01-01", "2024-01-02")).toBe(true);
    expect(isOverAYear("2024-02-29", "2025-02-28")).toBe(false);
    expect(isOverAYear("2024-02-29", "2025-03-01")).toBe(true);
    expect(isOverAYear("2024-06-30", "2024-12-31")).toBe(false);
  });
});

describe("twr (GIPS time-weighted return, flows at the end of the day)", () => {
  const TEXTBOOK = {
    valuations: [
      { date: "2023-01-01", value: 100 },
      { date: "2023-07-01", value: 132 }, // 112 before the inflow of 20
      { date: "2024-01-01", value: 145.2 },
    ],
    flows: [{ date: "2023-07-01", amount: 20 }],
  };

  it("gives the textbook 23.2% (12% then 10%) over one mid-period inflow", () => {
    const result = twr(TEXTBOOK.valuations, TEXTBOOK.flows);
    expect(result.cumulative).toBeCloseTo(0.232, 12);
    expect(result.days).toBe(365);
    expect(result.annualised).toBeNull(); // exactly one year: cumulative only
  });

  it("equals the simple return when there are no flows, whatever the intermediate valuations", () => {
    const simple = twr([
      { date: "2024-03-31", value: 250_000 },
      { date: "2024-09-30", value: 263_750 },
    ]);
    expect(simple).toEqual({ cumulative: expect.closeTo(0.055, 12), annualised: null, days: 183 });
    const monthly = twr([
      { date: "2024-03-31", value: 250_000 },
      { date: "2024-04-30", value: 240_000 },
      { date: "2024-06-30", value: 271_000 },
      { date: "2024-09-30", value: 263_750 },
    ]);
    expect(monthly.cumulative).toBeCloseTo(0.055, 12);
  });

  it("shows the annualised figure for a period over a year: 21% over two years is 10% a year", () => {
    const result = twr(
      [
        { date: "2021-01-01", value: 1000 },
        { date: "2022-01-01", value: 1600 }, // 1100 before an inflow of 500
        { date: "2023-01-01", value: 1760 },
      ],
      [{ date: "2022-01-01", amount: 500 }],
    );
    expect(result.cumulative).toBeCloseTo(0.21, 12);
    expect(result.days).toBe(730);
    expect(result.annualised).not.toBeNull();
    expect(result.annualised as number).toBeCloseTo(0.1, 12);
  });

  it("is unaffected by the size of a flow, while the money-weighted return (xirr) is", () => {
    // Both portfolios earn 12% in the first half and 10% in the second; B adds 1000 instead of 20.
    const a = TEXTBOOK;
    const b = {
      valuations: [
        { date: "2023-01-01", value: 100 },
        { date: "2023-07-01", value: 1112 }, // 112 + 1000
        { date: "2024-01-01", value: 1223.2 }, // 1112 × 1.1
      ],
      flows: [{ date: "2023-07-01", amount: 1000 }],
    };
    expect(twr(b.valuations, b.flows).cumulative).toBeCloseTo(twr(a.valuations, a.flows).cumulative, 12);
    expect(twr(b.valuations, b.flows).cumulative).toBeCloseTo(0.232, 12);

    // Investor's view: money in is negative, the closing value is received.
    const irr = (p: typeof a) =>
      xirr([
        { date: p.valuations[0]!.date, amount: -p.valuations[0]!.value },
        ...p.flows.map((f) => ({ date: f.date, amount: -f.amount })),
        { date: p.valuations[2]!.date, amount: p.valuations[2]!.value },
      ]);
    const irrA = irr(a);
    const irrB = irr(b);
    // A's flow is small, so its IRR stays near the TWR (23.2% over 365 days). B has nearly all its money
    // in the weaker second half, so its IRR is pulled towards that half's 10% in 184 days (20.8% a year).
    const firstHalf = Math.pow(1.12, 365 / 181) - 1; // 25.7% a year
    const secondHalf = Math.pow(1.1, 365 / 184) - 1; // 20.8% a year
    expect(Math.abs(irrA - 0.232)).toBeLessThan(0.005);
    expect(irrA - irrB).toBeGreaterThan(0.015);
    expect(irrB).toBeGreaterThan(secondHalf);
    expect(irrB).toBeLessThan(firstHalf);
    expect(irrB - secondHalf).toBeLessThan(irrA - secondHalf);
  });

  it("handles withdrawals and several flows on a day", () => {
    // 1000 → 1050 (+5%), then 300 out (750 after); → 780 (+4%) with two flows on the day netting −300.
    const result = twr(
      [
        { date: "2024-01-01", value: 1000 },
        { date: "2024-02-01", value: 750 },
        { date: "2024-03-01", value: 780 },
      ],
      [
        { date: "2024-02-01", amount: -500 },
        { date: "2024-02-01", amount: 200 },
      ],
    );
    expect(result.cumulative).toBeCloseTo(1.05 * 1.04 - 1, 12);
  });

  it("accepts unsorted valuations and flows", () => {
    const result = twr([...TEXTBOOK.valuations].reverse(), TEXTBOOK.flows);
    expect(result.cumulative).toBeCloseTo(0.232, 12);
  });

  it("starts a portfolio opened by its first inflow at that inflow", () => {
    // Opened on 2024-01-02 with 1000 (the flow is in the opening value); a zero valuation before it
    // is dropped, and the days count from the opening.
    const opened = twr(
      [
        { date: "2024-01-01", value: 0 },
        { date: "2024-01-02", value: 1000 },
        { date: "2024-07-02", value: 1080 },
      ],
      [{ date: "2024-01-02", amount: 1000 }],
    );
    expect(opened).toEqual({ cumulative: expect.closeTo(0.08, 12), annualised: null, days: 182 });
    const withoutZero = twr(
      [
        { date: "2024-01-02", value: 1000 },
        { date: "2024-07-02", value: 1080 },
      ],
      [{ date: "2024-01-02", amount: 1000 }],
    );
    expect(withoutZero).toEqual(opened);
  });

  it("counts a sub-period that starts empty (fully withdrawn, then refunded) as 0%", () => {
    const result = twr(
      [
        { date: "2024-01-01", value: 1000 },
        { date: "2024-02-01", value: 0 }, // 1100 (+10%), all withdrawn
        { date: "2024-03-01", value: 500 }, // 500 paid in again
        { date: "2024-04-01", value: 550 }, // +10%
      ],
      [
        { date: "2024-02-01", amount: -1100 },
        { date: "2024-03-01", amount: 500 },
      ],
    );
    expect(result.cumulative).toBeCloseTo(1.1 * 1.1 - 1, 12);
    expect(result.days).toBe(91);
  });

  it("requires a valuation on every cash flow date", () => {
    expect(() =>
      twr(
        [
          { date: "2023-01-01", value: 100 },
          { date: "2024-01-01", value: 145.2 },
        ],
        [{ date: "2023-07-01", amount: 20 }],
      ),
    ).toThrow(/revalued on every cash flow date: there is no valuation on 2023-07-01/);
  });

  it("refuses inconsistent or insufficient data", () => {
    const v = TEXTBOOK.valuations;
    expect(() => twr([v[0]!])).toThrow(/at least two valuations/);
    expect(() => twr(v, [{ date: "2022-12-31", amount: 5 }])).toThrow(/outside the period/);
    expect(() => twr([...v, { date: "2023-07-01", value: 1 }])).toThrow(/two valuations on 2023-07-01/);
    expect(() => twr([{ date: "2023-01-01", value: -5 }, v[2]!])).toThrow(/negative/);
    expect(() => twr(v, [{ date: "2023-07-01", amount: 200 }])).toThrow(/value before the cash flow would be negative/);
    expect(() =>
      twr([
        { date: "2023-01-01", value: 0 },
        { date: "2024-01-01", value: 0 },
      ]),
    ).toThrow(/no value/);
    // Emptied by a withdrawal, then worth 50 with no money paid in.
    expect(() =>
      twr(
        [
          { date: "2023-01-01", value: 100 },
          { date: "2023-07-01", value: 0 },
          { date: "2024-01-01", value: 50 },
        ],
        [{ date: "2023-07-01", amount: -100 }],
      ),
    ).toThrow(/empty on 2023-07-01 but worth 50/);
    // A flow on a day the (not yet opened) portfolio is worth nothing.
    expect(() =>
      twr(
        [
          { date: "2023-01-01", value: 0 },
          { date: "2024-01-01", value: 600 },
        ],
        [{ date: "2023-01-01", amount: 500 }],
      ),
    ).toThrow(/worth nothing on 2023-01-01 but has a cash flow of 500/);
    // A total loss is a return, not an error.
    expect(
      twr([
        { date: "2023-01-01", value: 5 },
        { date: "2024-01-01", value: 0 },
      ]).cumulative,
    ).toBe(-1);
  });
});

describe("modifiedDietz (approximation)", () => {
  it("gives Wikipedia's 120% (gain 150 over average capital 125)", () => {
    const r = modifiedDietz({ date: "2021-01-01", value: 100 }, { date: "2023-01-01", value: 300 }, [
      { date: "2022-01-01", amount: 50 },
    ]);
    expect(r).toBeCloseTo(1.2, 12);
    // The exact money-weighted holding-period return is 125% (50% a year): Dietz is an approximation.
    const irr = xirr([
      { date: "2021-01-01", amount: -100 },
      { date: "2022-01-01", amount: -50 },
      { date: "2023-01-01", amount: 300 },
    ]);
    expect(annualiseBack(irr, 730)).toBeCloseTo(1.25, 10);
  });

  it("equals the simple return without flows and approximates the textbook TWR with one", () => {
    expect(modifiedDietz({ date: "2024-01-01", value: 200 }, { date: "2024-04-01", value: 210 })).toBeCloseTo(0.05, 12);
    const r = modifiedDietz({ date: "2023-01-01", value: 100 }, { date: "2024-01-01", value: 145.2 }, [
      { date: "2023-07-01", amount: 20 },
    ]);
    // (145.2 − 100 − 20) / (100 + 20 × 184/365) = 25.2 / 110.08…
    expect(r).toBeCloseTo(25.2 / (100 + (20 * 184) / 365), 12);
    expect(r).toBeCloseTo(0.2289, 4);
    expect(Math.abs(r - 0.232)).toBeLessThan(0.005);
  });

  it("refuses flows outside the period and an empty period", () => {
    const s = { date: "2024-01-01", value: 100 };
    expect(() => modifiedDietz(s, { date: "2024-01-01", value: 100 })).toThrow(RangeError);
    expect(() => modifiedDietz(s, { date: "2024-02-01", value: 100 }, [{ date: "2024-03-01", amount: 1 }])).toThrow(
      /outside/,
    );
    expect(() => modifiedDietz({ date: "2024-01-01", value: 0 }, { date: "2024-02-01", value: 0 })).toThrow(
      /average capital/,
    );
  });
});

/** The holding-period return of an annual rate over `days` (the inverse of annualise). */
function annualiseBack(rate: number, days: number): number {
  return Math.pow(1 + rate, days / 365) - 1;
}
