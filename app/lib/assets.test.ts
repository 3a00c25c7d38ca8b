import { describe, expect, it } from "vitest";
import {
  type AssetInput,
  type AssetItem,
  assetMembers,
  type AssetTab,
  assetCards,
  filterAssets,
  netTotal,
  placeAssets,
  type RawAsset,
  selectedMember,
} from "./assets";

let nextId = 1;
function raw(desc: string, fields: Partial<RawAsset> = {}): RawAsset {
  return {
    id: nextId++,
    desc,
    type: "Other",
    status: null,
    isSippWrapper: false,
    valueOwned: 100,
    currency: "GBP",
    ...fields,
  };
}
const input = (lists: Partial<AssetInput>): AssetInput => ({
  investments: [],
  pensions: [],
  annuities: [],
  liabilities: [],
  ...lists,
});
const GB = { country: "GB", enhancedSippWrapper: true };
const descs = (items: AssetItem[]) => items.map((i) => i.desc);
const lists = (l: Partial<Record<AssetTab, AssetItem[]>>): Record<AssetTab, AssetItem[]> => ({
  investments: [],
  pensions: [],
  annuities: [],
  liabilities: [],
  ...l,
});
const item = (id: number, value: number | null, desc = `item ${id}`): AssetItem => ({ id, desc, value });

describe("filterAssets: status rules (spec 001 §4 'Asset filtering')", () => {
  it("keeps investments that are blank, Existing or Paid Up, whatever the case and spacing", () => {
    const out = filterAssets(
      input({
        investments: [
          raw("null", { status: null }),
          raw("empty", { status: "" }),
          raw("spaces", { status: "  " }),
          raw("existing", { status: "Existing" }),
          raw("paid up", { status: "paid up" }),
          raw("padded", { status: " EXISTING " }),
          raw("sold", { status: "Sold" }),
          raw("inforce", { status: "Inforce" }),
          raw("current", { status: "Current" }),
        ],
      }),
      GB,
    );
    expect(descs(out.investments)).toEqual(["null", "empty", "spaces", "existing", "paid up", "padded"]);
  });

  it("keeps annuities only when blank or Inforce", () => {
    const out = filterAssets(
      input({
        annuities: [
          raw("blank", { status: null }),
          raw("inforce", { status: "Inforce" }),
          raw("lower", { status: "inforce" }),
          raw("paid up", { status: "Paid Up" }),
          raw("existing", { status: "Existing" }),
          raw("lapsed", { status: "Lapsed" }),
        ],
      }),
      GB,
    );
    expect(descs(out.annuities)).toEqual(["blank", "inforce", "lower"]);
  });

  it("keeps liabilities only when blank or Current", () => {
    const out = filterAssets(
      input({
        liabilities: [
          raw("blank", { status: "" }),
          raw("current", { status: "Current" }),
          raw("redeemed", { status: "Redeemed" }),
          raw("existing", { status: "Existing" }),
        ],
      }),
      GB,
    );
    expect(descs(out.liabilities)).toEqual(["blank", "current"]);
  });

  const pensions = () => [
    raw("blank", { status: null }),
    raw("paid up", { status: "Paid Up" }),
    raw("holiday", { status: "Premium Holiday" }),
    raw("active", { status: "Active" }),
    raw("inforce", { status: "Inforce" }),
    raw("transferred", { status: "Transferred" }),
    raw("existing", { status: "Existing" }),
  ];

  it("keeps pensions that are blank, Paid Up or Premium Holiday everywhere, plus Active in GB", () => {
    expect(descs(filterAssets(input({ pensions: pensions() }), GB).pensions)).toEqual([
      "blank",
      "paid up",
      "holiday",
      "active",
    ]);
  });

  it.each(["NA", "AA", "ZA"])("keeps Inforce pensions (not Active ones) in %s", (country) => {
    const out = filterAssets(input({ pensions: pensions() }), { country, enhancedSippWrapper: false });
    expect(descs(out.pensions)).toEqual(["blank", "paid up", "holiday", "inforce"]);
  });

  it.each(["AU", "CA", "NZ", "HK"])("keeps neither Active nor Inforce pensions in %s", (country) => {
    const out = filterAssets(input({ pensions: pensions() }), { country, enhancedSippWrapper: false });
    expect(descs(out.pensions)).toEqual(["blank", "paid up", "holiday"]);
  });
});

