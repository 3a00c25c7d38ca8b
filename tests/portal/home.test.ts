import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChartSvg } from "~/lib/chart-svg";
import { formatMoney } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { twr } from "../../server/domain/returns";
import { thrown, callLoader } from "./portal-harness";
import {
  type Account,
  type Expected,
  ONE_YEAR_BEFORE,
  PREVIOUS_BUSINESS_DAY,
  seededBook,
  sinceInception,
  TODAY,
  withSeededPortal,
} from "./seeded-book";

// The clients home loader (spec 001 §2.1, §2.6) against a real platform on a fresh seeded
// database. Every figure the page shows is recomputed here from the raw rows of that database:
// positions from the transactions, prices and FX rates of the valuation date, time-weighted
// returns revalued at every transfer in or out.

const seeded = withSeededPortal();
let client: string;
let assets: string;
let messages: string;
let adviserWithClient: string;

type Figure = { text: string; negative: boolean };
type Performance = { period: Figure; annual: Figure | null; since: string | null } | null;
type Row = {
  key: string;
  name: string;
  accountCount: number | null;
  value: string;
  performance: Performance;
  movement: Figure;
  percent: number;
  percentLabel: string;
  expandable: boolean;
  expanded: boolean;
  toggle: string;
  accounts: Row[] | null;
  accountsError: boolean;
};
type OkPortfolio = {
  state: "ok";
  period: string;
  overview: { value: string; performance: Performance; performanceLabel: string | null; movement: Figure };
  chart: {
    caption: string;
    svg: ChartSvg;
    narrowSvg: ChartSvg;
    table: { columns: string[]; rows: Array<{ header: string; cells: string[] }> };
    interactive: { series: Array<{ points: Array<{ date: string; value: number }> }> };
  } | null;
  layout: "tiles" | "table";
  collection: string;
  own: Row[];
  linked: Row[];
  currencyNote: boolean;
};
type Card = {
  tab: string;
  index: number;
  title: string;
  total: string;
  href: string | null;
  items: Array<{ desc: string; value: string }>;
};
type Assets = {
  state: string;
  member: { id: number; name: string; total: string };
  cards: Card[];
  others: Array<{ id: number; name: string; href: string }>;
  partial: boolean;
};
type HomePage = {
  portfolio: OkPortfolio | { state: string } | null;
  assetsOnly: boolean;
  assets: Assets;
  currencyToggle: boolean;
};

async function home(path: string, cookie: string): Promise<HomePage> {
  const route = await import("~/routes/clients.home/route");
  const response = await callLoader(route, path, cookie);
  expect(response.status).toBe(200);
  return (await response.json()) as HomePage;
}
function ok(page: HomePage): OkPortfolio {
  expect(page.portfolio?.state).toBe("ok");
  return page.portfolio as OkPortfolio;
}

// ── the seeded database, read directly (./seeded-book.ts) ─────────────────────────────────────

const sql = (text: string) => seeded.book.sql(text);
const visibleManagedAccounts = (entityId: number) => seeded.book.visibleManagedAccounts(entityId);
const valueOf = (...args: Parameters<ReturnType<typeof seededBook>["valueOf"]>) => seeded.book.valueOf(...args);
const flowsOf = (...args: Parameters<ReturnType<typeof seededBook>["flowsOf"]>) => seeded.book.flowsOf(...args);
const convert = (...args: Parameters<ReturnType<typeof seededBook>["convert"]>) => seeded.book.convert(...args);
const performance = (...args: Parameters<ReturnType<typeof seededBook>["performance"]>) =>
  seeded.book.performance(...args);

// ── how the page shows figures ────────────────────────────────────────────────────────────────

const money0 = (amount: number, currency = "GBP") => formatMoney(amount, currency, "en-GB", { decimals: 0 });
const percent2 = new Intl.NumberFormat("en-GB", {
  style: "percent",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});
const figureOf = (text: string, amount: number): Figure => ({ text, negative: amount < 0 });
function performanceText(e: Expected): Performance {
  return {
    period: figureOf(percent2.format(e.period), e.period),
    annual: e.annualised === null ? null : figureOf(percent2.format(e.annualised), e.annualised),
    // a selection that began inside the range is labelled with the date it is measured from (decision 109)
    since: e.since !== null && e.since > e.start ? formatDate(e.since, "en-GB", "long") : null,
  };
}
/** The row (or overview) figures of some accounts over a timeframe starting at `start`. */
function expectedFigures(accountIds: readonly number[], start: string) {
  const e = performance(accountIds, start);
  return {
    value: money0(e.value),
    performance: performanceText(e),
    movement: figureOf(money0(e.movement), e.movement),
  };
}
const periodText = (start: string) => `${formatDate(start, "en-GB")} to ${formatDate(TODAY, "en-GB")}`;

