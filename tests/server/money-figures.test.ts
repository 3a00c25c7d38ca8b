import { describe, expect, it } from "vitest";
import type { ReportJobRow } from "../../server/api/reports/valuation";
import { valuationReportInput } from "../../server/api/reports/valuation";
import { withDemoPlatform, START } from "./harness";

// Decision 106 on the seeded book (issue 23's symptoms): Ellie's portfolio total is the sum of its
// accounts as sent; each account's value is the same in the profit analysis, the position call and
// the valuation report's input; a date-range report's value to is its holdings' total. The figures
// are not written down: they are read from the platform's answers and compared with each other, so
// any seed's prices will do.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type Row = {
  level: string;
  key: string;
  accountid: number | null;
  portfolioid?: number;
  value: Money;
  market_value_from: Money;
  market_value_to: Money;
  net_flows: Money;
  movement: Money;
};
type Detail = { end_date: { _val: string }; rows: Row[]; total: Row | null };
type SummaryData = { value: Money };
type Summary = {
  items: Array<{ key: string; accountids: number[]; defaultData: SummaryData; secondaryData: SummaryData }>;
  totals: { defaultData: SummaryData; secondaryData: SummaryData } | null;
};
type Positions = {
  date: { _val: string };
  total_value: Money;
  accounts: Array<{ accountid: number; value: Money; plan_currency_value: Money; annual_income: Money }>;
  positions: Array<{
    accountid: number;
    description: string;
    value: Money;
    plan_currency_value: Money;
    annual_income: Money;
  }>;
};

const TODAY = START.slice(0, 10);
const demo = withDemoPlatform();

