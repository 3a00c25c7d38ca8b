import { describe, expect, it } from "vitest";
import { detailKeys, readHideSetting, shownUnder, transactionDate } from "./transactions";

const SHOW = { fees: "Do Not Hide", taxes: "Do Not Hide", valueAfter: "Do Not Hide" } as const;

describe("the hide settings (spec 001 §5 'Display rules')", () => {
  it("reads the three values, anything else as 'Do Not Hide'", () => {
    expect(readHideSetting("Hide For All Transactions")).toBe("Hide For All Transactions");
    expect(readHideSetting("Hide For Income Transactions Only")).toBe("Hide For Income Transactions Only");
    for (const other of ["hide", "", null, undefined, 1]) expect(readHideSetting(other)).toBe("Do Not Hide");
  });

  it("hides for every transaction, for income only, or never", () => {
    expect([shownUnder("Do Not Hide", true), shownUnder("Do Not Hide", false)]).toEqual([true, true]);
    expect([shownUnder("Hide For All Transactions", true), shownUnder("Hide For All Transactions", false)]).toEqual([false, false]);
    expect([shownUnder("Hide For Income Transactions Only", true), shownUnder("Hide For Income Transactions Only", false)]).toEqual([false, true]);
  });
});

describe("detailKeys (spec 001 §2.3)", () => {
  it("lists every field of a purchase, in order", () => {
    expect(detailKeys("buy", SHOW)).toEqual(["account", "value", "narrative", "valueAfter", "fees", "taxes", "units", "code", "settlement"]);
  });

  it("leaves the number and unit price out for income", () => {
    expect(detailKeys("income", SHOW)).toEqual(["account", "value", "narrative", "valueAfter", "fees", "taxes", "code", "settlement"]);
  });

  it("applies each hide setting to its own field", () => {
    const hide = { fees: "Hide For All Transactions", taxes: "Hide For Income Transactions Only", valueAfter: "Do Not Hide" } as const;
    expect(detailKeys("income", hide)).toEqual(["account", "value", "narrative", "valueAfter", "code", "settlement"]);
    expect(detailKeys("sell", hide)).toEqual(["account", "value", "narrative", "valueAfter", "taxes", "units", "code", "settlement"]);
  });
});

describe("transactionDate (spec 001 §9)", () => {
  it("writes DD/MM/YYYY", () => {
    expect(transactionDate("2025-03-04")).toBe("04/03/2025");
  });
});