/** spec 001 §2.1: shares of a section are whole percentages adding up to 100, each the floor of its share or one more. */
function expectShares(rows: Row[], values: number[]) {
  const total = values.reduce((sum, v) => sum + v, 0);
  expect(rows.reduce((sum, r) => sum + (r.percent ?? 0), 0)).toBe(100);
  rows.forEach((row, i) => {
    const exact = (values[i]! / total) * 100;
    expect(row.percent! - Math.floor(exact), row.name).toBeGreaterThanOrEqual(0);
    expect(row.percent! - Math.floor(exact), row.name).toBeLessThanOrEqual(1);
    expect(row.percentLabel).toBe(`${row.percent}%`);
  });
}

// ── sessions ──────────────────────────────────────────────────────────────────────────────────

const entityOf = (username: string) =>
  (sql("SELECT entity_id AS id FROM users WHERE username = ?").get(username) as { id: number }).id;
let ellie: number;
let accounts: Account[];
let own: Account[];
let linked: Account[];
const ids = (list: readonly Account[]) => list.map((a) => a.id);
const inPortfolio = (name: string) => accounts.filter((a) => a.portfolio === name);

beforeAll(() => {
  ({ client, assets, messages, adviserWithClient } = seeded.users);

  ellie = entityOf("demo.client");
  accounts = visibleManagedAccounts(ellie);
  own = accounts.filter((a) => !a.isLinked);
  linked = accounts.filter((a) => a.isLinked);
});

