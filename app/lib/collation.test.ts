import { describe, expect, it } from "vitest";
import { byName, nameCollator } from "./collation";

describe("names sort as people read them, in the page's locale (decision 120)", () => {
  it("ignores case: 'iShares…' before 'Vanguard…'", () => {
    const names = ["Vanguard UK Gilt UCITS ETF", "iShares Core FTSE 100 UCITS ETF", "Apple Inc.", "AstraZeneca"];
    expect([...names].sort(nameCollator("en-GB").compare)).toEqual([
      "Apple Inc.",
      "AstraZeneca",
      "iShares Core FTSE 100 UCITS ETF",
      "Vanguard UK Gilt UCITS ETF",
    ]);
  });

  it("puts accented letters beside their plain ones and numbers in their order", () => {
    expect(["Éric", "Emma", "Zoë", "Edith"].sort(nameCollator("fr-CA").compare)).toEqual([
      "Edith",
      "Emma",
      "Éric",
      "Zoë",
    ]);
    expect(["Fund 10", "Fund 2", "fund 1"].sort(nameCollator("en-AU").compare)).toEqual([
      "fund 1",
      "Fund 2",
      "Fund 10",
    ]);
  });

  it("sorts objects by a name, keeping one collator per locale", () => {
    const rows = [{ name: "b" }, { name: "A" }, { name: "a" }];
    expect([...rows].sort(byName("en-CA", (r) => r.name)).map((r) => r.name)).toEqual(["A", "a", "b"]);
    expect(nameCollator("en-GB")).toBe(nameCollator("en-GB"));
  });

  it("falls back to English for a locale the runtime does not know", () => {
    expect(["b", "A"].sort(nameCollator("not a locale").compare)).toEqual(["A", "b"]);
  });
});
