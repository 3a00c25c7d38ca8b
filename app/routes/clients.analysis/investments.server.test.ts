import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import type { AllocationAnswer, AllocationCategory, Holding, HoldingsAnswer } from "~/lib/analysis/investments";
import type { AnalysisQuery } from "~/lib/analysis/query";
import { holdingsFixtures, money } from "~/lib/analysis/holdings.fixtures";
import { analysisSettings } from "~/lib/analysis/settings";
import { i18nConfig } from "~/lib/i18n";
import { resources } from "~/locales/resources";
import { allocationView, investmentsView } from "./investments.server";
import { type NamedList, siteNames } from "~/lib/site-words";

const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const f = { t, locale: "en-GB" };
const QUERY: AnalysisQuery = {
  id: null,
  range: "1Y",
  from: "",
  to: "",
  chart: null,
  currency: "report",
  tab: "investments",
  tx: null,
  pages: 1,
  sort: "description",
  dir: "asc",
  expand: "primary",
  open: [],
  show: "preferred",
  convert: [],
};
const query = (fields: Partial<AnalysisQuery> = {}): AnalysisQuery => ({ ...QUERY, ...fields });
const SETTINGS = analysisSettings({});
const NO_RATES = new Map<string, number | null>();

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ ...i18nConfig, lng: "en-GB", resources });
});
/** The real en-GB wording of the clients namespace. */
const english = () => ({ t: i18n.getFixedT("en-GB", "clients"), locale: "en-GB" });

/** Holdings in pounds and dollars, reported in pounds. */
const { holding, dollars, account } = holdingsFixtures({ currency: "GBP", rate: 1 }, { weight: 25 });
const answer = (holdings: Holding[], accounts = [account(1), account(2)]): HoldingsAnswer => ({
  date: "2025-03-14",
  reportCurrency: "GBP",
  total: money(4000),
  accounts,
  holdings,
});

/** Account 1 holds pounds and dollars; account 2 pounds only. */
const MIXED = answer([holding("1-1", 1), dollars("1-2", 1), holding("2-1", 2)]);

function ok(view: ReturnType<typeof investmentsView>) {
  if (view.state !== "ok") throw new Error(`expected a table, got ${view.state}`);
  return view;
}

