import { describe, expect, it } from "vitest";
import { cssString, printPageRules } from "./print";

// issue 25 item 20: the client's name and the date on each printed page (decision 117)
describe("printPageRules", () => {
  it("puts the client's name and the date in the top margin of every page, and the page number at the bottom", () => {
    const rules = printPageRules({ name: "Ellie Hartley", printed: "Printed on 26th November 2026" });
    expect(rules).toBe(
      '@page{margin:18mm 12mm 16mm;@top-left{content:"Ellie Hartley"}@top-right{content:"Printed on 26th November 2026"}@bottom-right{content:counter(page) " / " counter(pages)}}',
    );
  });

  it("keeps a name from ending the string or the style element", () => {
    expect(cssString('O"Brien\\ </style><script>')).toBe('"O\\"Brien\\\\ \\3c /style\\3e \\3c script\\3e "');
    expect(printPageRules({ name: "a}\nb", printed: "x" })).toContain('@top-left{content:"a}\\a b"}');
  });
});

describe("printedOn", () => {
  it("writes the day in the site's long date format, in the site's time zone", async () => {
    const { printedOn } = await import("./print.server");
    // 23:30 UTC on 31 March is already 1 April in London (summer time)
    expect(printedOn("en-GB", new Date("2026-03-31T23:30:00Z"))).toBe("1st April 2026");
  });
});
