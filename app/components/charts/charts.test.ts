import { format } from "date-fns/format";
import { enAU } from "date-fns/locale/en-AU";
import { enCA } from "date-fns/locale/en-CA";
import { enGB } from "date-fns/locale/en-GB";
import { frCA } from "date-fns/locale/fr-CA";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChartFigure } from "./chart-figure";
import {
  formatChartDate,
  lineChartLegend,
  lineChartProps,
  lineChartTable,
  niceTicks,
  type LineChartInput,
  valueFormatter,
} from "./line-chart";
import { lineChartFigure, renderLineChartSvg } from "./line-chart-svg.server";
import { responsiveSvg, roundGeometry, seriesColourAttributes, styleToPresentationAttributes } from "./svg-markup";

// Intl separates French groups and the trailing symbol with narrow/no-break spaces: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

/** Month starts from May 2023, one value per month. */
const monthly = (count: number, value: (i: number) => number) =>
  Array.from({ length: count }, (_, i) => ({
    date: new Date(Date.UTC(2023, 4 + i, 1)).toISOString().slice(0, 10),
    value: value(i),
  }));

const performance: LineChartInput = {
  series: [
    { id: "portfolio", label: "Portfolio", points: monthly(13, (i) => 0.01 * i - 0.02) },
    { id: "ftse", label: "FTSE All-Share", points: monthly(13, (i) => 0.008 * i) },
  ],
  colours: ["#1d4f91", "#00857c"],
  yFormat: "percent",
  locale: "en-GB",
  title: "Performance over 1 year",
};

const tickLabels = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? "");

