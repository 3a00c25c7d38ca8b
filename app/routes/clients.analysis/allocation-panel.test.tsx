import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { TranslationProvider } from "~/components/translation";
import { createTranslator } from "~/lib/translator";
import enGBClients from "~/locales/en-GB/clients.json";
import type { AllocationPanel, AllocationView } from "./investments.server";
import { AllocationPanelList } from "./investments-panel";

const translator = createTranslator("en-GB", { clients: enGBClients });

function panel(type: AllocationPanel["type"], title: string): AllocationPanel {
  return {
    type,
    title,
    kind: type === "sector" ? "column" : "pie",
    lower: title.toLowerCase(),
    caption: `${title} allocation at 26 November 2026`,
    svg: `<svg role="img" aria-label="${title} allocation at 26 November 2026"></svg>`,
    legend: [{ label: "Equities", colour: "#1d4f91" }],
    table: {
      caption: `${title} allocation at 26 November 2026`,
      columns: [title, "Amount", "Percentage"],
      rows: [{ header: "Equities", cells: ["£1,000", "100%"] }],
    },
    categories: [
      {
        key: "eq",
        name: "Equities",
        nameLang: null,
        amount: "£1,000",
        percent: "100%",
        rows: [{ key: "eq-1", investment: "Apple Inc.", investmentLang: null, account: "ISA", amount: "£1,000" }],
      },
    ],
    total: { amount: "£1,000", percent: "100%" },
    roundingNote: type === "sector",
  };
}

async function render(view: AllocationView): Promise<string> {
  const handler = createStaticHandler([{ path: "/", element: createElement(AllocationPanelList, { view }) }]);
  const context = await handler.query(new Request("http://portal.test/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(
    createElement(TranslationProvider, { translator }, createElement(StaticRouterProvider, { router, context })),
  );
}

// spec 001 §2.3 allocation tab; issue 25 item 6 (decision 117)
describe("the allocation tab's panels", () => {
  const view: AllocationView = {
    state: "ok",
    asAt: "26 November 2026",
    collapsed: true,
    panels: [panel("asset_class", "Asset class"), panel("sector", "Sector")],
  };

  it("gives every element its own id, so each table's region is named by its own caption", async () => {
    const html = await render(view);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const [, labelledby] of html.matchAll(/role="region" aria-labelledby="([^"]+)"/g)) {
      expect(html).toMatch(new RegExp(`<caption id="${labelledby}"`));
    }
    expect(html).toContain('aria-labelledby="allocation-sector-investments-caption"');
  });

  it("puts each panel's heading outside its summary, and keeps the panel collapsible", async () => {
    const html = await render(view);
    expect(html).not.toMatch(/<summary[^>]*>(?:(?!<\/summary>).)*<h\d/s);
    expect(html).toMatch(/<h3 id="allocation-asset_class-heading"[^>]*>Asset class<\/h3>/);
    expect(html).toMatch(/<section [^>]*aria-labelledby="allocation-asset_class-heading"/);
    // several types: each starts collapsed (spec 001 §2.3)
    expect(html.match(/<details class="allocation-panel__body">/g)).toHaveLength(2);
  });

  it("opens the only panel when there is one type", async () => {
    const html = await render({ ...view, collapsed: false, panels: [panel("region", "Geographic region")] });
    expect(html).toContain('<details class="allocation-panel__body" open="">');
  });

  it("totals each panel's investments, and says so where rounded amounts do not add up (decision 207)", async () => {
    const html = await render(view);
    expect(
      html.match(
        /<tfoot><tr class="allocation-panel__total"><th scope="row" colSpan="2">Total \(100%\)<\/th><td class="numeric">£1,000<\/td>/g,
      )?.length,
    ).toBe(2);
    // the note once: the sector panel's amounts do not add up
    expect(html.match(/may not add up exactly to the totals beside them/g)?.length).toBe(1);
  });
});
