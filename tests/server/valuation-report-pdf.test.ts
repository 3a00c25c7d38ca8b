// The valuation PDF reads as the page does (docs/decisions/110-report-text-and-realistic-demo-market.md):
// 'INVALID DATA' and the investments tab's units and prices, and its tables' page breaks: never a
// header without its first rows, never a page of a few orphan rows, a total always with rows of its
// table, and the end of the document never on a page of its own.
import { describe, expect, it } from "vitest";
import { securityName as pageSecurityName } from "~/lib/analysis/investments";
import { formatMoney as pageMoney } from "~/lib/format";
import { KEEP_ROWS, tableLayout, tableStartHeight } from "../../server/domain/pdf-layout";
import {
  formatPrice,
  formatUnits,
  INVALID_DATA,
  renderValuationReportPdf,
  securityName,
  type ReportAccount,
  type ValuationReportInput,
} from "../../server/domain/valuation-report-pdf";
import { pdfText } from "../pdf-text";

describe("the page's texts", () => {
  it("names a holding as the page does: 'INVALID DATA' for an empty or invalid name", () => {
    for (const name of ["", "   ", "-", "?", "._-", " Apple Inc. ", "3i Group plc", "AT&T"]) {
      expect(securityName(name), JSON.stringify(name)).toBe(pageSecurityName(name) ?? INVALID_DATA);
    }
    expect(securityName("")).toBe("INVALID DATA");
    expect(securityName(null)).toBe("INVALID DATA");
  });

  it("prints a price as the investments tab does: its symbol, 2 decimals, 4 under 10", () => {
    expect(formatPrice(167.5912, "USD")).toBe("$167.59");
    expect(formatPrice(20.4228, "GBP")).toBe("£20.42");
    expect(formatPrice(7.476, "GBP")).toBe("£7.4760");
    expect(formatPrice(1, "EUR")).toBe("€1.0000");
    expect(formatPrice(1234.5, "GBX")).toBe("1,234.50p");
    // the page: formatMoney with 4 decimals under 10, else 2 (investments.server.ts)
    for (const [price, currency] of [
      [0.0512, "GBP"],
      [9.99994, "GBP"],
      [10, "USD"],
      [143.405, "EUR"],
      [2_315.1, "USD"],
      [55.5, "GBX"],
    ] as const) {
      expect(formatPrice(price, currency), `${price} ${currency}`).toBe(
        pageMoney(price, currency, "en-GB", { decimals: price < 10 ? 4 : 2 }),
      );
    }
  });

  it("prints units as the investments tab does: up to 4 decimals, none when whole", () => {
    expect(formatUnits(1500)).toBe("1,500");
    expect(formatUnits(7075.3)).toBe("7,075.3");
    expect(formatUnits(25_303.451_234)).toBe("25,303.4512");
    expect(formatUnits(0.000_04)).toBe("0");
  });
});

describe("tableLayout", () => {
  const rows = (n: number, totals = 1, height = 20) => ({
    heights: Array.from({ length: n + totals }, () => height),
    totals,
    header: 20,
  });

  it("starts a table in place when its header and first rows fit, on a fresh page when not", () => {
    expect(tableLayout({ ...rows(10), room: 20 + 3 * 20, page: 700 })).toEqual({ newPage: false, breaks: [3] });
    expect(tableLayout({ ...rows(10), room: 20 + 3 * 20 - 1, page: 700 })).toEqual({ newPage: true, breaks: [] });
    expect(tableStartHeight(rows(10))).toBe(20 + 3 * 20);
  });

  it("keeps a short table (6 rows or fewer and its total) whole", () => {
    expect(tableStartHeight(rows(6))).toBe(20 + 7 * 20);
    expect(tableLayout({ ...rows(6), room: 20 + 7 * 20 - 1, page: 700 })).toEqual({ newPage: true, breaks: [] });
    expect(tableLayout({ ...rows(6), room: 20 + 7 * 20, page: 700 })).toEqual({ newPage: false, breaks: [] });
  });

  it("carries the last 3 rows with the total to the next page, and leaves at least 3 on each page", () => {
    // 10 rows and a total; room for 9 rows: the break moves up to row 7 (rows 7, 8, 9 and the total go over)
    expect(tableLayout({ ...rows(10), room: 20 + 9 * 20, page: 700 })).toEqual({ newPage: false, breaks: [7] });
    // room for 10 rows: the total alone would go over; it takes the last 3 rows with it
    expect(tableLayout({ ...rows(10), room: 20 + 10 * 20, page: 700 })).toEqual({ newPage: false, breaks: [7] });
    // room for 11 rows: it all fits
    expect(tableLayout({ ...rows(10), room: 20 + 11 * 20, page: 700 })).toEqual({ newPage: false, breaks: [] });
    // several totals (an account's and a grand total) go with the last rows too
    expect(tableLayout({ ...rows(10, 2), room: 20 + 11 * 20, page: 700 })).toEqual({ newPage: false, breaks: [7] });
  });

  it("breaks a long table over several pages with no page of fewer than 3 rows, whatever the room", () => {
    for (let n = 1; n <= 120; n++) {
      for (let room = 0; room <= 700; room += 13) {
        const input = { ...rows(n), room, page: 700 };
        const { newPage, breaks } = tableLayout(input);
        const starts = [0, ...breaks];
        const ends = [...breaks, n + 1];
        // each page's rows fit on it, and each page holds at least KEEP_ROWS body rows (or all the table)
        starts.forEach((s, i) => {
          const count = (ends[i] as number) - s;
          const space = i === 0 && !newPage ? room : 700;
          expect(20 + count * 20, `n=${n} room=${room} page ${i}`).toBeLessThanOrEqual(space);
          expect(Math.min(count, n), `n=${n} room=${room} page ${i}`).toBeGreaterThanOrEqual(Math.min(KEEP_ROWS, n));
        });
        // the total's page holds at least KEEP_ROWS body rows (or all of them)
        const last = starts[starts.length - 1] as number;
        expect(n - last, `n=${n} room=${room}`).toBeGreaterThanOrEqual(Math.min(KEEP_ROWS, n));
      }
    }
  });
});

