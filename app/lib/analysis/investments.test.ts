import { describe, expect, it } from "vitest";
import {
  addMoney,
  type Cells,
  conversionPairs,
  type Holding,
  type HoldingAccount,
  type HoldingsAnswer,
  type InvestmentColumnSettings,
  investmentsTable,
  type InvestmentsOptions,
  isCashSecurity,
  isRowOpen,
  levelOf,
  type Parcel,
  readColumnLevel,
  securityName,
  shownCost,
  shownGain,
  sortRows,
  toggleRow,
  visibleColumns,
} from "./investments";
import { toMinor } from "../money";
import { holdingsFixtures, money } from "./holdings.fixtures";

const ALL: InvestmentColumnSettings = { gainValue: "all", gainPercent: "all", incomeValue: "all", yieldPercent: "all" };

/** Holdings in pounds and dollars, the client preferring euros (report at 1.2 EUR per GBP). */
const { holding, dollars, account } = holdingsFixtures({ currency: "EUR", rate: 1.2 });

function answer(accounts: HoldingAccount[], holdings: Holding[], reportCurrency = "EUR"): HoldingsAnswer {
  return { date: "2025-03-14", reportCurrency, total: money(4800, reportCurrency), accounts, holdings };
}

const options = (fields: Partial<InvestmentsOptions> = {}): InvestmentsOptions => ({
  sort: "description",
  dir: "asc",
  show: "preferred",
  convert: [],
  columns: ALL,
  locale: "en-GB",
  ...fields,
});

/** Account 1 (GBP) holds a pound and a dollar security; account 2 (GBP) a pound one only. */
const MIXED = answer(
  [account(1), account(2)],
  [holding("1-1", 1), dollars("1-2", 1), holding("2-1", 2, { cost: money(500), gain: money(500), gainPercent: 100 })],
);

describe("readColumnLevel (spec 001 §5)", () => {
  it("keeps none and SecurityLevelOnly", () => {
    expect(readColumnLevel("none")).toBe("none");
    expect(readColumnLevel("SecurityLevelOnly")).toBe("SecurityLevelOnly");
  });

  it("reads anything else as all", () => {
    for (const value of ["all", "All", undefined, null, "", 0, "hidden"])
      expect(readColumnLevel(value), String(value)).toBe("all");
  });
});

describe("visibleColumns (spec 001 §5: a column is hidden if all its settings are none)", () => {
  it("shows both columns when every setting is all", () => {
    expect(visibleColumns(ALL)).toEqual({ gain: true, income: true });
  });

  it("hides a column only when both its settings are none", () => {
    expect(visibleColumns({ ...ALL, gainValue: "none", gainPercent: "none" })).toEqual({ gain: false, income: true });
    expect(visibleColumns({ ...ALL, incomeValue: "none", yieldPercent: "none" })).toEqual({
      gain: true,
      income: false,
    });
    expect(
      visibleColumns({ gainValue: "none", gainPercent: "none", incomeValue: "none", yieldPercent: "none" }),
    ).toEqual({ gain: false, income: false });
  });

  it("keeps a column when one of its settings is not none", () => {
    expect(visibleColumns({ ...ALL, gainValue: "none", gainPercent: "SecurityLevelOnly" }).gain).toBe(true);
    expect(visibleColumns({ ...ALL, gainValue: "SecurityLevelOnly", gainPercent: "none" }).gain).toBe(true);
    expect(visibleColumns({ ...ALL, incomeValue: "none", yieldPercent: "all" }).income).toBe(true);
    expect(visibleColumns({ ...ALL, incomeValue: "SecurityLevelOnly", yieldPercent: "none" }).income).toBe(true);
  });
});

describe("isCashSecurity (spec 001 §5: exchange or code equals cash, case-insensitively)", () => {
  it("is cash when the code or the exchange reads cash in any case", () => {
    expect(isCashSecurity({ code: "CASH", exchange: "LSE" })).toBe(true);
    expect(isCashSecurity({ code: "Cash", exchange: "" })).toBe(true);
    expect(isCashSecurity({ code: "GBP", exchange: "cash" })).toBe(true);
    expect(isCashSecurity({ code: "GBP", exchange: "CaSh" })).toBe(true);
  });

  it("is not cash when neither equals cash", () => {
    expect(isCashSecurity({ code: "CASHX", exchange: "LSE" })).toBe(false);
    expect(isCashSecurity({ code: "VOD", exchange: "cash account" })).toBe(false);
    expect(isCashSecurity({ code: "", exchange: "" })).toBe(false);
  });
});