describe("the accounts behind demo.client's dashboard", () => {
  it("are her own managed accounts and James's linked ones; not the unmanaged deposits nor Olivia's Junior ISA", () => {
    expect(own.map((a) => a.description)).toEqual([
      "Ellie Stocks and Shares ISA",
      "Ellie Self-Invested Personal Pension",
      "Joint General Investment Account",
      "Hartley Family Trust account",
    ]);
    expect(linked.map((a) => a.description)).toEqual(["James Stocks and Shares ISA", "James US dollar account"]);
    const all = sql("SELECT description FROM accounts").all() as Array<{ description: string }>;
    expect(all.map((a) => a.description)).toEqual(
      expect.arrayContaining(["Olivia Junior ISA", "Ellie Premium Bonds and deposits"]),
    );
  });

  it("are priced with delayed prices (view_marketdata), so today's price, not the previous close", () => {
    const caps = (sql("SELECT name FROM capabilities WHERE entity_id = ?").all(ellie) as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(caps).toContain("view_marketdata");
    expect(caps).not.toContain("live_marketdata_access");
  });
});

describe("clients home: the portfolio view of demo.client (spec 001 §2.1)", () => {
  it("shows her own accounts' value, time-weighted performance and change over the last year", async () => {
    const portfolio = ok(await home("/clients/home", client));
    const expected = expectedFigures(ids(own), ONE_YEAR_BEFORE);
    expect(portfolio.period).toBe(periodText(ONE_YEAR_BEFORE));
    expect(portfolio.period).toBe("14th March 2024 to 14th March 2025");
    expect(portfolio.overview).toEqual({
      value: expected.value,
      performance: expected.performance,
      performanceLabel: "Performance (time-weighted)",
      movement: expected.movement,
      coverage: "Total of your own accounts. Linked accounts are listed on their own and not included.",
    });
    // a year exactly is not over a year: no yearly figure
    expect(portfolio.overview.performance!.annual).toBeNull();
    // the totals leave the linked accounts to their own section
    expect(portfolio.overview.value).not.toBe(money0(valueOf(ids(accounts), TODAY)));
    // delayed pricing: today's prices, not the previous business day's close
    expect(portfolio.overview.value).not.toBe(money0(valueOf(ids(own), TODAY, "GBP", PREVIOUS_BUSINESS_DAY)));
  });

  it("shows a row per portfolio, own then linked, each with its accounts' figures and count", async () => {
    const portfolio = ok(await home("/clients/home", client));
    expect(portfolio.collection).toBe("portfolio");
    expect(portfolio.own.map((r) => [r.name, r.accountCount])).toEqual([
      ["Ellie's portfolio", 2],
      ["Joint portfolio", 1],
      ["Hartley Family Trust", 1],
    ]);
    expect(portfolio.linked.map((r) => [r.name, r.accountCount])).toEqual([["James's portfolio", 2]]);
    // what the rows read: '(n account(s))'
    const { getFixedT } = await import("~/session/i18next.server");
    const t = await getFixedT(new Request("http://portal.test/clients/home"), "clients");
    const counts = [...portfolio.own, ...portfolio.linked].map((r) =>
      t("home.summary.accountCount", { count: r.accountCount ?? undefined }),
    );
    expect(counts).toEqual(["(2 accounts)", "(1 account)", "(1 account)", "(2 accounts)"]);
    expect(JSON.stringify(portfolio)).not.toMatch(/Olivia/);
    for (const row of [...portfolio.own, ...portfolio.linked]) {
      const members = inPortfolio(row.name);
      expect(row.accountCount).toBe(members.length);
      const expected = expectedFigures(ids(members), ONE_YEAR_BEFORE);
      expect({ value: row.value, performance: row.performance, movement: row.movement }, row.name).toEqual(expected);
      expect(row.key).toBe(`portfolio-${members[0]!.portfolioId}`);
      expect([row.expandable, row.expanded, row.accounts, row.toggle]).toEqual([true, false, null, row.key]);
    }
  });

  it("shows tiles (few accounts) with her own rows' shares of her total adding up to 100, and no share for the linked portfolio", async () => {
    const portfolio = ok(await home("/clients/home", client));
    expect(portfolio.layout).toBe("tiles");
    const valueOfRow = (r: Row) => valueOf(ids(inPortfolio(r.name)), TODAY);
    expectShares(portfolio.own, portfolio.own.map(valueOfRow));
    // James's portfolio is in none of her totals: it reads no '100% of the total' (decision 107)
    expect(portfolio.linked.length).toBeGreaterThan(0);
    expect(portfolio.linked.map((r) => [r.percent, r.percentLabel])).toEqual(portfolio.linked.map(() => [null, null]));
  });

  it("charts her own accounts' cumulative time-weighted return over the period, with a table of the points", async () => {
    const portfolio = ok(await home("/clients/home", client));
    const chart = portfolio.chart!;
    expect(chart.svg).toContain("<svg");
    expect(chart.narrowSvg).toContain("<svg");
    expect(chart.caption).toBe(`Cumulative time-weighted performance of your accounts, ${periodText(ONE_YEAR_BEFORE)}`);
    const points = chart.interactive.series[0]!.points;
    // a year is charted monthly
    expect(points.map((p) => p.date)).toEqual(
      Array.from({ length: 13 }, (_, i) => new Date(Date.UTC(2024, 2 + i, 14)).toISOString().slice(0, 10)),
    );
    expect(chart.table.columns).toEqual(["Date", "Performance"]);
    expect(chart.table.rows).toHaveLength(points.length);
    expect(chart.table.rows[0]).toEqual({ header: "14 Mar 2024", cells: ["0.00%"] });
    expect(points[0]!.value).toBe(0);
    const whole = performance(ids(own), ONE_YEAR_BEFORE);
    expect(points[points.length - 1]!.value).toBeCloseTo(whole.period, 8);
    // and a point within the period: the return from the start to it
    const mid = points[6]!;
    const flows = flowsOf(ids(own), ONE_YEAR_BEFORE, mid.date);
    const dates = [...new Set([ONE_YEAR_BEFORE, ...flows.map((f) => f.date), mid.date])].sort();
    const toMid = twr(
      dates.map((date) => ({ date, value: valueOf(ids(own), date) })),
      flows,
    );
    expect(mid.value).toBeCloseTo(toMid.cumulative, 8);
  });

  it("names the chart's markup in a document request's data and carries it in a data request's (decision 156)", async () => {
    const route = await import("~/routes/clients.home/route");
    const { runWithRequestId } = await import("~/runtime/request-id.server");
    const { pageChartMarkup } = await import("~/runtime/chart-markup.server");
    const asked = (url: string) =>
      runWithRequestId(
        "home-chart",
        async () => {
          const text = await (await callLoader(route, "/clients/home", client)).text();
          return { text, kept: new Map(pageChartMarkup()) };
        },
        url,
      );
    const page = await asked("/clients/home");
    const chart = ok(JSON.parse(page.text) as HomePage).chart!;
    expect(page.text).not.toContain("<svg");
    expect([chart.svg, chart.narrowSvg]).toEqual([{ chartMarkup: "chart-1" }, { chartMarkup: "chart-2" }]);
    expect(page.kept.get("chart-1")).toMatch(/^<svg viewBox="0 0 720 400"/);
    expect(page.kept.get("chart-2")).toMatch(/^<svg viewBox="0 0 360 300"/);
    const data = await asked("/clients/home?_data=routes%2Fclients.home");
    expect(ok(JSON.parse(data.text) as HomePage).chart!.svg).toBe(page.kept.get("chart-1"));
    expect(data.kept.size).toBe(0);
  });

  it("opens a portfolio onto its managed accounts with ?expand=", async () => {
    const ellies = inPortfolio("Ellie's portfolio");
    const key = `portfolio-${ellies[0]!.portfolioId}`;
    const portfolio = ok(await home(`/clients/home?expand=${key}`, client));
    const row = portfolio.own.find((r) => r.key === key)!;
    expect(row.expanded).toBe(true);
    expect(row.toggle).toBe("");
    expect(row.accountsError).toBe(false);
    expect(row.accounts!.map((a) => a.name)).toEqual([
      "Ellie Stocks and Shares ISA",
      "Ellie Self-Invested Personal Pension",
    ]);
    row.accounts!.forEach((account, i) => {
      const expected = expectedFigures([ellies[i]!.id], ONE_YEAR_BEFORE);
      expect(
        { value: account.value, performance: account.performance, movement: account.movement },
        account.name,
      ).toEqual(expected);
      expect([account.key, account.accountCount, account.expandable]).toEqual([
        `account-${ellies[i]!.id}`,
        null,
        false,
      ]);
    });
    expectShares(
      row.accounts!,
      ellies.map((a) => valueOf([a.id], TODAY)),
    );
    // the other rows stay closed and would open alongside this one
    const joint = portfolio.own.find((r) => r.name === "Joint portfolio")!;
    expect([joint.expanded, joint.accounts, joint.toggle]).toEqual([false, null, `${key},${joint.key}`]);
  });

  it("switches to since-inception figures with ?timeframe=secondary", async () => {
    const portfolio = ok(await home("/clients/home?timeframe=secondary", client));
    const start = sinceInception(own);
    expect(start).toBe("2022-05-16");
    expect(portfolio.period).toBe(periodText(start));
    expect(portfolio.period).not.toBe(periodText(ONE_YEAR_BEFORE));
    const expected = expectedFigures(ids(own), start);
    expect(portfolio.overview.value).toBe(expected.value);
    expect(portfolio.overview.performance).toEqual(expected.performance);
    expect(portfolio.overview.movement).toEqual(expected.movement);
    // over a year: the yearly figure too
    expect(portfolio.overview.performance!.annual).not.toBeNull();
    for (const row of [...portfolio.own, ...portfolio.linked]) {
      const members = inPortfolio(row.name);
      const e = expectedFigures(ids(members), sinceInception(members));
      expect({ value: row.value, performance: row.performance, movement: row.movement }, row.name).toEqual(e);
    }
  });

  it("shows the US dollar account in dollars with ?currency=plan, totals staying in sterling", async () => {
    const james = inPortfolio("James's portfolio");
    const key = `portfolio-${james[0]!.portfolioId}`;
    const page = await home(`/clients/home?currency=plan&expand=${key}`, client);
    expect(page.currencyToggle).toBe(true);
    const portfolio = ok(page);
    expect(portfolio.currencyNote).toBe(true);
    const row = portfolio.linked.find((r) => r.key === key)!;
    expect(row.value).toBe(money0(valueOf(ids(james), TODAY)));
    const [isa, usd] = row.accounts!;
    expect(isa!.name).toBe("James Stocks and Shares ISA");
    expect(isa!.value).toBe(money0(valueOf([james[0]!.id], TODAY)));
    expect(usd!.name).toBe("James US dollar account");
    expect(james[1]!.planCurrency).toBe("USD");
    const inDollars = performance([james[1]!.id], ONE_YEAR_BEFORE, "USD");
    expect(usd!.value).toBe(money0(inDollars.value, "USD"));
    expect(usd!.value).toMatch(/^\$\d{1,3}(,\d{3})*$/);
    expect(usd!.movement).toEqual(figureOf(money0(inDollars.movement, "USD"), inDollars.movement));
    expect(portfolio.overview.value).toBe(money0(valueOf(ids(own), TODAY)));
    // in the reporting currency the same account is in sterling
    const report = ok(await home(`/clients/home?expand=${key}`, client));
    expect(report.currencyNote).toBe(false);
    expect(report.linked[0]!.accounts![1]!.value).toBe(money0(valueOf([james[1]!.id], TODAY)));
  });

  it("opens no row for a portfolio she does not see, and shows nothing of it", async () => {
    const olivias = (sql("SELECT id FROM portfolios WHERE name = ?").get("Olivia's Junior ISA") as { id: number }).id;
    const plain = ok(await home("/clients/home", client));
    const portfolio = ok(await home(`/clients/home?expand=portfolio-${olivias},portfolio-99999,portfolio-abc`, client));
    expect(portfolio.overview).toEqual(plain.overview);
    expect([...portfolio.own, ...portfolio.linked].every((r) => !r.expanded && r.accounts === null)).toBe(true);
    expect(JSON.stringify(portfolio)).not.toMatch(/Olivia/);
  });

  it("gives an adviser with demo.client in context the same figures", async () => {
    const mine = await home("/clients/home", client);
    const adviserPage = await home("/clients/home", adviserWithClient);
    const adviser = ok(adviserPage);
    const hers = ok(mine);
    expect(adviser.period).toBe(hers.period);
    expect(adviser.overview).toEqual(hers.overview);
    expect(adviser.own).toEqual(hers.own);
    expect(adviser.linked).toEqual(hers.linked);
    expect(adviser.overview.value).toBe(expectedFigures(ids(own), ONE_YEAR_BEFORE).value);
    expect(adviserPage.assets).toEqual(mine.assets);
  });

  it("says 'No portfolios' to a Portfolio-level client without any account, and still renders the page", async () => {
    const row = sql(
      `SELECT u.username FROM users u JOIN entities e ON e.id = u.entity_id
       WHERE e.client_access_level = 1 AND u.role_name = 'ClientUser' AND u.login_method = 'Basic' AND u.username NOT LIKE 'demo.%'
         AND NOT EXISTS (SELECT 1 FROM portfolio_visibility v WHERE v.entity_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM other_asset_owners o WHERE o.entity_id = e.id)
       ORDER BY u.username LIMIT 1`,
    ).get() as { username: string } | undefined;
    expect(row).toBeDefined();
    const page = await home("/clients/home", await seeded.portal.signIn(row!.username));
    expect(page.portfolio).toEqual({ state: "noPortfolios" });
    expect(page.assetsOnly).toBe(false);
    expect(page.assets.state).toBe("empty");
  });
});

// ── other assets (spec 001 §2.6, §4 "Asset filtering") ────────────────────────────────────────

type OwnedAsset = { description: string; valueMinor: number; bp: number; currency: string; valuationDate: string };
/** A member's share of one of its other assets, in sterling at the rate of its valuation date. */
function owned(entityId: number, description: string): number {
  const row = sql(
    `SELECT a.description, a.value_minor AS valueMinor, o.percentage_bp AS bp, a.currency, a.valuation_date AS valuationDate
     FROM other_assets a JOIN other_asset_owners o ON o.asset_id = a.id WHERE o.entity_id = ? AND a.description = ?`,
  ).get(entityId, description) as OwnedAsset | undefined;
  if (!row) throw new Error(`${description} is not owned by ${entityId}`);
  return convert(((row.valueMinor / 100) * row.bp) / 10_000, row.currency, "GBP", row.valuationDate);
}
const items = (card: Card | undefined) => card?.items.map((i) => [i.desc, i.value]);
const card = (view: Assets, tab: string) => view.cards.find((c) => c.tab === tab);

/**
 * A member's share of a portfolio account under advice (decision 109), in pence as the platform
 * answers it: the account valued today at today's prices (demo.client's delayed pricing, as her
 * analysis page), times her share (joint and shared portfolios 50%).
 */
function accountShare(entityId: number, description: string): number {
  const row = sql(
    `SELECT a.id, p.ptype FROM accounts a JOIN portfolios p ON p.id = a.portfolio_id
       JOIN portfolio_visibility v ON v.portfolio_id = p.id AND v.entity_id = ? AND v.is_linked = 0
      WHERE a.description = ? AND a.service_type <> 'Not managed'`,
  ).get(entityId, description) as { id: number; ptype: string } | undefined;
  if (!row) throw new Error(`${description} is not a managed account of ${entityId}`);
  const value = valueOf([row.id], TODAY, "GBP", TODAY);
  return Math.round(value * (row.ptype === "PT_SINGLE" ? 100 : 50)) / 100;
}
/** The card's items as spec 001 §2.6 shows them: the three largest. */
const top3 = (list: Array<[string, number]>) =>
  [...list]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([desc, value]) => [desc, money0(value)]);
