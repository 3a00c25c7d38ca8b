import { readdirSync, readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  allocationChartSize,
  allocationLegend,
  allocationShares,
  allocationTable,
  hasAllocation,
  labelColourOn,
  truncateLabel,
  wrapLabel,
  type AllocationChartInput,
  type AllocationSlice,
} from "./allocation-chart";
import { allocationChartFigure, renderAllocationChartSvg } from "./allocation-chart-svg.server";
import { ChartFigure } from "./chart-figure";
import { hexColours } from "./svg-markup";

// Intl separates French groups and the trailing symbol with narrow/no-break spaces: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const slices: AllocationSlice[] = [
  { id: "it", label: "Information Technology", value: 42_000, percentLabel: "42%" },
  { id: "hc", label: "Health Care", value: 23_000, percentLabel: "23%" },
  { id: "fin", label: "Financials", value: 18_000, percentLabel: "18%" },
  { id: "en", label: "Energy", value: 9_000, percentLabel: "9%" },
  { id: "cs", label: "Consumer Staples", value: 5_000, percentLabel: "5%" },
  { id: "cash", label: "Cash", value: 3_000, percentLabel: "3%" },
];
const colours = ["#2e8fd0", "#1d4f91", "#00857c", "#c4511a", "#6b3fa0", "#8a6d00"];

const pie: AllocationChartInput = { kind: "pie", slices, colours, title: "Sectors", locale: "en-GB", currency: "GBP" };
const column: AllocationChartInput = { ...pie, kind: "column" };