describe("securityName (spec 001 §5: an invalid or empty name is 'INVALID DATA')", () => {
  it("answers null for a missing, empty, blank or meaningless name", () => {
    for (const name of [null, undefined, "", "   ", "-", "?", "...", " _ - "])
      expect(securityName(name), String(name)).toBeNull();
  });

  it("answers a real name, trimmed", () => {
    expect(securityName("  Vanguard FTSE All-World  ")).toBe("Vanguard FTSE All-World");
    expect(securityName("3i Group")).toBe("3i Group");
    expect(securityName("A")).toBe("A");
  });
});

describe("levelOf (spec 001 §4 'Currency toggle')", () => {
  it("shows every row in the preferred currency when that is chosen", () => {
    expect(levelOf("account", "preferred", false)).toBe("report");
    expect(levelOf("position", "preferred", false)).toBe("report");
    expect(levelOf("position", "preferred", true)).toBe("report");
  });

  it("shows an account in its own currency and its holdings in theirs in original currency", () => {
    expect(levelOf("account", "original", false)).toBe("plan");
    expect(levelOf("position", "original", false)).toBe("native");
  });

  it("shows a converted account's holdings in the account currency", () => {
    expect(levelOf("position", "original", true)).toBe("plan");
    expect(levelOf("account", "original", true)).toBe("plan");
  });
});

describe("shownCost (spec 001 §5: 'Not available' when unknown or converted)", () => {
  it("answers the cost in its own currency", () => {
    expect(shownCost(money(800), "GBP")).toEqual(money(800));
    expect(shownCost(money(0), "GBP")).toEqual(money(0));
  });

  it("answers null when unknown or shown in another currency", () => {
    expect(shownCost(null, "GBP")).toBeNull();
    expect(shownCost(money(1000, "USD"), "GBP")).toBeNull();
  });
});

describe("shownGain (spec 001 §5: 'Not available' when the book cost is zero or not shown)", () => {
  it("answers the gain, or the loss, when the cost is shown and not zero", () => {
    expect(shownGain(money(800), money(200), "GBP")).toEqual(money(200));
    expect(shownGain(money(800), money(-150), "GBP")).toEqual(money(-150));
  });

  it("answers null when the cost is zero", () => {
    expect(shownGain(money(0), money(200), "GBP")).toBeNull();
  });

  it("answers null when the cost is unknown or in another currency", () => {
    expect(shownGain(null, money(200), "GBP")).toBeNull();
    expect(shownGain(money(1000, "USD"), money(280, "USD"), "GBP")).toBeNull();
  });

  it("answers null when the gain is unknown or in another currency", () => {
    expect(shownGain(money(800), null, "GBP")).toBeNull();
    expect(shownGain(money(800), money(200, "USD"), "GBP")).toBeNull();
  });
});

