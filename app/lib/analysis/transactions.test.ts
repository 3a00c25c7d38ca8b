import { describe, expect, it } from "vitest";
import {
  detailKeys,
  directionOf,
  readHideSetting,
  shownUnder,
  signedAmounts,
  transactionDate,
  transactionKind,
} from "./transactions";

const SHOW = { fees: "Do Not Hide", taxes: "Do Not Hide", valueAfter: "Do Not Hide" } as const;

describe("the hide settings (spec 001 §5 'Display rules')", () => {
  it("reads the three values, anything else as 'Do Not Hide'", () => {
    expect(readHideSetting("Hide For All Transactions")).toBe("Hide For All Transactions");
    expect(readHideSetting("Hide For Income Transactions Only")).toBe("Hide For Income Transactions Only");
    for (const other of ["hide", "", null, undefined, 1]) expect(readHideSetting(other)).toBe("Do Not Hide");
  });

  it("hides for every transaction, for income only, or never", () => {
    expect([shownUnder("Do Not Hide", true), shownUnder("Do Not Hide", false)]).toEqual([true, true]);
    expect([shownUnder("Hide For All Transactions", true), shownUnder("Hide For All Transactions", false)]).toEqual([
      false,
      false,
    ]);
    expect([
      shownUnder("Hide For Income Transactions Only", true),
      shownUnder("Hide For Income Transactions Only", false),
    ]).toEqual([false, true]);
  });
});

describe("detailKeys (spec 001 §2.3)", () => {
  it("lists every field of a purchase, in order", () => {
    expect(detailKeys("buy", SHOW)).toEqual([
      "account",
      "value",
      "narrative",
      "valueAfter",
      "fees",
      "taxes",
      "units",
      "code",
      "settlement",
    ]);
  });

  it("leaves the number and unit price out for income", () => {
    expect(detailKeys("income", SHOW)).toEqual([
      "account",
      "value",
      "narrative",
      "valueAfter",
      "fees",
      "taxes",
      "code",
      "settlement",
    ]);
  });

  it("leaves Fees, Taxes and the units out of a fee or a tax: the transaction is itself the cost", () => {
    expect(detailKeys("fee", SHOW)).toEqual(["account", "value", "narrative", "valueAfter", "code", "settlement"]);
    expect(detailKeys("tax", SHOW)).toEqual(["account", "value", "narrative", "valueAfter", "code", "settlement"]);
  });

  it("applies each hide setting to its own field", () => {
    const hide = {
      fees: "Hide For All Transactions",
      taxes: "Hide For Income Transactions Only",
      valueAfter: "Do Not Hide",
    } as const;
    expect(detailKeys("income", hide)).toEqual(["account", "value", "narrative", "valueAfter", "code", "settlement"]);
    expect(detailKeys("sell", hide)).toEqual([
      "account",
      "value",
      "narrative",
      "valueAfter",
      "taxes",
      "units",
      "code",
      "settlement",
    ]);
  });
});

describe("transactionDate (spec 001 §9, decision 211)", () => {
  it("writes DD/MM/YYYY in British and Australian English", () => {
    expect(transactionDate("2025-03-04")).toBe("04/03/2025");
    expect(transactionDate("2025-03-04", "en-GB")).toBe("04/03/2025");
    expect(transactionDate("2025-03-04", "en-AU")).toBe("04/03/2025");
  });

  it("writes YYYY-MM-DD in Canada, in English and in French", () => {
    expect(transactionDate("2026-11-27", "en-CA")).toBe("2026-11-27");
    expect(transactionDate("2026-11-27", "fr-CA")).toBe("2026-11-27");
  });
});

const CASH = { code: "GBPCASH", exchange: "CASH" };
const SHARE = { code: "VOD", exchange: "LSE" };