describe("filterAssets: SIPP wrappers (spec 001 §4, §9)", () => {
  it("leaves wrapper-type pensions (SIPP, QNUPs, QROPs, RNUPs wrappers) out of the pensions list", () => {
    const out = filterAssets(
      input({
        pensions: [
          raw("sipp", { type: "SIPP", status: "Active", isSippWrapper: true }),
          raw("qnups", { type: "QNUPs" }),
          raw("qrops wrapper", { type: "QROPS wrapper" }),
          raw("rnups wrappers", { type: " RNUPs Wrappers " }),
          raw("sipp lower", { type: "sipp" }),
          raw("dc", { type: "Defined contribution", status: "Active" }),
          raw("db", { type: "Defined benefit" }),
          raw("sipp-like", { type: "SIPP-like plan" }),
        ],
      }),
      GB,
    );
    expect(descs(out.pensions)).toEqual(["dc", "db", "sipp-like"]);
  });

  it("moves what a SIPP wrapper holds into the pensions list: investments, annuities and, sign-flipped, liabilities", () => {
    const out = filterAssets(
      input({
        investments: [raw("house", { valueOwned: 500 }), raw("wrapped fund", { isSippWrapper: true, valueOwned: 300 })],
        pensions: [raw("workplace", { status: "Active", valueOwned: 200 })],
        annuities: [
          raw("annuity", { status: "Inforce", valueOwned: 50 }),
          raw("wrapped annuity", { isSippWrapper: true, valueOwned: 40 }),
        ],
        liabilities: [
          raw("mortgage", { valueOwned: 1000 }),
          raw("sipp loan", { isSippWrapper: true, status: "Current", valueOwned: 45 }),
        ],
      }),
      GB,
    );
    expect(out.investments.map((i) => [i.desc, i.value])).toEqual([["house", 500]]);
    expect(out.annuities.map((i) => [i.desc, i.value])).toEqual([["annuity", 50]]);
    expect(out.liabilities.map((i) => [i.desc, i.value])).toEqual([["mortgage", 1000]]);
    // plain pensions first, then wrapped investments, annuities and liabilities
    expect(out.pensions.map((i) => [i.desc, i.value])).toEqual([
      ["workplace", 200],
      ["wrapped fund", 300],
      ["wrapped annuity", 40],
      ["sipp loan", -45],
    ]);
  });

  it("without the enhanced SIPP wrapper leaves wrapped liabilities with the liabilities, unsigned", () => {
    const out = filterAssets(
      input({
        investments: [raw("wrapped fund", { isSippWrapper: true, valueOwned: 300 })],
        liabilities: [raw("mortgage", { valueOwned: 1000 }), raw("sipp loan", { isSippWrapper: true, valueOwned: 45 })],
      }),
      { country: "GB", enhancedSippWrapper: false },
    );
    expect(out.liabilities.map((i) => [i.desc, i.value])).toEqual([
      ["mortgage", 1000],
      ["sipp loan", 45],
    ]);
    // wrapped investments are folded in either way
    expect(out.pensions.map((i) => [i.desc, i.value])).toEqual([["wrapped fund", 300]]);
  });

  it("applies the status rules to wrapped items before folding them in", () => {
    const out = filterAssets(
      input({
        investments: [raw("sold wrapped fund", { isSippWrapper: true, status: "Sold" })],
        annuities: [raw("lapsed wrapped annuity", { isSippWrapper: true, status: "Lapsed" })],
        liabilities: [raw("repaid sipp loan", { isSippWrapper: true, status: "Redeemed" })],
      }),
      GB,
    );
    expect(out).toEqual({ investments: [], pensions: [], annuities: [], liabilities: [] });
  });

  it("keeps an unknown value (no conversion rate) as null, also when the sign is flipped", () => {
    const out = filterAssets(
      input({
        investments: [raw("no rate", { valueOwned: null })],
        liabilities: [raw("sipp loan, no rate", { isSippWrapper: true, valueOwned: null })],
      }),
      GB,
    );
    expect(out.investments[0]).toMatchObject({ desc: "no rate", value: null });
    expect(out.pensions[0]).toMatchObject({ desc: "sipp loan, no rate", value: null });
  });

  it("keeps each item's id and description", () => {
    const a = raw("Holiday cottage", { id: 42, valueOwned: 242_500 });
    expect(filterAssets(input({ investments: [a] }), GB).investments).toEqual([
      { id: 42, desc: "Holiday cottage", value: 242_500 },
    ]);
  });
});

