import { describe, expect, it } from "vitest";
import { withDemoPlatform, type ErrorAnswer, START } from "./harness";

// spec 001 §3 "Position", §5 display rules, §7 "Positions and allocation" (docs/platform-api.md
// "Portfolio"): positions of a selection on a date, their allocation, FX pairs. Figures are checked
// against the profit analysis (the same value) and against the raw rows of the seeded database.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type WireDate = { _type: "Date"; _val: string };
type Split = { name: string; weight: number };
type SubPosition = {
  row_id: string;
  trade_date: WireDate;
  volume: number;
  native_cost: Money | null;
  native_value: Money;
  native_unrealised_gain: Money | null;
  plan_currency_value: Money;
  value: Money;
};
type Position = {
  row_id: string;
  position_id: number;
  accountid: number;
  security_id: number;
  security: {
    code: string;
    exchange: string;
    isin: string | null;
    sector_name: string;
    asset_class_code: string;
    region: string;
  };
  description: string;
  cash: boolean;
  volume: number;
  native_currency: string;
  native_marketprice: number;
  price_date: WireDate;
  native_value: Money;
  plan_currency: string;
  plan_currency_marketprice: number;
  plan_currency_value: Money;
  value: Money;
  weight: number;
  native_cost: Money | null;
  native_unrealised_gain: Money | null;
  percent_gain_loss: number | null;
  annual_income: Money;
  plan_currency_annual_income: Money;
  native_annual_income: Money;
  gross_annual_income: Money;
  native_gross_annual_income: Money;
  percent_yield: number;
  gross_percent_yield: number;
  fx_rate_to_plan: number | null;
  fx_rate_to_report: number | null;
  asset_class_allocation: Split[];
  regional_allocation: Split[];
  sub_positions: SubPosition[];
};
type AccountLine = {
  accountid: number;
  description: string;
  plan_currency: string;
  value: Money;
  plan_currency_value: Money;
  annual_income: Money;
  plan_currency_annual_income: Money;
  weight: number;
};
type Positions = {
  date: WireDate;
  pricing_type: string;
  report_currency: string;
  total_value: Money;
  accounts: AccountLine[];
  positions: Position[];
};
type Category = {
  key: string;
  name: string;
  value: Money;
  weight: number;
  positions: Array<{
    row_id: string;
    accountid: number;
    account_name: string;
    description: string;
    value: Money;
    weight: number;
  }>;
};
type Allocation = {
  date: WireDate;
  report_currency: string;
  method: string;
  total: Money;
  asset_class?: Category[];
  sector?: Category[];
  region?: Category[];
};
type Row = {
  level: string;
  accountid: number | null;
  value: Money;
  plan_currency_value: Money | null;
  end_date: WireDate;
};
type Detail = { end_date: WireDate; rows: Row[]; total: Row | null };
type Fx = {
  pair: string;
  from_currency: string;
  to_currency: string;
  date: WireDate;
  rate: number;
  last_price: number;
  prev_close_price: number;
};

const TODAY = START.slice(0, 10); // 2025-03-14, a Friday
const PREVIOUS_BUSINESS_DAY = "2025-03-13";
const CLIENT = 1;
const MICROS = 1_000_000;

const demo = withDemoPlatform();

const num = (m: Money | null | undefined) => Number(m?.value._val);
const cents = (m: Money) => Math.round(num(m) * 100);
const sql = (query: string, ...params: unknown[]) =>
  demo.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const get = <T>(path: string, token: string) => demo.platform.call<T>(path, { token });
const ok = async <T>(path: string, token = demo.sessions.client): Promise<T> => {
  const answer = await get<T>(path, token);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
};
const accountId = (description: string) =>
  Number(sql("SELECT id FROM accounts WHERE description = ?", description)[0]!.id);
const ownManaged = () =>
  sql(
    `SELECT a.id FROM accounts a JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
      WHERE v.entity_id = ? AND v.is_linked = 0 AND a.service_type <> 'Not managed' ORDER BY a.id`,
    CLIENT,
  ).map((r) => Number(r.id));
