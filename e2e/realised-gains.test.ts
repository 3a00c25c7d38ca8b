import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// Issue 41 "Realised gains and losses (taxable accounts)", decisions 201 and 202: demo.client opens
// the realised gains beside the analysis, finds each demo disposal with the rule that matched it
// and the wrapped accounts named as excluded; the tax years' totals equal a recomputation, by the
// same rules, from the transactions CSV of the same accounts; the gains CSV and the printed page
// hold the same.

const heading = (page: Page) => page.getByRole("heading", { level: 1, name: "Realised gains and losses" });
/** Pence of an amount as shown: '£1,513.16' → 151316, '-£15.34' → -1534. */
const pence = (text: string) => {
  const match = /(-?)[£$€]?([\d,]+\.\d{2})/.exec(text.replace(/\s/g, ""));
  if (!match) throw new Error(`not an amount: ${text}`);
  const value = Math.round(Number(match[2]!.replace(/,/g, "")) * 100);
  return match[1] ? -value : value;
};

async function download(page: Page, link: Locator): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return parse(await readFile((await file.path())!), { bom: true }) as string[][];
}

// ── the rules, recomputed from the transactions CSV (independently of the platform's code) ──────

type Day = { quantity: number; amount: number; left: number; amountLeft: number };
/** n × a / b rounded half away from zero (whole pence, a ≥ 0). */
const share = (amount: number, part: number, whole: number) => Math.round((amount * part) / whole);
const taxYearOf = (date: string) =>
  date.slice(5) >= "04-06" ? Number(date.slice(0, 4)) : Number(date.slice(0, 4)) - 1;
const label = (year: number) => `${year}-${String((year + 1) % 100).padStart(2, "0")}`;
const plus30 = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);

/** Each disposal's gain (pence) by tax year, for one holding's acquisitions and disposals by day. */
function gainsOfHolding(acquired: Map<string, Day>, disposed: Map<string, Day>): Array<{ year: number; gain: number }> {
  const take = (a: Day, q: number) => {
    const cost = q === a.left ? a.amountLeft : share(a.amountLeft, q, a.left);
    a.left -= q;
    a.amountLeft -= cost;
    return cost;
  };
  const costs = new Map<string, number>();
  const sellDays = [...disposed.keys()].sort();
  const buyDays = [...acquired.keys()].sort();
  for (const day of sellDays) {
    const d = disposed.get(day)!;
    const a = acquired.get(day);
    if (a) {
      const q = Math.min(d.left, a.left);
      costs.set(day, take(a, q));
      d.left -= q;
    }
  }
  for (const day of sellDays) {
    const d = disposed.get(day)!;
    for (const buyDay of buyDays) {
      if (d.left === 0) break;
      const a = acquired.get(buyDay)!;
      if (buyDay <= day || buyDay > plus30(day) || a.left === 0) continue;
      const q = Math.min(d.left, a.left);
      costs.set(day, (costs.get(day) ?? 0) + take(a, q));
      d.left -= q;
    }
  }
  let poolQuantity = 0;
  let poolCost = 0;
  for (const day of [...new Set([...buyDays, ...sellDays])].sort()) {
    const a = acquired.get(day);
    if (a && a.left > 0) {
      poolQuantity += a.left;
      poolCost += take(a, a.left);
    }
    const d = disposed.get(day);
    if (d && d.left > 0) {
      expect(d.left, `${day}: sold more than held`).toBeLessThanOrEqual(poolQuantity);
      const cost = d.left === poolQuantity ? poolCost : share(poolCost, d.left, poolQuantity);
      poolQuantity -= d.left;
      poolCost -= cost;
      costs.set(day, (costs.get(day) ?? 0) + cost);
      d.left = 0;
    }
  }
  return sellDays.map((day) => ({ year: taxYearOf(day), gain: disposed.get(day)!.amount - (costs.get(day) ?? 0) }));
}

/** The tax years' gains and losses (pence) of the accounts named, from the transactions CSV's rows. */
function recompute(rows: string[][], accounts: readonly string[]) {
  const [header, ...body] = rows;
  const col = (name: string) => header!.indexOf(name);
  const [account, code, type, units, value, after, fees, taxes, date] = [
    col("Account"),
    col("Security code"),
    col("Type"),
    col("Units"),
    col("Value"),
    col("Value after fees and taxes"),
    col("Fees"),
    col("Taxes"),
    col("Trade date"),
  ];
  const holdings = new Map<string, { acquired: Map<string, Day>; disposed: Map<string, Day> }>();
  for (const r of body) {
    if (!accounts.includes(r[account]!)) continue;
    const kind = r[type];
    if (kind !== "Purchase" && kind !== "Sale" && kind !== "Transfer in" && kind !== "Transfer out") continue;
    const penceOf = (i: number) => (i < 0 || r[i] === "" ? 0 : Math.abs(Math.round(Number(r[i]) * 100)));
    // a purchase costs what it paid, costs included; a sale brings what it received, costs taken off
    const amount =
      kind === "Purchase"
        ? after >= 0
          ? penceOf(after)
          : penceOf(value) + penceOf(fees) + penceOf(taxes)
        : kind === "Sale"
          ? after >= 0
            ? penceOf(after)
            : penceOf(value) - penceOf(fees) - penceOf(taxes)
          : penceOf(value);
    const key = `${r[account]}|${r[code]}`;
    const holding = holdings.get(key) ?? { acquired: new Map(), disposed: new Map() };
    holdings.set(key, holding);
    const days = kind === "Purchase" || kind === "Transfer in" ? holding.acquired : holding.disposed;
    const quantity = Math.round(Number(r[units]) * 10_000);
    const day = days.get(r[date]!) ?? { quantity: 0, amount: 0, left: 0, amountLeft: 0 };
    day.quantity += quantity;
    day.left += quantity;
    day.amount += amount;
    day.amountLeft += amount;
    days.set(r[date]!, day);
  }
  const years = new Map<string, { gains: number; losses: number; disposals: number }>();
  for (const { acquired, disposed } of holdings.values())
    for (const { year, gain } of gainsOfHolding(acquired, disposed)) {
      const y = years.get(label(year)) ?? { gains: 0, losses: 0, disposals: 0 };
      if (gain > 0) y.gains += gain;
      else y.losses -= gain;
      y.disposals += 1;
      years.set(label(year), y);
    }
  return years;
}

