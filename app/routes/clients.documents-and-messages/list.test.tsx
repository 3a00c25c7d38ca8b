import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { TranslationProvider } from "~/components/translation";
import { createTranslator } from "~/lib/translator";
import enGBMessages from "~/locales/en-GB/messages.json";
import { MessageList } from "./list";
import type { MessageListItem, MessagesView } from "./view.server";

const translator = createTranslator("en-GB", { messages: enGBMessages });

function item(found: MessageListItem["found"]): MessageListItem {
  return {
    id: 7,
    subject: "Your <b>portfolio</b> after the Budget",
    date: "27-11-2026",
    from: "Sarah Adviser",
    type: null,
    typeLang: null,
    href: "/clients/documents-and-messages?search=dividend&message=7#reading-pane",
    current: false,
    unread: false,
    adviserOnly: false,
    relatedEntity: false,
    awaitingSignature: false,
    attachmentCount: 1,
    found,
  };
}

async function render(items: MessageListItem[]): Promise<string> {
  const view = {
    folder: { key: "inbox", name: "Inbox", lang: null, kind: "received" },
    list: { items, hasMore: false, moreHref: null, empty: null },
  } as unknown as MessagesView;
  const handler = createStaticHandler([{ path: "/", element: createElement(MessageList, { view }) }]);
  const context = await handler.query(new Request("http://portal.test/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(
    createElement(TranslationProvider, { translator }, createElement(StaticRouterProvider, { router, context })),
  );
}

// docs/decisions/209: where a search matched, the matches marked, the message's text never markup
describe("the message list's search results", () => {
  it("marks the matches of the subject, the body's snippet and an attachment's name", async () => {
    const html = await render([
      item({
        subject: [
          { text: "Your ", match: false },
          { text: "portfolio", match: true },
          { text: " after the Budget", match: false },
        ],
        body: [
          { text: "…the ", match: false },
          { text: "dividend", match: true },
          { text: " allowance falls again…", match: false },
        ],
        attachments: [
          [
            { text: "Cash flow ", match: false },
            { text: "forecast", match: true },
            { text: ".xlsx", match: false },
          ],
        ],
      }),
    ]);
    expect(html).toContain('<span class="message-item__subject">Your <mark>portfolio</mark> after the Budget</span>');
    expect(html).toContain(
      '<p class="message-item__snippet"><span class="visually-hidden">In the message: </span>…the <mark>dividend</mark> allowance falls again…</p>',
    );
    expect(html).toContain('<p class="message-item__snippet">Attachment: Cash flow <mark>forecast</mark>.xlsx</p>');
  });

  it("shows a message's markup in a match as text, never as elements", async () => {
    const html = await render([
      item({
        subject: null,
        body: [
          { text: '<img src=x onerror="alert(1)"> and ', match: false },
          { text: "<script>", match: true },
        ],
        attachments: [],
      }),
    ]);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; and <mark>&lt;script&gt;</mark>");
    // (the static router's own hydration script follows the list)
    expect(html.slice(0, html.indexOf("</section>"))).not.toMatch(/<img|<script/);
    // without a match in the subject, the subject is the list's own (escaped too)
    expect(html).toContain(
      '<span class="message-item__subject">Your &lt;b&gt;portfolio&lt;/b&gt; after the Budget</span>',
    );
  });

  it("marks nothing without a search", async () => {
    const html = await render([item(null)]);
    expect(html).not.toContain("<mark>");
    expect(html).not.toContain("message-item__snippet");
  });
});