const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? "");
/** Every text as a person reads it: the lines of a wrapped one joined by a space. */
const labelTexts = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map(
    (m) => [...(m[1] ?? "").matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((t) => t[1]).join(" ") || (m[1] ?? ""),
  );
const SECTORS = [
  "Information Technology",
  "Health Care",
  "Financials",
  "Consumer Discretionary",
  "Communication Services",
  "Industrials",
  "Consumer Staples",
  "Energy",
  "Utilities",
  "Real Estate",
  "Materials",
];
/** The fill of each pie arc, in order. */
const arcFills = (svg: string) =>
  [...svg.matchAll(/<path [^>]*data-testid="arc\.[^"]*"[^>]*>/g)].map((m) => /fill="([^"]*)"/.exec(m[0])?.[1]);
/** The fill of each column, in order. */
const columnFills = (svg: string) =>
  [...svg.matchAll(/<rect [^>]*data-testid="bar\.item[^"]*"[^>]*>/g)].map((m) => /fill="([^"]*)"/.exec(m[0])?.[1]);

/** What every chart must be: a self-contained, scalable, named image without inline style or script. */
function expectCleanSvg(svg: string, size: { width: number; height: number }, title: string) {
  expect(svg.startsWith("<svg ")).toBe(true);
  expect(svg.endsWith("</svg>")).toBe(true);
  expect(svg).toMatch(/^<svg [^>]*role="img"/);
  expect(svg).toMatch(new RegExp(`^<svg [^>]*><title>${title}</title>`));
  expect(svg).toContain(`viewBox="0 0 ${size.width} ${size.height}"`);
  expect(svg).toMatch(/^<svg [^>]*width="100%"/);
  expect(svg).not.toMatch(/<svg[^>]* height=/);
  expect(svg).not.toContain("style=");
  expect(svg).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
  expect(svg).not.toContain("<div");
  expect(svg).not.toContain("NaN");
  expect(svg).not.toMatch(/="[^"]*\d\.\d{3}/);
  expect(svg.match(/<svg/g)).toHaveLength(1);
}

describe("renderAllocationChartSvg: pie", () => {
  const svg = renderAllocationChartSvg(pie);

  it("is a self-contained image named by its title, 600 × 360, without inline style or script", () => {
    expectCleanSvg(svg, { width: 600, height: 360 }, "Sectors");
    expect(svg).toMatch(/^<svg [^>]*aria-label="Sectors"/);
    // charts.css keeps the pie at most 600 wide.
    expect(svg).toMatch(/^<svg [^>]*class="allocation-chart allocation-chart--pie"/);
  });

  it("draws one arc per slice in the slice's colour, in order", () => {
    expect(arcFills(svg)).toEqual(colours);
  });

  it("is a donut: its arcs have an inner radius half the outer", () => {
    const first = /<path [^>]*d="([^"]*)"[^>]*data-testid="arc\.0"/.exec(svg)?.[1] ?? "";
    const radii = [...first.matchAll(/A(\d+(?:\.\d+)?),\1,/g)].map((m) => Number(m[1])).filter((r) => r > 10);
    expect(Math.min(...radii) / Math.max(...radii)).toBeCloseTo(0.5, 1);
  });

  it("writes the percentLabel on the slices of at least 5%, in a colour readable on the slice", () => {
    expect(texts(svg)).toEqual(["42%", "23%", "18%", "9%", "5%"]);
    expect(svg).toMatch(/<text [^>]*fill="#ffffff"[^>]*>23%<\/text>/);
    expect(svg).toContain('font-family="inherit"');
  });

  it("leaves out slices of 0, below 0 or not a number, keeping the others' colours", () => {
    const gappy = renderAllocationChartSvg({
      ...pie,
      slices: [
        slices[0]!,
        { ...slices[1]!, value: 0 },
        slices[2]!,
        { ...slices[3]!, value: -5 },
        { ...slices[4]!, value: Number.NaN },
      ],
    });
    expect(arcFills(gappy)).toEqual(["#2e8fd0", "#00857c"]);
    expect(gappy).not.toContain("NaN");
  });

  it("draws a single slice as a whole ring", () => {
    const whole = renderAllocationChartSvg({
      ...pie,
      slices: [{ id: "a", label: "Equities", value: 10, percentLabel: "100%" }],
    });
    expect(arcFills(whole)).toEqual(["#2e8fd0"]);
    expect(texts(whole)).toEqual(["100%"]);
  });

  it("repeats the colours when there are more slices than colours", () => {
    expect(arcFills(renderAllocationChartSvg({ ...pie, colours: ["#111111", "#222222"] }))).toEqual([
      "#111111",
      "#222222",
      "#111111",
      "#222222",
      "#111111",
      "#222222",
    ]);
    expect(arcFills(renderAllocationChartSvg({ ...pie, colours: [] }))).toEqual(Array(6).fill("#1d4f91"));
  });

  it("escapes the title", () => {
    const titled = renderAllocationChartSvg({ ...pie, title: 'Cash & <"bonds">' });
    expect(titled).toContain("<title>Cash &amp; &lt;&quot;bonds&quot;&gt;</title>");
    expect(titled).toContain('aria-label="Cash &amp; &lt;&quot;bonds&quot;&gt;"');
  });

  it("keeps its size when given one", () => {
    expect(renderAllocationChartSvg({ ...pie, width: 300, height: 300 })).toContain('viewBox="0 0 300 300"');
  });
});

describe("renderAllocationChartSvg: columns", () => {
  const svg = renderAllocationChartSvg(column);

  it("is a self-contained image named by its title, 720 × 360, without inline style or script", () => {
    expectCleanSvg(svg, { width: 720, height: 360 }, "Sectors");
    expect(svg).toMatch(/^<svg [^>]*aria-label="Sectors"/);
    expect(svg).toMatch(/^<svg [^>]*class="allocation-chart allocation-chart--column"/);
    expect(svg.match(/aria-label=/g)).toHaveLength(1);
  });

  it("draws one column per slice in the slice's colour, in order, as high as its share", () => {
    expect(columnFills(svg)).toEqual(colours);
    const heights = [...svg.matchAll(/<rect [^>]*height="([\d.]+)"[^>]*data-testid="bar\.item/g)].map((m) =>
      Number(m[1]),
    );
    expect(heights[0]! / heights[1]!).toBeCloseTo(42 / 23, 1);
  });

  it("labels the value axis in percent of the whole and each column with its percentLabel", () => {
    const labels = texts(svg);
    expect(labels).toEqual(expect.arrayContaining(["0%", "20%", "40%", "42%", "23%", "3%"]));
    const french = texts(renderAllocationChartSvg({ ...column, locale: "fr-CA" })).map(plain);
    expect(french).toEqual(expect.arrayContaining(["0 %", "40 %"]));
  });

  it("writes a category name too long for one line under its column on two, whole (issue 25 item 15)", () => {
    const labels = labelTexts(svg);
    expect(labels).toContain("Information Technology");
    expect(labels).toContain("Consumer Staples");
    expect(labels.join(" ")).not.toContain("…");
    expect(svg).toMatch(/<tspan x="0" dy="[^"]*">Information<\/tspan><tspan x="0" dy="1.2em">Technology<\/tspan>/);
  });

  it("turns the names of eleven sectors and wraps them, every one whole", () => {
    const sectors = renderAllocationChartSvg({
      ...column,
      slices: SECTORS.map((label, i) => ({ id: `s${i}`, label, value: 20 - i, percentLabel: `${20 - i}%` })),
    });
    expectCleanSvg(sectors, { width: 720, height: 360 }, "Sectors");
    expect(sectors).toMatch(/rotate\(-45\)/);
    const labels = labelTexts(sectors);
    for (const name of SECTORS) expect(labels).toContain(name);
    expect(labels.join(" ")).not.toContain("…");
  });

  it("keeps short category names level and whole", () => {
    const short = renderAllocationChartSvg({ ...column, slices: slices.slice(1, 4) });
    expect(texts(short)).toEqual(expect.arrayContaining(["Health Care", "Financials", "Energy"]));
    expect(short).not.toMatch(/rotate\(-(45|90)\)/);
  });

  it("draws a zero slice as a column of no height, and puts a negative one's label under it", () => {
    const mixed = renderAllocationChartSvg({
      ...column,
      slices: [
        { id: "a", label: "Equities", value: 80, percentLabel: "80%" },
        { id: "b", label: "Bonds", value: 0, percentLabel: "0%" },
        { id: "c", label: "Cash", value: -20, percentLabel: "-20%" },
      ],
    });
    expect(columnFills(mixed)).toEqual(["#2e8fd0", "#1d4f91", "#00857c"]);
    expect(mixed).not.toContain("NaN");
    const negative =
      /<g transform="translate\([\d.]+, ([\d.]+)\)"><rect [^>]*height="([\d.]+)"[^>]*fill="#00857c"/.exec(mixed);
    const label = /<text x="[\d.]+" y="([\d.]+)"[^>]*>-20%<\/text>/.exec(mixed);
    expect(Number(label?.[1])).toBeGreaterThan(Number(negative?.[1]) + Number(negative?.[2]));
  });

  it("turns the names upright and leaves out the percentages when there are many narrow columns", () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: `h${i}`,
      label: `Holding ${i} with a rather long name`,
      value: 40 - i,
      percentLabel: `${40 - i}%`,
    }));
    const crowded = renderAllocationChartSvg({ ...column, slices: many });
    expectCleanSvg(crowded, { width: 720, height: 360 }, "Sectors");
    expect(columnFills(crowded)).toHaveLength(40);
    expect(crowded).toMatch(/rotate\(-90\)/);
    expect(texts(crowded)).not.toContain("40%");
    // too narrow to wrap: abbreviated under the columns, whole in the legend and the table
    expect(labelTexts(crowded)).toContain("Holding 0 with a…");
    expect(allocationLegend({ ...column, slices: many })[0]!.label).toBe("Holding 0 with a rather long name");
  });
});