describe("the PDF's pages", () => {
  const holding = (account: number, i: number) => ({
    name: `Holding ${account}-${String(i).padStart(3, "0")}`,
    units: 100 + i,
    price: 12.5,
    currency: "GBP",
    value: 1_250 + i,
  });
  const account = (index: number, count: number): ReportAccount => {
    const holdings = Array.from({ length: count }, (_, i) => holding(index, i + 1));
    return {
      name: `Account ${index}`,
      number: `NBW-${index}`,
      holdings,
      total: holdings.reduce((s, h) => s + h.value, 0),
    };
  };
  const input = (accounts: ReportAccount[]): ValuationReportInput => ({
    firmName: "Northbridge Wealth",
    brandColour: "#1d4f91",
    palette: ["#1d4f91", "#00857c"],
    title: "Portfolio valuation",
    clientName: "Ellie Hartley",
    period: { kind: "asAt", date: "2025-01-31" },
    currency: "GBP",
    accounts,
    grandTotal: accounts.reduce((s, a) => s + a.total, 0),
    performance: null,
    allocation: [
      { name: "Equities", value: 1000, weight: 60 },
      { name: "Fixed income", value: 700, weight: 40 },
    ],
    basis: {
      title: "Basis of valuation",
      paragraphs: [
        "Managed investments are valued at the last business day's closing price.",
        "Values are for information and are not a formal statement.",
      ],
    },
    createdAt: "2025-03-14T10:00:00.000Z",
    locale: "en-GB",
  });

  it("prints 'INVALID DATA', the page's units and prices", async () => {
    const text = await pdfText(
      await renderValuationReportPdf(
        input([
          {
            name: "ISA",
            number: "1",
            holdings: [
              { name: " ", units: 1500, price: 1.7924, currency: "GBP", value: 2688.6 },
              { name: "Apple Inc.", units: 84.5, price: 167.5912, currency: "USD", value: 11118.84 },
            ],
            total: 13807.44,
          },
        ]),
      ),
    );
    const flat = text.text.replace(/\s+/g, " ");
    expect(flat).toContain("INVALID DATA 1,500 £1.7924 GBP £2,688.60");
    expect(flat).toContain("Apple Inc. 84.5 $167.59 USD £11,118.84");
    expect(flat).not.toContain("Unnamed");
  });

  it("never leaves a page of a few orphan rows, keeps each total with rows of its table, and ends on a page with more than the basis of valuation", async () => {
    // a first account of 12 holdings, then a second of n: its breaks fall on every part of a page
    for (let n = 1; n <= 64; n += 3) {
      const accounts = [account(1, 12), account(2, n)];
      const { pages } = await pdfText(await renderValuationReportPdf(input(accounts)));
      const context = `second account of ${n} holdings`;
      pages.forEach((page, p) => {
        for (const a of accounts) {
          const rows = (page.match(new RegExp(`Holding ${a.name.slice(-1)}-\\d{3}`, "g")) ?? []).length;
          const all = a.holdings.length;
          // a page holding some of an account's rows holds at least 3 of them (or all of them)
          if (rows > 0)
            expect(rows, `${context}, page ${p + 1}, ${a.name}`).toBeGreaterThanOrEqual(Math.min(KEEP_ROWS, all));
          // its total shares a page with at least 3 of its rows (or all of them)
          if (page.includes(`Total of ${a.name}`))
            expect(rows, `${context}, page ${p + 1}, total of ${a.name}`).toBeGreaterThanOrEqual(
              Math.min(KEEP_ROWS, all),
            );
          // its heading is never at the foot of a page without its table's first rows
          if (page.includes(`Account number ${a.number}`))
            expect(rows, `${context}, page ${p + 1}, heading of ${a.name}`).toBeGreaterThanOrEqual(
              Math.min(KEEP_ROWS, all),
            );
        }
      });
      const last = pages[pages.length - 1] as string;
      // the end: the basis of valuation whole, with the section before it
      expect(last, context).toContain("Basis of valuation");
      expect(last, context).toContain("Values are for information and are not a formal statement.");
      expect(last, context).toContain("Allocation by asset class");
    }
  });
});