test.describe("realised gains and losses", () => {
  test("lists each demo disposal with its rule, and its totals equal a recomputation from the transactions CSV", async ({
    page,
  }) => {
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await expect(page.getByRole("heading", { level: 1, name: "All portfolios", exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Realised gains and losses by tax year" }).click();
    await expect(page).toHaveURL(/\/clients\/analysis\/gains$/);
    await expect(heading(page)).toBeVisible();

    // the taxed accounts covered, the wrapped ones named as excluded
    const included = page.getByTestId("gains-included");
    await expect(included.getByRole("listitem")).toHaveText([
      "Joint General Investment Account",
      "Hartley Family Trust account",
    ]);
    await expect(page.getByTestId("gains-excluded").getByRole("listitem")).toHaveText([
      "Ellie Stocks and Shares ISA: Individual Savings Account",
      "Ellie Self-Invested Personal Pension: Personal pension (SIPP)",
    ]);

    // each demo disposal with the rules that matched it (decision 202)
    const rowOf = (security: string) =>
      page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: security }) });
    const sameDay = rowOf("AstraZeneca plc").filter({ hasText: "Same day" });
    await expect(sameDay).toHaveCount(1);
    await expect(sameDay).toContainText("Section 104 holding");
    const bedAndBreakfast = rowOf("Land Securities Group plc").filter({ hasText: "Following 30 days" });
    await expect(bedAndBreakfast).toHaveCount(1);
    await expect(bedAndBreakfast).toContainText("Section 104 holding");
    await expect(rowOf("Unilever plc")).toContainText("Section 104 holding");
    await expect(rowOf("iShares Core FTSE 100 UCITS ETF")).toContainText("Section 104 holding");
    const years = page.getByRole("heading", { level: 2, name: /^Tax year \d{4}-\d{2}$/ });
    expect(await years.count()).toBeGreaterThan(1);
    await expect(page.getByText(/annual exempt amount for \d{4}-\d{2} is/).first()).toBeVisible();
    await expectAccessible(page);

    // the gains CSV: one line per matched part, the same disposals
    const gainsRows = await download(page, page.getByRole("link", { name: "Download CSV" }));
    expect(gainsRows[0]).toContain("Matched with");
    const shownRows = await page.locator("section.gains-year tbody tr").count();
    const disposalsInFile = new Set(gainsRows.slice(1).map((r) => `${r[1]}|${r[2]}|${r[4]}`));
    expect(disposalsInFile.size).toBe(shownRows);

    // the page's totals per tax year
    const shown = new Map<string, { gains: number; losses: number; rows: number }>();
    for (const section of await page.locator("section.gains-year").all()) {
      const name = (await section.getByRole("heading", { level: 2 }).textContent())!.replace("Tax year ", "").trim();
      shown.set(name, {
        gains: pence((await section.locator("[data-total=gains]").textContent())!),
        losses: pence((await section.locator("[data-total=losses]").textContent())!),
        rows: await section.locator("tbody tr").count(),
      });
    }

    // the transactions CSV of the same view since inception, recomputed with the rules
    await page.goto("/clients/analysis?tab=transactions&range=SI");
    const transactions = await download(
      page,
      page.locator("#analysis__tabs_panel-3").getByRole("link", { name: "Download CSV" }),
    );
    const recomputed = recompute(transactions, ["Joint General Investment Account", "Hartley Family Trust account"]);
    expect([...recomputed.keys()].sort()).toEqual([...shown.keys()].sort());
    for (const [year, figures] of recomputed) {
      expect(shown.get(year), year).toEqual({ gains: figures.gains, losses: figures.losses, rows: figures.disposals });
    }
  });

  test("prints the tax years' tables whole, without the page's links and buttons", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis/gains" });
    await expect(heading(page)).toBeVisible();
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Main menu" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Back to the analysis" })).toBeHidden();
    expect(await page.locator("button:visible, .button:visible").count()).toBe(0);
    const cut = await page
      .locator(".table-wrap")
      .evaluateAll((regions) =>
        regions
          .filter((r) => r.getClientRects().length > 0 && r.scrollWidth > r.clientWidth + 1)
          .map((r) => r.querySelector("caption")?.textContent ?? "a table"),
      );
    expect(cut).toEqual([]);
    const file = testInfo.outputPath("realised-gains.pdf");
    await page.pdf({ path: file, format: "A4", preferCSSPageSize: true });
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    // the shell's page rules: the client's name and the date on every page (decision 117)
    for (const printed of text.split("\f").filter((p) => p.trim())) {
      expect(printed).toContain("Ellie Hartley");
      expect(printed).toMatch(/Printed on \d{1,2}\w{0,2} \w+ \d{4}/);
    }
    expect(text).toContain("Realised gains and losses");
    expect(text).toMatch(/Tax year \d{4}-\d{2}/);
    expect(text).toContain("Section 104 holding");
    // the allowance's source is printed as an address, as a link cannot be followed on paper
    expect(text).toContain("https://www.gov.uk/guidance/capital-gains-tax-rates-and-allowances");
    await page.emulateMedia({ media: "screen" });
  });
});
