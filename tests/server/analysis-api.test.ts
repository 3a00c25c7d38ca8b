import { beforeAll, describe, expect, it } from "vitest";
import { blendedLevels } from "../../server/seed/portfolio";
import { type ErrorAnswer, START, withPlatform } from "./harness";

// The platform's calls behind the analysis page (spec 001 §7 "Performance", docs/decisions/091):
// benchmark names and levels, series with several benchmarks, the profit-analysis detail by
// timeframe, cash flows and transactions; and a foreign or unknown id is not found.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type WireDate = { _type: "Date"; _val: string };
type BenchmarkSeries = { name: string; code: string; points: Array<{ date: WireDate; cumulative: number | null }> };
type Series = {
  start_date: WireDate;
  end_date: WireDate;
  points: Array<{ date: WireDate; value: Money; cumulative_twrr: number | null; net_flows: Money }>;
  benchmark: BenchmarkSeries | null;
  benchmarks: BenchmarkSeries[];
};
type Row = {
  level: string;
  key: string;
  accountid: number | null;
  market_value_to: Money;
  twrr_period: number | null;
  isLinked?: boolean;
  start_date: WireDate;
  end_date: WireDate;
};
type Detail = {
  start_date: WireDate;
  end_date: WireDate;
  inception_date: WireDate | null;
  rows: Row[];
  total: Row | null;
};
type Cashflows = {
  start_date: WireDate;
  end_date: WireDate;
  flows: Array<{ date: WireDate; accountid: number; amount: Money }>;
  inflows: Money;
  outflows: Money;
  net: Money;
};
type Transaction = {
  id: number;
  accountId: number;
  tradeDate: WireDate;
  type: string;
  transactionTypeDesc: string;
  netAmount: Money;
  bookmark: string;
};

const TODAY = START.slice(0, 10); // 2025-03-14, a Friday
const YEAR_AGO = "2024-03-14";

const harness = withPlatform();
let client: string;
let adviser: string;
beforeAll(async () => {
  client = await harness.platform.session("demo.client");
  adviser = await harness.platform.session("demo.adviser", "adviser");
});

const num = (m: Money | null | undefined) => Number(m?.value._val);
const sql = (query: string, ...params: unknown[]) =>
  harness.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const get = <T>(path: string, token: string) => harness.platform.call<T>(path, { token });
const ok = async <T>(path: string, token = client): Promise<T> => {
  const answer = await get<T>(path, token);
  expect(answer.status, path).toBe(200);
  return answer.body;
};
const levelsOf = (code: string) =>
  sql(
    "SELECT p.date, p.level_micros AS micros FROM benchmark_prices p JOIN benchmarks b ON b.id = p.benchmark_id WHERE b.code = ? ORDER BY p.date",
    code,
  ) as Array<{
    date: string;
    micros: number;
  }>;
const ownManaged = () =>
  (
    sql(
      `SELECT a.id FROM accounts a JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
       WHERE v.entity_id = 1 AND v.is_linked = 0 AND a.service_type <> 'Not managed' ORDER BY a.id`,
    ) as Array<{ id: number }>
  ).map((r) => r.id);

describe("benchmarks (spec 001 §7 GET portfolio/benchmark)", () => {
  it("lists every benchmark with the first date of its levels, an equity and a balanced index among them", async () => {
    const list = await ok<Array<{ code: string; name: string; currency: string; start_date: WireDate }>>(
      "/resourceful/portfolio/benchmark",
    );
    expect(list.map((b) => b.code)).toEqual(["FTASX", "MSCIWGBP", "GILTALL", "BAL6040"]);
    expect(list[3]).toMatchObject({ name: "Balanced index 60/40 (MSCI World and UK gilts)", currency: "GBP" });
    for (const b of list) expect(b.start_date._val).toBe(levelsOf(b.code)[0]!.date);
    expect((await get("/resourceful/portfolio/benchmark", "nobody")).status).toBe(401);
  });

  it("moves the balanced index each day by 60% of the world index's return and 40% of the gilts'", () => {
    const world = levelsOf("MSCIWGBP");
    const gilts = levelsOf("GILTALL");
    const balanced = levelsOf("BAL6040");
    expect(balanced.map((l) => l.date)).toEqual(world.map((l) => l.date));
    expect(balanced[0]!.micros).toBe(1000_000_000);
    for (const i of [1, 100, balanced.length - 1]) {
      const expected =
        0.6 * (world[i]!.micros / world[i - 1]!.micros - 1) + 0.4 * (gilts[i]!.micros / gilts[i - 1]!.micros - 1);
      // levels are stored to 2 decimals, so a day's return is known to about 1e-5
      expect(balanced[i]!.micros / balanced[i - 1]!.micros - 1).toBeCloseTo(expected, 4);
    }
    expect(
      blendedLevels(
        {
          code: "X",
          name: "X",
          start: 1000,
          parts: [
            ["A", 0.6],
            ["B", 0.4],
          ],
        } as never,
        new Map([
          ["A", [100, 110]],
          ["B", [50, 50]],
        ]),
      ),
    ).toEqual([1000_000_000, 1060_000_000]);
  });
});