describe("investmentsView (spec 001 §2.3 investments tab)", () => {
  it("is empty when the selection holds nothing", () => {
    expect(investmentsView(answer([]), QUERY, SETTINGS, NO_RATES, f)).toEqual({ state: "empty" });
  });

  it("dates the table, and says which currency shows", () => {
    const view = ok(investmentsView(MIXED, QUERY, SETTINGS, NO_RATES, f));
    expect(view).toMatchObject({
      asAt: "14th March 2025",
      show: "preferred",
      multiCurrency: false,
      preferredCurrency: "GBP",
      columns: { gain: true, income: true },
    });
  });

  it("heads the columns, the sorted one with its aria-sort and a link to turn it round", () => {
    const view = ok(investmentsView(MIXED, QUERY, SETTINGS, NO_RATES, f));
    expect(view.headers.map((h) => [h.key, h.label, h.href, h.ariaSort, h.numeric])).toEqual([
      ["name", "analysis.investments.columns.name", "/clients/analysis?tab=investments&dir=desc", "ascending", false],
      ["cost", "analysis.investments.columns.cost", "/clients/analysis?tab=investments&sort=cost", null, true],
      ["weight", "analysis.investments.columns.weight", "/clients/analysis?tab=investments&sort=weight", null, true],
      ["value", "analysis.investments.columns.value", "/clients/analysis?tab=investments&sort=value", null, true],
      ["gain", "analysis.investments.columns.gain", "/clients/analysis?tab=investments&sort=gain", null, true],
      ["income", "analysis.investments.columns.income", "/clients/analysis?tab=investments&sort=income", null, true],
    ]);
  });

  it("marks a descending sort and links back to ascending", () => {
    const view = ok(investmentsView(MIXED, query({ sort: "value", dir: "desc" }), SETTINGS, NO_RATES, f));
    const value = view.headers.find((h) => h.key === "value")!;
    expect([value.ariaSort, value.href]).toEqual(["descending", "/clients/analysis?tab=investments&sort=value"]);
    const name = view.headers.find((h) => h.key === "name")!;
    expect([name.ariaSort, name.href]).toEqual([null, "/clients/analysis?tab=investments"]);
  });

  it("keeps the rest of the query in the sort links, back on the first page of transactions", () => {
    const view = ok(
      investmentsView(
        MIXED,
        query({ id: "portfolio-3", range: "2Y", tx: 9, pages: 3, expand: "all" }),
        SETTINGS,
        NO_RATES,
        f,
      ),
    );
    expect(view.headers.find((h) => h.key === "cost")!.href).toBe(
      "/clients/analysis?id=portfolio-3&range=2Y&tab=investments&sort=cost&expand=all",
    );
  });

  it("cannot sort market value, book cost or gain in multi-currency mode, and sorts by name instead", () => {
    const view = ok(
      investmentsView(MIXED, query({ show: "original", sort: "value", dir: "desc" }), SETTINGS, NO_RATES, f),
    );
    expect(view.multiCurrency).toBe(true);
    expect(view.headers.filter((h) => h.href === null).map((h) => h.key)).toEqual(["cost", "value", "gain"]);
    expect(view.headers.filter((h) => h.ariaSort !== null).map((h) => [h.key, h.ariaSort])).toEqual([
      ["name", "ascending"],
    ]);
  });

  it("leaves out a column whose settings are all none", () => {
    const settings = analysisSettings({ unrealisedGainValue: "none", unrealisedGainPercent: "none" });
    const view = ok(investmentsView(MIXED, QUERY, settings, NO_RATES, f));
    expect(view.headers.map((h) => h.key)).toEqual(["name", "cost", "weight", "value", "income"]);
    expect(view.columns).toEqual({ gain: false, income: true });
  });

  it("writes the figures at 2 decimals, units at up to 4, and percentages", () => {
    const data = answer(
      [
        holding("1", 1, {
          volume: 1234.56789,
          price: { native: 2.34567, plan: 2.34567, report: 2.34567 },
          weight: 12.345,
        }),
      ],
      [account(1)],
    );
    const [position] = ok(investmentsView(data, QUERY, SETTINGS, NO_RATES, f)).accounts[0]!.positions;
    expect(position!.cells).toEqual({
      units: "1,234.5679",
      price: "£2.3457",
      quantity: 'analysis.investments.unitsAtPrice {"units":"1,234.5679","price":"£2.3457"}',
      cost: "£800.00",
      weight: "12.35%",
      value: "£1,000.00",
      gain: "£200.00",
      gainPercent: "25.00%",
      gainNegative: false,
      income: "£50.00",
      yield: "5.00%",
    });
  });

  it("says 'Not available' for a book cost or gain not known", () => {
    const data = answer(
      [holding("1", 1, { cost: null }), holding("2", 1, { cost: money(0) }), holding("3", 1, { gain: money(-20) })],
      [account(1)],
    );
    const [a] = ok(investmentsView(data, QUERY, SETTINGS, NO_RATES, f)).accounts;
    expect(a!.positions.map((p) => [p.cells.cost, p.cells.gain, p.cells.gainPercent, p.cells.gainNegative])).toEqual([
      ["analysis.investments.notAvailable", "analysis.investments.notAvailable", "", false],
      ["£0.00", "analysis.investments.notAvailable", "", false],
      ["£800.00", "-£20.00", "25.00%", true],
    ]);
    expect([a!.cells.cost, a!.cells.gain]).toEqual([
      "analysis.investments.notAvailable",
      "analysis.investments.notAvailable",
    ]);
  });

  it("says 'Not available' for a converted holding's book cost and gain, in English", () => {
    const view = ok(
      investmentsView(
        MIXED,
        query({ show: "original", convert: [1] }),
        SETTINGS,
        new Map([["USDGBP", 0.78124]]),
        english(),
      ),
    );
    const usd = view.accounts[0]!.positions.find((p) => p.code === "SEC1-2")!;
    expect([usd.cells.cost, usd.cells.gain, usd.cells.value]).toEqual(["Not available", "Not available", "£1,000.00"]);
  });

  it("leaves a gain hidden on account rows empty with SecurityLevelOnly, not 'Not available'", () => {
    const settings = analysisSettings({
      unrealisedGainValue: "SecurityLevelOnly",
      unrealisedGainPercent: "SecurityLevelOnly",
    });
    const [a] = ok(investmentsView(answer([holding("1", 1)], [account(1)]), QUERY, settings, NO_RATES, f)).accounts;
    expect([a!.cells.gain, a!.cells.gainPercent]).toEqual(["", ""]);
    expect([a!.positions[0]!.cells.gain, a!.positions[0]!.cells.gainPercent]).toEqual(["£200.00", "25.00%"]);
  });

  it("leaves a gain value set to none empty on every row, its percentage still shown", () => {
    const settings = analysisSettings({ unrealisedGainValue: "none" });
    const [a] = ok(investmentsView(answer([holding("1", 1)], [account(1)]), QUERY, settings, NO_RATES, f)).accounts;
    expect([a!.cells.gain, a!.cells.gainPercent]).toEqual(["", "25.00%"]);
    expect([a!.positions[0]!.cells.gain, a!.positions[0]!.cells.gainPercent]).toEqual(["", "25.00%"]);
  });

  it("shows each holding in its own currency in original currency", () => {
    const view = ok(investmentsView(MIXED, query({ show: "original" }), SETTINGS, NO_RATES, f));
    const usd = view.accounts[0]!.positions[1]!;
    expect([usd.currency, usd.cells.value, usd.cells.price, usd.cells.cost, usd.conversion]).toEqual([
      "USD",
      "$1,280.00",
      "$12.80",
      "$1,000.00",
      null,
    ]);
  });

  it("offers a dropdown to convert a multi-currency account to its currency, adding it to the query", () => {
    const view = ok(investmentsView(MIXED, query({ show: "original", convert: [7] }), SETTINGS, NO_RATES, f));
    expect(view.accounts.map((a) => [a.key, a.convert])).toEqual([
      [
        "a1",
        {
          converted: false,
          toAccount: "7,1",
          toOriginal: "7",
          // the rest of the view, kept by the GET form; its select is the convert field
          hidden: [
            ["tab", "investments"],
            ["show", "original"],
          ],
        },
      ],
      ["a2", null],
    ]);
  });

  it("offers to convert a converted account back to original currency, removing it from the query", () => {
    const view = ok(
      investmentsView(MIXED, query({ show: "original", convert: [7, 1], sort: "value" }), SETTINGS, NO_RATES, f),
    );
    expect(view.accounts.find((a) => a.key === "a1")!.convert).toEqual({
      converted: true,
      toAccount: "7,1",
      toOriginal: "7",
      hidden: [
        ["tab", "investments"],
        ["sort", "value"],
        ["show", "original"],
      ],
    });
    const back = ok(investmentsView(MIXED, query({ show: "original", convert: [1] }), SETTINGS, NO_RATES, f));
    expect(back.accounts[0]!.convert).toMatchObject({ converted: true, toAccount: "1", toOriginal: "" });
  });

  it("offers no conversion in the preferred currency", () => {
    expect(ok(investmentsView(MIXED, QUERY, SETTINGS, NO_RATES, f)).accounts.map((a) => a.convert)).toEqual([
      null,
      null,
    ]);
  });

  it("gives the conversion rate of a converted holding at 4 decimals", () => {
    const view = ok(
      investmentsView(
        MIXED,
        query({ show: "original", convert: [1] }),
        SETTINGS,
        new Map([["USDGBP", 0.78124]]),
        english(),
      ),
    );
    expect(view.accounts[0]!.positions.map((p) => p.conversion)).toEqual([null, "Conversion rate: 1 USD = 0.7812 GBP"]);
    const whole = ok(
      investmentsView(MIXED, query({ show: "original", convert: [1] }), SETTINGS, new Map([["USDGBP", 2]]), english()),
    );
    expect(whole.accounts[0]!.positions[1]!.conversion).toBe("Conversion rate: 1 USD = 2.0000 GBP");
  });

  it("says 'Conversion rate unavailable' when there is no rate", () => {
    const view = ok(investmentsView(MIXED, query({ show: "original", convert: [1] }), SETTINGS, NO_RATES, english()));
    expect(view.accounts[0]!.positions[1]!.conversion).toBe("Conversion rate unavailable");
    const none = ok(
      investmentsView(MIXED, query({ show: "original", convert: [1] }), SETTINGS, new Map([["USDGBP", null]]), f),
    );
    expect(none.accounts[0]!.positions[1]!.conversion).toBe("analysis.investments.rateUnavailable");
  });

  it("names an invalid security INVALID DATA and flags it", () => {
    const view = ok(
      investmentsView(
        answer([holding("1", 1, { description: "" }), holding("2", 1)], [account(1)]),
        QUERY,
        SETTINGS,
        NO_RATES,
        english(),
      ),
    );
    expect(view.accounts[0]!.positions.map((p) => [p.name, p.invalid])).toEqual([
      ["Security 2", false],
      ["INVALID DATA", true],
    ]);
  });

  it("names each purchase by its date", () => {
    const parcel = {
      key: "x",
      tradeDate: "2021-06-01",
      volume: 40,
      cost: money(320),
      gain: money(80),
      value: { native: money(400), plan: money(400), report: money(400) },
    };
    const view = ok(
      investmentsView(answer([holding("1", 1, { parcels: [parcel] })], [account(1)]), QUERY, SETTINGS, NO_RATES, f),
    );
    expect(view.accounts[0]!.positions[0]!.parcels).toEqual([
      {
        key: "x",
        name: 'analysis.investments.parcel {"date":"1st June 2021"}',
        cells: {
          units: "40",
          price: "",
          quantity: 'analysis.investments.unitsOnly {"units":"40"}',
          cost: "£320.00",
          weight: "",
          value: "£400.00",
          gain: "£80.00",
          gainPercent: "25.00%",
          gainNegative: false,
          income: "",
          yield: "",
        },
      },
    ]);
  });

  it("reads units and unit price as one line in English", () => {
    const data = answer(
      [holding("1", 1, { volume: 125.5, price: { native: 7.9681, plan: 7.9681, report: 7.9681 } })],
      [account(1)],
    );
    const view = ok(investmentsView(data, QUERY, SETTINGS, NO_RATES, english()));
    expect(view.accounts[0]!.positions[0]!.cells.quantity).toBe("125.5 units at £7.9681");
    expect(view.accounts[0]!.cells.quantity).toBe("");
  });

  it("links the currency switch, the expand and collapse links and the download", () => {
    const view = ok(
      investmentsView(
        MIXED,
        query({ id: "12", show: "original", convert: [1], open: ["a1"], sort: "weight" }),
        SETTINGS,
        NO_RATES,
        f,
      ),
    );
    expect(view.links).toEqual({
      preferred: "/clients/analysis?id=12&tab=investments&sort=weight&open=a1",
      original: "/clients/analysis?id=12&tab=investments&sort=weight&open=a1&show=original&convert=1",
      expandAll: "/clients/analysis?id=12&tab=investments&sort=weight&expand=all&show=original&convert=1",
      collapseAll: "/clients/analysis?id=12&tab=investments&sort=weight&expand=none&show=original&convert=1",
      csv: "/clients/analysis/download/investments?id=12&sort=weight&show=original&convert=1",
    });
  });
});

