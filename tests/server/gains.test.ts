import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  annualExemptAmount,
  type Deal,
  matchHolding,
  taxYearDates,
  taxYearLabel,
  thirtyDaysAfter,
  ukTaxYearOf,
  yearTotals,
} from "../../server/domain/gains";

// Decision 201: the UK share-matching rules. HMRC's own worked examples first, then the order of the
// rules on cases built for each branch, then properties (fast-check) of any history.

const UNIT = 1_000_000; // micro-units of quantity
const pounds = (p: number) => Math.round(p * 100);
let nextId = 1;
const buy = (date: string, units: number, costPounds: number): Deal => ({
  id: nextId++,
  date,
  kind: "acquisition",
  quantityMicros: units * UNIT,
  amountMinor: pounds(costPounds),
});
const sell = (date: string, units: number, proceedsPounds: number): Deal => ({
  id: nextId++,
  date,
  kind: "disposal",
  quantityMicros: units * UNIT,
  amountMinor: pounds(proceedsPounds),
});
const parts = (m: ReturnType<typeof matchHolding>, date: string) =>
  m.disposals
    .find((d) => d.date === date)
    ?.matches.map((x) => ({
      rule: x.rule,
      units: x.quantityMicros / UNIT,
      proceeds: x.proceedsMinor / 100,
      cost: x.allowableCostMinor / 100,
      gain: x.gainMinor / 100,
    }));

describe("HMRC's worked examples (helpsheet HS284, Shares and Capital Gains Tax)", () => {
  // Source: HMRC, HS284 Shares and Capital Gains Tax, Example 2 (Mr Schneider, "bed and
  // breakfasting"), https://www.gov.uk/government/publications/shares-and-capital-gains-tax-hs284-self-assessment-helpsheet
  // Mr Schneider holds 9,500 Mesopotamia plc shares in a Section 104 holding. On 30 August he sells
  // 4,000 shares for £6,000; on 11 September, 12 days later, he buys 500 shares for £850. The 500
  // shares are identified with the 500 bought within 30 days: proceeds 500/4,000 × £6,000 = £750,
  // cost £850, a loss of £100; the remaining 3,500 shares come from the Section 104 holding.
  // (The holding's cost is not part of what this test checks: £9,500 here, to have one.)
  it("Example 2: a sale matched first with shares bought in the following 30 days, the rest from the pool", () => {
    const m = matchHolding([
      buy("2020-01-01", 9_500, 9_500),
      sell("2025-08-30", 4_000, 6_000),
      buy("2025-09-11", 500, 850),
    ]);
    const [thirtyDay, pool] = parts(m, "2025-08-30") ?? [];
    expect(thirtyDay).toEqual({ rule: "thirty-day", units: 500, proceeds: 750, cost: 850, gain: -100 });
    expect(pool).toMatchObject({ rule: "section-104", units: 3_500, proceeds: 5_250 });
    // the 500 bought back never join the pool: 9,500 − 3,500 are left in it
    expect(m.pool.at(-1)).toEqual({ date: "2025-09-11", quantityMicros: 6_000 * UNIT, costMinor: pounds(6_000) });
  });

  // Source: HMRC, HS284 Shares and Capital Gains Tax, Example 3 "gain for shares in a Section 104
  // holding" (Ms Pierson, Lobster plc), same page. Before her last sale the holding is 800 shares
  // with a pool of actual cost of £3,349. She sells 400 shares at £5.20 with £105 of dealing costs:
  // proceeds (400 × £5.20) − £105 = £1,975; allowable cost 400/800 × £3,349 = £1,674.50, which the
  // example shows to the pound as £1,675; gain £1,975 − £1,675 = £300. The pool keeps 400 shares
  // and the other half of the cost.
  it("Example 3: a sale from the Section 104 holding at its average cost, proceeds less dealing costs", () => {
    const m = matchHolding([buy("2015-06-01", 800, 3_349), sell("2019-02-01", 400, 400 * 5.2 - 105)]);
    expect(parts(m, "2019-02-01")).toEqual([
      { rule: "section-104", units: 400, proceeds: 1_975, cost: 1_674.5, gain: 300.5 },
    ]);
    expect(Math.round(1_674.5)).toBe(1_675); // the example's allowable cost, to the pound
    expect(m.pool.at(-1)).toEqual({ date: "2019-02-01", quantityMicros: 400 * UNIT, costMinor: pounds(1_674.5) });
  });

  // HS284 Example 1 (and CG51575) makes the point that purchases made over the years form one
  // Section 104 holding; its cost is the sum of what each purchase cost, dealing costs included.
  // The quantities and costs here are this test's own.
  it("Example 1: purchases over the years make one pool whose cost is theirs added up", () => {
    const m = matchHolding([
      buy("2002-04-10", 2_000, 2_000),
      buy("2006-05-01", 2_500, 5_000),
      buy("2010-08-01", 2_500, 7_500),
      buy("2016-05-01", 5_000, 20_000),
    ]);
    expect(m.pool.at(-1)).toMatchObject({ quantityMicros: 12_000 * UNIT, costMinor: pounds(34_500) });
    expect(m.disposals).toEqual([]);
  });
});