const sum = (list: Array<[string, number]>) => list.reduce((total, [, value]) => total + value, 0);

describe("clients home: other assets", () => {
  it("shows demo.client's own card: her portfolio accounts and other assets, the largest items of each", async () => {
    const { assets: view } = await home("/clients/home", client);
    expect(view.state).toBe("ok");
    expect(view.member).toMatchObject({ id: ellie, name: "Ellie Hartley" });
    expect(view.cards.map((c) => [c.tab, c.index, c.title])).toEqual([
      ["investments", 0, "5 investments"],
      ["pensions", 1, "4 pensions"],
      ["liabilities", 3, "1 liability"],
    ]);
    const v = (description: string) => owned(ellie, description);
    const a = (description: string) => accountShare(ellie, description);
    // her ISA, her half of the joint and trust accounts, her half of the cottage and her held-away fund
    const investments: Array<[string, number]> = [
      ["Ellie Stocks and Shares ISA", a("Ellie Stocks and Shares ISA")],
      ["Joint General Investment Account", a("Joint General Investment Account")],
      ["Hartley Family Trust account", a("Hartley Family Trust account")],
      ["Holiday cottage, Padstow", v("Holiday cottage, Padstow")],
      ["Vanguard LifeStrategy 60% (held away)", v("Vanguard LifeStrategy 60% (held away)")],
    ];
    // her SIPP account; the HL SIPP's funds with the pensions, the wrapper itself and the transferred pension left out
    const pensions: Array<[string, number]> = [
      ["Ellie Self-Invested Personal Pension", a("Ellie Self-Invested Personal Pension")],
      ["Aviva workplace pension", v("Aviva workplace pension")],
      ["Fundsmith Equity (HL SIPP)", v("Fundsmith Equity (HL SIPP)")],
      ["Cash (HL SIPP)", v("Cash (HL SIPP)")],
    ];
    expect(items(card(view, "investments"))).toEqual(top3(investments));
    expect(items(card(view, "pensions"))).toEqual(top3(pensions));
    // her half of the mortgage, negative; the repaid loan left out
    expect(items(card(view, "liabilities"))).toEqual([
      ["Mortgage, Kensington Park Road", money0(-v("Mortgage, Kensington Park Road"))],
    ]);
    const liabilities = v("Mortgage, Kensington Park Road");
    expect(view.cards.map((c) => c.total)).toEqual([
      money0(sum(investments)),
      money0(sum(pensions)),
      money0(-liabilities),
    ]);
    expect(view.member.total).toBe(money0(sum(investments) + sum(pensions) - liabilities));
    expect(view.partial).toBe(false);
    // each card opens her balance sheet on its tab
    expect(view.cards.map((c) => c.href)).toEqual([
      `/clients/balance-sheet?id=${ellie}&asset=0`,
      `/clients/balance-sheet?id=${ellie}&asset=1`,
      `/clients/balance-sheet?id=${ellie}&asset=3`,
    ]);
    // the other login-accessible member (not Olivia) is offered, with a link to his balance sheet
    expect(view.others).toEqual([
      {
        id: entityOf("demo.partner"),
        name: "James Hartley",
        href: `/clients/balance-sheet?id=${entityOf("demo.partner")}`,
      },
    ]);
  });

  it("shows James's cards with ?id=, his half of the cottage and of the joint and trust accounts at 50%", async () => {
    const jamesId = entityOf("demo.partner");
    const { assets: view } = await home(`/clients/home?id=${jamesId}`, client);
    expect(view.member).toMatchObject({ id: jamesId, name: "James Hartley" });
    const v = (description: string) => owned(jamesId, description);
    const a = (description: string) => accountShare(jamesId, description);
    const cottage = sql(
      "SELECT value_minor AS m FROM other_assets WHERE description = 'Holiday cottage, Padstow'",
    ).get() as { m: number };
    expect(v("Holiday cottage, Padstow")).toBeCloseTo(cottage.m / 100 / 2, 6);
    expect(a("Joint General Investment Account")).toBe(accountShare(ellie, "Joint General Investment Account"));
    const investments: Array<[string, number]> = [
      ["James Stocks and Shares ISA", a("James Stocks and Shares ISA")],
      ["James US dollar account", a("James US dollar account")],
      ["Joint General Investment Account", a("Joint General Investment Account")],
      ["Hartley Family Trust account", a("Hartley Family Trust account")],
      ["Holiday cottage, Padstow", v("Holiday cottage, Padstow")],
    ];
    expect(view.cards.map((c) => [c.tab, c.title, items(c)])).toEqual([
      ["investments", "5 investments", top3(investments)],
      ["pensions", "1 pension", [["NHS Pension Scheme", money0(v("NHS Pension Scheme"))]]],
      ["annuities", "1 annuity", [["Legal & General lifetime annuity", money0(v("Legal & General lifetime annuity"))]]],
      [
        "liabilities",
        "2 liabilities",
        [
          ["Mortgage, Kensington Park Road", money0(-v("Mortgage, Kensington Park Road"))],
          ["Car finance", money0(-v("Car finance"))],
        ],
      ],
    ]);
    expect(card(view, "investments")!.total).toBe(money0(sum(investments)));
    expect(card(view, "liabilities")!.total).toBe(money0(-(v("Mortgage, Kensington Park Road") + v("Car finance"))));
    expect(view.others.map((o) => o.id)).toEqual([ellie]);
  });

  it("falls back to the client herself for a member outside her list (no leak)", async () => {
    const mine = (await home("/clients/home", client)).assets;
    const olivia = (sql("SELECT id FROM entities WHERE display_name = 'Olivia Hartley'").get() as { id: number }).id;
    for (const id of [entityOf("demo.assets"), entityOf("demo.messages"), olivia, 99_999]) {
      const { assets: view } = await home(`/clients/home?id=${id}`, client);
      expect(view.member.id, String(id)).toBe(ellie);
      expect(view).toEqual(mine);
      expect(JSON.stringify(view)).not.toMatch(/Marcus|Bell|Clifton|Premium Bonds|Olivia/);
    }
    // nor can demo.assets see the Hartleys' assets
    const marcus = (await home(`/clients/home?id=${ellie}`, assets)).assets;
    expect(marcus.member.id).toBe(entityOf("demo.assets"));
    expect(JSON.stringify(marcus)).not.toMatch(/Hartley|Padstow|Kensington/);
  });
});