const sumOf = (values: number[]) => values.reduce((s, v) => s + v, 0);
/** Units of `currency` for one GBP on or before `date`. */
const perGbp = (currency: string, date: string) =>
  currency === "GBP"
    ? 1
    : Number(
        sql(
          "SELECT rate_micros AS r FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1",
          currency,
          date,
        )[0]!.r,
      ) / MICROS;

describe("positions (spec 001 §3 'Position', §7)", () => {
  it("answers the client's own managed accounts' positions in account then description order, in the contract's shape", async () => {
    const answer = await ok<Positions>("/resourceful/portfolio/position");
    expect(answer).toMatchObject({
      date: { _type: "Date", _val: TODAY },
      pricing_type: "close",
      report_currency: "GBP",
    });
    expect(answer.accounts.map((a) => a.accountid)).toEqual(ownManaged());
    const ids = new Set(ownManaged());
    expect(answer.positions.length).toBeGreaterThan(10);
    expect(answer.positions.every((p) => ids.has(p.accountid))).toBe(true);
    const order = answer.positions.map((p) => [p.accountid, p.description] as const);
    expect([...order].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))).toEqual(order);
    for (const p of answer.positions) {
      expect(p.row_id).toBe(`${p.accountid}-${p.security_id}`);
      expect(p.value.code).toBe("GBP");
      expect(p.native_value.code).toBe(p.native_currency);
      expect(p.plan_currency_value.code).toBe(p.plan_currency);
      expect(p.price_date._val <= PREVIOUS_BUSINESS_DAY).toBe(true); // a close is never today's price
      expect(num(p.native_value)).toBeCloseTo(p.volume * p.native_marketprice, 1);
      expect(num(p.value)).toBeCloseTo(num(p.native_value) * (p.fx_rate_to_report as number), 1);
      expect(num(p.plan_currency_value)).toBeCloseTo(num(p.native_value) * (p.fx_rate_to_plan as number), 1);
      expect(p.plan_currency_marketprice).toBeCloseTo(p.native_marketprice * (p.fx_rate_to_plan as number), 5);
      expect(num(p.annual_income)).toBeCloseTo((num(p.value) * p.percent_yield) / 100, 1);
      expect(num(p.gross_annual_income)).toBeCloseTo((num(p.value) * p.gross_percent_yield) / 100, 1);
      expect(p.asset_class_allocation.length).toBeGreaterThan(0);
      expect(sumOf(p.regional_allocation.map((r) => r.weight))).toBe(100);
    }
    expect(new Set(answer.positions.map((p) => p.position_id)).size).toBe(answer.positions.length);
    // the same position on a second call keeps its id
    expect((await ok<Positions>("/resourceful/portfolio/position")).positions.map((p) => p.position_id)).toEqual(
      answer.positions.map((p) => p.position_id),
    );
  });

  it("adds up to the profit analysis' value of the same accounts and end, weights to 100%", async () => {
    const answer = await ok<Positions>("/resourceful/portfolio/position");
    const detail = await ok<Detail>("/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=account");
    expect(detail.end_date._val).toBe(answer.date._val);
    expect(answer.total_value).toEqual(detail.total?.value);
    // each position is rounded to the penny once; the total is their exact sum (decision 106)
    expect(sumOf(answer.positions.map((p) => cents(p.value)))).toBe(cents(answer.total_value));
    expect(sumOf(answer.accounts.map((a) => cents(a.value)))).toBe(cents(answer.total_value));
    expect(Math.abs(sumOf(answer.positions.map((p) => p.weight)) - 100)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(sumOf(answer.accounts.map((a) => a.weight)) - 100)).toBeLessThanOrEqual(0.01);
    // the rows also list the linked accounts, which the total leaves out
    const rows = detail.rows.filter((r) => ownManaged().includes(r.accountid as number));
    expect(rows.map((r) => r.accountid)).toEqual(answer.accounts.map((a) => a.accountid));
    for (const row of rows) {
      const line = answer.accounts.find((a) => a.accountid === row.accountid)!;
      expect(line.value, String(row.accountid)).toEqual(row.value);
      expect(line.plan_currency_value).toEqual(row.plan_currency_value);
      const mine = answer.positions.filter((p) => p.accountid === row.accountid);
      expect(sumOf(mine.map((p) => cents(p.value)))).toBe(cents(line.value));
      expect(sumOf(mine.map((p) => cents(p.plan_currency_value)))).toBe(cents(line.plan_currency_value));
      expect(sumOf(mine.map((p) => cents(p.annual_income)))).toBe(cents(line.annual_income));
      for (const p of mine) {
        // the parcels share out the position's value; the gain is value − cost to the penny
        const covered = Math.round(sumOf(p.sub_positions.map((x) => x.volume)) * 1e6) === Math.round(p.volume * 1e6);
        if (p.sub_positions.length && covered)
          expect(sumOf(p.sub_positions.map((x) => cents(x.value))), p.row_id).toBe(cents(p.value));
        if (p.native_cost && p.native_unrealised_gain)
          expect(cents(p.native_unrealised_gain)).toBe(cents(p.native_value) - cents(p.native_cost));
      }
    }
  });

  it("adds up for a USD-plan account in its plan currency and in sterling, and in a report currency of dollars", async () => {
    const usd = accountId("James US dollar account");
    const answer = await ok<Positions>(`/resourceful/portfolio/position?accountid=${usd}`);
    const detail = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=account&accountid=${usd}`,
    );
    expect(answer.total_value).toEqual(detail.total?.value);
    expect(answer.accounts).toHaveLength(1);
    expect(answer.accounts[0]).toMatchObject({
      accountid: usd,
      plan_currency: "USD",
      value: detail.rows[0]!.value,
      plan_currency_value: detail.rows[0]!.plan_currency_value,
    });
    const rate = perGbp("USD", PREVIOUS_BUSINESS_DAY);
    for (const p of answer.positions) {
      expect(p.plan_currency).toBe("USD");
      expect(p).toMatchObject({ native_currency: "USD", fx_rate_to_plan: 1 });
      expect(p.fx_rate_to_report).toBeCloseTo(1 / rate, 9);
      // withholding tax on US income in a personal account
      expect(p.percent_yield).toBeCloseTo(p.gross_percent_yield * 0.85, 4);
    }
    const inDollars = await ok<Positions>(`/resourceful/portfolio/position?accountid=${usd}&currency=USD`);
    const detailInDollars = await ok<Detail>(
      `/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=all&accountid=${usd}&report_currency=USD`,
    );
    expect(inDollars.report_currency).toBe("USD");
    expect(inDollars.total_value).toEqual(detailInDollars.total?.value);
    expect(inDollars.total_value).toEqual(answer.accounts[0]!.plan_currency_value);
    // report_currency is an alias of currency
    expect(await ok<Positions>(`/resourceful/portfolio/position?accountid=${usd}&report_currency=USD`)).toEqual(
      inDollars,
    );
  });

  it("values a past date, holds back today, and takes no later date than today", async () => {
    const past = await ok<Positions>("/resourceful/portfolio/position?date=2024-06-03");
    const detail = await ok<Detail>(
      "/resourceful/portfolio/profit_analysis/detail?start_date=2024-01-02&end_date=2024-06-03&grouping=all",
    );
    expect(past.date._val).toBe("2024-06-03");
    expect(past.total_value).toEqual(detail.total?.value);
    expect(past.positions.every((p) => p.price_date._val <= "2024-06-03")).toBe(true);
    const held = await ok<Positions>("/resourceful/portfolio/position?hold_back_period=true");
    expect(held.date._val).toBe(PREVIOUS_BUSINESS_DAY);
    expect((await ok<Positions>("/resourceful/portfolio/position?date=2030-01-01")).date._val).toBe(TODAY);
    // delayed prices take today's
    const delayed = await ok<Positions>("/resourceful/portfolio/position?pricing_type=delayed");
    expect(delayed.pricing_type).toBe("delayed");
    expect(delayed.positions.some((p) => p.price_date._val === TODAY)).toBe(true);
    const detailDelayed = await ok<Detail>(
      "/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=all&to_pricing_type=delayed",
    );
    expect(delayed.total_value).toEqual(detailDelayed.total?.value);
  });

  it("keeps the parcels still held after the seeded partial sale, oldest first, at their FIFO book cost", async () => {
    const answer = await ok<Positions>("/resourceful/portfolio/position");
    // an independent FIFO over the raw rows of every (non-cash) holding
    const expected = (accountid: number, securityId: number) => {
      const lots: Array<{ date: string; q: number; cost: number }> = [];
      for (const t of sql(
        "SELECT type, trade_date AS d, quantity_micros AS q, net_minor AS net FROM transactions WHERE account_id = ? AND security_id = ? AND type IN ('buy','sell','transfer_in','transfer_out') ORDER BY trade_date, id",
        accountid,
        securityId,
      )) {
        if (t.type === "buy" || t.type === "transfer_in")
          lots.push({ date: String(t.d), q: Number(t.q), cost: Number(t.net) / 100 });
        else {
          let left = Number(t.q);
          while (left > 0) {
            const first = lots[0]!;
            const take = Math.min(left, first.q);
            first.cost -= (first.cost * take) / first.q;
            first.q -= take;
            left -= take;
            if (first.q === 0) lots.shift();
          }
        }
      }
      return lots;
    };
    const sold = sql(
      `SELECT DISTINCT account_id AS a, security_id AS s FROM transactions WHERE type = 'sell' AND account_id IN (${ownManaged().join(",")})`,
    );
    expect(sold.length).toBeGreaterThan(0);
    let checked = 0;
    for (const p of answer.positions.filter((x) => !x.cash)) {
      const lots = expected(p.accountid, p.security_id);
      expect(
        p.sub_positions.map((s) => [s.trade_date._val, s.volume]),
        p.row_id,
      ).toEqual(lots.map((l) => [l.date, l.q / MICROS]));
      expect(num(p.native_cost)).toBeCloseTo(sumOf(lots.map((l) => l.cost)), 2);
      expect(num(p.native_unrealised_gain)).toBeCloseTo(num(p.native_value) - num(p.native_cost), 1);
      expect(p.percent_gain_loss).toBeCloseTo(
        ((num(p.native_value) - num(p.native_cost)) / num(p.native_cost)) * 100,
        1,
      );
      expect(sumOf(p.sub_positions.map((s) => s.volume))).toBeCloseTo(p.volume, 6);
      p.sub_positions.forEach((s, i) => expect(s.row_id).toBe(`${p.row_id}-${i + 1}`));
      if (sold.some((s) => s.a === p.accountid && s.s === p.security_id)) checked++;
    }
    expect(checked).toBeGreaterThan(0);
    // the ISA's partial sale (30% of its second holding, bought once): a third of the cost is gone
    const isa = accountId("Ellie Stocks and Shares ISA");
    const azn = answer.positions.find((p) => p.accountid === isa && p.security.code === "AZN")!;
    const [bought] = sql(
      "SELECT quantity_micros AS q, net_minor AS net FROM transactions WHERE account_id = ? AND security_id = ? AND type = 'buy'",
      isa,
      azn.security_id,
    );
    expect(azn.volume).toBeLessThan(Number(bought!.q) / MICROS);
    expect(num(azn.native_cost)).toBeCloseTo(
      ((Number(bought!.net) / 100) * (azn.volume * MICROS)) / Number(bought!.q),
      2,
    );
  });

  it("shows the multi-asset fund with its two in-specie parcels and its look-through splits", async () => {
    const answer = await ok<Positions>("/resourceful/portfolio/position");
    const fund = answer.positions.find((p) => p.security.code === "VLS60")!;
    expect(fund).toMatchObject({
      accountid: accountId("Ellie Stocks and Shares ISA"),
      description: "Vanguard LifeStrategy 60% Equity Fund",
      cash: false,
      security: {
        exchange: "FUND",
        isin: "GB00B3TYHH97",
        sector_name: "Multi-asset",
        asset_class_code: "MIXED",
        region: "Global",
      },
      gross_percent_yield: 1.9,
      percent_yield: 1.9,
      asset_class_allocation: [
        { name: "Equities", weight: 60 },
        { name: "Fixed income", weight: 40 },
      ],
      regional_allocation: [
        { name: "United Kingdom", weight: 25 },
        { name: "North America", weight: 40 },
        { name: "Europe", weight: 20 },
        { name: "Asia Pacific", weight: 15 },
      ],
    });
    expect(fund.sub_positions).toHaveLength(2);
    const transfers = sql(
      "SELECT trade_date AS d, net_minor AS net FROM transactions WHERE security_id = ? ORDER BY trade_date",
      fund.security_id,
    );
    expect(fund.sub_positions.map((s) => [s.trade_date._val, num(s.native_cost)])).toEqual(
      transfers.map((t) => [t.d, Number(t.net) / 100]),
    );
    expect(
      Math.abs(sumOf(fund.sub_positions.map((s) => cents(s.native_value))) - cents(fund.native_value)),
    ).toBeLessThanOrEqual(1);
    // the returns engine counts an in-specie transfer at its market value on the day, as its net
    const flows = await ok<{ flows: Array<{ date: WireDate; accountid: number; amount: Money }> }>(
      `/resourceful/portfolio/profit_analysis/cashflow?timeframe=1Y&accountid=${fund.accountid}`,
    );
    const second = transfers[1]!;
    expect(flows.flows.filter((f) => f.date._val === second.d).map((f) => num(f.amount))).toEqual([
      Number(second.net) / 100,
    ]);
    // other securities default to their own asset class and region
    const gilt = answer.positions.find((p) => p.security.code === "VGOV")!;
    expect(gilt.asset_class_allocation).toEqual([{ name: "Fixed income", weight: 100 }]);
    expect(gilt.regional_allocation).toEqual([{ name: "United Kingdom", weight: 100 }]);
  });

  it("answers a security without a name with an empty description, and flags cash lines (spec 001 §5)", async () => {
    const answer = await ok<Positions>("/resourceful/portfolio/position");
    const nameless = answer.positions.find((p) => p.security.code === "XDLST")!;
    expect(nameless).toMatchObject({
      accountid: accountId("Joint General Investment Account"),
      description: "",
      cash: false,
      security: { isin: null },
    });
    expect(nameless.sub_positions).toHaveLength(1);
    const cashLines = answer.positions.filter((p) => p.cash);
    expect(cashLines.length).toBeGreaterThan(0);
    for (const p of answer.positions)
      expect(p.cash, p.row_id).toBe(
        p.security.exchange.toLowerCase() === "cash" || p.security.code.toLowerCase() === "cash",
      );
    for (const p of cashLines) {
      expect(p).toMatchObject({
        native_cost: null,
        native_unrealised_gain: null,
        percent_gain_loss: null,
        sub_positions: [],
        native_marketprice: 1,
      });
    }
  });

  it("answers the client's own accounts of a group, filters by portfolio, and refuses what is not seen", async () => {
    const isas = await ok<Positions>("/resourceful/portfolio/group/account/code/HARTLEY-ISA/position");
    expect(isas.accounts.map((a) => a.accountid)).toEqual([accountId("Ellie Stocks and Shares ISA")]);
    const portfolio = Number(sql("SELECT id FROM portfolios WHERE name = 'Joint portfolio'")[0]!.id);
    const joint = await ok<Positions>(`/resourceful/portfolio/position?portfolioid=${portfolio}`);
    expect(joint.accounts.map((a) => a.accountid)).toEqual([accountId("Joint General Investment Account")]);
    const olivia = accountId("Olivia Junior ISA");
    for (const path of [
      `/resourceful/portfolio/position?accountid=${olivia}`,
      "/resourceful/portfolio/position?accountid=999",
      "/resourceful/portfolio/position?portfolioid=999",
      "/resourceful/portfolio/group/account/code/NOPE/position",
      `/resourceful/portfolio/allocation?accountid=${olivia}`,
    ]) {
      const answer = await get<ErrorAnswer>(path, demo.sessions.client);
      expect(answer.status, path).toBe(404);
      expect(answer.body.api_message, path).toMatch(/not found$/);
    }
  });

  it("refuses another aggregation, a bad date, prices the client may not see; an adviser needs a client in context", async () => {
    for (const query of [
      "aggregation=security",
      "date=2025-02-30",
      "pricing_type=open",
      "currency=pounds",
      "accountid=x",
    ]) {
      const answer = await get<ErrorAnswer>(`/resourceful/portfolio/position?${query}`, demo.sessions.client);
      expect(answer.status, query).toBe(400);
    }
    expect(
      (await get("/resourceful/portfolio/position?aggregation=account&fields=value,weight", demo.sessions.client))
        .status,
    ).toBe(200);
    expect((await get("/resourceful/portfolio/position?pricing_type=live", demo.sessions.client)).status).toBe(403);
    expect((await get("/resourceful/portfolio/position?pricing_type=delayed", demo.sessions.assets)).status).toBe(403);
    const others = await get<ErrorAnswer>("/resourceful/portfolio/summary", demo.sessions.adviser);
    for (const path of [
      "/resourceful/portfolio/position",
      "/resourceful/portfolio/allocation",
      "/resourceful/portfolio/security/USDGBP/FX",
    ]) {
      const answer = await get<ErrorAnswer>(path, demo.sessions.adviser);
      expect(answer.status, path).toBe(others.status);
      expect(answer.body, path).toEqual(others.body);
    }
    expect(others.body.api_message).toBe("I am not a clientUser and no client in context");
    expect((await get("/resourceful/portfolio/position", "nobody")).status).toBe(401);
  });

  it("answers a client without accounts with nothing", async () => {
    const none = await ok<Positions>("/resourceful/portfolio/position", demo.sessions.assets);
    expect(none).toMatchObject({ accounts: [], positions: [], total_value: { code: "GBP", value: { _val: "0.00" } } });
  });
});

describe("allocation (spec 001 §2.3 allocation tab)", () => {
  const fundRows = (categories: Category[] | undefined) =>
    (categories ?? []).flatMap((c) =>
      c.positions
        .filter((p) => p.description.startsWith("Vanguard LifeStrategy"))
        .map((p) => ({ key: c.key, value: num(p.value) })),
    );

  it("splits the multi-asset fund 60/40 only in the detailed view", async () => {
    const positions = await ok<Positions>("/resourceful/portfolio/position");
    const fund = positions.positions.find((p) => p.security.code === "VLS60")!;
    const principal = await ok<Allocation>("/resourceful/portfolio/allocation?allocation_method=principal");
    const detailed = await ok<Allocation>("/resourceful/portfolio/allocation");
    expect(principal.method).toBe("principal");
    expect(detailed.method).toBe("detailed");
    expect(fundRows(principal.asset_class)).toEqual([{ key: "MIXED", value: num(fund.value) }]);
    expect(principal.asset_class!.find((c) => c.key === "MIXED")?.name).toBe("Multi-asset");
    const split = fundRows(detailed.asset_class);
    expect(split.map((s) => s.key).sort()).toEqual(["EQUITY", "FIXED"]);
    expect(split.find((s) => s.key === "EQUITY")!.value).toBeCloseTo(num(fund.value) * 0.6, 2);
    expect(split.find((s) => s.key === "FIXED")!.value).toBeCloseTo(num(fund.value) * 0.4, 2);
    expect(detailed.asset_class!.some((c) => c.key === "MIXED")).toBe(false);
    expect(principal.region!.find((c) => c.key === "Global")?.positions.map((p) => p.row_id)).toEqual([fund.row_id]);
    expect(detailed.region!.some((c) => c.key === "Global")).toBe(false);
    expect(
      fundRows(detailed.region)
        .map((r) => r.key)
        .sort(),
    ).toEqual(["Asia Pacific", "Europe", "North America", "United Kingdom"]);
    // sectors are the same in both
    expect(detailed.sector).toEqual(principal.sector);
    expect(principal.sector!.find((c) => c.name === "Unclassified")?.positions[0]).toMatchObject({
      description: "",
      account_name: "Joint General Investment Account",
    });
  });

  it("adds categories up to the total to the cent, in value order, with weights of the total", async () => {
    const positions = await ok<Positions>("/resourceful/portfolio/position");
    for (const method of ["principal", "detailed"]) {
      const answer = await ok<Allocation>(`/resourceful/portfolio/allocation?allocation_method=${method}`);
      expect(answer.total).toEqual(positions.total_value);
      expect(answer.date._val).toBe(TODAY);
      for (const type of ["asset_class", "sector", "region"] as const) {
        const categories = answer[type]!;
        expect(sumOf(categories.map((c) => cents(c.value))), `${method} ${type}`).toBe(cents(answer.total));
        expect(Math.abs(sumOf(categories.map((c) => c.weight)) - 100)).toBeLessThanOrEqual(0.01);
        const values = categories.map((c) => num(c.value));
        expect([...values].sort((a, b) => b - a)).toEqual(values);
        for (const c of categories) {
          const inside = c.positions.map((p) => num(p.value));
          expect([...inside].sort((a, b) => b - a)).toEqual(inside);
          expect(Math.abs(sumOf(c.positions.map((p) => cents(p.value))) - cents(c.value))).toBeLessThanOrEqual(
            c.positions.length,
          );
          expect(c.weight).toBeCloseTo((num(c.value) / num(answer.total)) * 100, 2);
        }
      }
      // every position is in exactly one sector
      expect(answer.sector!.flatMap((c) => c.positions.map((p) => p.row_id)).sort()).toEqual(
        positions.positions.map((p) => p.row_id).sort(),
      );
    }
  });

  it("answers only the types asked for, and refuses an unknown type or method", async () => {
    const answer = await ok<Allocation>("/resourceful/portfolio/allocation?types=sector&allocation_method=principal");
    expect(Object.keys(answer).sort()).toEqual(["date", "method", "report_currency", "sector", "total"]);
    const two = await ok<Allocation>("/resourceful/portfolio/allocation?types=asset_class,region&currency=EUR");
    expect(two.report_currency).toBe("EUR");
    expect(two.sector).toBeUndefined();
    expect(two.asset_class?.[0]?.value.code).toBe("EUR");
    for (const query of ["types=country", "allocation_method=both"]) {
      expect((await get(`/resourceful/portfolio/allocation?${query}`, demo.sessions.client)).status, query).toBe(400);
    }
  });
});

describe("FX pairs (spec 001 §7 GET portfolio/security/{pair}/FX)", () => {
  it("answers the cross rate via sterling on the date, today and at the previous close", async () => {
    const answer = await ok<Fx>("/resourceful/portfolio/security/USDGBP/FX?date=2024-06-01");
    expect(answer).toMatchObject({
      pair: "USDGBP",
      from_currency: "USD",
      to_currency: "GBP",
      date: { _type: "Date", _val: "2024-06-01" },
    });
    // a Saturday takes Friday's rate
    expect(answer.rate).toBeCloseTo(1 / perGbp("USD", "2024-05-31"), 9);
    expect(answer.last_price).toBeCloseTo(1 / perGbp("USD", TODAY), 9);
    expect(answer.prev_close_price).toBeCloseTo(1 / perGbp("USD", PREVIOUS_BUSINESS_DAY), 9);
    const cross = await ok<Fx>("/resourceful/portfolio/security/EURUSD/FX");
    expect(cross.date._val).toBe(TODAY);
    expect(cross.rate).toBeCloseTo(perGbp("USD", TODAY) / perGbp("EUR", TODAY), 9);
    expect(cross.rate).toBe(cross.last_price);
    expect(await ok<Fx>("/resourceful/portfolio/security/GBPGBP/FX")).toMatchObject({
      rate: 1,
      last_price: 1,
      prev_close_price: 1,
    });
  });

  it("answers 404 for a currency without rates and 400 for a malformed pair", async () => {
    const unknown = await get<ErrorAnswer>("/resourceful/portfolio/security/USDXYZ/FX", demo.sessions.client);
    expect(unknown.status).toBe(404);
    expect(unknown.body.api_message).toBe("FX rate USDXYZ not found");
    expect((await get("/resourceful/portfolio/security/USDGB/FX", demo.sessions.client)).status).toBe(400);
    expect((await get("/resourceful/portfolio/security/USDGBP/FX?date=2024-13-01", demo.sessions.client)).status).toBe(
      400,
    );
  });

  it("answers inside a batch, as the portal asks for it", async () => {
    const answer = await demo.platform.call<Array<{ name: string; code: number; body: string }>>("/resourceful", {
      method: "POST",
      token: demo.sessions.client,
      body: {
        batch: [
          { name: "usd", method: "GET", url: "portfolio/security/USDGBP/FX?fields=last_price,prev_close_price" },
          { name: "xyz", method: "GET", url: "portfolio/security/XYZGBP/FX" },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.map((r) => [r.name, r.code])).toEqual([
      ["usd", 200],
      ["xyz", 404],
    ]);
    expect((JSON.parse(answer.body[0]!.body) as Fx).last_price).toBeCloseTo(1 / perGbp("USD", TODAY), 9);
  });
});
