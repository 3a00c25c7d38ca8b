import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// docs/decisions/208: the balance sheet and the allocation tab as CSV files, with JavaScript on and
// off: a link on each page, a file whose figures are the page's.

async function csvOf(download: Download): Promise<string[][]> {
  return parse(await readFile(await download.path()), { bom: true }) as string[][];
}
/** The number a cell shows, e.g. '£1,234.56' → 1234.56; '−£5.00' → -5. */
const amountOf = (text: string | null) => Number((text ?? "").replace(/\u2212/g, "-").replace(/[^0-9.-]/g, ""));

async function downloadFrom(page: Page, link: ReturnType<Page["getByRole"]>) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return file;
}

test.describe("downloading the balance sheet and the allocation", () => {
  test("a client downloads her household's balance sheet and finds the page's rows and totals in it", async ({
    page,
  }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/balance-sheet" });
    await expect(page.getByRole("heading", { level: 1, name: "Balance Sheet" })).toBeVisible();
    const link = page.getByRole("link", { name: "Download CSV" });
    await expect(link).toHaveAccessibleDescription("Every member listed, every tab, in this view and currency");
    await expectAccessible(page);

    const file = await downloadFrom(page, link);
    expect(file.suggestedFilename()).toMatch(/^balance-sheet-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = await csvOf(file);
    expect(rows[0]!.slice(0, 4)).toEqual(["Member", "Asset type", "Managed", "Description"]);
    expect([...new Set(rows.slice(1).map((r) => r[0]))]).toEqual(["Ellie Hartley", "James Hartley"]);

    // the investments tab shown: each table's rows and total are the file's
    for (const [caption, managed] of [
      ["Managed investments", "Managed"],
      ["Non-managed investments", "Non-managed"],
    ] as const) {
      const table = page.getByRole("table", { name: caption, exact: true });
      const block = rows.filter((r) => r[0] === "Ellie Hartley" && r[1] === "Investments" && r[2] === managed);
      const items = block.slice(0, -1);
      await expect(table.locator("tbody tr")).toHaveCount(items.length);
      for (const [i, item] of items.entries())
        await expect(table.locator("tbody tr").nth(i).getByRole("rowheader")).toContainText(item[3]!);
      expect(block.at(-1)![3]).toBe("Total");
      expect(Number(block.at(-1)![16])).toBe(amountOf(await table.locator("tfoot td").textContent()));
    }
  });

  test("a client downloads each breakdown of the allocation with the page's percentages", async ({ page }) => {
    await signIn(page, "demo.client", {
      path: `/login?redirectTo=${encodeURIComponent("/clients/analysis?tab=allocation")}`,
    });
    const panel = page.locator("#analysis__tabs_panel-2");
    const link = panel.getByRole("link", { name: "Download CSV" });
    await expect(link).toBeVisible();
    await expectAccessible(page);

    const file = await downloadFrom(page, link);
    expect(file.suggestedFilename()).toMatch(/^allocation-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = await csvOf(file);
    expect(rows[0]).toEqual(["Breakdown", "Category", "Investment", "Account", "Currency", "Amount", "Percentage"]);
    for (const title of ["Asset class", "Sector", "Geographic region"]) {
      const block = rows.filter((r) => r[0] === title);
      const categories = block.filter((r) => r[2] === "" && r[1] !== "Total");
      expect(block.at(-1)!.slice(1, 2)).toEqual(["Total"]);
      expect(block.at(-1)![6]).toBe("100");
      // the chart's table: the same categories with the same percentages
      const section = panel.getByRole("region", { name: title, exact: true });
      await section.locator("details.allocation-panel__body > summary").click();
      const figure = section.locator("figure");
      await figure.getByText("Show the chart's data as a table").click();
      const table = figure.getByRole("table");
      await expect(table.locator("tbody tr")).toHaveCount(categories.length);
      const percents = await table.locator("tbody tr td:last-child").allTextContents();
      expect(
        categories.map((r) => (r[6] === "0" ? "<1%" : `${r[6]}%`)),
        title,
      ).toEqual(percents.map((p) => p.replace(/\s/g, "")));
    }
  });
});
