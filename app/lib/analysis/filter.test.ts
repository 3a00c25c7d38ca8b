import { describe, expect, it } from "vitest";
import { type FilterAccount, parentCrumb, resolveFilter } from "./filter";

const NAMES = {
  allPortfolios: "All portfolios",
  allAccounts: "All accounts",
  ungrouped: "Other accounts",
  linked: "Linked accounts",
};
const account = (accountid: number, fields: Partial<FilterAccount> = {}): FilterAccount => ({
  accountid,
  description: `Account ${accountid}`,
  portfolioid: 1,
  portfolioName: "Ellie's portfolio",
  group_code: "ISA",
  group_name: "ISAs",
  isLinked: false,
  service_type: "Discretionary",
  ...fields,
});
const ACCOUNTS = [
  account(1),
  account(2, { group_code: "PEN", group_name: "Pensions" }),
  account(3, { portfolioid: 2, portfolioName: "Joint portfolio", group_code: null, group_name: null }),
  account(4, { portfolioid: 3, portfolioName: "James's portfolio", isLinked: true }),
];

describe("resolveFilter (spec 001 §4 'Account filter levels', §2.2 heading and breadcrumb)", () => {
  it("selects everything without an id, headed 'All portfolios', or 'All accounts' in account-group mode", () => {
    expect(resolveFilter(null, ACCOUNTS, "split", NAMES)).toEqual({
      kind: "all",
      heading: "All portfolios",
      crumbs: [{ id: null, name: "All portfolios" }],
      rows: "portfolio",
      accountIds: null,
    });
    expect(resolveFilter(null, ACCOUNTS, "accountgroup", NAMES)).toMatchObject({
      heading: "All accounts",
      rows: "group",
    });
    expect(resolveFilter(null, ACCOUNTS, "consolidated", NAMES)).toMatchObject({
      heading: "All portfolios",
      rows: "account",
    });
  });

  it("selects a portfolio's accounts under its name", () => {
    expect(resolveFilter("portfolio-1", ACCOUNTS, "split", NAMES)).toEqual({
      kind: "portfolio",
      heading: "Ellie's portfolio",
      crumbs: [
        { id: null, name: "All portfolios" },
        { id: "portfolio-1", name: "Ellie's portfolio" },
      ],
      rows: "account",
      accountIds: [1, 2],
      portfolioId: 1,
    });
  });

  it("selects a group's own accounts, the ungrouped ones and the linked ones", () => {
    expect(resolveFilter("ISA", ACCOUNTS, "accountgroup", NAMES)).toMatchObject({
      kind: "group",
      heading: "ISAs",
      accountIds: [1],
    });
    expect(resolveFilter("group-none", ACCOUNTS, "accountgroup", NAMES)).toMatchObject({
      heading: "Other accounts",
      accountIds: [3],
    });
    expect(resolveFilter("group-linked", ACCOUNTS, "accountgroup", NAMES)).toMatchObject({
      heading: "Linked accounts",
      accountIds: [4],
    });
  });

  it("puts an account under its portfolio when split, its group in account-group mode, and directly under the top when consolidated", () => {
    const crumbs = (grouping: "split" | "accountgroup" | "consolidated", id = "2") =>
      resolveFilter(id, ACCOUNTS, grouping, NAMES).crumbs;
    expect(crumbs("split")).toEqual([
      { id: null, name: "All portfolios" },
      { id: "portfolio-1", name: "Ellie's portfolio" },
      { id: "2", name: "Account 2" },
    ]);
    expect(crumbs("accountgroup")).toEqual([
      { id: null, name: "All accounts" },
      { id: "PEN", name: "Pensions" },
      { id: "2", name: "Account 2" },
    ]);
    expect(crumbs("accountgroup", "4")[1]).toEqual({ id: "group-linked", name: "Linked accounts" });
    expect(crumbs("consolidated")).toEqual([
      { id: null, name: "All portfolios" },
      { id: "2", name: "Account 2" },
    ]);
    expect(resolveFilter("2", ACCOUNTS, "split", NAMES)).toMatchObject({
      kind: "account",
      heading: "Account 2",
      rows: null,
      accountIds: [2],
    });
  });

  it("selects nothing for an id the client does not see", () => {
    for (const id of ["99", "portfolio-9", "NOPE"]) {
      expect(resolveFilter(id, ACCOUNTS, "split", NAMES), id).toEqual({
        kind: "unknown",
        heading: "All portfolios",
        crumbs: [{ id: null, name: "All portfolios" }],
        rows: null,
        accountIds: [],
      });
    }
  });
});

describe("parentCrumb", () => {
  it("is the level above, or none at the top", () => {
    expect(parentCrumb(resolveFilter("2", ACCOUNTS, "split", NAMES))).toEqual({
      id: "portfolio-1",
      name: "Ellie's portfolio",
    });
    expect(parentCrumb(resolveFilter("portfolio-1", ACCOUNTS, "split", NAMES))).toEqual({
      id: null,
      name: "All portfolios",
    });
    expect(parentCrumb(resolveFilter(null, ACCOUNTS, "split", NAMES))).toBeNull();
  });
});