describe("series with several benchmarks", () => {
  it("answers every benchmark asked for, in order, each from its level at the first point", async () => {
    const series = await ok<Series>(
      `/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y&frequency=auto&benchmark_name=FTASX,${encodeURIComponent("Balanced index 60/40 (MSCI World and UK gilts)")}`,
    );
    expect(series.benchmarks.map((b) => b.code)).toEqual(["FTASX", "BAL6040"]);
    expect(series.benchmark?.code).toBe("FTASX");
    const balanced = series.benchmarks[1]!;
    const levels = new Map(levelsOf("BAL6040").map((l) => [l.date, l.micros]));
    const on = (date: string) => [...levels.entries()].filter(([d]) => d <= date).pop()![1];
    const first = balanced.points[0]!;
    const last = balanced.points[balanced.points.length - 1]!;
    expect(first.cumulative).toBe(0);
    expect(last.cumulative).toBeCloseTo(on(last.date._val) / on(first.date._val) - 1, 8);
  });

  it("keeps the portfolio's own benchmark when none is asked for, and refuses an unknown one", async () => {
    const series = await ok<Series>(
      `/resourceful/portfolio/portfolio/1/profit_analysis/historic_time_series_twrr?timeframe=1Y`,
    );
    expect(series.benchmarks.map((b) => b.code)).toEqual([series.benchmark?.code]);
    const unknown = await get<ErrorAnswer>(
      `/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y&benchmark_name=FTASX,NOPE`,
      client,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.api_message).toBe("Benchmark NOPE not found");
  });
});

describe("profit analysis detail by timeframe", () => {
  it("dates a timeframe as the series does, and gives the selection's inception", async () => {
    const detail = await ok<Detail>("/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio");
    expect([detail.start_date._val, detail.end_date._val]).toEqual([YEAR_AGO, TODAY]);
    const series = await ok<Series>("/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y");
    const last = series.points[series.points.length - 1]!;
    // the total is the client's own accounts, as the default series measures
    expect(num(detail.total?.market_value_to)).toBeCloseTo(num(last.value), 2);
    expect(detail.total?.twrr_period).toBeCloseTo(last.cumulative_twrr as number, 8);
    const inceptions = sql(`SELECT MIN(inception_date) AS d FROM accounts WHERE id IN (${ownManaged().join(",")})`);
    const all = await ok<Detail>(
      "/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=portfolio&accountid=" +
        ownManaged().join(","),
    );
    expect(all.inception_date?._val).toBe(inceptions[0]!.d);
  });

  it("starts since inception at the earliest inception of the accounts asked for", async () => {
    const [account] = sql(
      "SELECT id, inception_date AS d FROM accounts WHERE description = 'Ellie Stocks and Shares ISA'",
    ) as Array<{ id: number; d: string }>;
    const detail = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=SI&grouping=all&accountid=${account!.id}`,
    );
    expect(detail.start_date._val).toBe(account!.d);
    expect(detail.inception_date?._val).toBe(account!.d);
    expect(detail.rows).toEqual([]);
  });

  it("still takes two dates, and refuses neither dates nor timeframe", async () => {
    const detail = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?start_date=2024-06-03&end_date=2024-12-31&grouping=all`,
    );
    expect([detail.start_date._val, detail.end_date._val]).toEqual(["2024-06-03", "2024-12-31"]);
    expect((await get("/resourceful/portfolio/profit_analysis/detail?grouping=all", client)).status).toBe(400);
  });
});

