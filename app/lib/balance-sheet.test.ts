import { describe, expect, it } from "vitest";
import {
  balanceSheetHref,
  chooseTab,
  chooseView,
  inView,
  isManaged,
  readBalanceSheetQuery,
  tabCounts,
  tablesOf,
  viewSettings,
  visibleTabs,
} from "./balance-sheet";

const read = (search: string) => readBalanceSheetQuery(new URL(`http://portal.test/clients/balance-sheet${search}`));

describe("the balance sheet's query (spec 001 §4 'Balance sheet' state)", () => {
  it("reads member, view, tab and currency, and ignores what is not one of them", () => {
    expect(read("")).toEqual({ memberId: null, view: null, asset: null, currency: "report" });
    expect(read("?id=2&view=non-managed&asset=3&currency=plan")).toEqual({
      memberId: 2,
      view: "nonManaged",
      asset: 3,
      currency: "plan",
    });
    expect(read("?view=Managed").view).toBe("managed");
    expect(read("?view=everything").view).toBe("everything");
    for (const bad of ["?id=0", "?id=-1", "?id=1.5", "?id=abc"]) expect(read(bad).memberId, bad).toBeNull();
    for (const bad of ["?asset=4", "?asset=-1", "?asset=1.0", "?asset=", "?asset=x"])
      expect(read(bad).asset, bad).toBeNull();
    expect(read("?view=all").view).toBeNull();
    expect(read("?currency=report").currency).toBe("report");
  });

  it("writes URLs with only what is set, in a fixed order", () => {
    expect(balanceSheetHref({})).toBe("/clients/balance-sheet");
    expect(balanceSheetHref({ memberId: 2, asset: 0 })).toBe("/clients/balance-sheet?id=2&asset=0");
    expect(balanceSheetHref({ memberId: 1, view: "nonManaged", asset: 3, currency: "plan" })).toBe(
      "/clients/balance-sheet?id=1&view=non-managed&asset=3&currency=plan",
    );
    expect(balanceSheetHref({ memberId: null, view: null, asset: null, currency: "report" })).toBe(
      "/clients/balance-sheet",
    );
    // what it writes, it reads back
    expect(
      read(
        balanceSheetHref({ memberId: 7, view: "managed", asset: 2, currency: "plan" }).slice(
          "/clients/balance-sheet".length,
        ),
      ),
    ).toEqual({
      memberId: 7,
      view: "managed",
      asset: 2,
      currency: "plan",
    });
  });
});

describe("viewSettings and chooseView (spec 001 §2.5: views from the site)", () => {
  it("allows every view, Managed first, when the site names none", () => {
    expect(viewSettings({})).toEqual({ allowed: ["managed", "nonManaged", "everything"], defaultView: "managed" });
    expect(viewSettings({ balanceSheetViews: null })).toEqual({
      allowed: ["managed", "nonManaged", "everything"],
      defaultView: "managed",
    });
  });

  it("keeps the listed views in the toggle's order, whatever the list's order, case or spacing", () => {
    expect(viewSettings({ balanceSheetViews: " Everything , managed" }).allowed).toEqual(["managed", "everything"]);
    expect(viewSettings({ balanceSheetViews: "non_managed,unknown" }).allowed).toEqual(["nonManaged"]);
  });

  it("uses the default view when it is allowed, else the first allowed view", () => {
    expect(
      viewSettings({ balanceSheetViews: "managed,non-managed,everything", balanceSheetDefaultView: "everything" })
        .defaultView,
    ).toBe("everything");
    expect(
      viewSettings({ balanceSheetViews: "managed,non-managed", balanceSheetDefaultView: "everything" }).defaultView,
    ).toBe("managed");
    expect(
      viewSettings({ balanceSheetViews: "non-managed,everything", balanceSheetDefaultView: "nonsense" }).defaultView,
    ).toBe("nonManaged");
    expect(viewSettings({ balanceSheetDefaultView: 3 }).defaultView).toBe("managed");
  });

  it("enables no view for a blank list or one naming no view", () => {
    for (const listed of ["", " ", "none", ","]) {
      expect(viewSettings({ balanceSheetViews: listed }), JSON.stringify(listed)).toEqual({
        allowed: [],
        defaultView: null,
      });
    }
  });

  it("shows the view asked for only when allowed, else the default; none when none is enabled", () => {
    const settings = viewSettings({ balanceSheetViews: "managed,everything", balanceSheetDefaultView: "everything" });
    expect(chooseView("managed", settings)).toBe("managed");
    expect(chooseView("nonManaged", settings)).toBe("everything");
    expect(chooseView(null, settings)).toBe("everything");
    expect(chooseView("managed", { allowed: [], defaultView: null })).toBeNull();
  });
});

