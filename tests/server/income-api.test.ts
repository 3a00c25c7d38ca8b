import { beforeAll, describe, expect, it } from "vitest";
import { type ErrorAnswer, START, withPlatform } from "./harness";

// Income received (issue 41, docs/decisions/199-income-received.md): the platform's income call
// adds up, to the penny, the Income rows the transactions call lists for the same accounts and dates,
// in their own currencies and converted at each trade date's rate; months with nothing are 0; the
// tax year is the jurisdiction's; and it asks who is calling as the other portfolio calls do.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type WireDate = { _type: "Date"; _val: string };
type Period = { start_date: WireDate; end_date: WireDate; income: Money };
type Income = {
  report_currency: string;
  tax_year: string;
  end_date: WireDate;
  months: Array<Period & { month: string }>;
  tax_years: Array<Period & { tax_year: number }>;
  holdings: Array<{ accountid: number; security_id: number; description: string; code: string; currency: string }>;
  rows: Array<{
    accountid: number;
    security_id: number;
    month: string;
    tax_year: number;
    native_income: Money;
    income: Money;
    transactions: number;
  }>;
};
type Transaction = {
  accountId: number;
  tradeDate: WireDate;
  type: string;
  nativeCurrency: string;
  nativeTransactionValue: Money;
};

const TODAY = START.slice(0, 10); // 2025-03-14

const harness = withPlatform();
let client: string;
let adviser: string;
beforeAll(async () => {
  client = await harness.platform.session("demo.client");
  adviser = await harness.platform.session("demo.adviser", "adviser");
});

/** Minor units of a wire amount, read from its decimal string (no floating point). */
const minor = (m: Money) => {
  const [whole, cents = ""] = m.value._val.replace("-", "").split(".");
  const n = Number(whole) * 100 + Number(cents.padEnd(2, "0"));
  return m.value._val.startsWith("-") ? -n : n;
};
const sql = (query: string, ...params: unknown[]) =>
  harness.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const ok = async <T>(path: string, token = client): Promise<T> => {
  const answer = await harness.platform.call<T>(path, { token });
  expect(answer.status, path).toBe(200);
  return answer.body;
};

/** Units of `currency` per GBP on `date` (the last rate on or before it), in micros, read from the database. */
const perGbp = (currency: string, date: string) =>
  currency === "GBP"
    ? 1_000_000
    : Number(
        sql(
          "SELECT rate_micros AS r FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1",
          currency,
          date,
        )[0]!.r,
      );
/** An amount converted as a statement converts a line: exactly, rounded once, half away from zero. */
const converted = (amount: number, from: string, to: string, date: string) => {
  if (from === to) return amount;
  const exact = (BigInt(amount) * BigInt(perGbp(to, date)) * 2n) / BigInt(perGbp(from, date));
  return Number((exact + (exact >= 0n ? 1n : -1n)) / 2n);
};

/** The Income rows the transactions call lists for the accounts and dates. */
async function incomeTransactions(accountIds: number[] | null, start: string, stop: string) {
  const ids = accountIds ? `&accountid=${accountIds.join(",")}` : "";
  const list = await ok<Transaction[]>(
    `/resourceful/portfolio/transaction?start_date=${start}&stop_date=${stop}&page_size=2000${ids}`,
  );
  expect(list.length).toBeLessThan(2000);
  return list.filter((t) => t.type === "income");
}

function byCurrency(list: Transaction[]) {
  const sums = new Map<string, number>();
  for (const t of list) sums.set(t.nativeCurrency, (sums.get(t.nativeCurrency) ?? 0) + minor(t.nativeTransactionValue));
  return sums;
}