describe("renderAllocationChartSvg: nothing to draw", () => {
  it("answers an empty image with just its title for no slices, or slices summing to 0 or less", () => {
    for (const kind of ["pie", "column"] as const) {
      const size = allocationChartSize({ kind });
      for (const none of [
        [],
        [{ ...slices[0]!, value: 0 }],
        [{ ...slices[0]!, value: -5 }],
        [{ ...slices[0]!, value: Number.NaN }],
      ]) {
        const svg = renderAllocationChartSvg({ ...pie, kind, slices: none });
        expectCleanSvg(svg, size, "Sectors");
        expect(svg).toBe(
          `<svg viewBox="0 0 ${size.width} ${size.height}" width="100%" preserveAspectRatio="xMidYMid meet" class="allocation-chart allocation-chart--${kind}" aria-label="Sectors" xmlns="http://www.w3.org/2000/svg" role="img"><title>Sectors</title></svg>`,
        );
      }
    }
  });
});

describe("renderAllocationChartSvg: long and odd labels", () => {
  const odd: AllocationSlice[] = [
    { id: "a", label: `${"Very long holding name ".repeat(15)}plc`, value: 60, percentLabel: "60%" },
    { id: "b", label: 'Fish & <Chips> "Ltd"', value: 40, percentLabel: "40%" },
  ];

  it("cuts a very long name and escapes markup in names", () => {
    for (const kind of ["pie", "column"] as const) {
      const svg = renderAllocationChartSvg({ ...pie, kind, slices: odd });
      expectCleanSvg(svg, allocationChartSize({ kind }), "Sectors");
      expect(svg).not.toContain("<Chips>");
      expect(svg).not.toContain("Very long holding name Very long holding name");
    }
    const labels = labelTexts(renderAllocationChartSvg({ ...column, slices: odd }));
    expect(labels.some((l) => l.startsWith("Very long holding") && l.endsWith("…"))).toBe(true);
    expect(labels).toContain("Fish &amp; &lt;Chips&gt; &quot;Ltd&quot;");
  });
});