describe("clients home: access levels", () => {
  it("gives demo.assets (Assets level) the assets-only view: SIPP-wrapped items and the sign-flipped SIPP loan with the pensions", async () => {
    const page = await home("/clients/home", assets);
    expect(page.portfolio).toBeNull();
    expect(page.assetsOnly).toBe(true);
    const marcus = entityOf("demo.assets");
    const view = page.assets;
    expect(view.member).toMatchObject({ id: marcus, name: "Marcus Bell" });
    const v = (description: string) => owned(marcus, description);
    expect(view.cards.map((c) => [c.tab, c.title])).toEqual([
      ["investments", "3 investments"],
      ["pensions", "4 pensions"],
      ["annuities", "1 annuity"],
      ["liabilities", "1 liability"],
    ]);
    // the US brokerage account in sterling at the rate of its valuation date
    expect(items(card(view, "investments"))).toEqual([
      ["Buy-to-let flat, Clifton", money0(v("Buy-to-let flat, Clifton"))],
      ["Fidelity Stocks and Shares ISA", money0(v("Fidelity Stocks and Shares ISA"))],
      ["US brokerage account", money0(v("US brokerage account"))],
    ]);
    expect(money0(v("US brokerage account"))).not.toBe(money0(41_200));
    // the pensions: what the AJ Bell SIPP holds, the paid-up pension and the SIPP's loan (negative); not the wrapper itself
    expect(items(card(view, "pensions"))).toEqual([
      ["Commercial unit, Avonmouth (AJ Bell SIPP)", money0(v("Commercial unit, Avonmouth (AJ Bell SIPP)"))],
      ["Royal Mail defined benefit pension", money0(v("Royal Mail defined benefit pension"))],
      ["Drawdown portfolio (AJ Bell SIPP)", money0(v("Drawdown portfolio (AJ Bell SIPP)"))],
    ]);
    const pensions =
      v("Commercial unit, Avonmouth (AJ Bell SIPP)") +
      v("Royal Mail defined benefit pension") +
      v("Drawdown portfolio (AJ Bell SIPP)") -
      v("Loan against the SIPP property");
    expect(card(view, "pensions")!.total).toBe(money0(pensions));
    expect(items(card(view, "annuities"))).toEqual([["Aviva enhanced annuity", money0(v("Aviva enhanced annuity"))]]);
    // the liabilities without the SIPP's loan
    expect(items(card(view, "liabilities"))).toEqual([["Buy-to-let mortgage", money0(-v("Buy-to-let mortgage"))]]);
    expect(card(view, "liabilities")!.total).toBe(money0(-v("Buy-to-let mortgage")));
    const investments = v("Buy-to-let flat, Clifton") + v("Fidelity Stocks and Shares ISA") + v("US brokerage account");
    expect(view.member.total).toBe(
      money0(investments + pensions + v("Aviva enhanced annuity") - v("Buy-to-let mortgage")),
    );
    expect(view.others).toEqual([]);
  });

  it("denies demo.messages (Messages level)", async () => {
    const route = await import("~/routes/clients.home/route");
    expect((await thrown(callLoader(route, "/clients/home", messages))).status).toBe(403);
  });
});