/** A wire amount in pence, read from its decimal text (never through a float sum). */
const pence = (m: Money | null | undefined) => {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(m?.value._val ?? "");
  if (!match) throw new Error(`not a two-decimal amount: ${JSON.stringify(m)}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};
const total = (list: Array<Money | null | undefined>) => list.reduce((sum, m) => sum + pence(m), 0);
const sql = (query: string, ...params: unknown[]) =>
  demo.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const ok = async <T>(path: string): Promise<T> => {
  const answer = await demo.platform.call<T>(path, { token: demo.sessions.client });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
};
const ellie = () =>
  sql("SELECT id, entity_id AS entityId FROM users WHERE username = 'demo.client'")[0] as {
    id: number;
    entityId: number;
  };
/** Ellie's own managed accounts, by portfolio. */
const ownAccounts = () =>
  sql(
    `SELECT a.id, a.portfolio_id AS portfolioId, a.description FROM accounts a JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id
      WHERE v.entity_id = ? AND v.is_linked = 0 AND a.service_type <> 'Not managed' ORDER BY a.id`,
    ellie().entityId,
  ) as Array<{ id: number; portfolioId: number; description: string }>;
const MONEY_FIELDS = ["market_value_from", "market_value_to", "net_flows", "movement"] as const;

function reportJob(variables: Record<string, unknown>, templateId: number | null): ReportJobRow {
  const { id, entityId } = ellie();
  return {
    id: "money-test",
    userId: id,
    entityId,
    templateId,
    groupCode: null,
    variables: JSON.stringify(variables),
    status: "running",
    error: null,
    createdAt: START,
    startedAt: START,
    finishedAt: null,
    pdf: null,
  } as ReportJobRow;
}

describe("one set of numbers: rows and totals (decision 106)", () => {
  it("gives Ellie's portfolios as the exact sums of their accounts as sent, and the total as the sum of her accounts", async () => {
    for (const timeframe of ["1Y", "SI", "YTD"]) {
      const detail = await ok<Detail>(
        `/resourceful/portfolio/profit_analysis/detail?timeframe=${timeframe}&grouping=portfolio,account`,
      );
      const portfolioRows = detail.rows.map((r, i) => ({ r, i })).filter(({ r }) => r.level === "portfolio");
      expect(portfolioRows.length).toBeGreaterThan(0);
      for (const { r: row, i: at } of portfolioRows) {
        // the portfolio row is followed by its accounts
        const accounts: Row[] = [];
        for (let i = at + 1; i < detail.rows.length && detail.rows[i]!.level === "account"; i++)
          accounts.push(detail.rows[i]!);
        expect(accounts.length, row.key).toBeGreaterThan(0);
        for (const field of [...MONEY_FIELDS, "value"] as const) {
          expect(pence(row[field]), `${timeframe} ${row.key} ${field}`).toBe(total(accounts.map((a) => a[field])));
        }
        // movement = value to − value from − net flows, to the penny, on every row
        for (const r of [row, ...accounts])
          expect(pence(r.movement), r.key).toBe(
            pence(r.market_value_to) - pence(r.market_value_from) - pence(r.net_flows),
          );
      }
      const own = ownAccounts();
      const ownRows = detail.rows.filter((r) => r.level === "account" && own.some((a) => a.id === r.accountid));
      expect(ownRows).toHaveLength(own.length);
      for (const field of [...MONEY_FIELDS, "value"] as const) {
        expect(pence(detail.total?.[field]), `${timeframe} total ${field}`).toBe(total(ownRows.map((a) => a[field])));
      }
    }
  });

  it("gives the summary's totals and portfolio items' values as the exact sums of its account items", async () => {
    const byAccount = await ok<Summary>(
      "/resourceful/portfolio/summary?level=account&default_timeframe=1Y&secondary_timeframe=SI",
    );
    const byPortfolio = await ok<Summary>(
      "/resourceful/portfolio/summary?level=portfolio&default_timeframe=1Y&secondary_timeframe=SI",
    );
    const own = ownAccounts();
    const ownItems = byAccount.items.filter((i) => own.some((a) => a.id === i.accountids[0]));
    for (const data of ["defaultData", "secondaryData"] as const) {
      // the value at the end (each item's period may start at its own inception, so only the end value is shared)
      expect(pence(byAccount.totals![data].value), `${data} value`).toBe(total(ownItems.map((i) => i[data].value)));
      for (const item of byPortfolio.items) {
        const members = byAccount.items.filter((i) => item.accountids.includes(i.accountids[0]!));
        expect(pence(item[data].value), `${item.key} ${data}`).toBe(total(members.map((m) => m[data].value)));
      }
    }
  });

  it("values each account the same in the profit analysis, the position call and the valuation report, to the penny", async () => {
    // the report prices as the client's capability allows (view_marketdata: delayed); the portal asks the same
    const positions = await ok<Positions>("/resourceful/portfolio/position?pricing_type=delayed");
    const detail = await ok<Detail>(
      "/resourceful/portfolio/profit_analysis/detail?timeframe=1Y&grouping=account&to_pricing_type=delayed&from_pricing_type=delayed",
    );
    const input = valuationReportInput(demo.platform.db, reportJob({ as_at_date: TODAY }, 1), TODAY);
    const own = ownAccounts();
    expect(input.accounts.map((a) => a.name)).toEqual(own.map((a) => a.description));
    for (const account of own) {
      const line = positions.accounts.find((a) => a.accountid === account.id)!;
      const row = detail.rows.find((r) => r.accountid === account.id)!;
      const printed = input.accounts.find((a) => a.name === account.description)!;
      expect(pence(line.value), account.description).toBe(pence(row.value));
      expect(Math.round(printed.total * 100), account.description).toBe(pence(line.value));
      // each printed holding is the position call's figure, and they add up to the account
      const mine = positions.positions.filter((p) => p.accountid === account.id);
      expect(printed.holdings.map((h) => Math.round(h.value * 100))).toEqual(mine.map((p) => pence(p.value)));
      expect(total(mine.map((p) => p.value))).toBe(pence(line.value));
      expect(total(mine.map((p) => p.plan_currency_value))).toBe(pence(line.plan_currency_value));
      expect(total(mine.map((p) => p.annual_income))).toBe(pence(line.annual_income));
    }
    expect(Math.round(input.grandTotal * 100)).toBe(pence(positions.total_value));
    expect(pence(positions.total_value)).toBe(total(positions.accounts.map((a) => a.value)));
    expect(pence(detail.total?.value)).toBe(pence(positions.total_value));
  });

  it("prints one figure for a date-range report's closing value: its holdings' total is the performance's value to", () => {
    for (const account of ownAccounts()) {
      const input = valuationReportInput(
        demo.platform.db,
        reportJob({ from_date: "2024-03-14", to_date: TODAY, report_type: "account", accountid: account.id }, 2),
        TODAY,
      );
      expect(input.accounts).toHaveLength(1);
      expect(input.performance, account.description).not.toBeNull();
      const p = input.performance!;
      expect(Math.round(p.valueTo * 100), account.description).toBe(Math.round(input.grandTotal * 100));
      expect(Math.round(input.accounts[0]!.total * 100)).toBe(Math.round(input.grandTotal * 100));
      expect(Math.round(p.movement * 100)).toBe(
        Math.round(p.valueTo * 100) - Math.round(p.valueFrom * 100) - Math.round(p.netFlows * 100),
      );
    }
  });
});