describe("sortRows (spec 001 §2.3 sortable columns)", () => {
  const cells = (fields: Partial<Cells> = {}): Cells => ({
    currency: "GBP",
    price: null,
    cost: null,
    value: money(0),
    weight: null,
    gain: null,
    gainPercent: null,
    income: null,
    yieldPercent: null,
    ...fields,
  });
  const row = (id: string, name: string | null, fields: Partial<Cells> = {}) => ({ id, name, cells: cells(fields) });
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  it("sorts by name ignoring case, numbers in order", () => {
    const rows = [row("b", "beta"), row("a10", "Fund 10"), row("A", "Alpha"), row("a2", "Fund 2")];
    expect(ids(sortRows(rows, "description", "asc", "en-GB"))).toEqual(["A", "b", "a2", "a10"]);
    expect(ids(sortRows(rows, "description", "desc", "en-GB"))).toEqual(["a10", "a2", "b", "A"]);
  });

  it("sorts by each figure, both ways", () => {
    const rows = [
      row("x", "X", { cost: money(300), value: money(10), weight: 2, gain: money(-5), income: money(7) }),
      row("y", "Y", { cost: money(100), value: money(30), weight: 3, gain: money(20), income: money(1) }),
      row("z", "Z", { cost: money(200), value: money(20), weight: 1, gain: money(0), income: money(4) }),
    ];
    expect(ids(sortRows(rows, "cost", "asc", "en-GB"))).toEqual(["y", "z", "x"]);
    expect(ids(sortRows(rows, "cost", "desc", "en-GB"))).toEqual(["x", "z", "y"]);
    expect(ids(sortRows(rows, "value", "asc", "en-GB"))).toEqual(["x", "z", "y"]);
    expect(ids(sortRows(rows, "value", "desc", "en-GB"))).toEqual(["y", "z", "x"]);
    expect(ids(sortRows(rows, "weight", "asc", "en-GB"))).toEqual(["z", "x", "y"]);
    expect(ids(sortRows(rows, "weight", "desc", "en-GB"))).toEqual(["y", "x", "z"]);
    expect(ids(sortRows(rows, "gain", "asc", "en-GB"))).toEqual(["x", "z", "y"]);
    expect(ids(sortRows(rows, "gain", "desc", "en-GB"))).toEqual(["y", "z", "x"]);
    expect(ids(sortRows(rows, "income", "asc", "en-GB"))).toEqual(["y", "z", "x"]);
    expect(ids(sortRows(rows, "income", "desc", "en-GB"))).toEqual(["x", "z", "y"]);
  });

  it("puts figures not available last whichever the direction, in their order", () => {
    const rows = [
      row("n1", "A"),
      row("low", "B", { cost: money(1) }),
      row("n2", "C"),
      row("high", "D", { cost: money(9) }),
    ];
    expect(ids(sortRows(rows, "cost", "asc", "en-GB"))).toEqual(["low", "high", "n1", "n2"]);
    expect(ids(sortRows(rows, "cost", "desc", "en-GB"))).toEqual(["high", "low", "n1", "n2"]);
    const weights = [row("n", "A"), row("w", "B", { weight: 0 })];
    expect(ids(sortRows(weights, "weight", "asc", "en-GB"))).toEqual(["w", "n"]);
    expect(ids(sortRows(weights, "weight", "desc", "en-GB"))).toEqual(["w", "n"]);
  });

  it("keeps ties in their order in both directions", () => {
    const rows = [
      row("1", "Same", { value: money(5) }),
      row("2", "same", { value: money(5) }),
      row("3", "Other", { value: money(1) }),
      row("4", "SAME", { value: money(5) }),
    ];
    expect(ids(sortRows(rows, "value", "asc", "en-GB"))).toEqual(["3", "1", "2", "4"]);
    expect(ids(sortRows(rows, "value", "desc", "en-GB"))).toEqual(["1", "2", "4", "3"]);
    expect(ids(sortRows(rows, "description", "asc", "en-GB"))).toEqual(["3", "1", "2", "4"]);
    expect(ids(sortRows(rows, "description", "desc", "en-GB"))).toEqual(["1", "2", "4", "3"]);
  });

  it("leaves the list it was given as it was", () => {
    const rows = [row("b", "B"), row("a", "A")];
    sortRows(rows, "description", "asc", "en-GB");
    expect(ids(rows)).toEqual(["b", "a"]);
  });
});

