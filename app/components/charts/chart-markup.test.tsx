import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChartSvg } from "~/lib/chart-svg";
import { ChartFigure } from "./chart-figure";
import { ChartMarkupProvider } from "./chart-markup";

// docs/decisions/156: ChartFigure shows a chart's SVG whether the loader data carries it or, on a
// document request, names it: on the server from the request's markup, in the browser from the page.

const WIDE = '<svg viewBox="0 0 720 400" role="img"><title>Performance</title><path d="M0 0L1 1"></path></svg>';
const NARROW = '<svg viewBox="0 0 360 300" role="img"><title>Performance</title><path d="M0 0L1 1"></path></svg>';
const table = { caption: "Performance by month", columns: ["Date", "Portfolio"], rows: [] };

const figure = (svg: ChartSvg, narrowSvg?: ChartSvg) => (
  <ChartFigure
    id="performance"
    caption="Performance"
    svg={svg}
    narrowSvg={narrowSvg}
    table={table}
    tableSummary="Data"
  />
);

/** The elements a page's `[data-chart-markup]` finds, in a document as small as the code reads it. */
function pageWith(elements: Array<{ key: string; markup: string }>) {
  const found = elements.map(({ key, markup }) => ({ dataset: { chartMarkup: key }, innerHTML: markup }));
  const querySelectorAll = vi.fn((selector: string) => (selector === "[data-chart-markup]" ? found : []));
  vi.stubGlobal("document", { querySelectorAll });
  return { elements: found, querySelectorAll };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a chart's SVG on the server", () => {
  it("is the loader data's markup when it carries it (a data request, or no request at all)", () => {
    const html = renderToStaticMarkup(figure(WIDE, NARROW));
    expect(html).toContain(`<div class="chart-figure__svg chart-figure__svg--wide">${WIDE}</div>`);
    expect(html).toContain(`<div class="chart-figure__svg chart-figure__svg--narrow">${NARROW}</div>`);
    expect(html).not.toContain("data-chart-markup");
  });

  it("is the request's markup under the key the loader data names, which the element names too", () => {
    const markup = new Map([
      ["chart-1", WIDE],
      ["chart-2", NARROW],
    ]);
    const html = renderToStaticMarkup(
      <ChartMarkupProvider markup={markup}>
        {figure({ chartMarkup: "chart-1" }, { chartMarkup: "chart-2" })}
      </ChartMarkupProvider>,
    );
    expect(html).toContain(
      `<div class="chart-figure__svg chart-figure__svg--wide" data-chart-markup="chart-1">${WIDE}</div>`,
    );
    expect(html).toContain(
      `<div class="chart-figure__svg chart-figure__svg--narrow" data-chart-markup="chart-2">${NARROW}</div>`,
    );
  });
});

describe("a chart's SVG in the browser", () => {
  it("is read from the page the server rendered, for a reference (hydrating a document request)", () => {
    pageWith([
      { key: "chart-11", markup: WIDE },
      { key: "chart-12", markup: NARROW },
    ]);
    const html = renderToStaticMarkup(figure({ chartMarkup: "chart-11" }, { chartMarkup: "chart-12" }));
    expect(html).toContain(
      `<div class="chart-figure__svg chart-figure__svg--wide" data-chart-markup="chart-11">${WIDE}</div>`,
    );
    expect(html).toContain(
      `<div class="chart-figure__svg chart-figure__svg--narrow" data-chart-markup="chart-12">${NARROW}</div>`,
    );
  });

  it("is kept once read: the chart shown again after its element left the page has the same markup", () => {
    const page = pageWith([{ key: "chart-21", markup: WIDE }]);
    expect(renderToStaticMarkup(figure({ chartMarkup: "chart-21" }))).toContain(WIDE);
    // the static chart gave way (the interactive chart): its element is no longer in the page
    page.elements.length = 0;
    expect(renderToStaticMarkup(figure({ chartMarkup: "chart-21" }))).toContain(
      `<div class="chart-figure__svg" data-chart-markup="chart-21">${WIDE}</div>`,
    );
    expect(page.querySelectorAll).toHaveBeenCalledTimes(1);
  });

  it("is the loader data's markup after a client-side navigation, which carries it", () => {
    const page = pageWith([]);
    expect(renderToStaticMarkup(figure(NARROW))).toContain(`<div class="chart-figure__svg">${NARROW}</div>`);
    expect(page.querySelectorAll).not.toHaveBeenCalled();
  });

  it("is empty, never another chart's, for a reference the page does not hold", () => {
    pageWith([{ key: "chart-31", markup: WIDE }]);
    expect(renderToStaticMarkup(figure({ chartMarkup: "chart-39" }))).toContain(
      '<div class="chart-figure__svg" data-chart-markup="chart-39"></div>',
    );
  });
});