describe("the order of the rules (TCGA 1992 s105 and s106A, CG51560)", () => {
  it("matches a sale first with the same day's purchases, whether bought before or after it that day", () => {
    // a pool of 1,000 at £2; on one day 300 bought for £1,200 and 500 sold for £2,250
    const m = matchHolding([
      buy("2024-01-10", 1_000, 2_000),
      sell("2024-06-03", 500, 2_250),
      buy("2024-06-03", 300, 1_200),
    ]);
    expect(parts(m, "2024-06-03")).toEqual([
      { rule: "same-day", units: 300, proceeds: 1_350, cost: 1_200, gain: 150 },
      { rule: "section-104", units: 200, proceeds: 900, cost: 400, gain: 500 },
    ]);
  });

  it("takes a day's deals together: two sales and two purchases on one day are one of each", () => {
    const m = matchHolding([
      buy("2024-06-03", 100, 400),
      sell("2024-06-03", 60, 300),
      buy("2024-06-03", 100, 500),
      sell("2024-06-03", 40, 200),
    ]);
    expect(m.disposals).toHaveLength(1);
    expect(m.disposals[0]?.dealIds).toHaveLength(2);
    // 100 of the 200 bought that day, at their average cost of £4.50
    expect(parts(m, "2024-06-03")).toEqual([{ rule: "same-day", units: 100, proceeds: 500, cost: 450, gain: 50 }]);
    expect(m.pool.at(-1)).toMatchObject({ quantityMicros: 100 * UNIT, costMinor: pounds(450) });
  });

  it("gives the same day priority over the 30 days: a later day's sale keeps its own day's purchase", () => {
    // pool 700; day 1: sell 700, buy 500; day 2: buy 650, sell 600 (the case of CG51560's priority)
    const m = matchHolding([
      buy("2021-01-04", 700, 700),
      sell("2021-01-13", 700, 2_100),
      buy("2021-01-13", 500, 1_500),
      buy("2021-01-14", 650, 1_950),
      sell("2021-01-14", 600, 1_800),
    ]);
    expect(parts(m, "2021-01-14")).toEqual([{ rule: "same-day", units: 600, proceeds: 1_800, cost: 1_800, gain: 0 }]);
    expect(parts(m, "2021-01-13")?.map((p) => [p.rule, p.units])).toEqual([
      ["same-day", 500],
      ["thirty-day", 50],
      ["section-104", 150],
    ]);
  });

  it("uses the 30 days after the sale: day 30 counts, day 31 and the days before do not", () => {
    expect(thirtyDaysAfter("2024-03-01")).toBe("2024-03-31");
    const within = matchHolding([buy("2020-01-01", 100, 100), sell("2024-03-01", 10, 50), buy("2024-03-31", 10, 40)]);
    expect(parts(within, "2024-03-01")?.[0]?.rule).toBe("thirty-day");
    const after = matchHolding([buy("2020-01-01", 100, 100), sell("2024-03-01", 10, 50), buy("2024-04-01", 10, 40)]);
    expect(parts(after, "2024-03-01")?.[0]?.rule).toBe("section-104");
  });

  it("matches earlier sales first with the purchases of the 30 days, each with the earliest purchase first", () => {
    const m = matchHolding([
      buy("2016-01-01", 200, 1_000),
      sell("2016-04-01", 50, 500),
      sell("2016-04-15", 50, 550),
      buy("2016-04-20", 50, 600),
    ]);
    expect(parts(m, "2016-04-01")?.[0]).toMatchObject({ rule: "thirty-day", units: 50, cost: 600, gain: -100 });
    expect(parts(m, "2016-04-15")?.[0]).toMatchObject({ rule: "section-104", units: 50, cost: 250, gain: 300 });
  });

  it("says when a sale has more than was ever acquired, with no cost for the rest", () => {
    const m = matchHolding([buy("2024-01-02", 10, 100), sell("2024-02-01", 15, 300)]);
    expect(parts(m, "2024-02-01")?.map((p) => [p.rule, p.units, p.cost])).toEqual([
      ["section-104", 10, 100],
      ["no-acquisition", 5, 0],
    ]);
  });
});

