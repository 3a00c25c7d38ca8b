import { beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { twr } from "../../server/domain/returns";
import { thrown, callLoader } from "./portal-harness";
import { type Account, type Expected, ONE_YEAR_BEFORE, sinceInception, TODAY, withSeededPortal } from "./seeded-book";

// The analysis page's loader (spec 001 §2.2–2.4) against a real platform on a fresh seeded
// database. Its figures are recomputed here from the raw rows (./seeded-book.ts), never by the
// platform's performance code.

const seeded = withSeededPortal();
let accounts: Account[];
let own: Account[];

type Figure = { text: string; negative: boolean };
type Performance = { period: Figure; annual: Figure | null; since: string | null } | null;
type Row = {
  key: string;
  name: string;
  accountCount: number | null;
  value: string;
  performance: Performance;
  movement: Figure;
  href: string;
};
type Chart = {
  state: string;
  caption: string;
  legend: Array<{ label: string }>;
  table: { columns: string[]; rows: Array<{ header: string; cells: string[] }> };
  interactive: { series: Array<{ id: string; label: string; points: Array<{ date: string; value: number }> }> };
};
type Figures = {
  state: string;
  period: string;
  value: string;
  performance: Performance;
  movement: Figure;
  chart: Chart;
  accounts: { title: string; collection: string; sections: Array<{ heading: string; rows: Row[] }> } | null;
  tabs: Array<{ key: string; current: boolean }>;
  transactions: {
    state: string;
    rows: Array<{ id: number; tradeDate: string; value: string; account: string }>;
    moreHref: string | null;
  } | null;
  instructions: { state: string; description: string; securities: Array<{ code: string; weight: string }> } | null;
  payment: { state: string; bpays: unknown[]; banks: Array<{ codes: Array<{ label: string; value: string }> }> } | null;
  noTransactions: boolean;
};
type Page = {
  heading: string;
  crumbs: Array<{ name: string; href: string | null }>;
  backHref: string | null;
  notFound: boolean;
  range: { name: string; from: string; to: string; earliest: string | null; errors: Record<string, string> };
  figures: Figures | null;
};
type Data = { page: Page; backHref: string };

async function analysis(path: string, cookie = seeded.users.client, status = 200): Promise<Page> {
  const route = await import("~/routes/clients.analysis/route");
  const response = await callLoader(route, path, cookie);
  expect(response.status, path).toBe(status);
  return ((await response.json()) as Data).page;
}
function ok(page: Page): Figures {
  expect(page.figures?.state).toBe("ok");
  return page.figures!;
}

const ids = (list: readonly Account[]) => list.map((a) => a.id);
const inPortfolio = (name: string) => accounts.filter((a) => a.portfolio === name);
const money = (amount: number, decimals: number) => formatMoney(amount, "GBP", "en-GB", { decimals });
const percent2 = new Intl.NumberFormat("en-GB", {
  style: "percent",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});
const figureOf = (text: string, amount: number): Figure => ({ text, negative: amount < 0 });
const performanceText = (e: Expected): Performance => ({
  period: figureOf(percent2.format(e.period), e.period),
  annual: e.annualised === null ? null : figureOf(percent2.format(e.annualised), e.annualised),
  // a selection that began inside the range is labelled with the date it is measured from (decision 109)
  since: e.since !== null && e.since > e.start ? formatDate(e.since, "en-GB", "long") : null,
});
/** What the tiles (0 decimals) or the table (2) show for some accounts over a period. */
function expected(accountIds: readonly number[], start: string, decimals: number, end = TODAY) {
  const e = seeded.book.performance(accountIds, start, "GBP", end);
  return {
    value: money(e.value, decimals),
    performance: performanceText(e),
    movement: figureOf(money(e.movement, decimals), e.movement),
  };
}
const tiles = (f: Figures) => ({ value: f.value, performance: f.performance, movement: f.movement });
const rowFigures = (r: Row) => ({ value: r.value, performance: r.performance, movement: r.movement });

beforeAll(() => {
  accounts = seeded.book.visibleManagedAccounts(1);
  own = accounts.filter((a) => !a.isLinked);
});

describe("all portfolios (spec 001 §2.2, §2.3)", () => {
  it("shows the own accounts' value, time-weighted return and change over the last year", async () => {
    const page = await analysis("/clients/analysis");
    expect(page.heading).toBe("All portfolios");
    expect(page.crumbs).toEqual([]);
    const figures = ok(page);
    expect(tiles(figures)).toEqual(expected(ids(own), ONE_YEAR_BEFORE, 0));
    expect(figures.period).toBe(`${formatDate(ONE_YEAR_BEFORE, "en-GB")} to ${formatDate(TODAY, "en-GB")}`);
    expect(figures.noTransactions).toBe(false);
  });

  it("lists each portfolio with its figures, own then linked, and never Olivia's", async () => {
    const tab = ok(await analysis("/clients/analysis")).accounts!;
    expect(tab.title).toBe("Portfolios");
    expect(tab.sections.map((s) => [s.heading, s.rows.map((r) => [r.name, r.accountCount])])).toEqual([
      [
        "My portfolios",
        [
          ["Ellie's portfolio", 2],
          ["Joint portfolio", 1],
          ["Hartley Family Trust", 1],
        ],
      ],
      ["Linked portfolios", [["James's portfolio", 2]]],
    ]);
    for (const row of tab.sections.flatMap((s) => s.rows)) {
      expect(rowFigures(row), row.name).toEqual(expected(ids(inPortfolio(row.name)), ONE_YEAR_BEFORE, 2));
      // spec 001 §2.3: with the analysis-investment-tab toggle, drilling down opens the investments
      expect(row.href).toBe(`/clients/analysis?id=portfolio-${inPortfolio(row.name)[0]!.portfolioId}&tab=investments`);
    }
    expect(JSON.stringify(tab)).not.toMatch(/Olivia/);
  });

  it("draws the cumulative return with the benchmarks; its last point is the period's return", async () => {
    const chart = ok(await analysis("/clients/analysis")).chart;
    expect(chart.state).toBe("ok");
    const [portfolio, ...benchmarks] = chart.interactive.series;
    expect(benchmarks.map((b) => b.label)).toEqual([
      "FTSE All-Share",
      "Balanced index 60/40 (MSCI World and UK gilts)",
    ]);
    expect(chart.table.columns).toEqual([
      "Date",
      "Performance",
      "FTSE All-Share",
      "Balanced index 60/40 (MSCI World and UK gilts)",
    ]);
    const points = portfolio!.points;
    expect(points[0]).toEqual({ date: ONE_YEAR_BEFORE, value: 0 });
    expect(points[points.length - 1]!.value).toBeCloseTo(seeded.book.performance(ids(own), ONE_YEAR_BEFORE).period, 8);
    // a point inside the period: the return from the start to it
    const mid = points[6]!;
    const flows = seeded.book.flowsOf(ids(own), ONE_YEAR_BEFORE, mid.date);
    const dates = [...new Set([ONE_YEAR_BEFORE, ...flows.map((f) => f.date), mid.date])].sort();
    expect(mid.value).toBeCloseTo(
      twr(
        dates.map((date) => ({ date, value: seeded.book.valueOf(ids(own), date) })),
        flows,
      ).cumulative,
      8,
    );
    // the FTSE All-Share's change from the first point to the last, from its stored levels
    const level = (date: string) =>
      (
        seeded.book
          .sql(
            "SELECT p.level_micros AS l FROM benchmark_prices p JOIN benchmarks b ON b.id = p.benchmark_id WHERE b.code = 'FTASX' AND p.date <= ? ORDER BY p.date DESC LIMIT 1",
          )
          .get(date) as { l: number }
      ).l;
    const ftse = benchmarks[0]!.points;
    expect(ftse[ftse.length - 1]!.value).toBeCloseTo(level(ftse[ftse.length - 1]!.date) / level(ftse[0]!.date) - 1, 8);
  });

  it("draws the value with the net amount invested on the Value tab", async () => {
    const chart = ok(await analysis("/clients/analysis?chart=value")).chart;
    const [value, invested] = chart.interactive.series;
    expect(chart.caption).toMatch(/^Value and net amount invested/);
    expect(value!.points[value!.points.length - 1]!.value).toBeCloseTo(seeded.book.valueOf(ids(own), TODAY), 2);
    const net = seeded.book.flowsOf(ids(own), ONE_YEAR_BEFORE, TODAY).reduce((sum, f) => sum + f.amount, 0);
    expect(invested!.points[invested!.points.length - 1]!.value).toBeCloseTo(
      seeded.book.valueOf(ids(own), ONE_YEAR_BEFORE) + net,
      2,
    );
  });
});

describe("drilling down (spec 001 §4 'Account filter levels')", () => {
  it("lists a portfolio's accounts with their figures, under a breadcrumb", async () => {
    const ellies = inPortfolio("Ellie's portfolio");
    const page = await analysis(`/clients/analysis?id=portfolio-${ellies[0]!.portfolioId}`);
    expect(page.heading).toBe("Ellie's portfolio");
    expect(page.crumbs).toEqual([
      { name: "All portfolios", href: "/clients/analysis" },
      { name: "Ellie's portfolio", href: null },
    ]);
    const figures = ok(page);
    expect(tiles(figures)).toEqual(expected(ids(ellies), ONE_YEAR_BEFORE, 0));
    const rows = figures.accounts!.sections.flatMap((s) => s.rows);
    expect(figures.accounts!.sections.map((s) => s.heading)).toEqual(["All accounts"]);
    // decision 120: no '(1 account)' after an account's own name
    expect(rows.map((r) => [r.name, r.accountCount])).toEqual(ellies.map((a) => [a.description, null]));
    rows.forEach((row, i) => expect(rowFigures(row), row.name).toEqual(expected([ellies[i]!.id], ONE_YEAR_BEFORE, 2)));
  });

  it("shows one account over a custom range, without the accounts tab", async () => {
    const isa = accounts.find((a) => a.description === "Ellie Stocks and Shares ISA")!;
    const page = await analysis(`/clients/analysis?id=${isa.id}&range=custom&from=03-06-2024&to=31-12-2024`);
    expect(page.heading).toBe(isa.description);
    expect(page.crumbs.map((c) => c.name)).toEqual(["All portfolios", "Ellie's portfolio", isa.description]);
    expect(page.range).toMatchObject({
      name: "custom",
      from: "03-06-2024",
      to: "31-12-2024",
      earliest: isa.inception.split("-").reverse().join("-"),
    });
    const figures = ok(page);
    expect(tiles(figures)).toEqual(expected([isa.id], "2024-06-03", 0, "2024-12-31"));
    expect(figures.accounts).toBeNull();
  });

  it("starts since inception at the selection's own inception", async () => {
    const joint = inPortfolio("Joint portfolio");
    const figures = ok(await analysis(`/clients/analysis?id=portfolio-${joint[0]!.portfolioId}&range=SI`));
    const start = sinceInception(joint);
    expect(figures.period).toBe(`${formatDate(start, "en-GB")} to ${formatDate(TODAY, "en-GB")}`);
    expect(tiles(figures)).toEqual(expected(ids(joint), start, 0));
  });

  it("labels a 3-year return of an account opened inside the range with the date it covers, its yearly figure over that", async () => {
    // James's US dollar account (linked to her) opened twenty months ago
    const usd = accounts.find((a) => a.description === "James US dollar account")!;
    const threeYears = `${Number(TODAY.slice(0, 4)) - 3}${TODAY.slice(4)}`;
    expect(usd.inception > threeYears).toBe(true);
    const figures = ok(await analysis(`/clients/analysis?id=${usd.id}&range=3Y`));
    const e = seeded.book.performance([usd.id], threeYears);
    expect(e.since).toBe(usd.inception);
    expect(figures.performance).toEqual(performanceText(e));
    expect(figures.performance!.since).toBe(formatDate(usd.inception, "en-GB", "long"));
    // annualised over the twenty months it covers, not over three years
    const days = (Date.parse(TODAY) - Date.parse(usd.inception)) / 86_400_000;
    expect(e.annualised).toBeCloseTo((1 + e.period) ** (365 / days) - 1, 10);
    expect(figures.performance!.annual!.text).toBe(percent2.format((1 + e.period) ** (365 / days) - 1));
    // in the accounts table of its portfolio over the same range, each row labelled by its own opening
    const james = inPortfolio("James's portfolio");
    const rows = ok(
      await analysis(`/clients/analysis?id=portfolio-${usd.portfolioId}&range=3Y`),
    ).accounts!.sections.flatMap((s) => s.rows);
    expect(rows.map((r) => [r.name, r.performance?.since ?? null])).toEqual(
      james.map((a) => [a.description, a.inception > threeYears ? formatDate(a.inception, "en-GB", "long") : null]),
    );
  });

  it("lets an adviser with the client in context see the same figures", async () => {
    const page = await analysis("/clients/analysis", seeded.users.adviserWithClient);
    expect(tiles(ok(page))).toEqual(expected(ids(own), ONE_YEAR_BEFORE, 0));
  });
});

describe("who may see what (spec 001 §6)", () => {
  it("shows no figures for an account the client does not see", async () => {
    const olivia = seeded.book.sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'").get() as {
      id: number;
    };
    for (const id of [String(olivia.id), "999999", "portfolio-999", "NOPE"]) {
      const page = await analysis(`/clients/analysis?id=${id}`, seeded.users.client, 404);
      expect(page.figures).toEqual({ state: "noData" });
      expect(JSON.stringify(page)).not.toMatch(/Olivia/);
    }
  });

  it("refuses the page to a client without portfolio access", async () => {
    const route = await import("~/routes/clients.analysis/route");
    for (const cookie of [seeded.users.assets, seeded.users.messages]) {
      const response = await thrown(callLoader(route, "/clients/analysis", cookie));
      expect(response.status).toBe(403);
    }
  });

  it("refuses an invalid custom range with the spec's reasons, keeping what was typed", async () => {
    const page = await analysis(
      "/clients/analysis?range=custom&from=31-12-2024&to=01-06-2024",
      seeded.users.client,
      400,
    );
    expect(page.range).toMatchObject({ from: "31-12-2024", to: "01-06-2024", errors: { to: "startAfterEnd" } });
    expect(page.figures).toBeNull();
  });

  it("refuses a custom start before the selection's since-inception date, keeping what was typed", async () => {
    const isa = accounts.find((a) => a.description === "Ellie Stocks and Shares ISA")!;
    const [year, month, day] = isa.inception.split("-");
    const dayBefore = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day) - 1)).toISOString().slice(0, 10);
    const display = (iso: string) => iso.split("-").reverse().join("-");
    const before = await analysis(
      `/clients/analysis?id=${isa.id}&range=custom&from=${display(dayBefore)}&to=31-12-2024`,
      seeded.users.client,
      400,
    );
    expect(before.range).toMatchObject({
      from: display(dayBefore),
      to: "31-12-2024",
      earliest: display(isa.inception),
      errors: { from: "beforeInception" },
    });
    expect(before.figures).toBeNull();
    // all portfolios start at the earliest of all accounts: 01-01-2000 is before it
    const all = await analysis(
      "/clients/analysis?range=custom&from=01-01-2000&to=31-12-2024",
      seeded.users.client,
      400,
    );
    expect(all.range.errors).toEqual({ from: "beforeInception" });
    expect(all.range.earliest).toBe(display(sinceInception(accounts)));
    // the since-inception date itself is taken
    ok(await analysis(`/clients/analysis?id=${isa.id}&range=custom&from=${display(isa.inception)}&to=31-12-2024`));
  });
});