describe("renderLineChartSvg", () => {
  const svg = renderLineChartSvg(performance);

  it("answers an SVG that scales to its container", () => {
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain('viewBox="0 0 720 400"');
    expect(svg).toContain('width="100%"');
    expect(svg).not.toMatch(/<svg[^>]* height=/);
    expect(svg).not.toContain("<div");
  });

  it("is an image named by its title", () => {
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toMatch(/^<svg [^>]*aria-label="Performance over 1 year"/);
    expect(svg).toMatch(/^<svg [^>]*><title>Performance over 1 year<\/title>/);
  });

  it("escapes the title", () => {
    const titled = renderLineChartSvg({ ...performance, title: 'Gains & losses <"1 year">' });
    expect(titled).toContain("<title>Gains &amp; losses &lt;&quot;1 year&quot;&gt;</title>");
    expect(titled).toContain('aria-label="Gains &amp; losses &lt;&quot;1 year&quot;&gt;"');
  });

  it("draws one line of width 2 in its colour per series, over an area at opacity 0.1, without markers", () => {
    const lines = [...svg.matchAll(/<path [^>]*fill="none"[^>]*>/g)].map((m) => m[0]);
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.includes('stroke="#1d4f91"') && l.includes('stroke-width="2"'))).toBe(true);
    expect(lines.some((l) => l.includes('stroke="#00857c"') && l.includes('stroke-width="2"'))).toBe(true);
    const areas = [...svg.matchAll(/<path [^>]*fill-opacity="0.1"[^>]*>/g)];
    expect(areas).toHaveLength(2);
    expect(svg).not.toContain("<circle");
  });

  it("has no inline style, so a strict style-src allows it", () => {
    expect(svg).not.toContain("style=");
    expect(svg).toContain('font-family="inherit"');
    expect(svg).toContain('fill="currentColor"');
  });

  it("labels the axes in the locale: short month and year, percentages from fractions", () => {
    const labels = tickLabels(svg);
    expect(labels).toEqual(expect.arrayContaining(["Jul 2023", "Oct 2023", "Jan 2024", "Apr 2024"]));
    expect(labels).toEqual(expect.arrayContaining(["-2%", "0%", "2%", "10%"]));
    const french = tickLabels(renderLineChartSvg({ ...performance, locale: "fr-CA" })).map(plain);
    expect(french).toEqual(expect.arrayContaining(["janv. 2024", "10 %"]));
  });

  it("shows percentages with as many decimals as the ticks need, up to 2", () => {
    const small = renderLineChartSvg({
      ...performance,
      series: [{ id: "p", label: "Portfolio", points: monthly(4, (i) => 0.001 * i) }],
    });
    expect(tickLabels(small)).toEqual(expect.arrayContaining(["0.00%", "0.05%", "0.10%", "0.30%"]));
  });

  it("shows compact amounts of mixed units without trailing zeros", () => {
    const value: LineChartInput = {
      ...performance,
      yFormat: "money",
      currency: "GBP",
      series: [
        {
          id: "v",
          label: "Value",
          points: [
            { date: "2020-01-01", value: 850_000 },
            { date: "2024-06-30", value: 1_330_000 },
          ],
        },
      ],
    };
    expect(tickLabels(renderLineChartSvg(value))).toEqual([
      "2020",
      "2021",
      "2022",
      "2023",
      "2024",
      "£800k",
      "£900k",
      "£1m",
      "£1.1m",
      "£1.2m",
      "£1.3m",
      "£1.4m",
    ]);
  });

  it("shows money in the currency, compact from 10,000", () => {
    const value: LineChartInput = {
      ...performance,
      yFormat: "money",
      currency: "GBP",
      series: [{ id: "v", label: "Value", points: monthly(13, (i) => 1_000_000 + 50_000 * i) }],
    };
    expect(tickLabels(renderLineChartSvg(value))).toEqual(expect.arrayContaining(["£1m", "£1.2m", "£1.6m"]));
    const pence = renderLineChartSvg({
      ...value,
      currency: "GBX",
      series: [{ id: "v", label: "Value", points: monthly(3, (i) => 100 * i) }],
    });
    expect(tickLabels(pence)).toEqual(expect.arrayContaining(["0p", "100p", "200p"]));
  });

  it("labels days and months over a short range, and keeps at least 2 days in view", () => {
    const days = renderLineChartSvg({
      ...performance,
      series: [
        {
          id: "p",
          label: "Portfolio",
          points: [
            { date: "2024-03-04", value: 0.01 },
            { date: "2024-03-25", value: 0.02 },
          ],
        },
      ],
    });
    expect(tickLabels(days)).toEqual(expect.arrayContaining(["4 Mar", "11 Mar", "18 Mar", "25 Mar"]));
    const single = renderLineChartSvg({
      ...performance,
      series: [{ id: "p", label: "Portfolio", points: [{ date: "2024-03-04", value: 0.01 }] }],
    });
    expect(single).not.toContain("NaN");
    expect(tickLabels(single)).toEqual(expect.arrayContaining(["4 Mar", "6 Mar"]));
  });

  it("draws empty axes rather than failing when a series has no points", () => {
    const empty = renderLineChartSvg({ ...performance, series: [{ id: "p", label: "Portfolio", points: [] }] });
    expect(empty.startsWith("<svg ")).toBe(true);
    expect(empty).not.toContain("NaN");
  });

  it("draws the small-screen version at 360 × 300 with fewer date ticks", () => {
    const narrow = renderLineChartSvg({ ...performance, width: 360, height: 300 });
    expect(narrow).toContain('viewBox="0 0 360 300"');
    expect(tickLabels(narrow).filter((l) => /\d{4}$/.test(l))).toEqual(["Jul 2023", "Jan 2024"]);
    // Steps of 2.5 points: one decimal on every tick, never 2.5 shown as 3.
    expect(tickLabels(narrow)).toEqual(expect.arrayContaining(["-2.5%", "0.0%", "2.5%", "5.0%", "10.0%"]));
  });
});

describe("valueFormatter", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // decision 124: one Intl formatter per locale and options, kept in ~/lib/format (decision 148)
  it("makes no new Intl.NumberFormat for a chart's values formatted again in the same locale", () => {
    const axis = (yFormat: "money" | "percent", currency: string) =>
      valueFormatter({ yFormat, currency, locale: "en-AU" }, 1, true);
    axis("money", "CHF")(1);
    axis("money", "GBX")(1);
    axis("percent", "CHF")(1);
    const made = vi.spyOn(Intl, "NumberFormat");
    expect(plain(axis("money", "CHF")(1_150_000))).toBe("CHF 1.2M");
    expect(axis("money", "GBX")(25_000)).toBe("25Kp");
    expect(axis("percent", "CHF")(0.125)).toBe("12.5%");
    expect(made).not.toHaveBeenCalled();
  });
});