describe("investmentsTable: currencies (spec 001 §2.3 'Show in', §4 'Currency toggle')", () => {
  it("shows every row in the preferred currency, with book cost and gain not available once converted", () => {
    const table = investmentsTable(MIXED, options());
    const [a1] = table.accounts;
    expect(a1).toMatchObject({ key: "a1", accountId: 1, name: "Account 1", converted: false, multiCurrency: true });
    expect(a1!.cells).toMatchObject({
      currency: "EUR",
      value: money(2400, "EUR"),
      income: money(120, "EUR"),
      cost: null,
      gain: null,
      gainPercent: null,
      weight: 50,
      yieldPercent: 5,
    });
    expect(
      a1!.positions.map((p) => [
        p.key,
        p.cells.currency,
        p.cells.value.amount,
        p.cells.price,
        p.cells.cost,
        p.cells.gain,
        p.cells.gainPercent,
        p.conversion,
      ]),
    ).toEqual([
      ["p1-1", "EUR", 1200, 12, null, null, null, null],
      ["p1-2", "EUR", 1200, 12, null, null, null, null],
    ]);
    expect(table.multiCurrency).toBe(false);
    expect([...table.sortable].sort()).toEqual(["cost", "description", "gain", "income", "value", "weight"]);
  });

  it("shows book cost and gain in the preferred currency when it is the holding's own", () => {
    const table = investmentsTable(
      answer(
        [
          account(1, {
            value: { plan: money(2000), report: money(2000) },
            income: { plan: money(100), report: money(100) },
          }),
        ],
        [holding("1", 1, { value: { native: money(1000), plan: money(1000), report: money(1000) } })],
        "GBP",
      ),
      options(),
    );
    const position = table.accounts[0]!.positions[0]!;
    expect(position.cells).toMatchObject({ currency: "GBP", cost: money(800), gain: money(200), gainPercent: 25 });
    expect(table.accounts[0]!.cells).toMatchObject({
      currency: "GBP",
      cost: money(800),
      gain: money(200),
      gainPercent: 25,
    });
  });

  it("shows each account in its currency and each holding in its own in original currency", () => {
    const table = investmentsTable(MIXED, options({ show: "original" }));
    const [a1, a2] = table.accounts;
    expect(a1!.cells).toMatchObject({ currency: "GBP", value: money(2000), income: money(100) });
    expect(
      a1!.positions.map((p) => [
        p.cells.currency,
        p.cells.value,
        p.cells.price,
        p.cells.cost,
        p.cells.gain,
        p.cells.gainPercent,
        p.cells.income,
        p.conversion,
      ]),
    ).toEqual([
      ["GBP", money(1000), 10, money(800), money(200), 25, money(50), null],
      ["USD", money(1280, "USD"), 12.8, money(1000, "USD"), money(280, "USD"), 28, money(64, "USD"), null],
    ]);
    expect(a2!.cells.currency).toBe("GBP");
    expect(a2!.multiCurrency).toBe(false);
  });

  it("converts an account's holdings to its currency when asked, with the rate used", () => {
    const rates = new Map([["USDGBP", 0.78125]]);
    const table = investmentsTable(MIXED, options({ show: "original", convert: [1], rates }));
    const [a1, a2] = table.accounts;
    expect(a1!.converted).toBe(true);
    expect(a2!.converted).toBe(false);
    const [pounds, usd] = a1!.positions;
    expect(usd!.cells).toMatchObject({
      currency: "GBP",
      value: money(1000),
      price: 10,
      cost: null,
      gain: null,
      gainPercent: null,
      income: money(50),
    });
    expect(usd!.conversion).toEqual({ from: "USD", to: "GBP", rate: 0.78125 });
    expect(pounds!.conversion).toBeNull();
    expect(pounds!.cells.cost).toEqual(money(800));
  });

  it("answers a null rate when the rates lack the pair or have none for it", () => {
    const table = (rates?: ReadonlyMap<string, number | null>) =>
      investmentsTable(MIXED, options({ show: "original", convert: [1], rates })).accounts[0]!.positions[1]!.conversion;
    expect(table(new Map([["EURGBP", 0.85]]))).toEqual({ from: "USD", to: "GBP", rate: null });
    expect(table(new Map([["USDGBP", null]]))).toEqual({ from: "USD", to: "GBP", rate: null });
    expect(table(undefined)).toEqual({ from: "USD", to: "GBP", rate: null });
  });

  it("ignores the converted accounts when showing the preferred currency", () => {
    const table = investmentsTable(
      MIXED,
      options({ show: "preferred", convert: [1], rates: new Map([["USDGBP", 0.78125]]) }),
    );
    expect(table.accounts[0]!.converted).toBe(false);
    expect(table.accounts[0]!.positions.map((p) => p.conversion)).toEqual([null, null]);
    expect(table.accounts[0]!.positions[1]!.cells.currency).toBe("EUR");
  });

  it("lists each account's own holdings only, with their keys, names and cash flags", () => {
    const table = investmentsTable(
      answer(
        [account(1), account(2)],
        [
          holding("1-1", 1, { description: "  " }),
          holding("2-1", 2),
          holding("1-2", 1, { code: "CASH", cash: false }),
          holding("9-1", 9),
        ],
      ),
      options(),
    );
    expect(table.accounts.map((a) => [a.key, a.positions.map((p) => [p.key, p.name, p.cash])])).toEqual([
      [
        "a1",
        [
          // an invalid name sorts last, whichever the direction (spec 001 §8: not available goes last)
          ["p1-2", "Security 1-2", true],
          ["p1-1", null, false],
        ],
      ],
      ["a2", [["p2-1", "Security 2-1", false]]],
    ]);
  });
});