describe("assetCards (spec 001 §2.6)", () => {
  it("shows at most the three largest items by value, with the count and total of all of them", () => {
    const [card] = assetCards(
      lists({ investments: [item(1, 10), item(2, 400), item(3, 30), item(4, 250), item(5, 5)] }),
    );
    expect(card).toMatchObject({ tab: "investments", index: 0, count: 5, total: 695 });
    expect(card!.top.map((i) => i.id)).toEqual([2, 4, 3]);
  });

  it("orders equal values by id and puts unknown values last, counting them as nothing in the total", () => {
    const [card] = assetCards(lists({ pensions: [item(9, null), item(7, 100), item(3, 100), item(5, 20)] }));
    expect(card!.top.map((i) => i.id)).toEqual([3, 7, 5]);
    expect(card!.total).toBe(220);
    const [onlyUnknown] = assetCards(lists({ pensions: [item(2, null), item(1, null)] }));
    expect(onlyUnknown).toMatchObject({ count: 2, total: 0 });
    expect(onlyUnknown!.top.map((i) => i.id)).toEqual([1, 2]);
  });

  it("lets a sign-flipped SIPP liability lower the pensions total", () => {
    const [card] = assetCards(
      lists({ pensions: [item(1, 250_000), item(2, 142_000), item(3, 138_900), item(4, -45_000)] }),
    );
    expect(card!.total).toBe(485_900);
    expect(card!.top.map((i) => i.id)).toEqual([1, 2, 3]);
  });

  it("shows the liabilities total as negative", () => {
    const [fromPositive] = assetCards(lists({ liabilities: [item(1, 1000), item(2, 50)] }));
    expect(fromPositive).toMatchObject({ tab: "liabilities", index: 3, total: -1050 });
    const [fromNegative] = assetCards(lists({ liabilities: [item(1, -1000), item(2, -50)] }));
    expect(fromNegative!.total).toBe(-1050);
  });

  it("leaves out cards without items and keeps each card's balance-sheet index", () => {
    const cards = assetCards(lists({ pensions: [item(1, 5)], liabilities: [item(2, 7)] }));
    expect(cards.map((c) => [c.tab, c.index])).toEqual([
      ["pensions", 1],
      ["liabilities", 3],
    ]);
    expect(assetCards(lists({}))).toEqual([]);
    const all = assetCards(
      lists({ investments: [item(1, 1)], pensions: [item(2, 1)], annuities: [item(3, 1)], liabilities: [item(4, 1)] }),
    );
    expect(all.map((c) => [c.tab, c.index])).toEqual([
      ["investments", 0],
      ["pensions", 1],
      ["annuities", 2],
      ["liabilities", 3],
    ]);
  });

  it("does not reorder the lists it is given", () => {
    const investments = [item(1, 1), item(2, 3), item(3, 2)];
    assetCards(lists({ investments }));
    expect(investments.map((i) => i.id)).toEqual([1, 2, 3]);
  });
});

