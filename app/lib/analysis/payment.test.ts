import { describe, expect, it } from "vitest";
import { bankCodeFields, offersBpay } from "./payment";

describe("the bank's code on a payment card, named as the site's country names it (decision 120)", () => {
  it("is a sort code in the UK and a BSB in Australia", () => {
    expect(bankCodeFields("en-GB", "20-00-00")).toEqual([{ label: "sortCode", value: "20-00-00" }]);
    expect(bankCodeFields("en-AU", "062-000")).toEqual([{ label: "bsb", value: "062-000" }]);
  });

  it("is a transit number and an institution number in Canada, in English and in French", () => {
    const split = [
      { label: "transitNumber", value: "12345" },
      { label: "institutionNumber", value: "003" },
    ];
    expect(bankCodeFields("en-CA", "12345-003")).toEqual(split);
    expect(bankCodeFields("fr-CA", "12345 003")).toEqual(split);
    // the electronic form: 0, the institution, the transit
    expect(bankCodeFields("en-CA", "000312345")).toEqual(split);
    // anything else is shown as it is, under both names
    expect(bankCodeFields("fr-CA", "A-1")).toEqual([{ label: "transitAndInstitution", value: "A-1" }]);
  });

  it("shows nothing for no code", () => {
    expect(bankCodeFields("en-GB", "")).toEqual([]);
    expect(bankCodeFields("en-CA", "  ")).toEqual([]);
  });
});

describe("BPAY, an Australian bill-payment scheme", () => {
  it("is offered on the Australian site only", () => {
    expect(["en-GB", "en-AU", "en-CA", "fr-CA"].map(offersBpay)).toEqual([false, true, false, false]);
  });
});
