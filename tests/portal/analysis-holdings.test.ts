import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { callLoader } from "./portal-harness";
import { formatMoney } from "~/lib/format";
import { type Account, TODAY, withSeededPortal } from "./seeded-book";

// The analysis page's investments and allocation tabs and its CSV downloads (spec 001 §2.3, §5)
// against a real platform on a fresh seeded database. Holdings are recomputed here from the raw
// rows (./seeded-book.ts), never by the platform's valuation code.

const seeded = withSeededPortal();
let accounts: Account[];

type TotalCell = { text: string; note: number | null };
type Total = { label: string; value: TotalCell; cost: TotalCell; gain: TotalCell };
type Cells = {
  units: string;
  price: string;
  cost: string;
  weight: string;
  value: string;
  gain: string;
  gainPercent: string;
  income: string;
  yield: string;
};
type Position = {
  key: string;
  name: string;
  invalid: boolean;
  code: string;
  cash: boolean;
  currency: string;
  conversion: string | null;
  cells: Cells;
  parcels: Array<{ name: string; cells: Cells }>;
};
type Investments = {
  state: string;
  multiCurrency: boolean;
  headers: Array<{ key: string; href: string | null; ariaSort: string | null }>;
  accounts: Array<{
    key: string;
    name: string;
    currency: string;
    cells: Cells;
    convert: { converted: boolean; toAccount: string; toOriginal: string; hidden: Array<[string, string]> } | null;
    positions: Position[];
    total: Total | null;
  }>;
  total: Total;
  notes: Array<{ key: string; number: number; text: string; link: { href: string; label: string } | null }>;
  links: { csv: string; original: string };
};
type Allocation = {
  state: string;
  collapsed: boolean;
  csv?: string;
  panels: Array<{
    type: string;
    kind: string;
    svg: string;
    table: { rows: Array<{ header: string; cells: string[] }> };
    categories: Array<{
      name: string;
      amount: string;
      percent: string;
      rows: Array<{ investment: string; amount: string }>;
    }>;
    total: { amount: string; percent: string };
    roundingNote: boolean;
  }>;
};
type Page = {
  figures: {
    state: string;
    investments: Investments | null;
    allocation: Allocation | null;
    tabs: Array<{ key: string; current: boolean }>;
  } | null;
};

async function analysis(path: string, cookie = seeded.users.client): Promise<Page> {
  const route = await import("~/routes/clients.analysis/route");
  const response = await callLoader(route, path, cookie);
  expect(response.status, path).toBe(200);
  return ((await (response as Response).json()) as { page: Page }).page;
}
async function download(kind: string, search: string, cookie = seeded.users.client) {
  const route = await import("~/routes/clients.analysis_.download.$kind/route");
  return callLoader(route, `/clients/analysis/download/${kind}${search}`, cookie, { kind });
}
const byName = (name: string) => accounts.find((a) => a.description === name)!;
const gbp = (amount: number) => formatMoney(amount, "GBP", "en-GB", { decimals: 2 });
const gbp0 = (amount: number) => formatMoney(amount, "GBP", "en-GB", { decimals: 0 });

beforeAll(() => {
  const entity = (
    seeded.book.sql("SELECT entity_id AS id FROM users WHERE username = 'demo.client'").get() as { id: number }
  ).id;
  accounts = seeded.book.visibleManagedAccounts(entity);
});