describe("tax years and the annual exempt amount", () => {
  it("runs from 6 April to 5 April", () => {
    expect(ukTaxYearOf("2025-04-05")).toBe(2024);
    expect(ukTaxYearOf("2025-04-06")).toBe(2025);
    expect(ukTaxYearOf("2026-01-31")).toBe(2025);
    expect(taxYearLabel(2024)).toBe("2024-25");
    expect(taxYearLabel(2099)).toBe("2099-00");
    expect(taxYearDates(2024)).toEqual({ start: "2024-04-06", end: "2025-04-05" });
  });

  it("holds HMRC's amounts: £12,300 to 2022-23, £6,000 in 2023-24, £3,000 from 2024-25; trustees half", () => {
    expect(annualExemptAmount(2022)).toMatchObject({ individualPounds: 12_300, trusteesPounds: 6_150 });
    expect(annualExemptAmount(2023)).toMatchObject({ individualPounds: 6_000, trusteesPounds: 3_000 });
    expect(annualExemptAmount(2024)).toMatchObject({ individualPounds: 3_000, trusteesPounds: 1_500 });
    expect(annualExemptAmount(2025)).toMatchObject({ individualPounds: 3_000, trusteesPounds: 1_500 });
    expect(annualExemptAmount(1990)).toBeNull();
  });

  it("totals a year's disposals: gains, losses and the net", () => {
    const totals = yearTotals([
      { gainMinor: 500, proceedsMinor: 2_000, allowableCostMinor: 1_500 },
      { gainMinor: -200, proceedsMinor: 800, allowableCostMinor: 1_000 },
    ]);
    expect(totals).toEqual({
      proceedsMinor: 2_800,
      allowableCostMinor: 2_500,
      gainsMinor: 500,
      lossesMinor: 200,
      netMinor: 300,
    });
  });
});

// ── properties ───────────────────────────────────────────────────────────────────────────────

/** A history of one holding over about a year: purchases and sales that never sell more than held. */
const history = fc
  .array(
    fc.record({
      day: fc.integer({ min: 0, max: 400 }),
      sell: fc.boolean(),
      units: fc.integer({ min: 1, max: 5_000 }),
      micros: fc.integer({ min: 0, max: UNIT - 1 }),
      price: fc.integer({ min: 1, max: 500_000 }), // pence per unit
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) => {
    const dated = rows
      .map((r, i) => ({ ...r, id: i + 1, date: new Date(Date.UTC(2023, 0, 1 + r.day)).toISOString().slice(0, 10) }))
      .sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
    let held = 0;
    const deals: Deal[] = [];
    for (const r of dated) {
      const quantity = r.units * UNIT + r.micros;
      const amount = Math.round((quantity / UNIT) * r.price);
      if (r.sell) {
        const q = Math.min(quantity, held);
        if (q <= 0) continue;
        held -= q;
        deals.push({ id: r.id, date: r.date, kind: "disposal", quantityMicros: q, amountMinor: amount });
      } else {
        held += quantity;
        deals.push({ id: r.id, date: r.date, kind: "acquisition", quantityMicros: quantity, amountMinor: amount });
      }
    }
    return deals;
  });

describe("properties of the matching", () => {
  it("never lets the pool go negative, in units or in cost", () => {
    fc.assert(
      fc.property(history, (deals) => {
        for (const state of matchHolding(deals).pool) {
          expect(state.quantityMicros).toBeGreaterThanOrEqual(0);
          expect(state.costMinor).toBeGreaterThanOrEqual(0);
          if (state.quantityMicros === 0) expect(state.costMinor).toBe(0);
        }
      }),
    );
  });

  it("does not depend on the order the deals were entered in", () => {
    fc.assert(
      fc.property(
        history.chain((deals) => fc.tuple(fc.constant(deals), fc.shuffledSubarray(deals, { minLength: deals.length }))),
        ([deals, shuffled]) => {
          expect(matchHolding(shuffled)).toEqual(matchHolding(deals));
        },
      ),
    );
  });

  it("gives proceeds less costs equal to gains less losses, and accounts for every unit and penny", () => {
    fc.assert(
      fc.property(history, (deals) => {
        const m = matchHolding(deals);
        const totals = yearTotals(m.disposals);
        expect(totals.proceedsMinor - totals.allowableCostMinor).toBe(totals.gainsMinor - totals.lossesMinor);
        expect(totals.netMinor).toBe(totals.gainsMinor - totals.lossesMinor);
        const sold = deals.filter((d) => d.kind === "disposal");
        expect(totals.proceedsMinor).toBe(sold.reduce((s, d) => s + d.amountMinor, 0));
        for (const d of m.disposals) {
          expect(d.matches.reduce((s, x) => s + x.quantityMicros, 0)).toBe(d.quantityMicros);
          expect(d.matches.reduce((s, x) => s + x.proceedsMinor, 0)).toBe(d.proceedsMinor);
          expect(d.matches.every((x) => x.rule !== "no-acquisition")).toBe(true);
        }
        // what was bought is either matched with a sale or still in the pool, to the penny
        const bought = deals.filter((d) => d.kind === "acquisition").reduce((s, d) => s + d.amountMinor, 0);
        const last = m.pool.at(-1);
        expect(totals.allowableCostMinor + (last?.costMinor ?? 0)).toBe(bought);
      }),
    );
  });
});