describe("income received (issue 41)", () => {
  it("adds up each tax year's and each month's Income transactions to the penny, natively and in the report currency", async () => {
    const income = await ok<Income>("/resourceful/portfolio/income?tax_year=GB");
    expect(income.report_currency).toBe("GBP");
    expect(income.end_date._val).toBe(TODAY);
    // three years of demo history: the UK tax years 2021/22 … 2024/25, newest first
    expect(income.tax_years.length).toBeGreaterThanOrEqual(3);
    expect(income.tax_years[0]).toMatchObject({
      tax_year: 2024,
      start_date: { _val: "2024-04-06" },
      end_date: { _val: "2025-04-05" },
    });
    const periods = [...income.tax_years, ...income.months];
    let checked = 0;
    for (const period of periods) {
      const start = period.start_date._val;
      const stop = period.end_date._val < TODAY ? period.end_date._val : TODAY;
      const listed = await incomeTransactions(null, start, stop);
      const report = listed.reduce(
        (sum, t) => sum + converted(minor(t.nativeTransactionValue), t.nativeCurrency, "GBP", t.tradeDate._val),
        0,
      );
      expect(minor(period.income), `${start} to ${stop}`).toBe(report);
      const rows = income.rows.filter((r) =>
        "tax_year" in period ? r.tax_year === period.tax_year : r.month === (period as { month: string }).month,
      );
      expect(rows.reduce((sum, r) => sum + minor(r.income), 0)).toBe(report);
      const native = new Map<string, number>();
      for (const r of rows)
        native.set(r.native_income.code, (native.get(r.native_income.code) ?? 0) + minor(r.native_income));
      expect(native).toEqual(byCurrency(listed));
      expect(rows.reduce((n, r) => n + r.transactions, 0)).toBe(listed.length);
      if (listed.length) checked++;
    }
    // income in several currencies, and the USD holdings' in dollars
    expect(checked).toBeGreaterThan(5);
    expect(new Set(income.rows.map((r) => r.native_income.code))).toEqual(new Set(["GBP", "USD", "EUR"]));
  });

  it("lists the last 24 months, oldest first, the months with no income as 0", async () => {
    const isa = Number(sql("SELECT id FROM accounts WHERE description = 'Ellie Stocks and Shares ISA'")[0]!.id);
    const income = await ok<Income>(`/resourceful/portfolio/income?accountid=${isa}`);
    expect(income.months).toHaveLength(24);
    expect(income.months[0]).toMatchObject({ month: "2023-04", start_date: { _val: "2023-04-01" } });
    expect(income.months[23]).toMatchObject({ month: "2025-03", end_date: { _val: "2025-03-31" } });
    // one account's income comes each quarter: some months have none
    const empty = income.months.filter((m) => minor(m.income) === 0);
    expect(empty.length).toBeGreaterThan(0);
    for (const m of empty) expect(m.income).toEqual({ code: "GBP", value: { _type: "BigDecimal", _val: "0.00" } });
    expect(income.months.filter((m) => minor(m.income) > 0).length).toBeGreaterThan(0);
  });

  it("dates the tax year by the jurisdiction asked for: Australia from 1 July, Canada the calendar year", async () => {
    const au = await ok<Income>("/resourceful/portfolio/income?tax_year=AU");
    expect(au.tax_years[0]).toMatchObject({
      tax_year: 2024,
      start_date: { _val: "2024-07-01" },
      end_date: { _val: "2025-06-30" },
    });
    const ca = await ok<Income>("/resourceful/portfolio/income?tax_year=CA");
    expect(ca.tax_years[0]).toMatchObject({
      tax_year: 2025,
      start_date: { _val: "2025-01-01" },
      end_date: { _val: "2025-12-31" },
    });
    // the same income, shared out differently
    const total = (a: Income) => a.rows.reduce((sum, r) => sum + minor(r.income), 0);
    expect(total(au)).toBe(total(ca));
    expect(au.tax_years.reduce((sum, y) => sum + minor(y.income), 0)).toBe(total(au));
    expect(ca.tax_years.reduce((sum, y) => sum + minor(y.income), 0)).toBe(total(ca));
  });

  it("covers the accounts asked for, per account and holding, in the currency asked for", async () => {
    const accounts = sql("SELECT id FROM accounts WHERE description = 'Ellie Stocks and Shares ISA'").map((r) =>
      Number(r.id),
    );
    const income = await ok<Income>(
      `/resourceful/portfolio/income?accountid=${accounts.join(",")}&report_currency=USD`,
    );
    expect(income.report_currency).toBe("USD");
    expect(new Set(income.rows.map((r) => r.accountid))).toEqual(new Set(accounts));
    expect(income.holdings.every((h) => accounts.includes(h.accountid))).toBe(true);
    const year = income.tax_years[1]!;
    const listed = await incomeTransactions(accounts, year.start_date._val, year.end_date._val);
    expect(listed.length).toBeGreaterThan(0);
    expect(minor(year.income)).toBe(
      listed.reduce(
        (sum, t) => sum + converted(minor(t.nativeTransactionValue), t.nativeCurrency, "USD", t.tradeDate._val),
        0,
      ),
    );
  });

  it("asks who is calling: no session 401, a foreign or unknown account 404, an adviser only for the client in context", async () => {
    expect((await harness.platform.call("/resourceful/portfolio/income", { token: "nobody" })).status).toBe(401);
    const olivia = Number(sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'")[0]!.id);
    for (const path of [
      `/resourceful/portfolio/income?accountid=${olivia}`,
      "/resourceful/portfolio/income?accountid=999",
    ]) {
      const answer = await harness.platform.call<ErrorAnswer>(path, { token: client });
      expect(answer.status, path).toBe(404);
      expect(answer.body.api_message, path).toMatch(/not found$/);
    }
    expect((await harness.platform.call("/resourceful/portfolio/income", { token: adviser })).status).toBe(400);
    for (const query of ["tax_year=US", "months=0", "months=121", "report_currency=pounds"])
      expect(
        (await harness.platform.call(`/resourceful/portfolio/income?${query}`, { token: client })).status,
        query,
      ).toBe(400);
  });
});