describe("allocationTable and allocationLegend", () => {
  const text = { caption: "Sectors", categoryHeading: "Sector", amountHeading: "Value", percentHeading: "Share" };

  it("lists one row per slice: its label, its amount in the currency without decimals and its percentLabel", () => {
    expect(
      allocationTable({ ...pie, slices: [...slices.slice(0, 2), { ...slices[2]!, value: 1234.56 }] }, text),
    ).toEqual({
      caption: "Sectors",
      columns: ["Sector", "Value", "Share"],
      rows: [
        { header: "Information Technology", cells: ["£42,000", "42%"] },
        { header: "Health Care", cells: ["£23,000", "23%"] },
        { header: "Financials", cells: ["£1,235", "18%"] },
      ],
    });
  });

  it("writes amounts in the locale's way, keeps zero and negative rows and leaves a missing amount empty", () => {
    const table = allocationTable(
      {
        locale: "fr-CA",
        currency: "CAD",
        slices: [
          { id: "a", label: "Actions", value: 42_000, percentLabel: "42 %" },
          { id: "b", label: "Encaisse", value: -500, percentLabel: "-1 %" },
          { id: "c", label: "Autres", value: 0, percentLabel: "0 %" },
          { id: "d", label: "Inconnu", value: Number.NaN, percentLabel: "" },
        ],
      },
      text,
    );
    expect(table.rows.map((r) => [r.header, ...r.cells.map(plain)])).toEqual([
      ["Actions", "42 000 $", "42 %"],
      ["Encaisse", "-500 $", "-1 %"],
      ["Autres", "0 $", "0 %"],
      ["Inconnu", "", ""],
    ]);
  });

  it("has no rows for no slices", () => {
    expect(allocationTable({ ...pie, slices: [] }, text).rows).toEqual([]);
  });

  it("gives each slice its colour, in order, the colours repeating", () => {
    expect(allocationLegend({ slices: slices.slice(0, 3), colours: ["#111111", "#222222"] })).toEqual([
      { label: "Information Technology", colour: "#111111", colourNumber: 1 },
      { label: "Health Care", colour: "#222222", colourNumber: 2 },
      { label: "Financials", colour: "#111111", colourNumber: 1 },
    ]);
    expect(allocationLegend({ slices: [], colours })).toEqual([]);
  });
});

describe("the slices' colours by theme (docs/decisions/203)", () => {
  it("names each slice and column by its colour's number, so the stylesheet draws it in the theme's colour", () => {
    for (const kind of ["pie", "column"] as const) {
      const svg = renderAllocationChartSvg({ ...pie, kind });
      const filled = [...svg.matchAll(/data-fill="(\d+)"/g)].map((m) => Number(m[1]));
      expect(filled.length, kind).toBeGreaterThanOrEqual(3);
      expect(
        filled.every((n) => n >= 1 && n <= colours.length),
        kind,
      ).toBe(true);
    }
  });
});

