// The demo market looks like a real one (docs/decisions/110-report-text-and-realistic-demo-market.md):
// over every seeded benchmark, security and exchange rate, each trailing year's and month's change is
// within what real markets did; securities move with their market; and the demo portfolios' returns
// over the last year are comparable with their benchmarks. Checked on two clocks, since the seed's
// dates follow the clock.
import { format } from "date-fns/format";
import { parseISO } from "date-fns/parseISO";
import { subMonths } from "date-fns/subMonths";
import { subYears } from "date-fns/subYears";
import { afterAll, describe, expect, it } from "vitest";
import { loadBook } from "../../server/api/portfolio/book";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import { periodPerformance } from "../../server/domain/performance";
import { seedIfEmpty } from "../../server/seed";
import { START } from "./harness";

/** A year's change: what real indices did in a calendar year, roughly (FTSE All-Share 2008 −33%, 2009 +30%; most years well inside). */
const YEAR = { low: -0.25, high: 0.3 };
/** A month's change (a month back to the day): an index 8%, a single security 12%, sterling against the dollar or euro 5%. */
const MONTH = { index: 0.08, security: 0.12, fx: 0.05 };
/** Sterling against the dollar or the euro within 15% over a year. */
const FX_YEAR = 0.15;
/** A demo portfolio's return over the last year within 8 percentage points of each benchmark it is shown against. */
const NEAR = 0.08;

const opened: Db[] = [];
afterAll(() => {
  for (const db of opened) closeDatabase(db);
});

type Point = { date: string; v: number };
const all = (db: Db, sql: string, ...params: unknown[]) =>
  db.$client.prepare(sql).all(...params) as Array<Record<string, unknown>>;
const points = (rows: Array<Record<string, unknown>>): Point[] =>
  rows.map((r) => ({ date: String(r.date), v: Number(r.v) }));
const iso = (d: Date) => format(d, "yyyy-MM-dd");

/** Each day's change since the last point on or before the same date a year (or a month) earlier. */
function changes(series: Point[], back: (d: Date) => Date): Array<{ date: string; change: number }> {
  const out: Array<{ date: string; change: number }> = [];
  let j = -1;
  for (const p of series) {
    const target = iso(back(parseISO(p.date)));
    while (j + 1 < series.length && (series[j + 1] as Point).date <= target) j++;
    if (j >= 0) out.push({ date: p.date, change: p.v / (series[j] as Point).v - 1 });
  }
  return out;
}
const yearly = (s: Point[]) => changes(s, (d) => subYears(d, 1));
const monthly = (s: Point[]) => changes(s, (d) => subMonths(d, 1));
const outside = (list: Array<{ date: string; change: number }>, low: number, high: number) =>
  list.filter((c) => c.change < low || c.change > high).map((c) => `${c.date} ${(c.change * 100).toFixed(2)}%`);