describe("investmentsTable: multi-currency sorting (spec 001 §2.3)", () => {
  it("makes market value, book cost and gain unsortable when several currencies show", () => {
    const table = investmentsTable(MIXED, options({ show: "original" }));
    expect(table.multiCurrency).toBe(true);
    expect([...table.sortable].sort()).toEqual(["description", "income", "weight"]);
  });

  it("falls back to the name ascending for a sort that cannot apply", () => {
    for (const sort of ["value", "cost", "gain"] as const) {
      const table = investmentsTable(MIXED, options({ show: "original", sort, dir: "desc" }));
      expect([table.sort, table.dir], sort).toEqual(["description", "asc"]);
      expect(table.accounts.map((a) => a.key)).toEqual(["a1", "a2"]);
    }
  });

  it("keeps a sort that can apply, with its direction", () => {
    const table = investmentsTable(MIXED, options({ show: "original", sort: "weight", dir: "desc" }));
    expect([table.sort, table.dir]).toEqual(["weight", "desc"]);
  });

  it("is single-currency again once the mixed account is converted", () => {
    const table = investmentsTable(MIXED, options({ show: "original", convert: [1], sort: "value", dir: "desc" }));
    expect(table.multiCurrency).toBe(false);
    expect([table.sort, table.dir]).toEqual(["value", "desc"]);
  });

  it("is never multi-currency in the preferred currency", () => {
    expect(investmentsTable(MIXED, options({ sort: "cost", dir: "desc" }))).toMatchObject({
      multiCurrency: false,
      sort: "cost",
      dir: "desc",
    });
  });

  it("cannot sort on a hidden column", () => {
    const hidden: InvestmentColumnSettings = {
      gainValue: "none",
      gainPercent: "none",
      incomeValue: "none",
      yieldPercent: "none",
    };
    const table = investmentsTable(MIXED, options({ columns: hidden, sort: "gain", dir: "desc" }));
    expect(table.columns).toEqual({ gain: false, income: false });
    expect([...table.sortable].sort()).toEqual(["cost", "description", "value", "weight"]);
    expect([table.sort, table.dir]).toEqual(["description", "asc"]);
    expect(investmentsTable(MIXED, options({ columns: hidden, sort: "income" })).sort).toBe("description");
  });

  it("sorts the accounts and the holdings within each", () => {
    const data = answer(
      [
        account(1, { value: { plan: money(500), report: money(600, "EUR") } }),
        account(2, { value: { plan: money(3000), report: money(3600, "EUR") } }),
      ],
      [
        holding("1-1", 1, { value: { native: money(100), plan: money(100), report: money(120, "EUR") } }),
        holding("1-2", 1, { value: { native: money(400), plan: money(400), report: money(480, "EUR") } }),
        holding("2-1", 2),
      ],
    );
    const table = investmentsTable(data, options({ sort: "value", dir: "desc" }));
    expect(table.accounts.map((a) => [a.key, a.positions.map((p) => p.key)])).toEqual([
      ["a2", ["p2-1"]],
      ["a1", ["p1-2", "p1-1"]],
    ]);
  });
});

describe("investmentsTable: account book cost and gain", () => {
  const GBP_ONLY = (holdings: Holding[]) => answer([account(1)], holdings);

  it("sums the holdings' cost and gain, cash aside, when every one is shown in the account's currency", () => {
    const table = investmentsTable(
      GBP_ONLY([
        holding("1", 1),
        holding("2", 1, { cost: money(500), gain: money(100) }),
        holding("c", 1, { code: "CASH", cost: null, gain: null }),
      ]),
      options({ show: "original" }),
    );
    const cells = table.accounts[0]!.cells;
    expect(cells.cost).toEqual(money(1300));
    expect(cells.gain).toEqual(money(300));
    expect(cells.gainPercent).toBeCloseTo((300 / 1300) * 100, 10);
  });

  it("leaves cost and gain not available when one holding's cost is unknown or in another currency", () => {
    expect(
      investmentsTable(GBP_ONLY([holding("1", 1), holding("2", 1, { cost: null })]), options({ show: "original" }))
        .accounts[0]!.cells,
    ).toMatchObject({ cost: null, gain: null, gainPercent: null });
    expect(
      investmentsTable(answer([account(1)], [holding("1", 1), dollars("2", 1)]), options({ show: "original" }))
        .accounts[0]!.cells,
    ).toMatchObject({ cost: null, gain: null });
  });

  it("leaves the gain not available when the summed cost is zero", () => {
    const cells = investmentsTable(
      GBP_ONLY([holding("1", 1, { cost: money(0), gain: money(50) })]),
      options({ show: "original" }),
    ).accounts[0]!.cells;
    expect(cells.cost).toEqual(money(0));
    expect(cells.gain).toBeNull();
    expect(cells.gainPercent).toBeNull();
  });

  it("has no cost for an account holding only cash", () => {
    const cells = investmentsTable(
      GBP_ONLY([holding("c", 1, { cash: true, cost: money(10) })]),
      options({ show: "original" }),
    ).accounts[0]!.cells;
    expect(cells.cost).toBeNull();
    expect(cells.gain).toBeNull();
  });

  it("derives the account's yield from its income and value (its holdings' total), none for a zero value", () => {
    // the account's income £100 over its one holding's £1,000
    expect(
      investmentsTable(GBP_ONLY([holding("1", 1)]), options({ show: "original" })).accounts[0]!.cells.yieldPercent,
    ).toBe(10);
    const empty = answer(
      [account(1)],
      [holding("1", 1, { value: { native: money(0), plan: money(0), report: money(0, "EUR") } })],
    );
    expect(investmentsTable(empty, options({ show: "original" })).accounts[0]!.cells.yieldPercent).toBeNull();
  });
});

