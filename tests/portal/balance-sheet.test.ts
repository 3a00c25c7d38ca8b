import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { thrown, callLoader } from "./portal-harness";
import { TODAY, withSeededPortal } from "./seeded-book";

// The balance sheet's loader (spec 001 §2.5, §4) against a real platform on a fresh seeded
// database: the figures are recomputed here from the raw rows of that database.

const seeded = withSeededPortal();
let client: string;
let assets: string;
let messages: string;
let adviserWithClient: string;

type Cell = { text: string; note: string | null };
type Row = {
  id: number;
  description: Cell;
  type: Cell;
  detail: Cell;
  value: Cell;
  valueOwned: Cell;
  negative: boolean;
};
type Table = { kind: string; caption: string; rows: Row[]; total: string } | { kind: "managed"; empty: true };
type Content =
  | {
      state: "ok";
      tab: string;
      tabs: Array<{ tab: string; index: number; title: string; href: string; current: boolean }>;
      tables: Table[];
      partial: boolean;
    }
  | { state: string };
type Page = {
  page: {
    heading: string;
    members: Array<{ id: number; name: string }>;
    member: { id: number; name: string } | null;
    views: Array<{ view: string; label: string; href: string; current: boolean }>;
    currency: { preferred: string; mode: string; hidden: Record<string, string> } | null;
    csv: string | null;
    content: Content;
  };
  basis: { title: string } | null;
};

type AnalysisPage = {
  figures: {
    period: string;
    accounts: { sections: Array<{ rows: Array<{ name: string; value: string }> }> } | null;
  } | null;
};

async function sheet(path: string, cookie: string): Promise<Page> {
  const route = await import("~/routes/clients.balance-sheet/route");
  const response = await callLoader(route, path, cookie);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}
const okContent = (page: Page) => {
  expect(page.page.content.state).toBe("ok");
  return page.page.content as Extract<Content, { state: "ok" }>;
};
const tablesOf = (page: Page) =>
  okContent(page).tables.filter((t): t is Extract<Table, { rows: Row[] }> => !("empty" in t));

type Statement = { all: (...params: unknown[]) => unknown[]; get: (...params: unknown[]) => unknown };
const sql = (text: string): Statement => seeded.portal.platform.db.$client.prepare(text) as unknown as Statement;
const entityOf = (username: string) =>
  (sql("SELECT entity_id AS id FROM users WHERE username = ?").get(username) as { id: number }).id;
const money2 = (amount: number, currency = "GBP") => formatMoney(amount, currency, "en-GB", { decimals: 2 });

/** Units of `currency` for one GBP on `date` (the rates the platform seeded). */
function perGbp(currency: string, date: string): number {
  if (currency === "GBP") return 1;
  const row = sql(
    "SELECT rate_micros AS r FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1",
  ).get(currency, date) as { r: number };
  return row.r / 1e6;
}
type Owned = {
  description: string;
  valueMinor: number;
  bp: number;
  currency: string;
  valuationDate: string;
  underAdvice: number;
};
/** A member's seeded items of a kind, with its share in sterling at the rate of the valuation date. */
function ownedOf(entityId: number, kind: string) {
  const rows = sql(
    `SELECT a.description, a.value_minor AS valueMinor, o.percentage_bp AS bp, a.currency, a.valuation_date AS valuationDate,
            a.under_advice AS underAdvice, a.status, a.is_sipp_wrapper AS sipp, a.type
     FROM other_assets a JOIN other_asset_owners o ON o.asset_id = a.id WHERE o.entity_id = ? AND a.kind = ? ORDER BY a.id`,
  ).all(entityId, kind) as Array<Owned & { status: string; sipp: number; type: string }>;
  return rows.map((r) => ({
    ...r,
    managed: r.underAdvice === 1,
    share: ((r.valueMinor / 100) * (kind === "pension" ? 10_000 : r.bp)) / 10_000 / perGbp(r.currency, r.valuationDate),
  }));
}

beforeAll(() => {
  ({ client, assets, messages, adviserWithClient } = seeded.users);
});