describe("investmentsView: totals (decision 108)", () => {
  it("adds a total per account and a grand total, in English, and notes how to see the converted book cost", () => {
    const view = ok(investmentsView(MIXED, query({ show: "preferred" }), SETTINGS, NO_RATES, english()));
    expect(
      view.accounts.map(
        (a) => a.total && [a.total.label, a.total.value.text, a.total.cost.text, a.total.cost.note, a.total.gain.text],
      ),
    ).toEqual([
      ["Total for Account 1", "£2,000.00", "Not available", 1, "Not available"],
      ["Total for Account 2", "£1,000.00", "£800.00", null, "£200.00"],
    ]);
    expect([view.total.label, view.total.value.text, view.total.cost.text, view.total.cost.note]).toEqual([
      "Total",
      "£3,000.00",
      "Not available",
      1,
    ]);
    expect(view.notes).toEqual([
      {
        key: "converted",
        number: 1,
        text: "Book cost and unrealised gain are known in each holding's own currency only: converted to another currency they read 'Not available' and are not totalled.",
        link: { href: "/clients/analysis?tab=investments&show=original", label: "Show in original currency" },
      },
    ]);
  });

  it("in the original currency says the holdings are in several currencies and the market value is converted", () => {
    const view = ok(investmentsView(MIXED, query({ show: "original" }), SETTINGS, NO_RATES, english()));
    const [one] = view.accounts;
    expect([one!.total!.value.text, one!.total!.value.note, one!.total!.cost.text, one!.total!.cost.note]).toEqual([
      "£2,000.00",
      1,
      "Not available",
      2,
    ]);
    expect(view.notes.map((n) => [n.number, n.key, n.link])).toEqual([
      [1, "valueConverted", null],
      [2, "currencies", null],
    ]);
  });

  it("shows one account's total as the grand total only, with a note when cash is left out of the book cost", () => {
    const cash = holding("1-2", 1, {
      code: "GBPCASH",
      exchange: "CASH",
      cash: true,
      cost: null,
      gain: null,
      value: { native: money(50.5), plan: money(50.5), report: money(50.5) },
    });
    const view = ok(
      investmentsView(answer([holding("1-1", 1), cash], [account(1)]), query(), SETTINGS, NO_RATES, english()),
    );
    expect(view.accounts[0]!.total).toBeNull();
    expect([view.total.value.text, view.total.cost.text, view.total.cost.note, view.total.gain.text]).toEqual([
      "£1,050.50",
      "£800.00",
      1,
      "£200.00",
    ]);
    expect(view.notes.map((n) => n.text)).toEqual([
      "Cash has no book cost: totals of book cost and unrealised gain leave cash out.",
    ]);
  });

  it("leaves the totals' gain empty where the settings hide gains on account rows", () => {
    const settings = analysisSettings({ unrealisedGainValue: "SecurityLevelOnly" });
    const view = ok(
      investmentsView(answer([holding("1-1", 1), holding("2-1", 2)]), query(), settings, NO_RATES, english()),
    );
    expect(view.total.gain).toEqual({ text: "", note: null, negative: false });
    expect(view.total.cost.text).toBe("£1,600.00");
  });
});