describe("investmentsTable: column settings (spec 001 §5)", () => {
  const data = answer([account(1)], [holding("1", 1)]);

  it("shows gain and income figures on holdings only with SecurityLevelOnly", () => {
    const table = investmentsTable(
      data,
      options({
        show: "original",
        columns: {
          gainValue: "SecurityLevelOnly",
          gainPercent: "SecurityLevelOnly",
          incomeValue: "SecurityLevelOnly",
          yieldPercent: "SecurityLevelOnly",
        },
      }),
    );
    expect(table.columns).toEqual({ gain: true, income: true });
    expect(table.accounts[0]!.cells).toMatchObject({
      cost: money(800),
      gain: null,
      gainPercent: null,
      income: null,
      yieldPercent: null,
    });
    expect(table.accounts[0]!.positions[0]!.cells).toMatchObject({
      gain: money(200),
      gainPercent: 25,
      income: money(50),
      yieldPercent: 5,
    });
  });

  it("shows the figures on every row with all", () => {
    const table = investmentsTable(data, options({ show: "original" }));
    expect(table.accounts[0]!.cells).toMatchObject({
      value: money(1000),
      gain: money(200),
      gainPercent: 25,
      income: money(100),
      yieldPercent: 10,
    });
  });

  it("shows no figure of a setting that is none, the others still", () => {
    const table = investmentsTable(
      data,
      options({
        show: "original",
        columns: { gainValue: "none", gainPercent: "all", incomeValue: "all", yieldPercent: "none" },
      }),
    );
    expect(table.columns).toEqual({ gain: true, income: true });
    expect(table.accounts[0]!.cells).toMatchObject({
      gain: null,
      gainPercent: 25,
      income: money(100),
      yieldPercent: null,
    });
    expect(table.accounts[0]!.positions[0]!.cells).toMatchObject({
      gain: null,
      gainPercent: 25,
      income: money(50),
      yieldPercent: null,
    });
  });

  it("shows no gain percentage where the gain is not available", () => {
    const table = investmentsTable(
      answer([account(1)], [holding("1", 1, { cost: money(0) })]),
      options({ show: "original" }),
    );
    expect(table.accounts[0]!.positions[0]!.cells).toMatchObject({ gain: null, gainPercent: null });
  });
});

describe("investmentsTable: parcels (tertiary rows)", () => {
  const parcel = (key: string, fields: Partial<Parcel> = {}): Parcel => ({
    key,
    tradeDate: "2021-06-01",
    volume: 40,
    cost: money(320),
    gain: money(80),
    value: { native: money(400), plan: money(400), report: money(480, "EUR") },
    ...fields,
  });
  const data = answer(
    [account(1)],
    [holding("1", 1, { parcels: [parcel("x"), parcel("y", { cost: money(0), gain: money(10) })] })],
  );

  it("shows each purchase with its cost, gain and gain percentage in the holding's currency", () => {
    const [x, y] = investmentsTable(data, options({ show: "original" })).accounts[0]!.positions[0]!.parcels;
    expect(x).toEqual({
      key: "x",
      tradeDate: "2021-06-01",
      volume: 40,
      cells: {
        currency: "GBP",
        price: null,
        cost: money(320),
        value: money(400),
        weight: null,
        gain: money(80),
        gainPercent: 25,
        income: null,
        yieldPercent: null,
      },
    });
    expect(y!.cells).toMatchObject({ cost: money(0), gain: null, gainPercent: null });
  });

  it("shows a purchase's cost and gain as not available in another currency", () => {
    const [x] = investmentsTable(data, options()).accounts[0]!.positions[0]!.parcels;
    expect(x!.cells).toMatchObject({
      currency: "EUR",
      value: money(480, "EUR"),
      cost: null,
      gain: null,
      gainPercent: null,
    });
  });

  it("hides a purchase's gain when its setting is none", () => {
    const [x] = investmentsTable(
      data,
      options({ show: "original", columns: { ...ALL, gainValue: "none", gainPercent: "none" } }),
    ).accounts[0]!.positions[0]!.parcels;
    expect(x!.cells).toMatchObject({ cost: money(320), gain: null, gainPercent: null });
  });
});

describe("isRowOpen (spec 001 §4 'Investments table expand modes')", () => {
  const none = new Set<string>();

  it("opens the account rows only by default (ExpandAllPrimaryItem)", () => {
    expect(isRowOpen("a12", "primary", none)).toBe(true);
    expect(isRowOpen("p12-3", "primary", none)).toBe(false);
  });

  it("opens every row with ExpandAll and none with CollapseAll", () => {
    expect([isRowOpen("a12", "all", none), isRowOpen("p12-3", "all", none)]).toEqual([true, true]);
    expect([isRowOpen("a12", "none", none), isRowOpen("p12-3", "none", none)]).toEqual([false, false]);
  });

  it("turns round a row the user toggled (UserToggle), the others as the mode says", () => {
    const toggled = new Set(["a12", "p12-3"]);
    expect([
      isRowOpen("a12", "primary", toggled),
      isRowOpen("p12-3", "primary", toggled),
      isRowOpen("a13", "primary", toggled),
    ]).toEqual([false, true, true]);
    expect([isRowOpen("a12", "all", toggled), isRowOpen("p12-4", "all", toggled)]).toEqual([false, true]);
    expect([
      isRowOpen("a12", "none", toggled),
      isRowOpen("p12-3", "none", toggled),
      isRowOpen("a13", "none", toggled),
    ]).toEqual([true, true, false]);
  });
});