describe("the investments tab (spec 001 §2.3, §5)", () => {
  it("values each holding of the ISA as the book does: units × price × the day's FX", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const view = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments`)).figures!.investments!;
    expect(view.state).toBe("ok");
    const [account] = view.accounts;
    expect(account!.name).toBe(isa.description);
    expect(account!.cells.value).toBe(gbp(seeded.book.valueOf([isa.id], TODAY)));
    const held = seeded.book.holdings([isa.id], TODAY);
    const rows = seeded.book.sql("SELECT id, code, currency, description FROM securities").all() as Array<{
      id: number;
      code: string;
      currency: string;
      description: string;
    }>;
    const shown = account!.positions;
    expect(shown).toHaveLength([...held.values()].filter((q) => q !== 0).length);
    for (const position of shown) {
      const security = rows.find((r) => r.code === position.code)!;
      // decision 106: quantity × price × the day's rate, rounded once to the penny
      expect(position.cells.value, position.code).toBe(
        gbp(seeded.book.lineValue(security.id, held.get(security.id)!, "GBP", TODAY)),
      );
    }
    // sorted by name, the default (spec 001 §2.3)
    const names = shown.map((p) => p.name);
    expect(names).toEqual(
      [...names].sort((a, b) => a.localeCompare(b, "en-GB", { sensitivity: "base", numeric: true })),
    );
    expect(view.headers.find((h) => h.key === "name")!.ariaSort).toBe("ascending");
  });

  it("shows the fund's two purchases, the cash flag, and 'Not available' for converted or unknown costs", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const view = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments`)).figures!.investments!;
    const positions = view.accounts[0]!.positions;
    const fund = positions.find((p) => p.code === "VLS60")!;
    expect(fund.name).toBe("Vanguard LifeStrategy 60% Equity Fund");
    expect(fund.parcels).toHaveLength(2);
    expect(fund.cells.cost).toMatch(/^£/);
    const cash = positions.find((p) => p.code === "GBPCASH")!;
    expect([cash.cash, cash.cells.cost, cash.cells.gain]).toEqual([true, "Not available", "Not available"]);
    // a dollar holding shown in sterling: its cost is known only in dollars (spec 001 §5)
    const apple = positions.find((p) => p.code === "AAPL")!;
    expect([apple.cells.cost, apple.cells.gain]).toEqual(["Not available", "Not available"]);
    // in its original currency the cost and gain show
    const original = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments&show=original`)).figures!
      .investments!;
    const appleOriginal = original.accounts[0]!.positions.find((p) => p.code === "AAPL")!;
    expect(appleOriginal.cells.cost).toMatch(/^US\$|^\$/);
    expect(appleOriginal.currency).toBe("USD");
    expect(original.multiCurrency).toBe(true);
    // spec 001 §2.3: market value, book cost and unrealised gain cannot be sorted in multi-currency mode
    expect(original.headers.filter((h) => h.href === null).map((h) => h.key)).toEqual(["cost", "value", "gain"]);
  });

  it("converts one account's holdings to its currency with the day's rate, and back", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const original = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments&show=original`)).figures!
      .investments!;
    const convert = original.accounts[0]!.convert!;
    expect(convert.converted).toBe(false);
    // what the dropdown's GET form sends when 'Convert to account currency' is chosen
    const sent = new URLSearchParams([...convert.hidden, ["convert", convert.toAccount]]);
    const converted = (await analysis(`/clients/analysis?${sent}`)).figures!.investments!;
    const apple = converted.accounts[0]!.positions.find((p) => p.code === "AAPL")!;
    const rate = seeded.book.convert(1, "USD", "GBP", TODAY);
    expect(apple.conversion).toBe(`Conversion rate: 1 USD = ${rate.toFixed(4)} GBP`);
    expect(apple.currency).toBe("GBP");
    expect(converted.accounts[0]!.convert).toMatchObject({ converted: true, toOriginal: "" });
    const back = new URLSearchParams([...converted.accounts[0]!.convert!.hidden, ["convert", ""]]);
    const again = (await analysis(`/clients/analysis?${back}`)).figures!.investments!;
    expect(again.accounts[0]!.positions.find((p) => p.code === "AAPL")!.currency).toBe("USD");
  });

  it("shows an empty security name as 'INVALID DATA' and sorts by market value, largest first", async () => {
    const joint = byName("Joint General Investment Account");
    const view = (await analysis(`/clients/analysis?id=${joint.id}&tab=investments&sort=value&dir=desc`)).figures!
      .investments!;
    const positions = view.accounts[0]!.positions;
    expect(positions.some((p) => p.invalid && p.name === "INVALID DATA")).toBe(true);
    const values = positions.map((p) => Number(p.cells.value.replace(/[^0-9.-]/g, "")));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(view.headers.find((h) => h.key === "value")!.ariaSort).toBe("descending");
  });
});

