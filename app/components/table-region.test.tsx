import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TableRegion } from "./table-region";

describe("TableRegion (WCAG 1.4.10, 2.1.1; decision 117)", () => {
  it("is a focusable region named by its table's caption", () => {
    const html = renderToStaticMarkup(
      <TableRegion captionId="passkeys-caption">
        <table>
          <caption id="passkeys-caption">Your passkeys</caption>
        </table>
      </TableRegion>,
    );
    expect(html).toBe(
      '<div class="table-wrap" role="region" aria-labelledby="passkeys-caption" tabindex="0">' +
        '<table><caption id="passkeys-caption">Your passkeys</caption></table></div>',
    );
  });

  it("adds a page's own class after table-wrap", () => {
    const html = renderToStaticMarkup(
      <TableRegion captionId="investments-caption" className="investments">
        <table />
      </TableRegion>,
    );
    expect(html).toMatch(/^<div class="table-wrap investments" role="region"/);
  });
});