describe("toggleRow", () => {
  it("adds a row not yet toggled at the end", () => {
    expect(toggleRow(["a1"], "p1-2")).toEqual(["a1", "p1-2"]);
    expect(toggleRow([], "a1")).toEqual(["a1"]);
  });

  it("removes a row toggled already", () => {
    expect(toggleRow(["a1", "p1-2", "a3"], "p1-2")).toEqual(["a1", "a3"]);
  });

  it("leaves the list it was given as it was", () => {
    const open = ["a1"];
    toggleRow(open, "a2");
    toggleRow(open, "a1");
    expect(open).toEqual(["a1"]);
  });
});

describe("conversionPairs (spec 001 §5: FX pairs skip identical currencies)", () => {
  const data = answer(
    [account(1), account(2), account(3, { planCurrency: "EUR" })],
    [
      holding("1-1", 1),
      dollars("1-2", 1),
      dollars("2-1", 2),
      holding("3-1", 3, { nativeCurrency: "GBP", planCurrency: "EUR" }),
      holding("3-2", 3, { nativeCurrency: "EUR", planCurrency: "EUR" }),
    ],
  );

  it("needs no rates in the preferred currency", () => {
    expect(conversionPairs(data, "preferred", [1, 2, 3])).toEqual([]);
  });

  it("needs no rates when no account is converted", () => {
    expect(conversionPairs(data, "original", [])).toEqual([]);
  });

  it("asks for the converted accounts' holdings in another currency only", () => {
    expect(conversionPairs(data, "original", [1])).toEqual([{ from: "USD", to: "GBP" }]);
    expect(conversionPairs(data, "original", [3, 1])).toEqual([
      { from: "USD", to: "GBP" },
      { from: "GBP", to: "EUR" },
    ]);
  });
});

describe("toMinor and addMoney: totals are exact sums of the amounts as shown", () => {
  it("rounds as the screen does, halves away from zero, and adds in whole pennies", () => {
    expect([
      toMinor(1.005),
      toMinor(2.675),
      toMinor(-1.005),
      toMinor(0.004),
      toMinor(-0.004),
      toMinor(154986.285),
    ]).toEqual([101, 268, -101, 0, 0, 15498629]);
    // 0.1 + 0.2 in floating point is 0.30000000000000004; in pennies it is 0.30
    expect(addMoney([money(0.1), money(0.2)], "GBP")).toEqual(money(0.3));
    // each row as shown (£1.01 three times), not the unrounded sum (£3.015 → £3.02)
    expect(addMoney([money(1.005), money(1.005), money(1.005)], "GBP")).toEqual(money(3.03));
    expect(addMoney([], "USD")).toEqual(money(0, "USD"));
  });

  it("refuses to add two currencies", () => {
    expect(() => addMoney([money(1), money(1, "USD")], "GBP")).toThrow(RangeError);
  });
});