describe("managed and non-managed (spec 001 §4 'Asset filtering')", () => {
  it("counts an asset as managed when its under-advice flag is set", () => {
    for (const set of [true, 1, 2, "1", "Y", "true"]) expect(isManaged(set), String(set)).toBe(true);
    for (const unset of [false, 0, null, undefined, "", "0", "false", "no", {}])
      expect(isManaged(unset), String(unset)).toBe(false);
  });

  it("gives the Managed view the managed table, Non-managed the other, Everything both", () => {
    expect(tablesOf("managed")).toEqual(["managed"]);
    expect(tablesOf("nonManaged")).toEqual(["nonManaged"]);
    expect(tablesOf("everything")).toEqual(["managed", "nonManaged"]);
  });

  it("filters the items a view shows", () => {
    const items = [
      { id: 1, managed: true },
      { id: 2, managed: false },
      { id: 3, managed: true },
    ];
    expect(inView(items, "managed").map((i) => i.id)).toEqual([1, 3]);
    expect(inView(items, "nonManaged").map((i) => i.id)).toEqual([2]);
    expect(inView(items, "everything").map((i) => i.id)).toEqual([1, 2, 3]);
  });
});

describe("tabs (spec 001 §2.5: shown only with data, falling back to the first with data)", () => {
  const m = (managed: boolean) => ({ managed });
  const lists = {
    investments: [m(false), m(false)],
    pensions: [m(true), m(true), m(false)],
    annuities: [],
    liabilities: [m(true)],
  };

  it("counts each tab's items in the view shown", () => {
    expect(tabCounts(lists, "everything")).toEqual({ investments: 2, pensions: 3, annuities: 0, liabilities: 1 });
    expect(tabCounts(lists, "managed")).toEqual({ investments: 0, pensions: 2, annuities: 0, liabilities: 1 });
    expect(tabCounts(lists, "nonManaged")).toEqual({ investments: 2, pensions: 1, annuities: 0, liabilities: 0 });
  });

  it("shows only the tabs with data, in the spec's order", () => {
    expect(visibleTabs({ investments: 2, pensions: 3, annuities: 0, liabilities: 1 })).toEqual([
      "investments",
      "pensions",
      "liabilities",
    ]);
    expect(visibleTabs({ investments: 0, pensions: 0, annuities: 0, liabilities: 0 })).toEqual([]);
  });

  it("selects the tab asked for when it has data, else the first tab with data, else none", () => {
    const counts = { investments: 0, pensions: 2, annuities: 0, liabilities: 1 };
    expect(chooseTab(counts, 3)).toBe("liabilities");
    expect(chooseTab(counts, 1)).toBe("pensions");
    expect(chooseTab(counts, 0)).toBe("pensions");
    expect(chooseTab(counts, 2)).toBe("pensions");
    expect(chooseTab(counts, null)).toBe("pensions");
    expect(chooseTab(counts, 9)).toBe("pensions");
    expect(chooseTab({ investments: 0, pensions: 0, annuities: 0, liabilities: 0 }, 0)).toBeNull();
  });
});