/** Daily log returns' correlation between two series of the same days. */
function correlation(a: Point[], b: Point[]): number {
  const r = (s: Point[]) => s.slice(1).map((p, i) => Math.log(p.v / (s[i] as Point).v));
  const [x, y] = [r(a), r(b)];
  const mean = (v: number[]) => v.reduce((s, n) => s + n, 0) / v.length;
  const [mx, my] = [mean(x), mean(y)];
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((xi, i) => {
    const yi = y[i] as number;
    sxy += (xi - mx) * (yi - my);
    sxx += (xi - mx) ** 2;
    syy += (yi - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

for (const start of [START, "2026-11-26T07:00:00.000Z"]) {
  describe(`the demo market on ${start.slice(0, 10)}`, () => {
    const db = openDatabase(":memory:");
    opened.push(db);
    seedIfEmpty(db, fixedClock(start));
    const today = start.slice(0, 10);
    const benchmarks = all(db, "SELECT id, code FROM benchmarks ORDER BY id").map((b) => ({
      code: String(b.code),
      series: points(
        all(db, "SELECT date, level_micros AS v FROM benchmark_prices WHERE benchmark_id = ? ORDER BY date", b.id),
      ),
    }));
    const securities = all(db, "SELECT id, code, currency FROM securities WHERE is_cash = 0 ORDER BY id").map((s) => ({
      code: String(s.code),
      currency: String(s.currency),
      series: points(
        all(db, "SELECT date, price_micros AS v FROM security_prices WHERE security_id = ? ORDER BY date", s.id),
      ),
    }));
    const fx = ["USD", "EUR"].map((currency) => ({
      currency,
      series: points(all(db, "SELECT date, rate_micros AS v FROM fx_rates WHERE currency = ? ORDER BY date", currency)),
    }));
    const benchmark = (code: string) => benchmarks.find((b) => b.code === code)?.series as Point[];

    it("has every benchmark and security with two years and more of trailing-year changes to check", () => {
      expect(benchmarks.map((b) => b.code)).toEqual(["FTASX", "MSCIWGBP", "GILTALL", "BAL6040"]);
      expect(securities.length).toBeGreaterThanOrEqual(16);
      for (const s of [...benchmarks, ...securities]) expect(yearly(s.series).length, s.code).toBeGreaterThan(2 * 250);
    });

    it("keeps each benchmark's trailing-year change within −25%…+30% and its trailing month's within 8%", () => {
      for (const b of benchmarks) {
        expect(outside(yearly(b.series), YEAR.low, YEAR.high), b.code).toEqual([]);
        expect(outside(monthly(b.series), -MONTH.index, MONTH.index), b.code).toEqual([]);
      }
    });

    it("keeps each security's trailing-year change within −25%…+30% and its trailing month's within 12%", () => {
      for (const s of securities) {
        expect(outside(yearly(s.series), YEAR.low, YEAR.high), s.code).toEqual([]);
        expect(outside(monthly(s.series), -MONTH.security, MONTH.security), s.code).toEqual([]);
      }
    });

    it("moves sterling against the dollar and the euro modestly: 15% a year, 5% a month at most", () => {
      for (const f of fx) {
        expect(outside(yearly(f.series), -FX_YEAR, FX_YEAR), f.currency).toEqual([]);
        expect(outside(monthly(f.series), -MONTH.fx, MONTH.fx), f.currency).toEqual([]);
      }
    });

    it("moves securities with their market: the FTSE tracker with the All-Share, US shares in sterling with the world index", () => {
      const isf = securities.find((s) => s.code === "ISF")?.series as Point[];
      expect(correlation(isf, benchmark("FTASX"))).toBeGreaterThan(0.9);
      const usd = fx.find((f) => f.currency === "USD")?.series as Point[];
      const inSterling = (code: string) =>
        (securities.find((s) => s.code === code)?.series as Point[]).map((p, i) => ({
          date: p.date,
          v: p.v / (usd[i] as Point).v,
        }));
      expect(correlation(inSterling("MSFT"), benchmark("MSCIWGBP"))).toBeGreaterThan(0.6);
      const gilts = securities.find((s) => s.code === "VGOV")?.series as Point[];
      expect(correlation(gilts, benchmark("GILTALL"))).toBeGreaterThan(0.9);
    });

    it("gives every demo portfolio a last year's return near its own benchmark's and the analysis page's (FTSE All-Share, balanced 60/40)", () => {
      const from = iso(subYears(parseISO(today), 1));
      const yearOf = (s: Point[]) => {
        const at = (date: string) => [...s].reverse().find((p) => p.date <= date) as Point;
        return at(today).v / at(from).v - 1;
      };
      const portfolios = all(
        db,
        "SELECT p.id, p.name, b.code FROM portfolios p JOIN benchmarks b ON b.id = p.benchmark_id ORDER BY p.id",
      );
      expect(portfolios.length).toBe(5);
      for (const p of portfolios) {
        const ids = all(
          db,
          "SELECT id FROM accounts WHERE portfolio_id = ? AND service_type <> 'Not managed'",
          p.id,
        ).map((a) => Number(a.id));
        const twr = periodPerformance(loadBook(db, ids, today, from), from, today, {
          currency: "GBP",
          pricing: "close",
          basis: "after",
        }).twr?.period;
        expect(twr, String(p.name)).toBeTypeOf("number");
        for (const code of [String(p.code), "FTASX", "BAL6040"]) {
          const b = yearOf(benchmark(code));
          expect(b, code).toBeGreaterThan(YEAR.low);
          expect(b, code).toBeLessThan(YEAR.high);
          expect(
            Math.abs((twr as number) - b),
            `${String(p.name)}: ${((twr as number) * 100).toFixed(2)}% against ${code} ${(b * 100).toFixed(2)}%`,
          ).toBeLessThanOrEqual(NEAR);
        }
      }
    });
  });
}