describe("balance sheet: demo.client", () => {
  it("shows Everything by default, her members, and the tabs with data", async () => {
    const page = await sheet("/clients/balance-sheet", client);
    expect(page.page.heading).toBe("Balance Sheet");
    expect(page.page.views.map((v) => [v.label, v.current])).toEqual([
      ["Managed", false],
      ["Non-managed", false],
      ["Everything", true],
    ]);
    expect(page.page.members.map((m) => m.name)).toEqual(["Ellie Hartley", "James Hartley"]);
    expect(page.page.member?.name).toBe("Ellie Hartley");
    // all her assets are in sterling: no currency toggle
    expect(page.page.currency).toBeNull();
    const content = okContent(page);
    // her ISA, joint and trust accounts beside the cottage and the held-away fund; her SIPP account beside the held-away pensions
    expect(content.tabs.map((t) => [t.title, t.current])).toEqual([
      ["5 Investments", true],
      ["4 Pensions", false],
      ["1 Liability", false],
    ]);
    expect(page.basis?.title).toBe("Basis of valuation");
  });

  it("recomputes the held-away pensions from the seed: what the HL SIPP holds, not the wrapper nor the transferred pension", async () => {
    const ellie = entityOf("demo.client");
    const page = await sheet(`/clients/balance-sheet?asset=1`, client);
    expect(okContent(page).tab).toBe("pensions");
    const kept = [
      ...ownedOf(ellie, "pension").filter((p) => p.type !== "SIPP" && p.status === "Active"),
      ...ownedOf(ellie, "investment").filter((i) => i.sipp === 1),
    ];
    expect(kept.map((p) => p.description)).toEqual([
      "Aviva workplace pension",
      "Fundsmith Equity (HL SIPP)",
      "Cash (HL SIPP)",
    ]);
    // held away, so none is under advice: her SIPP account is the managed table, these the non-managed one
    expect(kept.every((p) => !p.managed)).toBe(true);
    const tables = tablesOf(page);
    expect(tables.map((t) => t.kind)).toEqual(["managed", "nonManaged"]);
    expect(tables[0]!.rows.map((r) => r.description.text)).toEqual(["Ellie Self-Invested Personal Pension"]);
    expect(tables[1]!.rows.map((r) => [r.description.text, r.valueOwned.text, r.valueOwned.note])).toEqual(
      kept.map((p) => [p.description, money2(p.share), "100.00%"]),
    );
    expect(tables[1]!.total).toBe(money2(kept.reduce((sum, p) => sum + p.share, 0)));
  });

  it("names her ISA and SIPP in the managed figures with the analysis page's values and date; adding them up gives her portfolio", async () => {
    const analysisRoute = await import("~/routes/clients.analysis/route");
    const accountsOf = async (path: string) => {
      const response = await callLoader(analysisRoute, path, client);
      expect(response.status).toBe(200);
      const page = ((await response.json()) as { page: AnalysisPage }).page;
      return { period: page.figures!.period, rows: page.figures!.accounts!.sections.flatMap((x) => x.rows) };
    };
    const all = await accountsOf("/clients/analysis");
    const portfolioId = (sql("SELECT id FROM portfolios WHERE name = ?").get("Ellie's portfolio") as { id: number }).id;
    const ellies = await accountsOf(`/clients/analysis?id=portfolio-${portfolioId}`);
    const joint = await accountsOf(
      `/clients/analysis?id=portfolio-${(sql("SELECT id FROM portfolios WHERE name = ?").get("Joint portfolio") as { id: number }).id}`,
    );
    const trust = await accountsOf(
      `/clients/analysis?id=portfolio-${(sql("SELECT id FROM portfolios WHERE name = ?").get("Hartley Family Trust") as { id: number }).id}`,
    );
    const analysisValue = new Map([...ellies.rows, ...joint.rows, ...trust.rows].map((r) => [r.name, r.value]));
    const today = formatDate(TODAY, "en-GB", "long");
    expect(all.period.endsWith(today)).toBe(true);

    const investments = await sheet("/clients/balance-sheet?view=managed&asset=0", client);
    expect(okContent(investments).tabs.map((t) => t.title)).toEqual(["3 Investments", "1 Pension"]);
    const [isaTable] = tablesOf(investments);
    expect(isaTable!.caption).toBe("Managed investments");
    expect(
      isaTable!.rows.map((r) => [
        r.description.text,
        r.description.note,
        r.value.text,
        r.value.note,
        r.valueOwned.note,
      ]),
    ).toEqual([
      [
        "Ellie Stocks and Shares ISA",
        "Ellie Hartley",
        analysisValue.get("Ellie Stocks and Shares ISA"),
        today,
        "100.00%",
      ],
      [
        "Joint General Investment Account",
        "Ellie Hartley, James Hartley",
        analysisValue.get("Joint General Investment Account"),
        today,
        "50.00%",
      ],
      [
        "Hartley Family Trust account",
        "Ellie Hartley, James Hartley",
        analysisValue.get("Hartley Family Trust account"),
        today,
        "50.00%",
      ],
    ]);
    const pensions = await sheet("/clients/balance-sheet?view=managed&asset=1", client);
    const [sippTable] = tablesOf(pensions);
    expect(sippTable!.caption).toBe("Managed pensions");
    expect(
      sippTable!.rows.map((r) => [r.description.text, r.type.text, r.value.text, r.value.note, r.valueOwned.text]),
    ).toEqual([
      [
        "Ellie Self-Invested Personal Pension",
        "Personal pension (SIPP)",
        analysisValue.get("Ellie Self-Invested Personal Pension"),
        today,
        analysisValue.get("Ellie Self-Invested Personal Pension"),
      ],
    ]);
    // the ISA and the SIPP add up to her portfolio's value on the analysis page (each shown to the penny)
    const amount = (text: string | undefined) => Number(text!.replace(/[£,]/g, ""));
    const portfolioRow = all.rows.find((r) => r.name === "Ellie's portfolio")!;
    expect(
      Math.abs(
        amount(isaTable!.rows[0]!.value.text) + amount(sippTable!.rows[0]!.value.text) - amount(portfolioRow.value),
      ),
    ).toBeLessThanOrEqual(0.01);
    // and recomputed from the seeded book at today's prices (her delayed pricing)
    const accountValue = (description: string) => {
      const { id } = sql("SELECT id FROM accounts WHERE description = ?").get(description) as { id: number };
      return seeded.book.valueOf([id], TODAY, "GBP", TODAY);
    };
    expect(isaTable!.rows[0]!.value.text).toBe(money2(accountValue("Ellie Stocks and Shares ISA")));
    expect(isaTable!.rows[1]!.valueOwned.text).toBe(
      money2(Math.round(accountValue("Joint General Investment Account") * 50) / 100),
    );
    expect(sippTable!.total).toBe(money2(accountValue("Ellie Self-Invested Personal Pension")));
  });

  it("splits the views by the under-advice flag: her portfolio accounts managed, her held-away assets not", async () => {
    const managed = okContent(await sheet("/clients/balance-sheet?view=managed", client));
    expect(managed.tabs.map((t) => t.title)).toEqual(["3 Investments", "1 Pension"]);
    const nonManaged = await sheet("/clients/balance-sheet?view=non-managed", client);
    expect(okContent(nonManaged).tabs.map((t) => t.title)).toEqual(["2 Investments", "3 Pensions", "1 Liability"]);
    const ellie = entityOf("demo.client");
    const investments = ownedOf(ellie, "investment").filter((i) => i.sipp === 0);
    expect(investments.every((i) => !i.managed)).toBe(true);
    const [table] = tablesOf(nonManaged);
    expect(table!.rows.map((r) => [r.description.text, r.description.note, r.valueOwned.text])).toEqual([
      ["Holiday cottage, Padstow", "Ellie Hartley, James Hartley", money2(investments[0]!.share)],
      ["Vanguard LifeStrategy 60% (held away)", "Ellie Hartley", money2(investments[1]!.share)],
    ]);
    // Everything: her liabilities have no managed item
    const everything = okContent(await sheet("/clients/balance-sheet?asset=3", client));
    expect(everything.tables[0]).toEqual({ kind: "managed", empty: true });
  });

  it("shows the liabilities' columns, the value owned negative", async () => {
    const ellie = entityOf("demo.client");
    const page = await sheet("/clients/balance-sheet?asset=3", client);
    const mortgage = ownedOf(ellie, "liability").find((l) => l.status === "Current")!;
    const [table] = tablesOf(page);
    expect(table!.rows).toHaveLength(1);
    const row = table!.rows[0]!;
    expect(row.description).toEqual({ text: "Mortgage, Kensington Park Road", note: "Ellie Hartley, James Hartley" });
    expect(row.type).toEqual({ text: "Repayment mortgage", note: "Nationwide" });
    expect(row.detail).toEqual({ text: "4.49%", note: "NW-MTG-66120" });
    expect(row.value.text).toBe(money2(mortgage.valueMinor / 100));
    expect(row.valueOwned).toEqual({ text: money2(-mortgage.share), note: "50.00%" });
    expect(table!.total).toBe(money2(-mortgage.share));
  });

  it("shows James's balance sheet with ?id=, and falls back to her own for anyone else", async () => {
    const james = entityOf("demo.partner");
    const page = await sheet(`/clients/balance-sheet?id=${james}`, client);
    expect(page.page.member).toEqual({ id: james, name: "James Hartley" });
    // his ISA, US dollar, joint and trust accounts beside his half of the cottage
    expect(okContent(page).tabs.map((t) => t.title)).toEqual([
      "5 Investments",
      "1 Pension",
      "1 Annuity",
      "2 Liabilities",
    ]);
    const managed = tablesOf(await sheet(`/clients/balance-sheet?id=${james}&view=managed`, client))[0]!;
    expect(managed.rows.map((r) => [r.description.text, r.valueOwned.note])).toEqual([
      ["James Stocks and Shares ISA", "100.00%"],
      ["James US dollar account", "100.00%"],
      ["Joint General Investment Account", "50.00%"],
      ["Hartley Family Trust account", "50.00%"],
    ]);
    // the joint account is both members', each with half of the same value
    const hers = tablesOf(await sheet("/clients/balance-sheet?view=managed", client))[0]!.rows.find(
      (r) => r.description.text === "Joint General Investment Account",
    )!;
    const his = managed.rows.find((r) => r.description.text === "Joint General Investment Account")!;
    expect([his.value.text, his.valueOwned.text]).toEqual([hers.value.text, hers.valueOwned.text]);
    // his US dollar account brings the currency toggle: in original currencies it is in dollars, as valued today
    const usd = (sql("SELECT id FROM accounts WHERE description = 'James US dollar account'").get() as { id: number })
      .id;
    expect(page.page.currency?.preferred).toBe("GBP");
    const row = (p: Page) => tablesOf(p)[0]!.rows.find((r) => r.description.text === "James US dollar account")!;
    expect(row(await sheet(`/clients/balance-sheet?id=${james}&view=managed`, client)).value.text).toBe(
      money2(seeded.book.valueOf([usd], TODAY, "GBP", TODAY)),
    );
    const original = await sheet(`/clients/balance-sheet?id=${james}&view=managed&currency=plan`, client);
    expect(row(original).value.text).toBe(money2(seeded.book.valueOf([usd], TODAY, "USD", TODAY), "USD"));
    // a total across sterling and dollars cannot be added up
    expect(tablesOf(original)[0]!.total).toBe("Not available");
    const olivia = (sql("SELECT id FROM entities WHERE display_name = 'Olivia Hartley'").get() as { id: number }).id;
    for (const id of [entityOf("demo.assets"), olivia, 99_999]) {
      const other = await sheet(`/clients/balance-sheet?id=${id}`, client);
      expect(other.page.member?.name, String(id)).toBe("Ellie Hartley");
      expect(JSON.stringify(other)).not.toMatch(/Marcus|Clifton|Premium Bonds|Olivia/);
    }
  });

  it("shows an adviser with demo.client in context the same balance sheet", async () => {
    const mine = await sheet("/clients/balance-sheet?asset=1", client);
    const adviser = await sheet("/clients/balance-sheet?asset=1", adviserWithClient);
    expect(adviser.page).toEqual(mine.page);
  });
});

