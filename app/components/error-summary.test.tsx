import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { createTranslator } from "~/lib/translator";
import enGBCommon from "~/locales/en-GB/common.json";
import frCACommon from "~/locales/fr-CA/common.json";
import { DateField } from "./date-field";
import { ErrorSummary, errorTitlePrefix, FieldError } from "./error-summary";
import { TranslationProvider } from "./translation";

// Issue 40 "Errors the GOV.UK way" (docs/decisions/194): the error summary's markup, the one field
// error, and the prefix of the page's title.

const texts = {
  common: { ...enGBCommon, "form.subjectRequired": "Please enter a message subject." },
};

/** Renders inside a router (the summary reads the navigation) in en-GB, or the given locale. */
async function render(element: ReactElement, translator = createTranslator("en-GB", texts)): Promise<string> {
  const handler = createStaticHandler([{ path: "/", element }]);
  const context = await handler.query(new Request("http://portal.test/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(
    createElement(
      TranslationProvider,
      { translator },
      createElement(StaticRouterProvider, { router, context, hydrate: false }),
    ),
  );
}

const subjectError = [{ fieldId: "subject", message: "common:form.subjectRequired" }];

describe("the error summary (GOV.UK's error summary component)", () => {
  it("puts the alert on a child of the element that takes the focus", async () => {
    const html = await render(<ErrorSummary formId="compose-message" errors={subjectError} />);
    expect(html).toBe(
      '<div class="error-summary"><div role="alert">' +
        '<h2 class="error-summary__title">There is a problem</h2>' +
        '<ul class="error-summary__list"><li><a href="#subject">Please enter a message subject.</a></li></ul>' +
        "</div></div>",
    );
  });

  it("is not focusable until it takes the focus (a click inside it does not focus it)", async () => {
    const html = await render(<ErrorSummary errors={subjectError} />);
    expect(html).not.toContain("tabindex");
    // the focused element is not the alert, and carries no name that would shorten what is read
    expect(html).not.toContain("aria-labelledby");
  });

  it("shows nothing without errors", async () => {
    expect(await render(<ErrorSummary errors={[]} />)).toBe("");
  });
});

describe("the title's prefix of a page that shows errors", () => {
  it("is the hidden 'Error:' of the user's language and a space", () => {
    expect(errorTitlePrefix(createTranslator("en-GB", texts).t)).toBe("Error: ");
    expect(errorTitlePrefix(createTranslator("fr-CA", { common: frCACommon }).t)).toBe("Erreur : ");
  });
});

describe("a field's error (GOV.UK's error message component)", () => {
  it("is a paragraph with its id, after a visually hidden 'Error:'", async () => {
    const html = await render(<FieldError id="subject-error" errors={["common:form.subjectRequired"]} />);
    expect(html).toBe(
      '<p id="subject-error" class="field__error"><span class="visually-hidden">Error: </span>Please enter a message subject.</p>',
    );
  });

  it("says 'Error:' in the user's language", async () => {
    const html = await render(
      <FieldError id="subject-error" errors={["common:form.errorSummaryTitle"]} />,
      createTranslator("fr-CA", { common: frCACommon }),
    );
    expect(html).toContain('<span class="visually-hidden">Erreur : </span>Un problème est survenu');
  });

  it("is nothing when the field has no error", async () => {
    expect(await render(<FieldError id="subject-error" errors={[]} />)).toBe("");
    expect(await render(<FieldError id="subject-error" errors={[undefined, null]} />)).toBe("");
  });

  it("is the date field's error too", async () => {
    const html = await render(
      <DateField
        id="from"
        name="from"
        label="From"
        hint="For example, 31-03-2025"
        error="common:form.subjectRequired"
        defaultValue=""
      />,
    );
    const own = await render(<FieldError id="from-error" errors={["common:form.subjectRequired"]} />);
    expect(html).toContain(own);
    expect(html).toContain('aria-describedby="from-hint from-error"');
  });
});

describe("one field error in the portal", () => {
  it("writes the hidden 'Error:' in one component only", () => {
    const app = fileURLToPath(new URL("..", import.meta.url));
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return sources(path);
        return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : [];
      });
    const writers = sources(app)
      .filter((path) =>
        /className="visually-hidden">\{t\("common:form\.errorPrefix"\)\}/.test(readFileSync(path, "utf8")),
      )
      .map((path) => relative(app, path));
    expect(writers).toEqual(["components/error-summary.tsx"]);
  });
});