describe("investmentsTable: totals per account and in all (decision 108)", () => {
  const cash = (key: string, accountId: number, amount: number) =>
    holding(key, accountId, {
      code: "GBPCASH",
      exchange: "CASH",
      cash: true,
      cost: null,
      gain: null,
      gainPercent: 0,
      value: { native: money(amount), plan: money(amount), report: money(amount * 1.2, "EUR") },
    });
  const pennies = (key: string, accountId: number, amount: number, cost: number) =>
    holding(key, accountId, {
      value: { native: money(amount), plan: money(amount), report: money(amount * 1.2, "EUR") },
      cost: money(cost),
      gain: money(amount - cost),
    });

  it("adds each account's market value, book cost and gain as shown, cash left out of cost and gain", () => {
    const table = investmentsTable(
      answer(
        [account(1), account(2)],
        [
          pennies("1-1", 1, 100.005, 50.004),
          pennies("1-2", 1, 200.005, 100.004),
          cash("1-3", 1, 10.5),
          pennies("2-1", 2, 99.995, 80),
        ],
        "GBP",
      ),
      options({ show: "original" }),
    );
    const [one, two] = table.accounts;
    // rows as shown: £100.01 + £200.01 + £10.50; costs £50.00 + £100.00; gains £50.00 + £100.00 (cash has none)
    expect(one!.total).toEqual({
      currency: "GBP",
      value: money(310.52),
      valueConverted: false,
      cost: { amount: money(150), reason: null },
      gain: { amount: money(150), reason: null },
      cashLeftOut: true,
    });
    expect(one!.cells.cost).toEqual(money(150));
    expect(two!.total.value).toEqual(money(100));
    expect(table.total).toMatchObject({
      currency: "GBP",
      value: money(410.52),
      cost: { amount: money(230) },
      gain: { amount: money(170) },
      cashLeftOut: true,
    });
  });

  it("shows the account row's market value as its total, the sum of its rows as shown, where the platform's own figure is a penny off", () => {
    const platform = account(1, { value: { plan: money(300.01), report: money(360.01, "EUR") } });
    const table = investmentsTable(
      answer([platform], [pennies("1-1", 1, 100.005, 50), pennies("1-2", 1, 200.005, 100)], "GBP"),
      options({ show: "original" }),
    );
    expect(table.accounts[0]!.cells.value).toEqual(money(300.02));
    expect(table.accounts[0]!.total.value).toEqual(money(300.02));
  });

  it("says why book cost and gain are not available: converted, several currencies, unknown, cash only", () => {
    // in the preferred currency (euros) every cost is known in pounds or dollars only: converted
    const preferred = investmentsTable(MIXED, options());
    expect(preferred.accounts.map((a) => a.total.cost.reason)).toEqual(["converted", "converted"]);
    expect(preferred.accounts[0]!.total).toMatchObject({
      currency: "EUR",
      value: money(2400, "EUR"),
      gain: { amount: null, reason: "converted" },
    });
    expect(preferred.total).toMatchObject({
      currency: "EUR",
      value: money(3600, "EUR"),
      cost: { reason: "converted" },
    });
    // in the original currency account 1 shows pounds and dollars: each row has its cost, they do not add up
    const original = investmentsTable(MIXED, options({ show: "original" }));
    expect(original.accounts[0]!.total).toMatchObject({
      currency: "GBP",
      value: money(2000),
      valueConverted: true,
      cost: { amount: null, reason: "currencies" },
    });
    expect(original.accounts[1]!.total.cost).toEqual({ amount: money(500), reason: null });
    expect(original.total.cost.reason).toBe("currencies");
    // converted to the account's pounds, the dollar cost is not shown: converted
    expect(investmentsTable(MIXED, options({ show: "original", convert: [1] })).accounts[0]!.total.cost.reason).toBe(
      "converted",
    );
    // a cost the platform does not know
    const unknown = investmentsTable(
      answer([account(1)], [holding("1-1", 1), holding("1-2", 1, { cost: null, gain: null })], "GBP"),
      options({ show: "original" }),
    );
    expect(unknown.accounts[0]!.total).toMatchObject({
      value: money(2000),
      cost: { reason: "unknown" },
      gain: { reason: "unknown" },
    });
    // a zero cost: the cost adds up, the gain is not available
    const zero = investmentsTable(
      answer([account(1)], [holding("1-1", 1), holding("1-2", 1, { cost: money(0) })], "GBP"),
      options({ show: "original" }),
    );
    expect(zero.accounts[0]!.total).toMatchObject({
      cost: { amount: money(800) },
      gain: { amount: null, reason: "unknown" },
    });
    // cash only
    const onlyCash = investmentsTable(answer([account(1)], [cash("1-1", 1, 25)], "GBP"), options({ show: "original" }));
    expect(onlyCash.accounts[0]!.total).toMatchObject({
      value: money(25),
      cost: { reason: "cashOnly" },
      cashLeftOut: false,
    });
    expect(onlyCash.total).toMatchObject({ value: money(25), cost: { reason: "cashOnly" } });
  });

  it("totals accounts of different currencies in the report currency, from each holding's report value", () => {
    const euros = account(2, { planCurrency: "EUR", value: { plan: money(1000, "EUR"), report: money(1000, "EUR") } });
    const table = investmentsTable(
      answer(
        [account(1), euros],
        [
          holding("1-1", 1),
          holding("2-1", 2, {
            nativeCurrency: "EUR",
            planCurrency: "EUR",
            value: { native: money(1000.004, "EUR"), plan: money(1000.004, "EUR"), report: money(1000.004, "EUR") },
            cost: money(900, "EUR"),
          }),
        ],
      ),
      options({ show: "original" }),
    );
    expect(table.accounts.map((a) => a.total.currency)).toEqual(["GBP", "EUR"]);
    expect(table.total).toMatchObject({
      currency: "EUR",
      value: money(2200, "EUR"),
      valueConverted: true,
      cost: { reason: "currencies" },
      gain: { reason: "currencies" },
    });
  });
});
