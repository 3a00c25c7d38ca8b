import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import {
  type BookTransaction,
  fxOn,
  isBusinessDay,
  MICROS,
  positionsAt,
  type PriceSeries,
  valueAt,
} from "../../server/domain/valuation";
import { seedIfEmpty } from "../../server/seed";
import { START } from "./harness";

const opened: Db[] = [];
afterAll(() => {
  for (const db of opened) closeDatabase(db);
});

function freshDb(): { db: Db; ms: number } {
  const db = openDatabase(":memory:");
  opened.push(db);
  // CPU time, not the wall clock: on a busy machine the seed waits for a core without doing more
  const started = process.cpuUsage();
  seedIfEmpty(db, fixedClock(START));
  const used = process.cpuUsage(started);
  return { db, ms: (used.user + used.system) / 1000 };
}

const all = (db: Db, sql: string, ...params: unknown[]) =>
  db.$client.prepare(sql).all(...params) as Array<Record<string, unknown>>;
const TODAY = START.slice(0, 10); // 2025-03-14, a Friday
const CLIENT = 1;
const ASSETS = 4;

function book(db: Db): BookTransaction[] {
  return all(
    db,
    `SELECT account_id AS accountId, security_id AS securityId, type, trade_date AS tradeDate, quantity_micros AS quantityMicros,
       net_minor AS netMinor, cash_security_id AS cashSecurityId FROM transactions ORDER BY trade_date, id`,
  ) as BookTransaction[];
}