describe("balance sheet: access levels", () => {
  it("gives demo.assets (Assets level) the page, with the currency toggle for the US account", async () => {
    const marcus = entityOf("demo.assets");
    const page = await sheet("/clients/balance-sheet", assets);
    expect(page.page.member).toEqual({ id: marcus, name: "Marcus Bell" });
    expect(page.page.currency?.preferred).toBe("GBP");
    const content = okContent(page);
    expect(content.tabs.map((t) => t.title)).toEqual(["3 Investments", "4 Pensions", "1 Annuity", "1 Liability"]);
    const us = ownedOf(marcus, "investment").find((i) => i.currency === "USD")!;
    const all = tablesOf(page).flatMap((t) => t.rows);
    expect(all.find((r) => r.description.text === "US brokerage account")!.valueOwned.text).toBe(money2(us.share));
    // in original currencies the account is in dollars
    const original = await sheet("/clients/balance-sheet?currency=plan", assets);
    const row = tablesOf(original)
      .flatMap((t) => t.rows)
      .find((r) => r.description.text === "US brokerage account")!;
    expect(row.value.text).toBe(money2(us.valueMinor / 100, "USD"));
  });

  it("denies demo.messages (Messages level)", async () => {
    const route = await import("~/routes/clients.balance-sheet/route");
    expect((await thrown(callLoader(route, "/clients/balance-sheet", messages))).status).toBe(403);
  });
});