describe("lineChartProps", () => {
  it("follows spec 001 §9: line width 2, area opacity 0.1, no markers, no animation", () => {
    const props = lineChartProps(performance, 720, 400);
    expect(props).toMatchObject({
      lineWidth: 2,
      enableArea: true,
      areaOpacity: 0.1,
      enablePoints: false,
      animate: false,
    });
    expect(props.colors).toEqual(["#1d4f91", "#00857c"]);
    expect(props.yScale).toEqual({ type: "linear", min: -0.02, max: 0.1, nice: false });
  });

  it("steps the date ticks by UTC calendar days, months and years in every time zone", () => {
    const ticksIn = (timeZone: string, from: string, to: string, width: number) => {
      const before = process.env.TZ;
      process.env.TZ = timeZone;
      try {
        const points = [
          { date: from, value: 0 },
          { date: to, value: 1 },
        ];
        const props = lineChartProps({ ...performance, series: [{ id: "p", label: "P", points }] }, width, 400);
        const format = props.axisBottom!.format as (value: Date) => string;
        const ticks = props.axisBottom!.tickValues as Date[];
        return ticks.map((tick) => `${tick.toISOString().slice(0, 10)} ${format(tick)}`);
      } finally {
        process.env.TZ = before;
      }
    };
    // Weeks across the clocks going forward (30 March 2025 in London, 9 March in Toronto).
    const weeks = ["2025-03-03 3 Mar", "2025-03-17 17 Mar", "2025-03-31 31 Mar", "2025-04-14 14 Apr"];
    // Quarters from the first month start on or after 29 February, aligned to January, April, July, October.
    const quarters = ["2024-04-01 Apr 2024", "2024-07-01 Jul 2024", "2024-10-01 Oct 2024", "2025-01-01 Jan 2025"];
    // Years aligned to multiples of the step.
    const years = ["2000-01-01 2000", "2005-01-01 2005", "2010-01-01 2010", "2015-01-01 2015", "2020-01-01 2020"];
    for (const timeZone of ["UTC", "Europe/London", "America/Toronto", "Pacific/Auckland"]) {
      expect(ticksIn(timeZone, "2025-03-03", "2025-04-20", 560), timeZone).toEqual(weeks);
      expect(ticksIn(timeZone, "2024-02-29", "2025-02-28", 560), timeZone).toEqual(quarters);
      expect(ticksIn(timeZone, "1998-07-15", "2024-06-30", 720), timeZone).toEqual(years);
    }
  });

  it("repeats the colours when there are more series than colours", () => {
    const props = lineChartProps({ ...performance, colours: ["#111111"] }, 720, 400);
    expect(props.colors).toEqual(["#111111", "#111111"]);
  });
});

describe("niceTicks", () => {
  it("covers the range in steps of 1, 2, 2.5 or 5 × 10ⁿ", () => {
    expect(niceTicks(-0.02, 0.1, 7)).toEqual([-0.02, 0, 0.02, 0.04, 0.06, 0.08, 0.1]);
    expect(niceTicks(3, 97, 4)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(5, 5, 4)).toEqual([4.5, 4.75, 5, 5.25, 5.5]);
  });
});

describe("lineChartTable and lineChartLegend", () => {
  it("lists one row per date and one column per series, with 2 decimals", () => {
    const table = lineChartTable(
      {
        ...performance,
        series: [
          {
            id: "p",
            label: "Portfolio",
            points: [
              { date: "2024-02-01", value: 0.012345 },
              { date: "2024-01-01", value: -0.5 },
            ],
          },
          { id: "b", label: "Benchmark", points: [{ date: "2024-02-01", value: 0.02 }] },
        ],
      },
      { caption: "Performance by date", dateHeading: "Date" },
    );
    expect(table).toEqual({
      caption: "Performance by date",
      columns: ["Date", "Portfolio", "Benchmark"],
      rows: [
        { header: "1 Jan 2024", cells: ["-50.00%", ""] },
        { header: "1 Feb 2024", cells: ["1.23%", "2.00%"] },
      ],
    });
  });

  it("writes dates as 'D MMM YYYY' in the locale's words", () => {
    expect(formatChartDate("2023-09-01", "en-GB")).toBe("1 Sep 2023");
    expect(formatChartDate("2023-09-01", "fr-CA")).toBe("1 sept. 2023");
    expect(formatChartDate("2024-02-30", "en-GB")).toBe("2024-02-30");
  });

  it("writes Canadian English month first (decision 211)", () => {
    expect(formatChartDate("2023-09-01", "en-CA")).toBe("Sep 1, 2023");
    expect(formatChartDate("2023-09-01", "en-AU")).toBe("1 Sep 2023");
  });

  it("writes every month as date-fns does for each supported locale", () => {
    for (const [locale, dateFnsLocale] of [
      ["en-GB", enGB],
      ["en-CA", enCA],
      ["en-AU", enAU],
      ["fr-CA", frCA],
    ] as const) {
      for (let month = 0; month < 12; month++) {
        const iso = `2024-${String(month + 1).padStart(2, "0")}-09`;
        expect(formatChartDate(iso, locale)).toBe(
          format(new Date(2024, month, 9), locale === "en-CA" ? "MMM d, yyyy" : "d MMM yyyy", {
            locale: dateFnsLocale,
          }),
        );
      }
    }
  });

  it("formats money with its currency", () => {
    const table = lineChartTable(
      {
        ...performance,
        locale: "en-CA",
        yFormat: "money",
        currency: "CAD",
        series: [{ id: "v", label: "Value", points: [{ date: "2024-05-01", value: 1234.5 }] }],
      },
      { caption: "Value", dateHeading: "Date" },
    );
    expect(table.rows).toEqual([{ header: "May 1, 2024", cells: ["$1,234.50"] }]);
  });

  it("gives each series its colour, and the colour's number in the chart's colours (its theme's colour and dash)", () => {
    expect(lineChartLegend(performance)).toEqual([
      { label: "Portfolio", colour: "#1d4f91", colourNumber: 1 },
      { label: "FTSE All-Share", colour: "#00857c", colourNumber: 2 },
    ]);
    // more series than colours: the colours repeat, and so do their numbers
    const three = {
      ...performance,
      series: [...performance.series, { ...performance.series[0]!, id: "c", label: "C" }],
    };
    expect(lineChartLegend({ ...three, colours: ["#1D4F91", "#00857c"] }).map((l) => l.colourNumber)).toEqual([
      1, 2, 1,
    ]);
  });
});

