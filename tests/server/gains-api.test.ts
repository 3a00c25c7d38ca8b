import { describe, expect, it } from "vitest";
import { dealOf } from "../../server/api/portfolio/gains";
import { withDemoPlatform } from "./harness";

// Issue 41 "Realised gains and losses", decisions 201 and 202 (docs/platform-api.md "Realised
// gains"): the disposals of demo.client's taxed accounts by UK tax year, each with the rules that
// identified it, the years' totals, the annual exempt amount and its source, the wrapped accounts
// named as excluded; checked against the transactions the platform lists for the same accounts.

type Money = { code: string; value: { _type: "BigDecimal"; _val: string } };
type WireDate = { _type: "Date"; _val: string };
type Match = {
  rule: string;
  quantity: number;
  proceeds: Money;
  allowable_cost: Money;
  gain: Money;
  acquired_on: WireDate | null;
};
type Disposal = {
  accountid: number;
  account: string;
  date: WireDate;
  security: { description: string; code: string };
  transaction_ids: number[];
  currency: string;
  quantity: number;
  proceeds: Money;
  allowable_cost: Money;
  gain: Money;
  matches: Match[];
};
type Year = {
  tax_year: string;
  start_date: WireDate;
  end_date: WireDate;
  disposals: Disposal[];
  totals: Array<{ currency: string; proceeds: Money; allowable_cost: Money; gains: Money; losses: Money; net: Money }>;
  annual_exempt_amount: { individual: Money; trustees: Money; source: { name: string; url: string } } | null;
};
type Answer = {
  jurisdiction: string;
  accounts: Array<{ accountid: number; description: string; tax_type: string }>;
  excluded_accounts: Array<{ accountid: number; description: string; tax_type: string }>;
  tax_years: Year[];
};
type Transaction = {
  id: number;
  accountId: number;
  type: string;
  tradeDate: WireDate;
  netAmount: Money;
  volume: number;
};

const demo = withDemoPlatform();
const pence = (m: Money) => Math.round(Number(m.value._val) * 100);
const get = <T>(path: string, token = demo.sessions.client) => demo.platform.call<T>(path, { token });

