import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { GainsAnswer, gainsCsv, gainsView } from "./gains.server";

// Issue 41 (decision 201): the platform's answer as the page and the CSV show it.

const t = ((key: string, options?: Record<string, unknown>) =>
  options && Object.keys(options).length ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const money = (value: string, code = "GBP") => ({ code, value: { _type: "BigDecimal", _val: value } });
const date = (value: string) => ({ _type: "Date", _val: value });

const answer = GainsAnswer.parse({
  jurisdiction: "GB",
  accounts: [
    {
      accountid: 6,
      description: "Joint GIA",
      portfolio_name: "Joint",
      plan_currency: "GBP",
      tax_type: "GEN",
      tax_type_title: "General investment account",
    },
  ],
  excluded_accounts: [
    {
      accountid: 1,
      description: "ISA",
      portfolio_name: "Mine",
      plan_currency: "GBP",
      tax_type: "ISA",
      tax_type_title: "Individual Savings Account",
    },
  ],
  tax_years: [
    {
      tax_year: "2025-26",
      start_date: date("2025-04-06"),
      end_date: date("2026-04-05"),
      disposals: [
        {
          accountid: 6,
          account: "Joint GIA",
          date: date("2025-07-30"),
          security: { description: " ", code: "XDLST", exchange: "LSE", isin: null },
          transaction_ids: [40, 41],
          currency: "GBP",
          quantity: 36,
          proceeds: money("5160.96"),
          allowable_cost: money("4742.83"),
          gain: money("418.13"),
          matches: [
            {
              rule: "same-day",
              quantity: 20,
              proceeds: money("2867.20"),
              allowable_cost: money("2882.54"),
              gain: money("-15.34"),
              acquired_on: date("2025-07-30"),
            },
            {
              rule: "section-104",
              quantity: 16,
              proceeds: money("2293.76"),
              allowable_cost: money("1860.29"),
              gain: money("433.47"),
              acquired_on: null,
            },
          ],
        },
      ],
      totals: [
        {
          currency: "GBP",
          proceeds: money("5160.96"),
          allowable_cost: money("4742.83"),
          gains: money("418.13"),
          losses: money("0.00"),
          net: money("418.13"),
        },
      ],
      annual_exempt_amount: null,
    },
  ],
});

describe("the realised gains page's view", () => {
  it("formats each figure once, says which is a loss, and names each rule and the excluded accounts", () => {
    const view = gainsView(answer, t, "en-GB");
    expect(view.included).toEqual(["Joint GIA"]);
    expect(view.excluded).toEqual([{ name: "ISA", type: "Individual Savings Account" }]);
    const [year] = view.years;
    expect(year?.label).toBe("2025-26");
    expect(year?.allowance).toBeNull();
    const [row] = year?.rows ?? [];
    expect(row).toMatchObject({
      date: "30/07/2025",
      security: "analysis.investments.invalidName",
      units: "36",
      proceeds: "£5,160.96",
      cost: "£4,742.83",
      gain: { text: "£418.13", spoken: "gains.gain" },
    });
    expect(row?.parts).toEqual([
      { rule: "same-day", label: "gains.rules.sameDay", units: "20", gain: { text: "-£15.34", spoken: "gains.loss" } },
      {
        rule: "section-104",
        label: "gains.rules.section104",
        units: "16",
        gain: { text: "£433.47", spoken: "gains.gain" },
      },
    ]);
    expect(year?.totals).toEqual([
      { currency: "GBP", gains: "£418.13", losses: "£0.00", net: { text: "£418.13", spoken: "gains.gain" } },
    ]);
  });
});

describe("the realised gains CSV", () => {
  it("has a row per matched part with its rule, ISO dates and plain numbers", () => {
    const { header, rows } = gainsCsv(answer, t);
    expect(header[0]).toBe("gains.csv.taxYear");
    expect(rows).toEqual([
      [
        "2025-26",
        "2025-07-30",
        "Joint GIA",
        "analysis.investments.invalidName",
        "XDLST",
        null,
        "GBP",
        20,
        2867.2,
        2882.54,
        -15.34,
        "gains.rules.sameDay",
        "2025-07-30",
      ],
      [
        "2025-26",
        "2025-07-30",
        "Joint GIA",
        "analysis.investments.invalidName",
        "XDLST",
        null,
        "GBP",
        16,
        2293.76,
        1860.29,
        433.47,
        "gains.rules.section104",
        null,
      ],
    ]);
  });
});