describe("the series' colours by theme (docs/decisions/203)", () => {
  it("names each line and area by its colour's number, so the stylesheet draws it in the theme's colour and dash", () => {
    const svg = renderLineChartSvg(performance);
    const paths = [...svg.matchAll(/<path [^>]*>/g)].map((m) => m[0]);
    const lines = paths.filter((p) => p.includes('fill="none"'));
    const areas = paths.filter((p) => p.includes("fill-opacity"));
    expect(lines.map((p) => /data-stroke="(\d)"/.exec(p)?.[1]).sort()).toEqual(["1", "2"]);
    expect(areas.map((p) => /data-fill="(\d)"/.exec(p)?.[1]).sort()).toEqual(["1", "2"]);
    // the colour stays for anything that reads the SVG without the stylesheet
    expect(lines.find((p) => p.includes('data-stroke="1"'))).toContain('stroke="#1d4f91"');
    // the grid is drawn in the light theme's border colour, which charts.css replaces by the theme's
    expect(svg).toContain('stroke="#d5dbe3"');
  });

  it("marks strokes and fills in the chart's colours, however written, the first place of a colour given twice", () => {
    const markup =
      '<g><path stroke="#1D4F91" fill="rgba(0, 133, 124, 1)"></path><rect fill="#abc"/><line stroke="#d5dbe3"/>' +
      '<path fill="rgba(0, 133, 124, 0.5)"></path><path stroke="currentColor"></path></g>';
    expect(seriesColourAttributes(markup, ["#1d4f91", "#00857c", "#aabbcc", "#1d4f91"])).toBe(
      '<g><path stroke="#1D4F91" fill="rgba(0, 133, 124, 1)" data-stroke="1" data-fill="2"></path>' +
        '<rect fill="#abc" data-fill="3"/><line stroke="#d5dbe3"/>' +
        '<path fill="rgba(0, 133, 124, 0.5)"></path><path stroke="currentColor"></path></g>',
    );
  });
});

describe("svg markup rewrites", () => {
  it("turns style attributes into presentation attributes, the style winning, and drops the rest", () => {
    expect(
      styleToPresentationAttributes(
        '<g style="opacity:1"><text fill="red" style="font-family:sans-serif;font-size:11px;fill:#333333">A &amp; B</text><path d="M0,0" style="mix-blend-mode:normal"/></g>',
      ),
    ).toBe(
      '<g opacity="1"><text fill="#333333" font-family="sans-serif" font-size="11px">A &amp; B</text><path d="M0,0"/></g>',
    );
  });

  it("leaves tags without style alone", () => {
    const markup = '<svg xmlns="http://www.w3.org/2000/svg" focusable="false"><line x1="0" x2="5"></line></svg>';
    expect(styleToPresentationAttributes(markup)).toBe(markup);
  });

  it("rounds geometry to 2 decimals, not text", () => {
    expect(roundGeometry('<line x1="112.66666666666667" y1="-3.14159"></line><text>1.23456</text>')).toBe(
      '<line x1="112.67" y1="-3.14"></line><text>1.23456</text>',
    );
    expect(roundGeometry('<g transform="translate(268.6666666666667,0)"></g>')).toBe(
      '<g transform="translate(268.67,0)"></g>',
    );
  });

  it("gives the root svg a viewBox, full width and a title", () => {
    expect(responsiveSvg('<svg width="600" height="400" role="img"><g></g></svg>', "A < B")).toBe(
      '<svg viewBox="0 0 600 400" width="100%" preserveAspectRatio="xMidYMid meet" role="img"><title>A &lt; B</title><g></g></svg>',
    );
  });
});