describe("realised gains (GET portfolio/realised_gains)", () => {
  it("covers demo.client's taxed accounts of the view and names the wrapped ones as excluded", async () => {
    const answer = await get<Answer>("/resourceful/portfolio/realised_gains");
    expect(answer.status).toBe(200);
    expect(answer.body.jurisdiction).toBe("GB");
    expect(answer.body.accounts.map((a) => a.description)).toEqual([
      "Joint General Investment Account",
      "Hartley Family Trust account",
    ]);
    expect(answer.body.excluded_accounts.map((a) => [a.description, a.tax_type])).toEqual([
      ["Ellie Stocks and Shares ISA", "ISA"],
      ["Ellie Self-Invested Personal Pension", "PEN"],
    ]);
  });

  it("lists each demo disposal with the rules that identified it, in more than one tax year", async () => {
    const { body } = await get<Answer>("/resourceful/portfolio/realised_gains");
    expect(body.tax_years.length).toBeGreaterThan(1);
    const rulesOf = (code: string) =>
      body.tax_years.flatMap((y) =>
        y.disposals.filter((d) => d.security.code === code).map((d) => d.matches.map((m) => m.rule)),
      );
    expect(rulesOf("AZN")).toContainEqual(["same-day", "section-104"]);
    expect(rulesOf("LAND")).toContainEqual(["thirty-day", "section-104"]);
    expect(rulesOf("ULVR")).toContainEqual(["section-104"]);
    expect(rulesOf("ISF")).toContainEqual(["section-104"]);
    // no disposal has more than was acquired
    for (const y of body.tax_years)
      for (const d of y.disposals) expect(d.matches.map((m) => m.rule)).not.toContain("no-acquisition");
    // newest year first, each disposal inside its year
    const labels = body.tax_years.map((y) => y.tax_year);
    expect([...labels].sort().reverse()).toEqual(labels);
    for (const y of body.tax_years)
      for (const d of y.disposals) {
        expect(d.date._val >= y.start_date._val && d.date._val <= y.end_date._val, d.date._val).toBe(true);
      }
  });

  it("adds up: each disposal's parts to it, and each year's totals to its disposals", async () => {
    const { body } = await get<Answer>("/resourceful/portfolio/realised_gains");
    for (const y of body.tax_years) {
      for (const d of y.disposals) {
        expect(d.matches.reduce((s, m) => s + m.quantity, 0)).toBeCloseTo(d.quantity, 6);
        expect(d.matches.reduce((s, m) => s + pence(m.proceeds), 0)).toBe(pence(d.proceeds));
        expect(d.matches.reduce((s, m) => s + pence(m.allowable_cost), 0)).toBe(pence(d.allowable_cost));
        expect(pence(d.proceeds) - pence(d.allowable_cost)).toBe(pence(d.gain));
      }
      expect(y.totals).toHaveLength(1);
      const [t] = y.totals;
      const gains = y.disposals.filter((d) => pence(d.gain) > 0).reduce((s, d) => s + pence(d.gain), 0);
      const losses = y.disposals.filter((d) => pence(d.gain) < 0).reduce((s, d) => s - pence(d.gain), 0);
      expect(pence(t!.gains)).toBe(gains);
      expect(pence(t!.losses)).toBe(losses);
      expect(pence(t!.net)).toBe(gains - losses);
      expect(pence(t!.proceeds) - pence(t!.allowable_cost)).toBe(gains - losses);
    }
  });

  it("takes the proceeds from the sales and the same day's and 30 days' costs from the purchases, as listed", async () => {
    const { body } = await get<Answer>("/resourceful/portfolio/realised_gains");
    const ids = body.accounts.map((a) => a.accountid).join(",");
    const listed = await get<Transaction[]>(`/resourceful/portfolio/transaction?accountid=${ids}&page_size=2000`);
    const byId = new Map(listed.body.map((t) => [t.id, t]));
    const disposals = body.tax_years.flatMap((y) => y.disposals);
    // every sale is a disposal, and every disposal is sales: proceeds are what they brought
    const sales = listed.body.filter((t) => t.type === "sell");
    expect(disposals.flatMap((d) => d.transaction_ids).sort((a, b) => a - b)).toEqual(
      sales.map((t) => t.id).sort((a, b) => a - b),
    );
    for (const d of disposals) {
      const net = d.transaction_ids.reduce((s, id) => s + pence(byId.get(id)!.netAmount), 0);
      expect(pence(d.proceeds)).toBe(net);
    }
    const purchaseOn = (accountid: number, date: string, code: string) =>
      listed.body.filter(
        (t) => t.accountId === accountid && t.type === "buy" && t.tradeDate._val === date && byCode(t, code),
      );
    const byCode = (t: Transaction, code: string) =>
      disposals.some((d) => d.security.code === code && d.accountid === t.accountId);
    for (const d of disposals)
      for (const m of d.matches.filter((x) => x.rule === "same-day" || x.rule === "thirty-day")) {
        const [bought] = purchaseOn(d.accountid, m.acquired_on!._val, d.security.code);
        // the whole purchase was matched (the demo's repurchases and same-day purchases are smaller than the sales)
        expect(m.quantity).toBe(bought!.volume);
        expect(pence(m.allowable_cost)).toBe(pence(bought!.netAmount));
      }
  });

  it("shows the year's annual exempt amount with its source", async () => {
    const { body } = await get<Answer>("/resourceful/portfolio/realised_gains");
    const year = body.tax_years.find((y) => y.tax_year === "2024-25");
    expect(year?.annual_exempt_amount).toEqual({
      individual: { code: "GBP", value: { _type: "BigDecimal", _val: "3000.00" } },
      trustees: { code: "GBP", value: { _type: "BigDecimal", _val: "1500.00" } },
      source: {
        name: expect.stringContaining("HM Revenue & Customs"),
        url: expect.stringMatching(/^https:\/\/www\.gov\.uk\//),
      },
    });
  });

  it("answers for the accounts asked for, excluding a wrapped one by name; a foreign account is not found", async () => {
    const { body } = await get<Answer>("/resourceful/portfolio/realised_gains");
    const isa = body.excluded_accounts[0]!.accountid;
    const joint = body.accounts[0]!.accountid;
    const asked = await get<Answer>(`/resourceful/portfolio/realised_gains?accountid=${isa},${joint}`);
    expect(asked.status).toBe(200);
    expect(asked.body.accounts.map((a) => a.accountid)).toEqual([joint]);
    expect(asked.body.excluded_accounts.map((a) => a.accountid)).toEqual([isa]);
    expect(asked.body.tax_years.flatMap((y) => y.disposals).every((d) => d.accountid === joint)).toBe(true);
    const foreign = await get<{ api_message: string }>(
      `/resourceful/portfolio/realised_gains?accountid=${joint}`,
      demo.sessions.assets,
    );
    expect(foreign.status).toBe(404);
    const anonymous = await demo.platform.call("/resourceful/portfolio/realised_gains");
    expect(anonymous.status).toBe(401);
  });
});

describe("a deal in the plan currency", () => {
  const row = {
    id: 7,
    securityId: 1,
    tradeDate: "2024-05-01",
    quantityMicros: 10_000_000,
    grossMinor: 100_000,
    netMinor: 100_995,
    code: "SAP",
    exchange: "XETRA",
    isin: null,
    description: "SAP SE",
  };
  // units per GBP on each date: EUR 1.20 on the purchase, 1.10 on the sale
  const rates: Record<string, number> = { "2024-05-01": 1_200_000, "2024-09-02": 1_100_000 };
  const perGbp = (currency: string, date: string) => (currency === "GBP" ? 1_000_000 : (rates[date] as number));

  it("converts each side at its own date's rate: a purchase at its cost with costs, a sale at its net proceeds", () => {
    expect(dealOf({ ...row, type: "buy", currency: "EUR" }, "GBP", perGbp)).toEqual({
      id: 7,
      date: "2024-05-01",
      kind: "acquisition",
      quantityMicros: 10_000_000,
      amountMinor: 84_163, // €1,009.95 / 1.20 = £841.625 → £841.63
    });
    const sale = dealOf(
      { ...row, type: "sell", currency: "EUR", tradeDate: "2024-09-02", netMinor: 99_005 },
      "GBP",
      perGbp,
    );
    expect(sale).toMatchObject({ kind: "disposal", amountMinor: 90_005 }); // €990.05 / 1.10 = £900.045… → £900.05
  });

  it("takes a transfer of a security at its value on the day, and leaves a plan-currency amount as it is", () => {
    expect(dealOf({ ...row, type: "transfer_in", currency: "GBP" }, "GBP", perGbp)).toMatchObject({
      kind: "acquisition",
      amountMinor: 100_000,
    });
    expect(dealOf({ ...row, type: "transfer_out", currency: "GBP" }, "GBP", perGbp)).toMatchObject({
      kind: "disposal",
      amountMinor: 100_000,
    });
  });
});
