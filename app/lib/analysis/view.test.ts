import { describe, expect, it } from "vitest";
import { inView, type ViewAccount, viewOf, type ViewOptions, viewOptions } from "./view";

// docs/decisions/107-one-view-one-set-of-accounts.md: the accounts a view covers.

const account = (accountid: number, fields: Partial<ViewAccount> = {}): ViewAccount => ({
  accountid,
  isLinked: false,
  service_type: "Discretionary",
  has_transactions: true,
  vendor_id: null,
  ...fields,
});
const OFF: ViewOptions = { withoutTransactions: false, clientAnalysis: false };

// Ellie: ISA (1), SIPP (2), Premium Bonds 'Not managed' (3), joint (4), trust (5); linked: James's ISA (6), his US dollar account (7)
const ELLIE = [
  account(1),
  account(2, { service_type: "Advisory" }),
  account(3, { service_type: "Not managed" }),
  account(4, { service_type: "Advisory" }),
  account(5),
  account(6, { isLinked: true }),
  account(7, { isLinked: true, service_type: "Execution only" }),
];

describe("viewOf: one view, one set of accounts", () => {
  it("at 'All portfolios' counts the client's own managed accounts and lists the linked ones apart", () => {
    const view = viewOf(ELLIE, null, OFF);
    expect(view.counted).toEqual([1, 2, 4, 5]);
    expect(view.linked).toEqual([6, 7]);
    expect(view.covers).toBe("own");
    expect(view.shown.map((a) => a.accountid)).toEqual([1, 2, 4, 5, 6, 7]);
  });

  it("leaves 'Not managed' accounts out of every part, whatever is selected (spec 001 §5)", () => {
    expect(viewOf(ELLIE, null, OFF).counted).not.toContain(3);
    expect(viewOf(ELLIE, null, OFF).shown.map((a) => a.accountid)).not.toContain(3);
    // Ellie's portfolio holds the ISA, the SIPP and the Premium Bonds: the view covers the first two
    expect(viewOf(ELLIE, [1, 2, 3], OFF)).toMatchObject({ counted: [1, 2], linked: [], covers: "selection" });
    // the Premium Bonds alone: nothing to count
    expect(viewOf(ELLIE, [3], OFF)).toMatchObject({ counted: [], covers: "none" });
    // the option on accounts without transactions does not bring them back
    expect(viewOf(ELLIE, null, { withoutTransactions: true, clientAnalysis: true }).counted).not.toContain(3);
  });

  it("covers a linked portfolio drilled into: its accounts, as its own total", () => {
    expect(viewOf(ELLIE, [6, 7], OFF)).toMatchObject({ counted: [6, 7], linked: [], covers: "selection" });
    expect(viewOf(ELLIE, [7], OFF)).toMatchObject({ counted: [7], covers: "selection" });
  });

  it("covers a selection's accounts only, in the platform's order, ignoring ids the client does not see", () => {
    expect(viewOf(ELLIE, [5, 1, 99], OFF).counted).toEqual([1, 5]);
  });

  it("covers the linked accounts of a client who sees nothing else (decision 073's totals)", () => {
    const onlyLinked = [
      account(6, { isLinked: true }),
      account(7, { isLinked: true }),
      account(8, { isLinked: true, service_type: "Not managed" }),
    ];
    expect(viewOf(onlyLinked, null, OFF)).toMatchObject({ counted: [6, 7], linked: [], covers: "linked" });
    // a client whose own accounts are all 'Not managed' is in the same place
    expect(
      viewOf([account(3, { service_type: "Not managed" }), account(6, { isLinked: true })], null, OFF),
    ).toMatchObject({ counted: [6], linked: [], covers: "linked" });
  });

  it("covers nothing for a client without accounts", () => {
    expect(viewOf([], null, OFF)).toEqual({ shown: [], counted: [], linked: [], covers: "none" });
  });

  it("shows an account without transactions only with the option on, or with client analysis and a vendor id (spec 001 §5)", () => {
    const accounts = [
      account(1),
      account(2, { has_transactions: false }),
      account(3, { has_transactions: false, vendor_id: "V-1" }),
      account(4, { isLinked: true, has_transactions: false }),
    ];
    expect(viewOf(accounts, null, OFF)).toMatchObject({ counted: [1], linked: [] });
    expect(viewOf(accounts, null, { withoutTransactions: true, clientAnalysis: false })).toMatchObject({
      counted: [1, 2, 3],
      linked: [4],
    });
    expect(viewOf(accounts, null, { withoutTransactions: false, clientAnalysis: true })).toMatchObject({
      counted: [1, 3],
      linked: [],
    });
    // drilling into one without transactions: nothing to show
    expect(viewOf(accounts, [2], OFF).covers).toBe("none");
    // an older platform that does not say: taken as having transactions
    const { has_transactions: _, ...silent } = account(9);
    expect(inView(silent, OFF)).toBe(true);
  });
});

describe("viewOptions", () => {
  it("reads the site's 'accounts without transactions' option, off by default", () => {
    expect(viewOptions({}, false)).toEqual({ withoutTransactions: false, clientAnalysis: false });
    expect(viewOptions({ showAccountsWithoutTransactions: true }, true)).toEqual({
      withoutTransactions: true,
      clientAnalysis: true,
    });
    expect(viewOptions({ showAccountsWithoutTransactions: "true" }, false).withoutTransactions).toBe(true);
    expect(viewOptions({ showAccountsWithoutTransactions: "no" }, false).withoutTransactions).toBe(false);
  });
});