describe("allocation helpers", () => {
  it("gives each slice its share of the sum, 0 for what is not a number, all 0 without a whole", () => {
    expect(
      allocationShares({
        slices: [
          { ...slices[0]!, value: 3 },
          { ...slices[1]!, value: 1 },
          { ...slices[2]!, value: Number.NaN },
        ],
      }),
    ).toEqual([0.75, 0.25, 0]);
    expect(allocationShares({ slices: [{ ...slices[0]!, value: 0 }] })).toEqual([0]);
    expect(hasAllocation({ slices: [] })).toBe(false);
    expect(
      hasAllocation({
        slices: [
          { ...slices[0]!, value: 5 },
          { ...slices[1]!, value: -5 },
        ],
      }),
    ).toBe(false);
    expect(hasAllocation({ slices })).toBe(true);
  });

  it("sizes a pie 600 × 360 and columns 720 × 360 unless told", () => {
    expect(allocationChartSize({ kind: "pie" })).toEqual({ width: 600, height: 360 });
    expect(allocationChartSize({ kind: "column" })).toEqual({ width: 720, height: 360 });
    expect(allocationChartSize({ kind: "pie", width: 400 })).toEqual({ width: 400, height: 360 });
  });

  it("wraps a label onto lines of at most a number of characters, between words, cut only past the last line", () => {
    expect(wrapLabel("Information Technology", 18, 2)).toEqual({ lines: ["Information", "Technology"], cut: false });
    expect(wrapLabel("Energy", 18, 2)).toEqual({ lines: ["Energy"], cut: false });
    expect(wrapLabel("Consumer Discretionary", 11, 3)).toEqual({
      lines: ["Consumer", "Discretiona", "ry"],
      cut: false,
    });
    expect(wrapLabel("Real Estate Investment Trusts", 12, 2)).toEqual({
      lines: ["Real Estate", "Investment…"],
      cut: true,
    });
    expect(wrapLabel("Communication Services", 18, 1)).toEqual({ lines: ["Communication Ser…"], cut: true });
  });

  it("cuts labels to a number of characters with an ellipsis", () => {
    expect(truncateLabel("Information Technology", 18)).toBe("Information Techn…");
    expect(truncateLabel("Energy", 18)).toBe("Energy");
    expect(truncateLabel("Consumer Staples and more", 17)).toBe("Consumer Staples…");
    expect(truncateLabel("😀😀😀😀", 3)).toBe("😀😀…");
  });

  it("picks white or dark text, whichever reads better on a colour", () => {
    expect(labelColourOn("#1d4f91")).toBe("#ffffff");
    expect(labelColourOn("#000")).toBe("#ffffff");
    expect(labelColourOn("#ffdd00")).toBe("#1b2430");
    expect(labelColourOn("#2e8fd0")).toBe("#1b2430");
    expect(labelColourOn("rebeccapurple")).toBe("#1b2430");
  });

  it("writes opaque rgb colours in colour attributes as hex, leaving translucent ones and text alone", () => {
    expect(
      hexColours(
        '<path fill="rgba(29, 79, 145, 1)" stroke="rgb(0,0,0)" opacity="1"></path><text fill="rgba(0, 0, 0, 0.5)">rgba(1, 2, 3, 1)</text>',
      ),
    ).toBe(
      '<path fill="#1d4f91" stroke="#000000" opacity="1"></path><text fill="rgba(0, 0, 0, 0.5)">rgba(1, 2, 3, 1)</text>',
    );
  });
});

describe("allocationChartFigure and ChartFigure", () => {
  const text = {
    tableCaption: "Sectors by value",
    categoryHeading: "Sector",
    amountHeading: "Value",
    percentHeading: "Share",
  };
  const figure = allocationChartFigure(pie, text);

  it("gives ChartFigure the SVG, the legend and the table, and no small-screen or interactive version", () => {
    expect(figure.svg).toBe(renderAllocationChartSvg(pie));
    expect(figure.legend).toEqual(allocationLegend(pie));
    expect(figure.table).toEqual(
      allocationTable(pie, {
        caption: "Sectors by value",
        categoryHeading: "Sector",
        amountHeading: "Value",
        percentHeading: "Share",
      }),
    );
    expect(Object.keys(figure).sort()).toEqual(["legend", "svg", "table"]);
  });

  it("shows in a ChartFigure as a single SVG with its legend and table", () => {
    const html = renderToStaticMarkup(
      createElement(ChartFigure, { id: "sectors", caption: "Sectors", tableSummary: "Show the data", ...figure }),
    );
    expect(html).toContain(`<div class="chart-figure__svg">${figure.svg}</div>`);
    expect(html).not.toContain("chart-figure__svg--narrow");
    expect(html.match(/<li class="chart-legend__item">/g)).toHaveLength(6);
    expect(html).toContain(
      '<thead><tr><th scope="col">Sector</th><th scope="col">Value</th><th scope="col">Share</th></tr></thead>',
    );
    expect(html).toContain(
      '<tr><th scope="row">Cash</th><td class="numeric">£3,000</td><td class="numeric">3%</td></tr>',
    );
  });
});

describe("nivo stays on the server", () => {
  it("is imported for its values only by .server and .client modules", () => {
    const dir = new URL(".", import.meta.url);
    for (const file of readdirSync(dir)) {
      if (!/\.tsx?$/.test(file) || /\.(server|client)\.tsx?$|\.test\.tsx?$/.test(file)) continue;
      const source = readFileSync(new URL(file, dir), "utf8");
      expect(source, file).not.toMatch(/^import (?!type )[^;]*from "@nivo\//m);
    }
    expect(readFileSync(new URL("allocation-chart.ts", dir), "utf8")).not.toContain("@nivo/");
  });
});