describe("lineChartFigure", () => {
  it("gives ChartFigure the wide and narrow SVGs, the legend, the table and the data", () => {
    const figure = lineChartFigure(performance, { tableCaption: "Performance by month", dateHeading: "Date" });
    expect(figure.svg).toBe(renderLineChartSvg(performance));
    expect(figure.narrowSvg).toContain('viewBox="0 0 360 300"');
    expect(figure.legend).toEqual(lineChartLegend(performance));
    expect(figure.table).toEqual(lineChartTable(performance, { caption: "Performance by month", dateHeading: "Date" }));
    expect(figure.interactive).toBe(performance);
    expect(
      lineChartFigure(performance, { tableCaption: "T", dateHeading: "D" }, { interactive: false }),
    ).not.toHaveProperty("interactive");
  });
});

describe("ChartFigure", () => {
  const svg = renderLineChartSvg(performance);
  const table = lineChartTable(performance, { caption: "Performance by month", dateHeading: "Date" });
  const html = renderToStaticMarkup(
    createElement(ChartFigure, {
      id: "performance",
      caption: "Performance over 1 year",
      svg,
      narrowSvg: renderLineChartSvg({ ...performance, width: 360, height: 300 }),
      legend: lineChartLegend(performance),
      table,
      tableSummary: "Show the chart's data as a table",
      interactive: performance,
    }),
  );

  it("is a figure with a caption and the server's SVG", () => {
    expect(html).toMatch(
      /^<figure id="performance" class="chart-figure"><figcaption id="performance-caption" class="chart-figure__caption">Performance over 1 year<\/figcaption>/,
    );
    expect(html).toContain(`<div class="chart-figure__svg chart-figure__svg--wide">${svg}</div>`);
    expect(html).toContain('<div class="chart-figure__svg chart-figure__svg--narrow"><svg viewBox="0 0 360 300"');
  });

  it("has a legend naming each series", () => {
    expect(html).toContain('<ul class="chart-legend">');
    expect(html).toMatch(
      /<li class="chart-legend__item"><svg class="chart-legend__swatch chart-legend__swatch--line"[^>]*aria-hidden="true"[^>]*><line[^>]*stroke="#1d4f91"[^>]*data-stroke="1"><\/line><\/svg>Portfolio<\/li>/,
    );
  });

  it("offers the data as a table behind a summary", () => {
    expect(html).toContain(
      '<details class="chart-figure__data"><summary>Show the chart&#x27;s data as a table</summary>',
    );
    expect(html).toContain(
      '<div class="table-wrap" role="region" aria-labelledby="performance-table-caption" tabindex="0"><table class="chart-figure__table"><caption id="performance-table-caption">Performance by month</caption>',
    );
    expect(html).toContain(
      '<thead><tr><th scope="col">Date</th><th scope="col">Portfolio</th><th scope="col">FTSE All-Share</th></tr></thead>',
    );
    expect(html).toContain(
      '<tr><th scope="row">1 May 2023</th><td class="numeric">-2.00%</td><td class="numeric">0.00%</td></tr>',
    );
    expect(html.match(/<th scope="row">/g)).toHaveLength(13);
  });

  it("gives every element its own id: the table's region is named by the table's caption, not the chart's", () => {
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toContain("performance-caption");
    expect(ids).toContain("performance-table-caption");
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("renders only the static SVG on the server, never the interactive chart", () => {
    expect(html).not.toContain("chart-figure__interactive");
  });

  it("shows a single SVG without the wide and narrow classes when there is no small-screen version", () => {
    const single = renderToStaticMarkup(
      createElement(ChartFigure, {
        id: "c",
        caption: "C",
        svg: "<svg></svg>",
        table: { caption: "T", columns: ["Date"], rows: [] },
        tableSummary: "Data",
      }),
    );
    expect(single).toContain('<div class="chart-figure__svg"><svg></svg></div>');
    expect(single).not.toContain("chart-legend");
  });
});