describe("portfolio book seed", () => {
  const first = freshDb();
  const second = freshDb();
  const db = first.db;

  it("seeds everything quickly", () => {
    // the whole demo data set, people included (one scrypt hash), with the triggers that count
    // writes for the kept figures (decision 123), in CPU time; generous for slow machines
    expect(first.ms).toBeLessThan(3_000);
  });

  it("is the same on every fresh database", () => {
    for (const sql of [
      "SELECT * FROM security_prices ORDER BY security_id, date",
      "SELECT * FROM fx_rates ORDER BY currency, date",
      "SELECT * FROM benchmark_prices ORDER BY benchmark_id, date",
      "SELECT * FROM transactions ORDER BY id",
      "SELECT * FROM accounts ORDER BY id",
      "SELECT * FROM other_assets ORDER BY id",
    ]) {
      expect(all(second.db, sql), sql).toEqual(all(db, sql));
    }
  });

  it("prices every security, FX rate and benchmark on business days for three years and more", () => {
    const threeYearsBack = `${Number(TODAY.slice(0, 4)) - 3}${TODAY.slice(4)}`;
    for (const [table, key] of [
      ["security_prices", "security_id"],
      ["fx_rates", "currency"],
      ["benchmark_prices", "benchmark_id"],
    ] as const) {
      const spans = all(
        db,
        `SELECT ${key} AS k, MIN(date) AS first, MAX(date) AS last, COUNT(*) AS n FROM ${table} GROUP BY ${key}`,
      );
      expect(spans.length, table).toBeGreaterThan(1);
      for (const span of spans) {
        expect(String(span.first) <= threeYearsBack, `${table} ${String(span.k)}`).toBe(true);
        expect(span.last).toBe(TODAY);
        expect(Number(span.n)).toBeGreaterThan(3 * 260);
      }
      const dates = all(db, `SELECT DISTINCT date FROM ${table}`).map((r) => String(r.date));
      expect(
        dates.filter((d) => !isBusinessDay(d)),
        table,
      ).toEqual([]);
    }
    expect(all(db, "SELECT DISTINCT currency FROM fx_rates ORDER BY currency").map((r) => r.currency)).toEqual([
      "EUR",
      "USD",
    ]);
  });

  it("keeps cash at 1.00 and every price positive", () => {
    const cash = all(
      db,
      "SELECT DISTINCT p.price_micros AS p FROM security_prices p JOIN securities s ON s.id = p.security_id WHERE s.is_cash = 1",
    );
    expect(cash).toEqual([{ p: MICROS }]);
    expect(all(db, "SELECT COUNT(*) AS n FROM security_prices WHERE price_micros <= 0")).toEqual([{ n: 0 }]);
  });

  it("never lets a position go negative", () => {
    const transactions = book(db);
    expect(transactions.length).toBeGreaterThan(100);
    for (const date of new Set(transactions.map((t) => t.tradeDate))) {
      expect(
        positionsAt(transactions, date).filter((p) => p.quantityMicros < 0),
        date,
      ).toEqual([]);
    }
  });

  it("trades on business days and has every kind of transaction, with a year and more of history", () => {
    const transactions = book(db);
    expect(transactions.filter((t) => !isBusinessDay(t.tradeDate))).toEqual([]);
    expect(new Set(transactions.map((t) => t.type))).toEqual(
      new Set(["buy", "sell", "income", "fee", "tax", "transfer_in", "transfer_out"]),
    );
    const clientAccounts = all(
      db,
      "SELECT a.id, MIN(t.trade_date) AS first FROM accounts a JOIN portfolios p ON p.id = a.portfolio_id JOIN transactions t ON t.account_id = a.id WHERE p.entity_id = ? GROUP BY a.id",
      CLIENT,
    );
    expect(clientAccounts.some((a) => String(a.first) < `${Number(TODAY.slice(0, 4)) - 1}${TODAY.slice(4)}`)).toBe(
      true,
    );
  });

  it("gives demo.client holdings in GBP, USD and EUR, valued in GBP", () => {
    const accounts = all(
      db,
      "SELECT a.id, a.plan_currency FROM accounts a JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id WHERE v.entity_id = ? AND v.is_linked = 0",
      CLIENT,
    );
    const ids = new Set(accounts.map((a) => Number(a.id)));
    const securities = new Map(all(db, "SELECT id, currency, is_cash FROM securities").map((s) => [Number(s.id), s]));
    const held = positionsAt(
      book(db).filter((t) => ids.has(t.accountId)),
      TODAY,
    );
    const currencies = new Set(
      held
        .filter((p) => securities.get(p.securityId)?.is_cash === 0)
        .map((p) => securities.get(p.securityId)?.currency),
    );
    expect(currencies).toEqual(new Set(["GBP", "USD", "EUR"]));

    const series = (rows: Array<Record<string, unknown>>): PriceSeries =>
      rows.map((r) => ({ date: String(r.date), micros: Number(r.micros) }));
    const prices = new Map(
      [...securities.entries()].map(([id, s]) => [
        id,
        {
          currency: String(s.currency),
          series: series(
            all(db, "SELECT date, price_micros AS micros FROM security_prices WHERE security_id = ? ORDER BY date", id),
          ),
        },
      ]),
    );
    const fx = {
      USD: series(all(db, "SELECT date, rate_micros AS micros FROM fx_rates WHERE currency = 'USD' ORDER BY date")),
      EUR: series(all(db, "SELECT date, rate_micros AS micros FROM fx_rates WHERE currency = 'EUR' ORDER BY date")),
    };
    const value = valueAt({ positions: held, prices, fx, date: TODAY, currency: "GBP" });
    expect(value.reportTotal).toBeGreaterThan(100_000);
    // a past value uses that date's FX
    const yearAgo = `${Number(TODAY.slice(0, 4)) - 1}${TODAY.slice(4)}`;
    expect(fxOn(fx, "USD", "GBP", yearAgo)).not.toBe(fxOn(fx, "USD", "GBP", TODAY));
  });

  it("adds, after the rest of the book, a multi-asset fund in two in-specie parcels and a security without a name", () => {
    const later = all(
      db,
      "SELECT id, code, description, asset_class_code AS c, asset_class_allocation AS a, regional_allocation AS r FROM securities WHERE code IN ('VLS60', 'XDLST') ORDER BY id",
    );
    const before = Number(all(db, "SELECT MAX(id) AS n FROM securities WHERE code NOT IN ('VLS60', 'XDLST')")[0]?.n);
    expect(later.map((s) => Number(s.id))).toEqual([before + 1, before + 2]);
    expect(later[0]).toMatchObject({ code: "VLS60", c: "MIXED" });
    expect(JSON.parse(String(later[0]?.a))).toEqual([
      { name: "Equities", weight: 60 },
      { name: "Fixed income", weight: 40 },
    ]);
    expect(JSON.parse(String(later[0]?.r)).reduce((s: number, p: { weight: number }) => s + p.weight, 0)).toBe(100);
    expect(later[1]).toMatchObject({ code: "XDLST", description: "", a: null, r: null });
    // each transfer in is worth its units at the day's price, and comes after every other transaction
    const transfers = all(
      db,
      `SELECT t.id, t.security_id AS s, t.trade_date AS d, t.quantity_micros AS q, t.net_minor AS net, p.price_micros AS p FROM transactions t
        JOIN security_prices p ON p.security_id = t.security_id AND p.date = t.trade_date WHERE t.security_id IN (?, ?) ORDER BY t.id`,
      later[0]?.id,
      later[1]?.id,
    );
    expect(transfers.map((t) => Number(t.s))).toEqual([
      Number(later[0]?.id),
      Number(later[0]?.id),
      Number(later[1]?.id),
    ]);
    for (const t of transfers) expect(Number(t.net)).toBe(Math.round((Number(t.q) * Number(t.p)) / 1e10));
    // ... and before the disposals added last (decision 202), which are purchases and sales only
    const ids = transfers.map((t) => Number(t.id));
    const first = Math.min(...ids);
    const lastTransfer = Math.max(...ids);
    expect(lastTransfer - first).toBe(2);
    const bookLast = Number(all(db, "SELECT MAX(id) AS n FROM transactions WHERE id < ?", first)[0]?.n);
    expect(first).toBe(bookLast + 1);
    const after = all(db, "SELECT type FROM transactions WHERE id > ?", lastTransfer);
    expect(after.length).toBe(6);
    expect(new Set(after.map((t) => t.type))).toEqual(new Set(["buy", "sell"]));
  });

  it("adds, last, disposals in the taxable accounts for each matching rule, in more than one tax year", () => {
    const rows = all(
      db,
      `SELECT a.description AS account, s.code, t.type, t.trade_date AS d, t.quantity_micros AS q FROM transactions t
        JOIN accounts a ON a.id = t.account_id JOIN securities s ON s.id = t.security_id
        WHERE t.id > (SELECT MAX(id) FROM transactions WHERE security_id IN (SELECT id FROM securities WHERE code IN ('VLS60', 'XDLST')))
        ORDER BY t.id`,
    );
    expect(new Set(rows.map((r) => r.account))).toEqual(
      new Set(["Joint General Investment Account", "Hartley Family Trust account"]),
    );
    const of = (code: string) => rows.filter((r) => r.code === code);
    // a purchase and a larger sale on one day
    const [sameDayBuy, sameDaySell] = of("AZN");
    expect(sameDayBuy).toMatchObject({ type: "buy", d: sameDaySell?.d });
    expect(Number(sameDaySell?.q)).toBeGreaterThan(Number(sameDayBuy?.q));
    // a sale bought back in part within 30 days
    const [sale, buyBack] = of("LAND");
    expect(sale?.type).toBe("sell");
    const days = (Date.parse(String(buyBack?.d)) - Date.parse(String(sale?.d))) / 86_400_000;
    expect(buyBack?.type).toBe("buy");
    expect(days).toBeGreaterThan(0);
    expect(days).toBeLessThanOrEqual(30);
    expect(Number(buyBack?.q)).toBeLessThan(Number(sale?.q));
    // sales from pools of several purchases
    for (const code of ["ISF", "ULVR"]) {
      const [only] = of(code);
      const purchases = all(
        db,
        "SELECT COUNT(*) AS n FROM transactions t JOIN securities s ON s.id = t.security_id JOIN accounts a ON a.id = t.account_id WHERE s.code = ? AND a.description = ? AND t.type = 'buy' AND t.trade_date < ?",
        code,
        only?.account,
        only?.d,
      );
      expect(Number(purchases[0]?.n), code).toBeGreaterThanOrEqual(2);
    }
    // UK tax years (6 April to 5 April): the sales fall in more than one
    const taxYear = (d: string) => (d.slice(5) >= "04-06" ? Number(d.slice(0, 4)) : Number(d.slice(0, 4)) - 1);
    expect(new Set(rows.filter((r) => r.type === "sell").map((r) => taxYear(String(r.d)))).size).toBeGreaterThan(1);
  });

  it("orders and explains demo.client's portfolios as spec 001 §4", () => {
    const seen = all(
      db,
      "SELECT p.ptype, v.reason_for_visibility AS reason, v.sort_order AS sortOrder, v.is_linked AS linked FROM portfolio_visibility v JOIN portfolios p ON p.id = v.portfolio_id WHERE v.entity_id = ? ORDER BY v.sort_order",
      CLIENT,
    );
    expect(seen).toEqual([
      { ptype: "PT_SINGLE", reason: "single_owner", sortOrder: 0, linked: 0 },
      { ptype: "PT_JOINT", reason: "primary_joint_owner", sortOrder: 1, linked: 0 },
      { ptype: "PT_SHARED", reason: "shared_owner", sortOrder: 3, linked: 0 },
      { ptype: "PT_SINGLE", reason: "single_owner", sortOrder: 4, linked: 1 },
      { ptype: "PT_SINGLE", reason: "explicit_link", sortOrder: 6, linked: 1 },
    ]);
    expect(
      all(db, "SELECT COUNT(*) AS n FROM account_groups WHERE entity_id = ?", CLIENT)[0]?.n,
    ).toBeGreaterThanOrEqual(3);
  });

  it("has a 'Not managed' account, and target sets and payment details on one account", () => {
    expect(
      all(db, "SELECT COUNT(*) AS n FROM accounts WHERE service_type = 'Not managed'")[0]?.n,
    ).toBeGreaterThanOrEqual(1);
    const weights = all(
      db,
      "SELECT t.account_id AS a, SUM(w.weight_bp) AS total FROM target_sets t JOIN target_set_securities w ON w.target_set_id = t.id GROUP BY t.id",
    );
    expect(weights).toEqual([{ a: 1, total: 10_000 }]);
    expect(all(db, "SELECT account_id AS a, kind FROM payment_methods ORDER BY id")).toEqual([
      { a: 1, kind: "bpay" },
      { a: 1, kind: "bank" },
    ]);
  });

  it("gives demo.assets the four non-managed kinds (a SIPP wrapper among them) and no accounts", () => {
    const kinds = all(db, "SELECT DISTINCT kind FROM other_assets WHERE entity_id = ? ORDER BY kind", ASSETS).map(
      (r) => r.kind,
    );
    expect(kinds).toEqual(["annuity", "investment", "liability", "pension"]);
    expect(
      all(
        db,
        "SELECT COUNT(*) AS n FROM other_assets WHERE entity_id = ? AND kind = 'pension' AND is_sipp_wrapper = 1",
        ASSETS,
      )[0]?.n,
    ).toBe(1);
    expect(all(db, "SELECT COUNT(*) AS n FROM accounts WHERE account_owner = ?", ASSETS)[0]?.n).toBe(0);
    // every asset's owners add up to 100%
    expect(
      all(db, "SELECT asset_id FROM other_asset_owners GROUP BY asset_id HAVING SUM(percentage_bp) <> 10000"),
    ).toEqual([]);
  });
});