describe("clients home: account groups (site setting portfolioGrouping 'accountgroup', spec 001 §5)", () => {
  const SITE_CACHE_MS = 5 * 60_000;
  const setGrouping = (value: string) =>
    sql("UPDATE site_settings SET value_json = ? WHERE key = 'portfolioGrouping'").run(JSON.stringify(value));
  beforeAll(() => {
    setGrouping("accountgroup");
    // the portal keeps site settings for a few minutes: let them expire
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SITE_CACHE_MS + 60_000);
  });
  afterAll(() => {
    vi.useRealTimers();
    setGrouping("split");
  });

  type Group = { name: string; linked: boolean; accounts: number[] };
  /** Her own accounts by account group (no group: one row), and the linked accounts in one row. */
  function groups(): Group[] {
    const rows = sql(
      `SELECT a.id, g.group_name AS name FROM accounts a LEFT JOIN account_groups g ON g.id = a.account_group_id WHERE a.id IN (${ids(own).join(",")})`,
    ).all() as Array<{ id: number; name: string | null }>;
    const byName = new Map<string, number[]>();
    for (const r of rows)
      byName.set(r.name ?? "Accounts without a group", [
        ...(byName.get(r.name ?? "Accounts without a group") ?? []),
        r.id,
      ]);
    return [
      ...[...byName].map(([name, accountIds]) => ({ name, linked: false, accounts: accountIds })),
      { name: "Linked accounts", linked: true, accounts: ids(linked) },
    ];
  }

  it("shows a row per account group, the accounts without a group and the linked accounts, with their figures", async () => {
    const portfolio = ok(await home("/clients/home", client));
    expect(portfolio.collection).toBe("group");
    expect(portfolio.overview.value).toBe(expectedFigures(ids(own), ONE_YEAR_BEFORE).value);
    const expected = groups();
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(portfolio.own.map((r) => r.name).sort()).toEqual(
      expected
        .filter((g) => !g.linked)
        .map((g) => g.name)
        .sort(),
    );
    expect(portfolio.linked.map((r) => r.name)).toEqual(["Linked accounts"]);
    const rows = [...portfolio.own, ...portfolio.linked].sort(byName);
    [...expected].sort(byName).forEach((group, i) => {
      const row = rows[i]!;
      expect(row.accountCount, group.name).toBe(group.accounts.length);
      expect({ value: row.value, performance: row.performance, movement: row.movement }, group.name).toEqual(
        expectedFigures(group.accounts, ONE_YEAR_BEFORE),
      );
    });
  });

  it("opens an account group onto its accounts", async () => {
    const portfolio = ok(await home("/clients/home?expand=group-HARTLEY-ISA", client));
    const isas = portfolio.own.find((r) => r.key === "group-HARTLEY-ISA")!;
    expect(isas.name).toBe("ISAs");
    expect(isas.expanded).toBe(true);
    expect(isas.accountsError).toBe(false);
    const ellieIsa = own.find((a) => a.description === "Ellie Stocks and Shares ISA")!;
    const shown = isas.accounts!.find((a) => a.key === `account-${ellieIsa.id}`)!;
    expect({ name: shown.name, value: shown.value, performance: shown.performance, movement: shown.movement }).toEqual({
      name: ellieIsa.description,
      ...expectedFigures([ellieIsa.id], ONE_YEAR_BEFORE),
    });
    expect(isas.accounts!.map((a) => a.name)).not.toContain("Ellie Self-Invested Personal Pension");
    // an own group never opens onto a linked member's account of the same group (James's ISA)
    expect(isas.accounts!.map((a) => a.key).sort()).toEqual(
      groups()
        .find((g) => g.name === "ISAs")!
        .accounts.map((id) => `account-${id}`)
        .sort(),
    );
  });

  it("opens the rows of accounts without a group and of linked accounts onto their accounts", async () => {
    const portfolio = ok(await home("/clients/home?expand=group-none,group-linked", client));
    const expected = groups();
    for (const [key, group] of [
      ["group-none", expected.find((g) => g.name === "Accounts without a group")!],
      ["group-linked", expected.find((g) => g.linked)!],
    ] as const) {
      const row = [...portfolio.own, ...portfolio.linked].find((r) => r.key === key)!;
      expect(row.expanded, key).toBe(true);
      expect(row.accountsError, key).toBe(false);
      expect(row.accounts!.map((a) => a.key).sort(), key).toEqual(group.accounts.map((id) => `account-${id}`).sort());
    }
  });
});