describe("the other tabs (spec 001 §2.3)", () => {
  it("lists an account's transactions of the period, newest first, as the platform holds them", async () => {
    const isa = accounts.find((a) => a.description === "Ellie Stocks and Shares ISA")!;
    const figures = ok(await analysis(`/clients/analysis?id=${isa.id}&tab=transactions`));
    const rows = seeded.book
      .sql(
        "SELECT id, trade_date AS d, gross_minor AS g FROM transactions WHERE account_id = ? AND trade_date >= ? AND trade_date <= ? ORDER BY trade_date DESC, id DESC",
      )
      .all(isa.id, ONE_YEAR_BEFORE, TODAY) as Array<{ id: number; d: string; g: number }>;
    expect(figures.transactions!.state).toBe("ok");
    const shown = figures.transactions!.rows;
    expect(shown.map((r) => r.id)).toEqual(rows.slice(0, 50).map((r) => r.id));
    expect(shown[0]!.tradeDate).toBe(rows[0]!.d.split("-").reverse().join("/"));
    expect(figures.transactions!.moreHref === null).toBe(rows.length <= 50);
  });

  it("shows the ISA's instructions and payment details, and the tabs it offers", async () => {
    const isa = accounts.find((a) => a.description === "Ellie Stocks and Shares ISA")!;
    const instructions = ok(await analysis(`/clients/analysis?id=${isa.id}&tab=instructions`));
    expect(instructions.tabs.map((t) => [t.key, t.current])).toEqual([
      ["investments", false],
      ["allocation", false],
      ["transactions", false],
      ["instructions", true],
      ["payment", false],
      ["income", false],
    ]);
    expect(instructions.instructions).toMatchObject({ state: "ok", description: "Balanced growth (70/30)" });
    expect(instructions.instructions!.securities.find((x) => x.code === "ISF")?.weight).toBe("30.00%");
    const payment = ok(await analysis(`/clients/analysis?id=${isa.id}&tab=payment`)).payment!;
    // decision 120: on the British site a sort code, and no BPAY (an Australian scheme)
    expect([payment.state, payment.bpays.length, payment.banks.length]).toEqual(["ok", 0, 1]);
    expect(payment.banks[0]!.codes).toEqual([{ label: "sortCode", value: "20-00-00" }]);
  });
});