describe("transactionKind (decision 071: a transfer of a cash line is a deposit or a withdrawal)", () => {
  it("names every platform type", () => {
    expect(transactionKind({ type: "buy", ...SHARE })).toBe("purchase");
    expect(transactionKind({ type: "sell", ...SHARE })).toBe("sale");
    expect(transactionKind({ type: "income", ...SHARE })).toBe("income");
    expect(transactionKind({ type: "fee", ...CASH })).toBe("fee");
    expect(transactionKind({ type: "tax", ...CASH })).toBe("tax");
  });

  it("calls a transfer of cash a deposit or a withdrawal, and of a security a transfer in or out", () => {
    expect(transactionKind({ type: "transfer_in", ...CASH })).toBe("deposit");
    expect(transactionKind({ type: "transfer_out", ...CASH })).toBe("withdrawal");
    expect(transactionKind({ type: "transfer_in", code: "cash", exchange: "LSE" })).toBe("deposit");
    expect(transactionKind({ type: "transfer_in", ...SHARE })).toBe("transferIn");
    expect(transactionKind({ type: "transfer_out", ...SHARE })).toBe("transferOut");
  });

  it("calls a type it does not know 'other'", () => {
    expect(transactionKind({ type: "corporate_action", ...SHARE })).toBe("other");
    expect(transactionKind({ type: "", ...CASH })).toBe("other");
  });
});

describe("directionOf: which way the money moves", () => {
  it("brings money in on a sale, income, a deposit and a transfer in", () => {
    for (const kind of ["sale", "income", "deposit", "transferIn"] as const) expect(directionOf(kind)).toBe("in");
  });

  it("takes money out on a purchase, a fee, a tax, a withdrawal and a transfer out", () => {
    for (const kind of ["purchase", "fee", "tax", "withdrawal", "transferOut"] as const)
      expect(directionOf(kind)).toBe("out");
  });

  it("does not guess for a type it does not know", () => {
    expect(directionOf("other")).toBeNull();
  });
});

describe("signedAmounts: money leaving the account is negative; fees and taxes are costs", () => {
  it("a purchase pays its value and its costs out", () => {
    const a = signedAmounts("purchase", { value: 1000, valueAfter: 1015, fees: 10, taxes: 5 });
    expect(a).toEqual({ value: -1000, valueAfter: -1015, fees: -10, taxes: -5 });
    expect(a.value + (a.fees ?? 0) + (a.taxes ?? 0)).toBe(a.valueAfter);
  });

  it("a sale brings its value in, less its costs", () => {
    const a = signedAmounts("sale", { value: 1000, valueAfter: 990, fees: 10, taxes: 0 });
    expect(a).toEqual({ value: 1000, valueAfter: 990, fees: -10, taxes: 0 });
    expect(a.value + (a.fees ?? 0) + (a.taxes ?? 0)).toBe(a.valueAfter);
  });

  it("income brings its gross in, less tax withheld", () => {
    const a = signedAmounts("income", { value: 100, valueAfter: 85, fees: 0, taxes: 15 });
    expect(a).toEqual({ value: 100, valueAfter: 85, fees: 0, taxes: -15 });
    expect(a.value + (a.fees ?? 0) + (a.taxes ?? 0)).toBe(a.valueAfter);
  });

  it("a fee or a tax is paid out as its value and not repeated as its own cost", () => {
    expect(signedAmounts("fee", { value: 31.65, valueAfter: 31.65, fees: 31.65, taxes: 0 })).toEqual({
      value: -31.65,
      valueAfter: -31.65,
      fees: null,
      taxes: null,
    });
    expect(signedAmounts("tax", { value: 12.4, valueAfter: 12.4, fees: 0, taxes: 12.4 })).toEqual({
      value: -12.4,
      valueAfter: -12.4,
      fees: null,
      taxes: null,
    });
  });

  it("a deposit and a transfer in come in; a withdrawal and a transfer out go out", () => {
    const plain = { value: 500, valueAfter: 500, fees: 0, taxes: 0 };
    expect(signedAmounts("deposit", plain).value).toBe(500);
    expect(signedAmounts("transferIn", plain).value).toBe(500);
    expect(signedAmounts("withdrawal", plain)).toEqual({ value: -500, valueAfter: -500, fees: 0, taxes: 0 });
    expect(signedAmounts("transferOut", plain).valueAfter).toBe(-500);
  });

  it("keeps an unknown type's figures as the platform sent them", () => {
    expect(signedAmounts("other", { value: 20, valueAfter: 18, fees: 2, taxes: 0 })).toEqual({
      value: 20,
      valueAfter: 18,
      fees: 2,
      taxes: 0,
    });
  });
});
