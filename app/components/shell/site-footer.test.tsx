import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { TranslationProvider } from "~/components/translation";
import { createTranslator } from "~/lib/translator";
import enGBCommon from "~/locales/en-GB/common.json";
import { SiteFooter } from "./site-footer";

const translator = createTranslator("en-GB", { common: enGBCommon });

/** The footer as a page renders it, under the root's anti-forgery token (`token`), or under none. */
async function render(locale: string | null, token: string | null): Promise<string> {
  const handler = createStaticHandler([
    { path: "/login", element: createElement(SiteFooter, { firmName: "Hartley Wealth", locale }) },
  ]);
  const context = await handler.query(new Request("http://portal.test/login"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  const page = <StaticRouterProvider router={router} context={context} />;
  return renderToStaticMarkup(
    <TranslationProvider translator={translator}>
      {token ? <AuthenticityTokenProvider token={token}>{page}</AuthenticityTokenProvider> : page}
    </TranslationProvider>,
  );
}

describe("the site's footer", () => {
  it("offers the language chooser, a form carrying the page's anti-forgery token", async () => {
    const html = await render("en-GB", "token-1");
    expect(html).toMatch(/<form method="post" action="\/locale"/);
    expect(html).toContain('name="csrf" value="token-1"');
    expect(html).toContain('<option value="fr-CA" lang="fr-CA">Français (Canada)</option>');
    expect(html).toContain('name="redirectTo" value="/login"');
  });

  it("leaves the chooser out when the root's loader failed, so that its error page still renders", async () => {
    // no locale and no token: the root's boundary without the root's data
    const html = await render(null, null);
    expect(html).not.toContain("<form");
    expect(html).toContain("Hartley Wealth");
    expect(html).toContain('href="/core/accessibility"');
  });
});