describe("one set of numbers (decision 106)", () => {
  /** Pence of an amount as shown ('£429,408.26', '-£31.65', '+£1,020.00'). */
  const pence = (text: string) => {
    const match = /^([+\-−]?)£([\d,]+)\.(\d{2})$/.exec(text.trim());
    if (!match) throw new Error(`not an amount in pounds: '${text}'`);
    const magnitude = Number(match[2]!.replace(/,/g, "")) * 100 + Number(match[3]);
    return match[1] === "-" || match[1] === "−" ? -magnitude : magnitude;
  };
  type InvestmentsTab = { accounts: Array<{ name: string; cells: { value: string } }> };

  it("shows each portfolio as the sum of its accounts as shown, over every range", async () => {
    for (const range of ["1Y", "2Y", "3Y", "SI", "YTD"]) {
      const tab = ok(await analysis(`/clients/analysis?range=${range}`)).accounts!;
      for (const portfolio of tab.sections.flatMap((s) => s.rows)) {
        const accountsOf = inPortfolio(portfolio.name);
        const rows = ok(
          await analysis(`/clients/analysis?id=portfolio-${accountsOf[0]!.portfolioId}&range=${range}`),
        ).accounts!.sections.flatMap((s) => s.rows);
        expect(rows, `${range} ${portfolio.name}`).toHaveLength(accountsOf.length);
        expect(pence(portfolio.value), `${range} ${portfolio.name}`).toBe(
          rows.reduce((sum, r) => sum + pence(r.value), 0),
        );
      }
    }
  });

  it("shows each account's value on its investments tab as on the accounts tab", async () => {
    const accountsOf = inPortfolio("Ellie's portfolio");
    const rows = ok(
      await analysis(`/clients/analysis?id=portfolio-${accountsOf[0]!.portfolioId}`),
    ).accounts!.sections.flatMap((s) => s.rows);
    for (const account of accountsOf) {
      const row = rows.find((r) => r.name === account.description)!;
      const page = await analysis(`/clients/analysis?id=${account.id}&tab=investments`);
      const investments = (page.figures as unknown as { investments: InvestmentsTab }).investments;
      expect(investments.accounts.map((a) => a.name)).toEqual([account.description]);
      expect(investments.accounts[0]!.cells.value, account.description).toBe(row.value);
    }
  });
});

