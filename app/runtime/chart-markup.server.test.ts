import { describe, expect, it } from "vitest";
import { chartSvgOfPage, pageChartMarkup } from "./chart-markup.server";
import { asksForDocument } from "./request-context.server";
import { runWithRequestId } from "./request-id.server";

// docs/decisions/156: a chart's SVG is sent once. On a document request the loader data names the
// markup that the page's render takes from the request's context; on a data request it carries it.

const WIDE = '<svg viewBox="0 0 720 400"><title>Wide</title></svg>';
const NARROW = '<svg viewBox="0 0 360 300"><title>Narrow</title></svg>';

describe("whether a request asks for a whole page", () => {
  it("is so without a _data parameter, whatever else the query says", () => {
    for (const url of ["/clients/home", "/clients/home?", "/clients/analysis?tab=allocation", "/x?data=1&_datum=2"]) {
      expect(asksForDocument(url), url).toBe(true);
    }
  });

  it("is not so with one, empty, later in the query or written encoded, as Remix reads it", () => {
    for (const url of [
      "/clients/home?_data=routes%2Fclients.home",
      "/clients/analysis?tab=allocation&_data=routes%2Fclients.analysis",
      "/login?_data=",
      "/login?_data",
      "/login?%5Fdata=root",
    ]) {
      expect(asksForDocument(url), url).toBe(false);
    }
  });
});

describe("a chart's SVG in loader data", () => {
  it("is the markup itself outside a request (a test calling a loader)", () => {
    expect(chartSvgOfPage(WIDE)).toBe(WIDE);
    expect(pageChartMarkup().size).toBe(0);
  });

  it("is the markup itself on a data request, and the request keeps none", async () => {
    const seen = await runWithRequestId(
      "req-data",
      async () => {
        await Promise.resolve();
        return { svg: chartSvgOfPage(WIDE), kept: pageChartMarkup().size };
      },
      "/clients/home?_data=routes%2Fclients.home",
    );
    expect(seen).toEqual({ svg: WIDE, kept: 0 });
  });

  it("is the markup itself on a request whose server did not say what it asks for", () => {
    expect(runWithRequestId("req-unsaid", () => chartSvgOfPage(WIDE))).toBe(WIDE);
  });

  it("is a reference on a document request, whose page's render finds the markup under its key", async () => {
    const { data, kept } = await runWithRequestId(
      "req-page",
      async () => {
        const svg = chartSvgOfPage(WIDE);
        await new Promise((r) => setTimeout(r, 1));
        const narrowSvg = chartSvgOfPage(NARROW);
        return { data: { chart: { svg, narrowSvg } }, kept: new Map(pageChartMarkup()) };
      },
      "/clients/home",
    );
    expect(data).toEqual({ chart: { svg: { chartMarkup: "chart-1" }, narrowSvg: { chartMarkup: "chart-2" } } });
    expect(JSON.stringify(data)).not.toContain("<svg");
    expect([...kept]).toEqual([
      ["chart-1", WIDE],
      ["chart-2", NARROW],
    ]);
  });

  it("keeps each document request's markup apart, even the same chart asked for at once", async () => {
    const page = (id: string, markup: string) =>
      runWithRequestId(
        id,
        async () => {
          await new Promise((r) => setTimeout(r, 1));
          return { svg: chartSvgOfPage(markup), kept: [...pageChartMarkup()] };
        },
        "/clients/analysis?tab=allocation",
      );
    const [first, second] = await Promise.all([page("req-1", WIDE), page("req-2", NARROW)]);
    expect(first).toEqual({ svg: { chartMarkup: "chart-1" }, kept: [["chart-1", WIDE]] });
    expect(second).toEqual({ svg: { chartMarkup: "chart-1" }, kept: [["chart-1", NARROW]] });
    expect(pageChartMarkup().size).toBe(0);
  });
});