describe("cash flows", () => {
  it("lists the transfers in and out of the period, their net equal to the series' flows", async () => {
    const flows = await ok<Cashflows>(
      `/resourceful/portfolio/profit_analysis/cashflow?start_date=${YEAR_AGO}&end_date=${TODAY}`,
    );
    const series = await ok<Series>(
      `/resourceful/portfolio/profit_analysis/historic_time_series_twrr?start_date=${YEAR_AGO}&end_date=${TODAY}`,
    );
    expect(num(flows.net)).toBeCloseTo(num(series.points[series.points.length - 1]!.net_flows), 2);
    expect(num(flows.inflows) + num(flows.outflows)).toBeCloseTo(num(flows.net), 2);
    const transfers = sql(
      `SELECT COUNT(*) AS n FROM transactions WHERE type IN ('transfer_in', 'transfer_out') AND trade_date > ? AND trade_date <= ? AND account_id IN (${ownManaged().join(",")})`,
      YEAR_AGO,
      TODAY,
    )[0]!.n;
    expect(flows.flows).toHaveLength(Number(transfers));
    expect(
      flows.flows.every((f) => f.date._val > YEAR_AGO && f.date._val <= TODAY && ownManaged().includes(f.accountid)),
    ).toBe(true);
  });

  it("counts fees and taxes as outflows before fees and taxes", async () => {
    const after = await ok<Cashflows>(`/resourceful/portfolio/profit_analysis/cashflow?timeframe=1Y`);
    const before = await ok<Cashflows>(`/resourceful/portfolio/profit_analysis/cashflow?timeframe=1Y&fees_and_taxes=0`);
    expect(before.flows.length).toBeGreaterThan(after.flows.length);
    expect(num(before.outflows)).toBeLessThan(num(after.outflows));
  });
});

describe("transactions", () => {
  it("pages the client's transactions newest first with bookmarks, to the end", async () => {
    const ids = ownManaged();
    const total = Number(sql(`SELECT COUNT(*) AS n FROM transactions WHERE account_id IN (${ids.join(",")})`)[0]!.n);
    const seen: Transaction[] = [];
    let bookmark = "";
    for (let page = 0; page < 100; page++) {
      const rows = await ok<Transaction[]>(
        `/resourceful/portfolio/transaction?accountid=${ids.join(",")}&page_size=50${bookmark ? `&page_bookmark=${bookmark}` : ""}`,
      );
      seen.push(...rows);
      if (rows.length < 50) break;
      bookmark = rows[rows.length - 1]!.bookmark;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((t) => t.id)).size).toBe(total);
    const dates = seen.map((t) => t.tradeDate._val);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(seen.find((t) => t.type === "transfer_in")?.transactionTypeDesc).toBe("Transfer in");
  });

  it("answers one row for the spec's existence check, none outside the dates, and 400 for a bookmark it did not issue", async () => {
    expect(await ok<Transaction[]>("/resourceful/portfolio/transaction?accountid=1&page_size=1")).toHaveLength(1);
    expect(
      await ok<Transaction[]>(
        "/resourceful/portfolio/transaction?accountid=1&start_date=1900-01-01&stop_date=1900-12-31",
      ),
    ).toEqual([]);
    expect((await get("/resourceful/portfolio/transaction?page_bookmark=nonsense", client)).status).toBe(400);
  });

  it("adds each row's value in a report currency when asked, unsigned, and refuses a bad currency or a pricing not allowed (decision 207)", async () => {
    const plain = await ok<Array<Transaction & { reportTransactionValue?: Money }>>(
      "/resourceful/portfolio/transaction?accountid=1&page_size=5",
    );
    expect(plain.every((t) => t.reportTransactionValue === undefined)).toBe(true);
    const valued = await ok<Array<Transaction & { reportTransactionValue?: Money }>>(
      "/resourceful/portfolio/transaction?accountid=1&page_size=5&report_currency=USD",
    );
    expect(valued.map((t) => t.id)).toEqual(plain.map((t) => t.id));
    for (const t of valued) {
      expect(t.reportTransactionValue?.code).toBe("USD");
      expect(Number(t.reportTransactionValue?.value._val)).toBeGreaterThanOrEqual(0);
    }
    expect((await get("/resourceful/portfolio/transaction?report_currency=usd", client)).status).toBe(400);
    const live = await get("/resourceful/portfolio/transaction?report_currency=GBP&to_pricing_type=live", client);
    expect(live.status).toBeGreaterThanOrEqual(400);
  });
});