describe("allocationView (spec 001 §2.3 allocation tab)", () => {
  const position = (key: string, amount: number, description: string | null = `Fund ${key}`) => ({
    key,
    accountId: 1,
    account: "Ellie's ISA",
    description,
    value: money(amount),
    weight: amount / 30,
  });
  const category = (key: string, amount: number, positions = [position(`${key}1`, amount)]): AllocationCategory => ({
    key,
    name: key.toUpperCase(),
    value: money(amount),
    weight: amount / 30,
    positions,
  });
  const allocation = (types: Partial<AllocationAnswer["types"]>, total = 3000): AllocationAnswer => ({
    date: "2025-03-14",
    total: money(total),
    types: { asset_class: [], sector: [], region: [], ...types },
  });
  const COLOURS = ["#1d4f91", "#00857c", "#c4511a"];
  const view = (answer: AllocationAnswer, types = ["asset_class", "sector", "region"] as const) => {
    const result = allocationView(answer, types, COLOURS, f);
    if (result.state !== "ok") throw new Error(`expected panels, got ${result.state}`);
    return result;
  };

  it("is empty with no positions of an enabled type", () => {
    expect(allocationView(allocation({}), ["asset_class", "sector", "region"], COLOURS, f)).toEqual({ state: "empty" });
    expect(
      allocationView(allocation({ region: [category("eu", 3000)] }), ["asset_class", "sector"], COLOURS, f),
    ).toEqual({ state: "empty" });
    expect(allocationView(allocation({ region: [category("eu", 3000)] }, 0), ["region"], COLOURS, f)).toEqual({
      state: "empty",
    });
  });

  // issue 40, decision 210: the site's names in the page's language; what it has none for, marked English
  it("names the categories in the page's language, and marks the records' and untranslated names English", () => {
    const settings = {
      "assetClassNames.fr-CA": JSON.stringify({ EQ: "Actions" }),
      "regionNames.fr-CA": JSON.stringify({ UK: "Royaume-Uni" }),
    };
    const names = (list: NamedList) => siteNames(settings, list, "fr-CA");
    const french = allocationView(
      allocation({ asset_class: [category("eq", 2000), category("fi", 1000)], region: [category("uk", 3000)] }),
      ["asset_class", "region"],
      COLOURS,
      { t, locale: "fr-CA" },
      names,
    );
    if (french.state !== "ok") throw new Error("expected panels");
    const [classes, regions] = french.panels;
    expect(classes!.categories.map((c) => [c.name, c.nameLang])).toEqual([
      ["Actions", null],
      ["FI", "en"],
    ]);
    expect(classes!.legend.map((l) => l.label)).toEqual(["Actions", "FI"]);
    expect(regions!.categories.map((c) => [c.name, c.nameLang])).toEqual([["Royaume-Uni", null]]);
    expect(classes!.categories[0]!.rows.map((r) => [r.investment, r.investmentLang])).toEqual([["Fund eq1", "en"]]);
    // an English page: the names as they are, nothing marked
    const english = view(allocation({ asset_class: [category("eq", 3000)] }));
    expect(english.panels[0]!.categories.map((c) => [c.name, c.nameLang, c.rows[0]!.investmentLang])).toEqual([
      ["EQ", null, null],
    ]);
  });

  it("keeps one panel open", () => {
    const result = view(allocation({ sector: [category("tech", 3000)] }));
    expect(result.collapsed).toBe(false);
    expect(result.asAt).toBe("14th March 2025");
    expect(result.panels.map((p) => [p.type, p.title, p.kind])).toEqual([
      ["sector", "analysis.allocation.types.sector", "column"],
    ]);
  });

  it("collapses the panels when more than one shows, in the types' order", () => {
    const result = view(allocation({ region: [category("eu", 3000)], asset_class: [category("equity", 3000)] }));
    expect(result.collapsed).toBe(true);
    expect(result.panels.map((p) => [p.type, p.kind])).toEqual([
      ["asset_class", "pie"],
      ["region", "pie"],
    ]);
  });

  it("gives whole percentages that add up to 100 by the rounding rule (spec 001 §2.1)", () => {
    const result = view(
      allocation({ asset_class: [category("equity", 1000), category("bonds", 1000), category("cash", 1000)] }),
    );
    const percents = result.panels[0]!.categories.map((c) => c.percent);
    expect(percents).toEqual(["34%", "33%", "33%"]);
    expect(percents.reduce((sum, p) => sum + Number(p.replace("%", "")), 0)).toBe(100);
    const uneven = view(
      allocation({ sector: [category("a", 486), category("b", 314), category("c", 200)] }, 1000),
    ).panels[0]!.categories.map((c) => c.percent);
    expect(uneven).toEqual(["49%", "31%", "20%"]);
  });

  it("shows the same category with the same amount at the same percentage in every panel (decision 207)", () => {
    // cash is 12.6%: by largest remainder 13% beside equities and bonds, 12% beside two sectors of 43.7%
    const result = view(
      allocation(
        {
          asset_class: [category("equity", 502), category("bonds", 372), category("cash", 126)],
          sector: [category("a", 437), category("b", 437), category("cash", 126)],
        },
        1000,
      ),
    );
    const percents = result.panels.map((p) => p.categories.map((c) => `${c.name} ${c.percent}`));
    expect(percents).toEqual([
      ["EQUITY 50%", "BONDS 37%", "CASH 13%"],
      ["A 44%", "B 43%", "CASH 13%"],
    ]);
    expect(result.panels.map((p) => p.total)).toEqual([
      { amount: "£1,000", percent: "100%" },
      { amount: "£1,000", percent: "100%" },
    ]);
  });

  it("says when the whole amounts shown do not add up to the total beside them (decision 207)", () => {
    const even = view(allocation({ sector: [category("a", 600), category("b", 400)] }, 1000));
    expect(even.panels[0]!.roundingNote).toBe(false);
    // three thirds of £1,000 read £333 each
    const thirds = view(
      allocation({ sector: [category("a", 333.33), category("b", 333.33), category("c", 333.34)] }, 1000),
    );
    expect(thirds.panels[0]!.categories.map((c) => c.amount)).toEqual(["£333", "£333", "£333"]);
    expect(thirds.panels[0]!.total.amount).toBe("£1,000");
    expect(thirds.panels[0]!.roundingNote).toBe(true);
    // a category's investments: £500.50 and £499.50 read £501 and £500 under a category of £1,000
    const halves = view(
      allocation({ sector: [category("a", 1000, [position("x", 500.5), position("y", 499.5)])] }, 1000),
    );
    expect(halves.panels[0]!.categories[0]!.rows.map((r) => r.amount)).toEqual(["£501", "£500"]);
    expect(halves.panels[0]!.roundingNote).toBe(true);
  });

  it("writes '<1%' for a share not truly zero", () => {
    const result = view(allocation({ sector: [category("a", 600), category("b", 397), category("c", 3)] }, 1000));
    expect(result.panels[0]!.categories.map((c) => c.percent)).toEqual(["60%", "40%", "<1%"]);
  });

  it("lists each category's investments largest first, amounts at 0 decimals", () => {
    const result = view(
      allocation({
        asset_class: [category("equity", 3000, [position("s", 499.6), position("l", 2000.4), position("m", 500)])],
      }),
    );
    expect(result.panels[0]!.categories[0]).toEqual({
      key: "equity",
      name: "EQUITY",
      nameLang: null,
      amount: "£3,000",
      percent: "100%",
      rows: [
        { key: "equity-l", investment: "Fund l", investmentLang: null, account: "Ellie's ISA", amount: "£2,000" },
        { key: "equity-m", investment: "Fund m", investmentLang: null, account: "Ellie's ISA", amount: "£500" },
        { key: "equity-s", investment: "Fund s", investmentLang: null, account: "Ellie's ISA", amount: "£500" },
      ],
    });
  });

  it("names an investment without a description INVALID DATA", () => {
    const result = view(
      allocation({
        region: [
          category("eu", 3000, [
            position("a", 1000, ""),
            position("b", 900, "   "),
            position("c", 800, null),
            position("d", 300, " Fund d "),
          ]),
        ],
      }),
    );
    expect(result.panels[0]!.categories[0]!.rows.map((r) => r.investment)).toEqual([
      "analysis.investments.invalidName",
      "analysis.investments.invalidName",
      "analysis.investments.invalidName",
      "Fund d",
    ]);
  });

  it("draws a chart with its caption and a data table", () => {
    const panel = view(allocation({ asset_class: [category("equity", 2000), category("bonds", 1000)] })).panels[0]!;
    expect(panel.caption).toBe(
      'analysis.allocation.caption {"type":"analysis.allocation.types.asset_class","date":"14th March 2025"}',
    );
    expect(panel.svg).toContain("<svg");
    expect(panel.table.rows.map((r) => r.header)).toEqual(["EQUITY", "BONDS"]);
  });
});

describe("investmentsView: the 'Show in' switch (spec 001 §5)", () => {
  it("is offered with multi-currency access and another currency than the preferred one", () => {
    expect(ok(investmentsView(MIXED, QUERY, SETTINGS, NO_RATES, f)).currencySwitch).toBe(true);
    const sterling = answer([holding("1", 1)], [account(1)]);
    expect(ok(investmentsView(sterling, QUERY, SETTINGS, NO_RATES, f)).currencySwitch).toBe(false);
  });

  it("without multi-currency access shows the preferred currency whatever the URL asks", () => {
    const view = ok(
      investmentsView(MIXED, query({ show: "original" }), SETTINGS, NO_RATES, f, { multiCurrencyAccess: false }),
    );
    expect([view.currencySwitch, view.show, view.multiCurrency]).toEqual([false, "preferred", false]);
    expect(view.accounts.every((a) => a.convert === null)).toBe(true);
  });
});
