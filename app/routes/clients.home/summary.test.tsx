import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { TranslationProvider } from "~/components/translation";
import { createTranslator } from "~/lib/translator";
import type { SummaryRow } from "./dashboard.server";
import enGBClients from "~/locales/en-GB/clients.json";
import { SummaryRows } from "./summary";

const translator = createTranslator("en-GB", { clients: enGBClients });

function row(key: string, name: string, extra: Partial<SummaryRow> = {}): SummaryRow {
  return {
    key,
    name,
    accountCount: 2,
    value: "£1,234.56",
    performance: {
      period: { text: "+5.00%", negative: false },
      annual: { text: "+2.47%", negative: false },
      since: null,
    },
    movement: { text: "-£12.30", negative: true },
    percent: 60,
    percentLabel: "60%",
    analysisHref: null,
    expandable: true,
    expanded: false,
    toggle: key,
    accounts: null,
    accountsError: false,
    accountsEmpty: false,
    ...extra,
  };
}

/** Renders inside a router (the rows use Link) and the clients namespace. */
async function render(element: ReturnType<typeof createElement>): Promise<string> {
  const handler = createStaticHandler([{ path: "/", element }]);
  const context = await handler.query(new Request("http://portal.test/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(
    createElement(TranslationProvider, { translator }, createElement(StaticRouterProvider, { router, context })),
  );
}

describe("the account summary", () => {
  it("as a table: a header per column, a row per item, its accounts under an open row", async () => {
    const open = row("portfolio-1", "Ellie's portfolio", {
      expanded: true,
      toggle: "",
      accounts: [
        row("account-1", "ISA", { accountCount: null, expandable: false, percent: 100, percentLabel: "100%" }),
      ],
    });
    const html = await render(
      createElement(SummaryRows, {
        layout: "table",
        collection: "portfolio",
        rows: [open, row("portfolio-2", "Joint")],
        caption: "Your portfolios",
      }),
    );
    expect(html).toContain('<caption class="visually-hidden">Your portfolios</caption>');
    expect(html).toMatch(/<th scope="col">Portfolio<\/th>.*Current value.*Performance.*Change in value/);
    // two items and the open one's account
    expect(html.match(/<th scope="row">/g)).toHaveLength(3);
    expect(html).toContain('class="summary-table__child"');
    expect(html).toContain("(2 accounts)");
    expect(html).toContain("£1,234.56");
    expect(html).toContain("(+2.47% a year)");
    expect(html).toContain('class="figure figure--negative">-£12.30');
    // the toggles: an open row submits the list without itself and says it is expanded
    expect(html).toContain(
      'name="expand" value="" class="button button--link summary__toggle" aria-expanded="true" aria-controls="portfolio-1-accounts"',
    );
    expect(html).toContain('value="portfolio-2" class="button button--link summary__toggle" aria-expanded="false"');
    expect(html).toContain("Hide the accounts of Ellie&#x27;s portfolio");
  });

  it("says since when a row's return runs when its accounts began inside the range (decision 109)", async () => {
    const young = row("account-5", "James US dollar account", {
      accountCount: null,
      expandable: false,
      performance: {
        period: { text: "+15.13%", negative: false },
        annual: { text: "+8.81%", negative: false },
        since: "12th March 2025",
      },
    });
    const html = await render(
      createElement(SummaryRows, {
        layout: "table",
        collection: "account",
        rows: [young, row("account-4", "ISA")],
        caption: "Your accounts",
      }),
    );
    expect(html).toContain(
      '+15.13%</span><span class="figure__annual"> (+8.81% a year)</span><span class="figure__since"> since 12th March 2025</span>',
    );
    // the other row began before the range: no label
    expect(html.match(/figure__since/g)).toHaveLength(1);
  });

  it("as tiles: a radial share, the figures, and the spec's text when an open row has no accounts", async () => {
    const html = await render(
      createElement(SummaryRows, {
        layout: "tiles",
        collection: "portfolio",
        rows: [row("portfolio-1", "Ellie's portfolio", { expanded: true, accountsEmpty: true, accounts: [] })],
        caption: "Your portfolios",
      }),
    );
    expect(html).toContain('class="radial radial--group" width="98" height="98"');
    expect(html).toContain("60% of the total");
    expect(html).toContain("There are no visible accounts in this portfolio.");
    expect(html).not.toContain("<table");
  });

  it("shows no share, as a tile or as a table row, for a row in no total of the client's (a linked portfolio, decision 107)", async () => {
    const linked = row("portfolio-2", "James's portfolio", { percent: null, percentLabel: null });
    const tiles = await render(
      createElement(SummaryRows, {
        layout: "tiles",
        collection: "portfolio",
        rows: [linked],
        caption: "Linked accounts",
        headingLevel: 4,
      }),
    );
    expect(tiles).toContain("James&#x27;s portfolio");
    expect(tiles).not.toContain("radial");
    expect(tiles).not.toContain("of the total");
    const table = await render(
      createElement(SummaryRows, {
        layout: "table",
        collection: "portfolio",
        rows: [linked],
        caption: "Linked accounts",
      }),
    );
    expect(table).toContain("£1,234.56");
    expect(table).not.toContain("of the total");
  });

  it("shows no performance, as tiles or as a table, when the rows carry none (profit analysis type none)", async () => {
    const bare = (key: string, name: string) => {
      const { performance: _performance, ...rest } = row(key, name);
      return rest;
    };
    const table = await render(
      createElement(SummaryRows, {
        layout: "table",
        collection: "portfolio",
        rows: [bare("portfolio-1", "Ellie's"), bare("portfolio-2", "Joint")],
        caption: "Your portfolios",
      }),
    );
    expect(table).toMatch(/<th scope="col">Portfolio<\/th>.*Current value.*Change in value/);
    expect(table).not.toContain("Performance");
    expect(table.match(/<td/g)).toHaveLength(4);
    const tiles = await render(
      createElement(SummaryRows, {
        layout: "tiles",
        collection: "portfolio",
        rows: [bare("portfolio-1", "Ellie's")],
        caption: "Your portfolios",
      }),
    );
    expect(tiles).not.toContain("Performance");
    expect(tiles).not.toContain("Not available");
    // a row whose figure is missing still says so
    const missing = await render(
      createElement(SummaryRows, {
        layout: "tiles",
        collection: "portfolio",
        rows: [row("portfolio-1", "Ellie's", { performance: null })],
        caption: "Your portfolios",
      }),
    );
    expect(missing).toContain("Performance");
    expect(missing).toContain("Not available");
  });

  it("shows the portfolio error text when an open row's accounts could not be loaded", async () => {
    const html = await render(
      createElement(SummaryRows, {
        layout: "tiles",
        collection: "group",
        rows: [row("group-ISA", "ISAs", { expanded: true, accountsError: true })],
        caption: "Your account groups",
      }),
    );
    expect(html).toContain("Something went wrong with loading your portfolio data.");
  });
});