describe("balance sheet: the CSV download (decision 208)", () => {
  const TYPES: Record<string, string> = {
    investments: "Investments",
    pensions: "Pensions",
    annuities: "Annuities",
    liabilities: "Liabilities",
  };
  const KINDS: Record<string, string> = { managed: "Managed", nonManaged: "Non-managed" };

  async function download(path: string, cookie: string): Promise<Response> {
    const route = await import("~/routes/clients.balance-sheet_.download/route");
    return callLoader(route, path, cookie);
  }
  async function csvOf(path: string, cookie: string): Promise<string[][]> {
    const response = await download(path, cookie);
    expect(response.status).toBe(200);
    return parse(await response.text(), { bom: true }) as string[][];
  }
  /** A CSV amount as the page writes it: its currency's money to the penny, 'Not available' for an empty cell. */
  const shown = (amount: string | undefined, currency: string | undefined) =>
    amount ? money2(Number(amount), currency) : "Not available";

  /**
   * Every member's every tab, read from the page one view at a time (?id= and ?asset=), against the
   * file: the same items in the same order, the same values, shares and percentages, the same totals.
   */
  async function expectFileIsThePages(cookie: string, query: string) {
    const first = await sheet(`/clients/balance-sheet${query ? `?${query}` : ""}`, cookie);
    const rows = await csvOf(first.page.csv!, cookie);
    const data = rows.slice(1);
    let compared = 0;
    for (const member of first.page.members) {
      const own = await sheet(`/clients/balance-sheet?id=${member.id}${query ? `&${query}` : ""}`, cookie);
      if (own.page.content.state !== "ok") continue;
      for (const tab of okContent(own).tabs) {
        const page = await sheet(
          `/clients/balance-sheet?id=${member.id}&asset=${tab.index}${query ? `&${query}` : ""}`,
          cookie,
        );
        for (const table of tablesOf(page)) {
          const block = data.filter(
            (r) => r[0] === member.name && r[1] === TYPES[tab.tab] && r[2] === KINDS[table.kind],
          );
          const items = block.slice(0, -1);
          expect(
            items.map((r) => [r[3], shown(r[14], r[13]), shown(r[16], r[13]), `${Number(r[15]).toFixed(2)}%`]),
            `${member.name} ${table.caption}`,
          ).toEqual(table.rows.map((r) => [r.description.text, r.value.text, r.valueOwned.text, r.valueOwned.note]));
          const total = block.at(-1)!;
          expect(total[3]).toBe("Total");
          expect(shown(total[16], total[13]), `${member.name} ${table.caption} total`).toBe(table.total);
          compared += block.length;
        }
      }
    }
    // nothing in the file that the pages do not show
    expect(compared).toBe(data.length);
    return rows;
  }

  it("has a link on the page to every member's balance sheet in the view and currency shown", async () => {
    const page = await sheet("/clients/balance-sheet?view=managed&asset=1&id=" + entityOf("demo.partner"), client);
    expect(page.page.csv).toBe("/clients/balance-sheet/download?view=managed");
  });

  it("downloads demo.client's and James's assets and liabilities with the page's figures and totals to the penny", async () => {
    const response = await download("/clients/balance-sheet/download", client);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="balance-sheet-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = await expectFileIsThePages(client, "");
    expect(rows[0]).toEqual([
      "Member",
      "Asset type",
      "Managed",
      "Description",
      "Owners",
      "Type",
      "Provider",
      "Policy number",
      "Interest rate (% pa)",
      "Income",
      "Income currency",
      "Income frequency",
      "Valuation date",
      "Currency",
      "Value",
      "Percent owned",
      "Value owned",
    ]);
    expect([...new Set(rows.slice(1).map((r) => r[0]))]).toEqual(["Ellie Hartley", "James Hartley"]);
    // the liability is owed: its share and its total negative
    const liability = rows.find((r) => r[0] === "Ellie Hartley" && r[1] === "Liabilities" && r[3] !== "Total")!;
    expect(Number(liability[16])).toBeLessThan(0);
    expect(liability[8]).not.toBe("");
  });

  it("downloads the managed view alone, and demo.assets' file in original currencies", async () => {
    await expectFileIsThePages(client, "view=managed");
    const rows = await expectFileIsThePages(assets, "currency=plan");
    const us = rows.find((r) => r[3] === "US brokerage account")!;
    expect(us[13]).toBe("USD");
  });

  it("gives an adviser with demo.client in context the same file, and denies demo.messages", async () => {
    const mine = await (await download("/clients/balance-sheet/download", client)).text();
    const adviser = await (await download("/clients/balance-sheet/download", adviserWithClient)).text();
    expect(adviser).toBe(mine);
    expect((await thrown(download("/clients/balance-sheet/download", messages))).status).toBe(403);
  });
});
