import { describe, expect, it } from "vitest";
import { renderIncomeChartSvg } from "./income-chart-svg.server";

// Issue 41 (decision 199): the income chart, drawn on the server: one column per month or tax year.

const input = {
  bars: [
    { key: "2025-01", label: "Jan 2025", value: 120.5 },
    { key: "2025-02", label: "Feb 2025", value: 0 },
    { key: "2025-03", label: "Mar 2025", value: 310.25 },
  ],
  colour: "#2e8fd0",
  currency: "GBP",
  locale: "en-GB",
  title: "Income received by month (GBP)",
  width: 960,
  height: 320,
};

describe("renderIncomeChartSvg", () => {
  const svg = renderIncomeChartSvg(input);

  it("is an image named by its title, scaling to its container, without inline style or script", () => {
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toMatch(/^<svg [^>]*aria-label="Income received by month \(GBP\)"/);
    expect(svg).toMatch(/viewBox="0 0 960 320"/);
    expect(svg).not.toMatch(/style=|<script/);
  });

  it("draws a column for each month with income, in its colour, and names every month under it", () => {
    const columns = svg.match(/<rect [^>]*fill="#2e8fd0"[^>]*>/g) ?? [];
    // a month with nothing has a column of no height
    expect(columns.filter((c) => !/height="0"/.test(c))).toHaveLength(2);
    for (const label of ["Jan 2025", "Feb 2025", "Mar 2025"]) expect(svg).toContain(label);
    expect(svg).toContain("£");
  });

  it("draws the same markup for the same input, and another for other figures", () => {
    expect(renderIncomeChartSvg(input)).toBe(svg);
    expect(renderIncomeChartSvg({ ...input, bars: input.bars.map((b) => ({ ...b, value: b.value * 2 })) })).not.toBe(
      svg,
    );
  });
});