describe("a foreign or unknown id is not found", () => {
  it("answers 404 for Olivia's account, an unknown portfolio or group, in every new call", async () => {
    const olivia = Number(sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'")[0]!.id);
    for (const path of [
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&accountid=${olivia}`,
      `/resourceful/portfolio/profit_analysis/cashflow?timeframe=1Y&accountid=${olivia}`,
      `/resourceful/portfolio/transaction?accountid=${olivia}`,
      `/resourceful/portfolio/transaction?accountid=999`,
      "/resourceful/portfolio/portfolio/999/profit_analysis/historic_time_series_twrr?timeframe=1Y",
      "/resourceful/portfolio/group/account/code/NOPE/profit_analysis/historic_time_series_twrr?timeframe=1Y",
    ]) {
      const answer = await get<ErrorAnswer>(path, client);
      expect(answer.status, path).toBe(404);
      expect(answer.body.api_message, path).toMatch(/not found$/);
    }
  });

  it("lets an adviser act for the client in context only", async () => {
    expect((await get("/resourceful/portfolio/benchmark", adviser)).status).toBe(400);
  });
});

describe("investment instructions and payment information (spec 001 §7 'Targets and payment information')", () => {
  const isa = () => Number(sql("SELECT id FROM accounts WHERE description = 'Ellie Stocks and Shares ISA'")[0]!.id);
  type TargetSet = {
    id: number;
    accountid: number;
    description: string;
    securities: Array<{ code: string; name: string; weight: number }>;
  };

  it("answers the ISA's target set with its securities' weights, adding up to 100%", async () => {
    const sets = await ok<TargetSet[]>(`/resourceful/portfolio/targetset?accountid=${isa()}`);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ accountid: isa(), description: "Balanced growth (70/30)" });
    expect(sets[0]!.securities.reduce((sum, s) => sum + s.weight, 0)).toBe(100);
    expect(sets[0]!.securities.find((s) => s.code === "ISF")?.weight).toBe(30);
    // decision 120: by name as people read them, whatever the case ('iShares…' before 'Vanguard…')
    const names = sets[0]!.securities.map((s) => s.name);
    expect(names).toEqual([...names].sort(new Intl.Collator("en", { sensitivity: "base", numeric: true }).compare));
    expect(names.findIndex((n) => n.startsWith("iShares"))).toBeLessThan(
      names.findIndex((n) => n.startsWith("Vanguard")),
    );
    const links = await ok<Array<{ targetsetid: number }>>(`/resourceful/portfolio/account/${isa()}/targetlink`);
    expect(links.map((l) => l.targetsetid)).toEqual([sets[0]!.id]);
    expect(await ok(`/resourceful/portfolio/targetset/${sets[0]!.id}/allocation/security`)).toEqual(
      sets[0]!.securities,
    );
    // another account has none
    expect(await ok(`/resourceful/portfolio/targetset?accountid=${isa() + 1}`)).toEqual([]);
  });

  it("answers the ISA's BPAY biller and bank account, and none for another account", async () => {
    const info = await ok<{
      bpays: Array<{ billerCode: string; reference: string }>;
      bankAccounts: Array<{ bank: string; bsb: string; accountNumber: string }>;
    }>(`/resourceful/portfolio/account/${isa()}/payment_information`);
    expect(info.bpays).toEqual([expect.objectContaining({ billerCode: "254789", reference: "4012 3456 7890" })]);
    expect(info.bankAccounts).toEqual([
      expect.objectContaining({ bank: "Barclays Bank UK plc", bsb: "20-00-00", accountNumber: "43987610" }),
    ]);
    expect(await ok(`/resourceful/portfolio/account/${isa() + 1}/payment_information`)).toMatchObject({
      bpays: [],
      bankAccounts: [],
    });
  });

  it("finds nothing of an account or target set the client does not see", async () => {
    const olivia = Number(sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'")[0]!.id);
    for (const path of [
      `/resourceful/portfolio/account/${olivia}/payment_information`,
      `/resourceful/portfolio/account/${olivia}/targetlink`,
      `/resourceful/portfolio/targetset?accountid=${olivia}`,
      "/resourceful/portfolio/targetset/999/allocation/security",
    ]) {
      expect((await get(path, client)).status, path).toBe(404);
    }
  });
});

describe("transactions by timeframe", () => {
  it("lists the transactions of a named period as the performance calls date it", async () => {
    const rows = await ok<Transaction[]>("/resourceful/portfolio/transaction?accountid=1&timeframe=1Y&page_size=500");
    const count = Number(
      sql(
        "SELECT COUNT(*) AS n FROM transactions WHERE account_id = 1 AND trade_date >= ? AND trade_date <= ?",
        YEAR_AGO,
        TODAY,
      )[0]!.n,
    );
    expect(rows).toHaveLength(count);
    expect(rows.every((t) => t.tradeDate._val >= YEAR_AGO && t.tradeDate._val <= TODAY)).toBe(true);
  });
});