describe("one view, one set of accounts (spec 001 §1, §2.3, §5; decision 107)", () => {
  type Named = { name?: string; account?: string };
  type Tabbed = Figures & {
    coverage: string | null;
    investments: { state: string; accounts: Named[] } | null;
    allocation: { state: string; panels: Array<{ categories: Array<{ rows: Named[] }> }> } | null;
    transactions: { state: string; rows: Array<{ account: string }>; moreHref: string | null } | null;
  };
  async function csvAccounts(kind: "investments" | "transactions", search: string): Promise<Set<string>> {
    const { parse } = await import("csv-parse/sync");
    const route = await import("~/routes/clients.analysis_.download.$kind/route");
    const response = await callLoader(route, `/clients/analysis/download/${kind}${search}`, seeded.users.client, {
      kind,
    });
    expect(response.status).toBe(200);
    const rows = parse(await response.text(), { bom: true }) as string[][];
    const column = rows[0]!.indexOf("Account");
    expect(column).toBeGreaterThanOrEqual(0);
    return new Set(rows.slice(1).map((r) => r[column]!));
  }
  const names = (list: readonly Account[]) => new Set(list.map((a) => a.description));
  const inPeriod = (accountIds: readonly number[]) =>
    new Set(
      (
        seeded.book
          .sql(
            `SELECT DISTINCT a.description AS name FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE t.account_id IN (${accountIds.join(",")}) AND t.trade_date >= ? AND t.trade_date <= ?`,
          )
          .all(ONE_YEAR_BEFORE, TODAY) as Array<{
          name: string;
        }>
      ).map((r) => r.name),
    );

  it("at 'All portfolios' the tiles, investments, allocation, transactions and both CSVs cover her own managed accounts, and say so", async () => {
    const bonds = seeded.book
      .sql("SELECT id, description FROM accounts WHERE service_type = 'Not managed' AND description LIKE 'Ellie%'")
      .get() as { id: number; description: string };
    const linked = accounts.filter((a) => a.isLinked);
    // the seed has what must be left out, with transactions in the period: the Premium Bonds and James's accounts
    expect(inPeriod([bonds.id]).size).toBe(1);
    expect(inPeriod(ids(linked)).size).toBeGreaterThan(0);
    const mine = names(own);

    const overview = ok(await analysis("/clients/analysis")) as Tabbed;
    expect(tiles(overview)).toEqual(expected(ids(own), ONE_YEAR_BEFORE, 0));
    expect(overview.coverage).toBe(
      "Total of your portfolios. Linked accounts are listed on their own and not included.",
    );

    const investments = (ok(await analysis("/clients/analysis?tab=investments")) as Tabbed).investments!;
    expect(investments.state).toBe("ok");
    expect(new Set(investments.accounts.map((a) => a.name))).toEqual(mine);
    expect(await csvAccounts("investments", "?tab=investments")).toEqual(mine);

    const allocation = (ok(await analysis("/clients/analysis?tab=allocation")) as Tabbed).allocation!;
    expect(allocation.state).toBe("ok");
    for (const panel of allocation.panels)
      expect(new Set(panel.categories.flatMap((c) => c.rows.map((r) => r.account)))).toEqual(mine);

    // every transaction of the period of her own managed accounts, none of the Premium Bonds or James's
    const transactions = (ok(await analysis("/clients/analysis?tab=transactions&pages=20")) as Tabbed).transactions!;
    expect(transactions.state).toBe("ok");
    expect(transactions.moreHref).toBeNull();
    const listed = new Set(transactions.rows.map((r) => r.account));
    expect(listed).toEqual(inPeriod(ids(own)));
    expect(await csvAccounts("transactions", "")).toEqual(listed);
    for (const left of [bonds.description, ...linked.map((a) => a.description)])
      expect(listed.has(left), left).toBe(false);
    const count = (
      seeded.book
        .sql(
          `SELECT COUNT(*) AS n FROM transactions WHERE account_id IN (${ids(own).join(",")}) AND trade_date >= ? AND trade_date <= ?`,
        )
        .get(ONE_YEAR_BEFORE, TODAY) as { n: number }
    ).n;
    expect(transactions.rows).toHaveLength(count);
  });

  it("for demo.partner too: his own accounts on the tiles and among the transactions, Ellie's portfolio only as linked rows", async () => {
    const partner = await seeded.portal.signIn("demo.partner");
    const entity = (
      seeded.book.sql("SELECT entity_id AS id FROM users WHERE username = 'demo.partner'").get() as { id: number }
    ).id;
    const his = seeded.book.visibleManagedAccounts(entity);
    const hisOwn = his.filter((a) => !a.isLinked);
    const ellies = his.filter((a) => a.isLinked);
    expect(ellies.length).toBeGreaterThan(0);
    const figures = ok(await analysis("/clients/analysis", partner)) as Tabbed;
    expect(tiles(figures)).toEqual(expected(ids(hisOwn), ONE_YEAR_BEFORE, 0));
    const linkedRows = figures.accounts!.sections.find((s) => s.heading === "Linked portfolios")!.rows;
    expect(linkedRows.map((r) => r.name)).toEqual([...new Set(ellies.map((a) => a.portfolio))]);
    const transactions = (ok(await analysis("/clients/analysis?tab=transactions&pages=20", partner)) as Tabbed)
      .transactions!;
    expect(new Set(transactions.rows.map((r) => r.account))).toEqual(inPeriod(ids(hisOwn)));
  });

  it("drilled into the linked portfolio, every tab covers its accounts and the total says whose it is", async () => {
    const james = accounts.filter((a) => a.isLinked);
    const id = `portfolio-${james[0]!.portfolioId}`;
    const figures = ok(await analysis(`/clients/analysis?id=${id}`)) as Tabbed;
    expect(tiles(figures)).toEqual(expected(ids(james), ONE_YEAR_BEFORE, 0));
    expect(figures.coverage).toBe(`Total of ${james[0]!.portfolio}.`);
    expect(new Set(figures.accounts!.sections.flatMap((s) => s.rows.map((r) => r.name)))).toEqual(names(james));
    const investments = (ok(await analysis(`/clients/analysis?id=${id}&tab=investments`)) as Tabbed).investments!;
    expect(new Set(investments.accounts.map((a) => a.name))).toEqual(names(james));
    const transactions = (ok(await analysis(`/clients/analysis?id=${id}&tab=transactions&pages=20`)) as Tabbed)
      .transactions!;
    expect(new Set(transactions.rows.map((r) => r.account))).toEqual(inPeriod(ids(james)));
    expect(await csvAccounts("transactions", `?id=${id}`)).toEqual(inPeriod(ids(james)));
  });

  it("drilled into her own portfolio, the Premium Bonds it holds are on no tab, and its id alone shows nothing", async () => {
    const bonds = seeded.book
      .sql(
        "SELECT id, portfolio_id AS portfolioId, description FROM accounts WHERE service_type = 'Not managed' AND description LIKE 'Ellie%'",
      )
      .get() as { id: number; portfolioId: number; description: string };
    const transactions = (
      ok(await analysis(`/clients/analysis?id=portfolio-${bonds.portfolioId}&tab=transactions&pages=20`)) as Tabbed
    ).transactions!;
    expect(transactions.rows.some((r) => r.account === bonds.description)).toBe(false);
    expect(new Set(transactions.rows.map((r) => r.account))).toEqual(inPeriod(ids(inPortfolio("Ellie's portfolio"))));
    const page = await analysis(`/clients/analysis?id=${bonds.id}`, seeded.users.client, 404);
    expect([page.notFound, page.figures]).toEqual([true, { state: "noData" }]);
  });
});