describe("the investments table adds up (decision 108)", () => {
  /** A figure as shown, in pennies. */
  const pennies = (text: string) => Number(text.replace(/[^0-9-]/g, ""));

  it("totals each account and all of them: market value, book cost and gain the exact sums of the rows shown", async () => {
    const view = (await analysis("/clients/analysis?tab=investments&show=original&expand=all")).figures!.investments!;
    expect(view.accounts.length).toBeGreaterThan(1);
    expect(view.accounts.filter((a) => a.positions.every((p) => p.currency === a.currency)).length).toBeGreaterThan(0);
    expect(view.accounts.filter((a) => a.total!.cost.text !== "Not available").length).toBeGreaterThan(0);
    for (const account of view.accounts) {
      const total = account.total!;
      expect(total.label).toBe(`Total for ${account.name}`);
      const sameCurrency = account.positions.every((p) => p.currency === account.currency);
      if (sameCurrency)
        expect(pennies(total.value.text), account.name).toBe(
          account.positions.reduce((sum, p) => sum + pennies(p.cells.value), 0),
        );
      const costed = account.positions.filter((p) => !p.cash);
      if (total.cost.text !== "Not available") {
        expect(pennies(total.cost.text), account.name).toBe(costed.reduce((sum, p) => sum + pennies(p.cells.cost), 0));
        expect(pennies(total.gain.text), account.name).toBe(costed.reduce((sum, p) => sum + pennies(p.cells.gain), 0));
      } else {
        // 'Not available' says why, in a note under the table
        expect(view.notes.find((n) => n.number === total.cost.note)?.text, account.name).toBeTruthy();
      }
    }
    // several account currencies: the grand total is in the preferred one, and says so
    expect(view.total.cost.text).toBe("Not available");
  });

  it("in the preferred currency adds the accounts' totals to the grand total, and says how to see the converted book costs", async () => {
    const view = (await analysis("/clients/analysis?tab=investments&expand=all")).figures!.investments!;
    const accountTotals = view.accounts.map((a) => pennies(a.total!.value.text));
    for (const [i, account] of view.accounts.entries()) {
      expect(accountTotals[i], account.name).toBe(
        account.positions.reduce((sum, p) => sum + pennies(p.cells.value), 0),
      );
      // the account's own row reads the same figure as its total
      expect(account.cells.value, account.name).toBe(account.total!.value.text);
    }
    expect(pennies(view.total.value.text)).toBe(accountTotals.reduce((a, b) => a + b, 0));
    expect(view.total.label).toBe("Total");
    // a dollar holding's book cost is 'Not available' in pounds: the note links to the original currency
    const converted = view.notes.find((n) => n.key === "converted")!;
    expect(converted.link).toEqual({
      href: "/clients/analysis?tab=investments&expand=all&show=original",
      label: "Show in original currency",
    });
    expect(view.total.cost).toMatchObject({ text: "Not available", note: converted.number });
  });

  it("shows one account's total once, as the grand total, and its market value is the account's", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const view = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments`)).figures!.investments!;
    expect(view.accounts[0]!.total).toBeNull();
    expect(pennies(view.total.value.text)).toBe(
      view.accounts[0]!.positions.reduce((sum, p) => sum + pennies(p.cells.value), 0),
    );
    expect(view.total.value.text).toBe(view.accounts[0]!.cells.value);
  });
});

describe("the allocation tab (spec 001 §2.3, §4)", () => {
  it("draws three panels whose percentages add up to 100 and whose amounts add up to the value", async () => {
    const own = accounts.filter((a) => !a.isLinked).map((a) => a.id);
    const view = (await analysis("/clients/analysis?tab=allocation")).figures!.allocation!;
    expect(view.state).toBe("ok");
    expect(view.collapsed).toBe(true);
    expect(view.panels.map((p) => [p.type, p.kind])).toEqual([
      ["asset_class", "pie"],
      ["sector", "column"],
      ["region", "pie"],
    ]);
    const total = seeded.book.valueOf(own, TODAY);
    for (const panel of view.panels) {
      expect(panel.svg).toMatch(/^<svg[^>]*role="img"/);
      const percents = panel.categories.map((c) => (c.percent === "<1%" ? 0 : Number(c.percent.replace("%", ""))));
      expect(
        percents.reduce((a, b) => a + b, 0),
        panel.type,
      ).toBe(100);
      const amounts = panel.categories.map((c) => Number(c.amount.replace(/[^0-9.-]/g, "")));
      expect(Math.abs(amounts.reduce((a, b) => a + b, 0) - total), panel.type).toBeLessThan(panel.categories.length);
      // each category's investments, largest first
      for (const category of panel.categories) {
        const rows = category.rows.map((r) => Number(r.amount.replace(/[^0-9.-]/g, "")));
        expect(rows).toEqual([...rows].sort((a, b) => b - a));
      }
    }
    // decision 207: a category in several panels with the same amount (cash) reads the same percentage
    const seen = new Map<string, string>();
    let repeated = 0;
    for (const panel of view.panels)
      for (const c of panel.categories) {
        const key = `${c.name} ${c.amount}`;
        if (seen.has(key)) {
          repeated += 1;
          expect(c.percent, `${panel.type}: ${key}`).toBe(seen.get(key));
        } else seen.set(key, c.percent);
      }
    expect(repeated).toBeGreaterThan(0);
    // each panel's total is the value; a note says so when the whole amounts shown do not add up to it
    const pounds = (text: string) => Number(text.replace(/[^0-9.-]/g, ""));
    for (const panel of view.panels) {
      expect(pounds(panel.total.amount)).toBe(Math.round(total));
      const addsUp =
        panel.categories.reduce((a, c) => a + pounds(c.amount), 0) === pounds(panel.total.amount) &&
        panel.categories.every((c) => c.rows.reduce((a, r) => a + pounds(r.amount), 0) === pounds(c.amount));
      expect(panel.roundingNote, panel.type).toBe(!addsUp);
    }
    // detailed method (the default): the multi-asset fund is split into equities and fixed income
    const assetClasses = view.panels[0]!.categories.map((c) => c.name);
    expect(assetClasses).toContain("Equities");
    expect(assetClasses).not.toContain("Multi-asset");
  });
});

describe("the transactions say which way the money moved (decision 108)", () => {
  type Stored = {
    id: number;
    type: string;
    currency: string;
    gross: number;
    fee: number;
    tax: number;
    net: number;
    cash: number;
  };
  const WORDS: Record<string, [string, string]> = {
    buy: ["Purchase", "Purchase"],
    sell: ["Sale", "Sale"],
    income: ["Income", "Income"],
    fee: ["Fee", "Fee"],
    tax: ["Tax", "Tax"],
    transfer_in: ["Transfer in", "Deposit"],
    transfer_out: ["Transfer out", "Withdrawal"],
  };
  const OUT = new Set(["buy", "fee", "tax", "transfer_out"]);
  const wordOf = (r: Stored) => WORDS[r.type]![r.cash ? 1 : 0];
  const signOf = (r: Stored) => (OUT.has(r.type) ? -1 : 1);

  /** The own account with the most kinds of transaction (a withdrawal among them), and its stored rows since it opened, newest first. */
  function richestAccount() {
    const withdrawals = seeded.book
      .sql(
        "SELECT t.account_id AS id, COUNT(DISTINCT t.type) AS kinds FROM transactions t GROUP BY t.account_id ORDER BY kinds DESC, t.account_id",
      )
      .all() as Array<{ id: number; kinds: number }>;
    const own = new Set(accounts.filter((a) => !a.isLinked).map((a) => a.id));
    const account = accounts.find((a) => a.id === withdrawals.find((w) => own.has(w.id) && hasWithdrawal(w.id))!.id)!;
    const rows = seeded.book
      .sql(
        `SELECT t.id, t.type, t.currency, t.gross_minor AS gross, t.fee_minor AS fee, t.tax_minor AS tax, t.net_minor AS net, s.is_cash AS cash
       FROM transactions t JOIN securities s ON s.id = t.security_id WHERE t.account_id = ? AND t.trade_date <= ? ORDER BY t.trade_date DESC, t.id DESC`,
      )
      .all(account.id, TODAY) as Stored[];
    return { account, rows };
  }
  const hasWithdrawal = (id: number) =>
    Boolean(
      seeded.book
        .sql(
          "SELECT 1 FROM transactions t JOIN securities s ON s.id = t.security_id WHERE t.account_id = ? AND t.type = 'transfer_out' AND s.is_cash = 1",
        )
        .get(id),
    );

  it("names every transaction's type and signs its value on the tab: a withdrawal, a purchase and a fee with a minus sign", async () => {
    const { account, rows } = richestAccount();
    type Tx = {
      id: number;
      type: string;
      value: string;
      valueSpoken: string | null;
      fields: Array<{ label: string; value: string; spoken: string | null }>;
    };
    const pages = Math.min(20, Math.ceil(rows.length / 50));
    const view = (await analysis(`/clients/analysis?id=${account.id}&tab=transactions&range=SI&pages=${pages}`))
      .figures as unknown as { transactions: { state: string; rows: Tx[] } };
    const shown = view.transactions.rows;
    expect(shown.map((r) => r.id)).toEqual(rows.slice(0, shown.length).map((r) => r.id));
    expect(shown.map((r) => [r.type, r.value, r.valueSpoken])).toEqual(
      rows
        .slice(0, shown.length)
        .map((r) => [
          wordOf(r),
          formatMoney((signOf(r) * r.gross) / 100, r.currency, "en-GB", { decimals: 2 }),
          signOf(r) < 0 ? "paid out" : "received",
        ]),
    );
    const words = new Set(shown.map((r) => r.type));
    for (const word of ["Deposit", "Withdrawal", "Purchase", "Fee", "Income"]) expect(words, word).toContain(word);
    expect(shown.find((r) => r.type === "Withdrawal")!.value).toMatch(/^-£/);
    // a fee is its own value, paid out, never repeated as its fees
    const fee = shown.find((r) => r.type === "Fee")!;
    const stored = rows.find((r) => r.id === fee.id)!;
    expect(fee.fields.map((f) => [f.label, f.value])).toEqual(
      expect.arrayContaining([
        ["Value", formatMoney(-stored.gross / 100, stored.currency, "en-GB", { decimals: 2 })],
        ["Value after fees and taxes", formatMoney(-stored.net / 100, stored.currency, "en-GB", { decimals: 2 })],
      ]),
    );
    expect(fee.fields.map((f) => f.label)).not.toContain("Fees");
    // a purchase: its value, its costs and what it paid in all, each paid out, adding up
    const purchase = shown.find((r) => r.type === "Purchase")!;
    const bought = rows.find((r) => r.id === purchase.id)!;
    const field = (label: string) => purchase.fields.find((f) => f.label === label)!;
    expect([
      field("Value").value,
      field("Fees").value,
      field("Taxes").value,
      field("Value after fees and taxes").value,
    ]).toEqual(
      [bought.gross, bought.fee, bought.tax, bought.net].map((m) =>
        formatMoney(-m / 100, bought.currency, "en-GB", { decimals: 2 }),
      ),
    );
    expect(bought.gross + bought.fee + bought.tax).toBe(bought.net);
  });

  it("puts the same words and signed values in the CSV", async () => {
    const { account, rows } = richestAccount();
    const csv = parse(await (await download("transactions", `?id=${account.id}&range=SI`)).text(), {
      bom: true,
    }) as string[][];
    const header = csv[0]!;
    const at = (name: string) => header.indexOf(name);
    expect(
      csv.slice(1).map((r) => [r[at("Type")], Number(r[at("Value")]), Number(r[at("Value after fees and taxes")])]),
    ).toEqual(rows.map((r) => [wordOf(r), (signOf(r) * r.gross) / 100, (signOf(r) * r.net) / 100]));
    // a fee's or a tax's own Fees and Taxes cells are empty: it is the cost
    const costs = csv.slice(1).filter((r) => r[at("Type")] === "Fee" || r[at("Type")] === "Tax");
    expect(costs.length).toBeGreaterThan(0);
    for (const r of costs) expect([r[at("Fees")], r[at("Taxes")]]).toEqual(["", ""]);
  });
});

describe("the transactions CSV in the report currency (decision 207)", () => {
  it("gives each value in sterling at its trade date too: a US dollar account's flows reconcile with its change in value", async () => {
    const usd = byName("James US dollar account");
    const response = await download("transactions", `?id=${usd.id}&range=2Y`);
    expect(response.status).toBe(200);
    const [, start, end] = /-(\d{4}-\d{2}-\d{2})-to-(\d{4}-\d{2}-\d{2})\.csv/.exec(
      response.headers.get("Content-Disposition")!,
    )!;
    const csv = parse(await response.text(), { bom: true }) as string[][];
    const header = csv[0]!;
    const at = (name: string) => header.indexOf(name);
    // the column beside the value, in the report currency
    expect(header.slice(at("Value"), at("Value") + 2)).toEqual(["Value", "Value in GBP at the trade date"]);
    const rows = csv.slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r[at("Currency")]))).toEqual(new Set(["USD"]));
    const pence = (text: string) => Math.round(Number(text) * 100);
    // each value at its own day's rate, to the penny
    for (const r of rows) {
      const sterling = seeded.book.convert(Number(r[at("Value")]), "USD", "GBP", r[at("Trade date")]!);
      expect(
        Math.abs(pence(r[at("Value in GBP at the trade date")]!) - Math.round(sterling * 100)),
      ).toBeLessThanOrEqual(1);
    }
    // the money in and out after the start (the period runs from the end of its first day) is the
    // net flows, and with what the investments earned makes the change in value, to the penny
    const flows = rows.filter(
      (r) => r[at("Trade date")]! > start! && /^(Transfer in|Transfer out|Deposit|Withdrawal)$/.test(r[at("Type")]!),
    );
    expect(flows.length).toBeGreaterThan(0);
    const csvFlows = flows.reduce((sum, r) => sum + pence(r[at("Value in GBP at the trade date")]!), 0);
    const net = seeded.book
      .flowsOf([usd.id], start!, end!, "GBP")
      .reduce((sum, f) => sum + Math.round(f.amount * 100), 0);
    expect(csvFlows).toBe(net);
    const expected = seeded.book.performance([usd.id], start!, "GBP", end);
    const change =
      Math.round(seeded.book.valueOf([usd.id], end!) * 100) - Math.round(seeded.book.valueOf([usd.id], start!) * 100);
    expect(Math.round(expected.movement * 100) + csvFlows).toBe(change);
  });
});

describe("the CSV downloads (beyond the spec)", () => {
  it("downloads the holdings shown as RFC 4180 CSV with a byte-order mark and a file name with the client and the date", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const response = await download("investments", `?id=${isa.id}&tab=investments`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="investments-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      "Account",
      "Security name",
      "Security code",
      "ISIN",
      "Currency",
      "Units",
      "Unit price",
      "Book cost",
      "% Amount",
      "Market value",
      "Unrealised gain",
      "Unrealised gain %",
      "Annual income",
      "% Yield",
    ]);
    const page = (await analysis(`/clients/analysis?id=${isa.id}&tab=investments`)).figures!.investments!;
    expect(rows.slice(1).map((r) => r[2])).toEqual(page.accounts[0]!.positions.map((p) => p.code));
    // each market value as the page shows it, and their sum the account's value to the penny (decision 106)
    const pence = (text: string) => Math.round(Number(text.replace(/[£,]/g, "")) * 100);
    expect(rows.slice(1).map((r) => pence(r[9]!))).toEqual(
      page.accounts[0]!.positions.map((p) => pence(p.cells.value)),
    );
    const total = rows.slice(1).reduce((sum, r) => sum + pence(r[9]!), 0);
    expect(total).toBe(pence(page.accounts[0]!.cells.value));
    expect(total).toBe(Math.round(seeded.book.valueOf([isa.id], TODAY) * 100));
  });

  it("downloads the transactions of the period and neutralises a cell a spreadsheet would run", async () => {
    const isa = byName("Ellie Stocks and Shares ISA");
    const latest = seeded.book
      .sql("SELECT id FROM transactions WHERE account_id = ? ORDER BY trade_date DESC, id DESC LIMIT 1")
      .get(isa.id) as { id: number };
    seeded.book
      .sql("UPDATE transactions SET narrative = ? WHERE id = ?")
      .run('=HYPERLINK("http://example.invalid","Click")', latest.id);
    const response = await download("transactions", `?id=${isa.id}&range=2Y`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /filename="transactions-ellie-hartley-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = parse(await response.text(), { bom: true }) as string[][];
    expect(rows[0]!.slice(0, 3)).toEqual(["Trade date", "Settlement date", "Account"]);
    expect(rows[1]![7]).toBe(`'=HYPERLINK("http://example.invalid","Click")`);
    const twoYears = `${Number(TODAY.slice(0, 4)) - 2}${TODAY.slice(4)}`;
    const count = (
      seeded.book
        .sql("SELECT COUNT(*) AS n FROM transactions WHERE account_id = ? AND trade_date >= ? AND trade_date <= ?")
        .get(isa.id, twoYears, TODAY) as { n: number }
    ).n;
    expect(rows).toHaveLength(count + 1);
  });

  it("downloads each breakdown of the allocation tab with the page's categories, amounts and percentages (decision 208)", async () => {
    const own = accounts.filter((a) => !a.isLinked).map((a) => a.id);
    const page = (await analysis("/clients/analysis?tab=allocation")).figures!.allocation!;
    expect(page.state).toBe("ok");
    expect(page.csv).toBe("/clients/analysis/download/allocation");
    const response = await download("allocation", "");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="allocation-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = parse(await response.text(), { bom: true }) as string[][];
    expect(rows[0]).toEqual(["Breakdown", "Category", "Investment", "Account", "Currency", "Amount", "Percentage"]);
    const pence = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, "")) * 100);
    const TITLES: Record<string, string> = {
      asset_class: "Asset class",
      sector: "Sector",
      region: "Geographic region",
    };
    expect([...new Set(rows.slice(1).map((r) => r[0]))]).toEqual(page.panels.map((p) => TITLES[p.type]));
    for (const panel of page.panels) {
      const block = rows.slice(1).filter((r) => r[0] === TITLES[panel.type]);
      const categories = block.filter((r) => r[2] === "" && r[1] !== "Total");
      // the page's categories, in its order, with its whole percentages ('<1%' is 0) and its amounts in whole pounds
      expect(categories.map((r) => r[1])).toEqual(panel.categories.map((c) => c.name));
      expect(categories.map((r) => (Number(r[6]) === 0 ? "<1%" : `${r[6]}%`))).toEqual(
        panel.categories.map((c) => c.percent),
      );
      expect(categories.map((r) => gbp0(Number(r[5])))).toEqual(panel.categories.map((c) => c.amount));
      // each category's investments as the page lists them, largest first
      for (const category of panel.categories) {
        const investments = block.filter((r) => r[1] === category.name && r[2] !== "");
        expect(investments.map((r) => r[2])).toEqual(category.rows.map((row) => row.investment));
        expect(investments.map((r) => gbp0(Number(r[5])))).toEqual(category.rows.map((row) => row.amount));
        // the investments add up to their category to the penny
        expect(investments.reduce((sum, r) => sum + pence(r[5]!), 0)).toBe(
          pence(block.find((r) => r[1] === category.name && r[2] === "")![5]!),
        );
      }
      // the total: the categories' sum to the penny, the value of the accounts, 100 %
      const total = block.at(-1)!;
      expect(total[1]).toBe("Total");
      expect(pence(total[5]!)).toBe(categories.reduce((sum, r) => sum + pence(r[5]!), 0));
      expect(pence(total[5]!)).toBe(Math.round(seeded.book.valueOf(own, TODAY) * 100));
      expect(total[6]).toBe("100");
    }
  });

  it("refuses a foreign account, an invalid range, an unknown kind, and clients without Portfolio access", async () => {
    expect((await download("investments", "?id=999999").catch((r: Response) => r)).status).toBe(404);
    expect((await download("transactions", "?range=custom&from=31-12-2024&to=01-01-2024")).status).toBe(400);
    expect((await download("holdings", "").catch((r: Response) => r)).status).toBe(404);
    expect((await download("allocation", "?id=999999").catch((r: Response) => r)).status).toBe(404);
    expect((await download("allocation", "", seeded.users.assets).catch((r: Response) => r)).status).toBe(403);
    expect((await download("investments", "", seeded.users.assets).catch((r: Response) => r)).status).toBe(403);
  });
});
