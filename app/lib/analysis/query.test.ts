import { describe, expect, it } from "vitest";
import { analysisHref, type AnalysisQuery, convertFormFields, readAnalysisQuery } from "./query";

const read = (search: string, disabled?: Set<"2Y" | "custom">) =>
  readAnalysisQuery(new URL(`http://portal/clients/analysis${search}`), disabled);
const DEFAULTS: AnalysisQuery = {
  id: null,
  range: "1Y",
  from: "",
  to: "",
  chart: null,
  currency: "report",
  tab: null,
  tx: null,
  pages: 1,
  sort: "description",
  dir: "asc",
  expand: "primary",
  open: [],
  show: "preferred",
  convert: [],
  taxYear: null,
};

describe("readAnalysisQuery (spec 001 §3 'Filters')", () => {
  it("answers the defaults for an empty query", () => {
    expect(read("")).toEqual(DEFAULTS);
  });

  it("reads an account id, a portfolio and a group code as the account filter", () => {
    expect(read("?id=12").id).toBe("12");
    expect(read("?id=portfolio-3").id).toBe("portfolio-3");
    expect(read("?id=HARTLEY-ISA").id).toBe("HARTLEY-ISA");
    expect(read("?id=group-linked").id).toBe("group-linked");
  });

  it("ignores an id that is none of those", () => {
    for (const id of ["0", "-1", "a b", "<script>", "x".repeat(61), "portfolio-0", "12345678901"])
      expect(read(`?id=${encodeURIComponent(id)}`).id, id).toBeNull();
  });

  it("keeps the typed custom dates only for a custom range, and only date characters", () => {
    expect(read("?range=custom&from=01-01-2025&to=31-13-2025")).toMatchObject({
      range: "custom",
      from: "01-01-2025",
      to: "31-13-2025",
    });
    expect(read("?range=2Y&from=01-01-2025&to=31-01-2025")).toMatchObject({ range: "2Y", from: "", to: "" });
    expect(read("?range=custom&from=01-01-2025<b>&to=")).toMatchObject({ from: "01-01-2025", to: "" });
  });

  it("falls back to 1 year for an unknown or disabled range", () => {
    expect(read("?range=10Y").range).toBe("1Y");
    expect(read("?range=2Y", new Set(["2Y"])).range).toBe("1Y");
  });

  it("reads the chart tab, the currency and the tab", () => {
    expect(read("?chart=value&currency=plan&tab=accounts")).toMatchObject({
      chart: "value",
      currency: "plan",
      tab: "accounts",
    });
    expect(read("?tab=transactions&tx=42&pages=3")).toMatchObject({ tab: "transactions", tx: 42, pages: 3 });
    expect(read("?chart=pie&currency=usd&tab=elsewhere&tx=-1&pages=0")).toMatchObject({
      chart: null,
      currency: "report",
      tab: null,
      tx: null,
      pages: 1,
    });
    expect(read("?pages=99").pages).toBe(20);
  });
});

describe("readAnalysisQuery: the investments tab (spec 001 §2.3, §4)", () => {
  it("reads the sort, the expand mode, the toggled rows, the currency shown and the converted accounts", () => {
    expect(
      read("?tab=investments&sort=gain&dir=desc&expand=none&open=a3,p3-12,p3-12&show=original&convert=3,4,x"),
    ).toMatchObject({
      tab: "investments",
      sort: "gain",
      dir: "desc",
      expand: "none",
      open: ["a3", "p3-12"],
      show: "original",
      convert: [3, 4],
    });
  });

  it("falls back to the defaults for anything else", () => {
    expect(read("?sort=price&dir=up&expand=some&open=<b>,x1&show=usd&convert=-1,0")).toMatchObject({
      sort: "description",
      dir: "asc",
      expand: "primary",
      open: [],
      show: "preferred",
      convert: [],
    });
  });
});

describe("readAnalysisQuery: the income tab (issue 41)", () => {
  it("reads a tax year as the year it starts in, else the last 24 months (null)", () => {
    expect(read("?tab=income&taxYear=2024")).toMatchObject({ tab: "income", taxYear: 2024 });
    for (const taxYear of ["", "24", "2024/25", "1800", "20245", "abcd"])
      expect(read(`?tab=income&taxYear=${encodeURIComponent(taxYear)}`).taxYear, taxYear).toBeNull();
  });
});

describe("analysisHref", () => {
  it("leaves defaults out", () => {
    expect(analysisHref(DEFAULTS)).toBe("/clients/analysis");
  });

  it("round-trips every state", () => {
    const query: AnalysisQuery = {
      id: "portfolio-3",
      range: "custom",
      from: "01-01-2025",
      to: "31-03-2025",
      chart: "value",
      currency: "plan",
      tab: "transactions",
      tx: 7,
      pages: 2,
      sort: "value",
      dir: "desc",
      expand: "all",
      open: ["a12", "p12-4"],
      show: "original",
      convert: [12, 14],
      taxYear: 2024,
    };
    const href = analysisHref(query);
    expect(href).toBe(
      "/clients/analysis?id=portfolio-3&range=custom&from=01-01-2025&to=31-03-2025&chart=value&currency=plan&tab=transactions&tx=7&pages=2&sort=value&dir=desc&expand=all&open=a12%2Cp12-4&show=original&convert=12%2C14&taxYear=2024",
    );
    expect(read(href.slice("/clients/analysis".length))).toEqual(query);
  });

  it("changes only what it is asked to", () => {
    expect(analysisHref({ ...DEFAULTS, range: "SI", chart: "value" }, { id: "7" })).toBe(
      "/clients/analysis?id=7&range=SI&chart=value",
    );
    expect(analysisHref({ ...DEFAULTS, id: "7" }, { id: null })).toBe("/clients/analysis");
  });
});

describe("convertFormFields (decision 205)", () => {
  it("keeps every other choice of the view, on the investments tab, leaving convert to the select", () => {
    const query: AnalysisQuery = {
      ...DEFAULTS,
      id: "7",
      tab: "transactions",
      tx: 12,
      pages: 3,
      expand: "all",
      open: ["a1"],
      show: "original",
      convert: [7, 9],
    };
    expect(convertFormFields(query)).toEqual([
      ["id", "7"],
      ["tab", "investments"],
      ["expand", "all"],
      ["open", "a1"],
      ["show", "original"],
    ]);
  });
});