describe("netTotal", () => {
  it("is the assets less the liabilities", () => {
    const cards = assetCards(
      lists({
        investments: [item(1, 280_750.4)],
        pensions: [item(2, 309_270.25)],
        liabilities: [item(3, 134_225.375)],
      }),
    );
    // added in whole pence (decision 106): a sub-penny amount is rounded once, half away from zero
    expect(cards.find((c) => c.tab === "liabilities")?.total).toBe(-134_225.38);
    expect(netTotal(cards)).toBe(455_795.27); // 280,750.40 + 309,270.25 − 134,225.38
    expect(netTotal([])).toBe(0);
  });

  it("follows the rules end to end for a member with a SIPP wrapper", () => {
    const cards = assetCards(
      filterAssets(
        input({
          investments: [
            raw("flat", { valueOwned: 325_000, status: "Existing" }),
            raw("wrapped unit", { isSippWrapper: true, valueOwned: 250_000 }),
          ],
          pensions: [
            raw("AJ Bell SIPP", { type: "SIPP", isSippWrapper: true, status: "Active", valueOwned: 388_900 }),
            raw("DB", { status: "Paid Up", valueOwned: 142_000 }),
          ],
          annuities: [raw("annuity", { status: "Inforce", valueOwned: 88_500 })],
          liabilities: [
            raw("mortgage", { status: "Current", valueOwned: 198_000 }),
            raw("sipp loan", { isSippWrapper: true, status: "Current", valueOwned: 45_000 }),
          ],
        }),
        GB,
      ),
    );
    expect(cards.map((c) => [c.tab, c.count, c.total])).toEqual([
      ["investments", 1, 325_000],
      ["pensions", 3, 250_000 + 142_000 - 45_000],
      ["annuities", 1, 88_500],
      ["liabilities", 1, -198_000],
    ]);
    expect(netTotal(cards)).toBe(325_000 + 347_000 + 88_500 - 198_000);
  });
});

describe("placeAssets: the same rules, carrying the page's own fields", () => {
  it("keeps each item whole and marks a SIPP's wrapped liability as counting against the pensions", () => {
    const tagged = (desc: string, fields: Partial<RawAsset>, managed: boolean) => ({ ...raw(desc, fields), managed });
    const placed = placeAssets(
      {
        investments: [
          tagged("house", { status: "Existing" }, false),
          tagged("wrapped fund", { isSippWrapper: true }, true),
        ],
        pensions: [tagged("SIPP", { type: "SIPP", isSippWrapper: true }, true)],
        annuities: [],
        liabilities: [
          tagged("loan", { isSippWrapper: true, status: "Current" }, true),
          tagged("sold", { status: "Redeemed" }, false),
        ],
      },
      GB,
    );
    expect(placed.investments.map((p) => [p.asset.desc, p.asset.managed, p.sign])).toEqual([["house", false, 1]]);
    expect(placed.pensions.map((p) => [p.asset.desc, p.asset.managed, p.sign])).toEqual([
      ["wrapped fund", true, 1],
      ["loan", true, -1],
    ]);
    expect(placed.liabilities).toEqual([]);
  });
});

describe("assetMembers and selectedMember (spec 001 §2.5, §2.6, §6)", () => {
  const ellie = { entity_id: 1, display_name: "Ellie", relationship: "Client", login_accessible: true };
  const james = { entity_id: 2, display_name: "James", relationship: "Partner", login_accessible: true };
  const olivia = { entity_id: 3, display_name: "Olivia", relationship: "Child", login_accessible: false };
  const sam = { entity_id: 5, display_name: "Sam", relationship: "Child", login_accessible: true };

  it("lists the client first, then the login-accessible members, the partner only with view_partner", () => {
    const group = [james, olivia, ellie, sam];
    expect(assetMembers(group, ellie, ["view_partner"]).map((m) => m.display_name)).toEqual(["Ellie", "James", "Sam"]);
    expect(assetMembers(group, ellie, []).map((m) => m.display_name)).toEqual(["Ellie", "Sam"]);
  });

  it("keeps the client when the platform's group does not list her", () => {
    const self = { entity_id: 9, display_name: "Me", login_accessible: true };
    expect(assetMembers([james], self, ["view_partner"]).map((m) => m.entity_id)).toEqual([9, 2]);
  });

  it("selects the member asked for, or the client for an id outside the list or none", () => {
    const members = [ellie, james];
    expect(selectedMember(members, 2)).toBe(james);
    expect(selectedMember(members, 3)).toBe(ellie);
    expect(selectedMember(members, null)).toBe(ellie);
    expect(selectedMember([], 2)).toBeUndefined();
  });
});
