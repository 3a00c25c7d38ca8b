import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Counts the charts nivo draws: the markup of the same chart must be drawn once.
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock("react-dom/server", async (importOriginal) => {
  const original = await importOriginal<typeof import("react-dom/server")>();
  return {
    ...original,
    renderToStaticMarkup: (...args: Parameters<typeof original.renderToStaticMarkup>) => {
      drawn.count++;
      return original.renderToStaticMarkup(...args);
    },
  };
});

const { chartMarkupCache, chartMarkups } = await import("./chart-markup-cache.server");
const { renderLineChartSvg } = await import("./line-chart-svg.server");
const { renderAllocationChartSvg } = await import("./allocation-chart-svg.server");
type LineChartInput = import("./line-chart").LineChartInput;
type AllocationChartInput = import("./allocation-chart").AllocationChartInput;

const line: LineChartInput = {
  series: [
    {
      id: "portfolio",
      label: "Portfolio",
      points: [0, 1, 2, 3].map((i) => ({ date: `2024-0${i + 1}-01`, value: 0.01 * i })),
    },
  ],
  colours: ["#1d4f91"],
  yFormat: "percent",
  locale: "en-GB",
  title: "Performance",
};
const pie: AllocationChartInput = {
  kind: "pie",
  slices: [
    { id: "a", label: "Equities", value: 600, percentLabel: "60%" },
    { id: "b", label: "Bonds", value: 400, percentLabel: "40%" },
  ],
  colours: ["#1d4f91", "#00857c"],
  title: "Asset class",
  locale: "en-GB",
  currency: "GBP",
};
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

beforeEach(() => {
  chartMarkups.clear();
  drawn.count = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the charts' markup is kept for the same chart (decision 124)", () => {
  it("draws a line chart once for the same input, and gives the same markup", () => {
    const first = renderLineChartSvg(line);
    expect(drawn.count).toBe(1);
    expect(renderLineChartSvg(copy(line))).toBe(first);
    expect(drawn.count).toBe(1);
  });

  it("draws again when anything the chart shows differs: data, locale, title, size, colours, format", () => {
    const first = renderLineChartSvg(line);
    const others = [
      {
        ...line,
        series: [
          { ...line.series[0]!, points: line.series[0]!.points.map((p, i) => (i === 3 ? { ...p, value: 0.5 } : p)) },
        ],
      },
      { ...line, locale: "fr-CA" },
      { ...line, title: "Value" },
      { ...line, width: 360, height: 300 },
      { ...line, colours: ["#000000"] },
      { ...line, yFormat: "money" as const, currency: "USD" },
    ];
    const markups = others.map((input) => renderLineChartSvg(input));
    expect(drawn.count).toBe(1 + others.length);
    expect(new Set([first, ...markups]).size).toBe(1 + others.length);
  });

  it("draws an allocation chart once for the same input, again for other slices or kind", () => {
    const first = renderAllocationChartSvg(pie);
    expect(renderAllocationChartSvg(copy(pie))).toBe(first);
    expect(drawn.count).toBe(1);
    const column = renderAllocationChartSvg({ ...pie, kind: "column" });
    const shifted = renderAllocationChartSvg({
      ...pie,
      slices: [{ ...pie.slices[0]!, value: 700, percentLabel: "64%" }, pie.slices[1]!],
    });
    expect(drawn.count).toBe(3);
    expect(new Set([first, column, shifted]).size).toBe(3);
  });

  it("draws a chart again on another day (a chart without dates is drawn around today)", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-05-01T12:00:00Z"));
    const empty = { ...line, series: [{ id: "p", label: "Portfolio", points: [] }] };
    renderLineChartSvg(empty);
    renderLineChartSvg(empty);
    expect(drawn.count).toBe(1);
    vi.setSystemTime(new Date("2025-05-01T12:00:00Z"));
    renderLineChartSvg(empty);
    expect(drawn.count).toBe(2);
  });

  it("keeps a bounded number of charts, the least recently used going first", () => {
    const cache = chartMarkupCache(2);
    let draws = 0;
    const draw = (input: { n: number }) => `<svg>${input.n} ${++draws}</svg>`;
    cache.markup("t", { n: 1 }, draw);
    cache.markup("t", { n: 2 }, draw);
    cache.markup("t", { n: 1 }, draw);
    cache.markup("t", { n: 3 }, draw);
    expect(cache.size).toBe(2);
    expect(draws).toBe(3);
    expect(cache.markup("t", { n: 1 }, draw)).toBe("<svg>1 1</svg>");
    expect(cache.markup("t", { n: 2 }, draw)).toBe("<svg>2 4</svg>");
    // the same input under another kind of chart is another chart
    expect(cache.markup("u", { n: 2 }, draw)).toBe("<svg>2 5</svg>");
  });
});
