import { describe, expect, it } from "vitest";
import { RADIAL, radialGeometry, summaryLayout, TABLE_DECIMALS, TILE_DECIMALS } from "./dashboard";

describe("summaryLayout (spec 001 §2.1, §9)", () => {
  it("shows tiles up to 9 own accounts and a table from 10", () => {
    expect(summaryLayout({ own: 9, linked: 0 })).toBe("tiles");
    expect(summaryLayout({ own: 10, linked: 0 })).toBe("table");
  });

  it("shows tiles up to 8 linked accounts and a table from 9", () => {
    expect(summaryLayout({ own: 0, linked: 8 })).toBe("tiles");
    expect(summaryLayout({ own: 0, linked: 9 })).toBe("table");
  });

  it("shows tiles up to 13 accounts together and a table from 14", () => {
    expect(summaryLayout({ own: 7, linked: 6 })).toBe("tiles");
    expect(summaryLayout({ own: 7, linked: 7 })).toBe("table");
    expect(summaryLayout({ own: 9, linked: 4 })).toBe("tiles");
    expect(summaryLayout({ own: 9, linked: 5 })).toBe("table");
    expect(summaryLayout({ own: 5, linked: 8 })).toBe("tiles");
    expect(summaryLayout({ own: 6, linked: 8 })).toBe("table");
  });

  it("shows tiles for no accounts at all", () => {
    expect(summaryLayout({ own: 0, linked: 0 })).toBe("tiles");
  });
});

describe("decimals (spec 001 §9)", () => {
  it("are 0 on tiles and 2 in tables", () => {
    expect(TILE_DECIMALS).toBe(0);
    expect(TABLE_DECIMALS).toBe(2);
  });
});

describe("radialGeometry (spec 001 §2.1)", () => {
  it("uses radius 35 and stroke 5 for accounts, 45 and 8 for groups", () => {
    expect(RADIAL).toEqual({ account: { radius: 35, stroke: 5 }, group: { radius: 45, stroke: 8 } });
    const account = radialGeometry("account", 0);
    expect(account).toMatchObject({ size: 75, centre: 37.5, radius: 35, stroke: 5 });
    expect(account.circumference).toBeCloseTo(219.9115, 4);
    const group = radialGeometry("group", 0);
    expect(group).toMatchObject({ size: 98, centre: 49, radius: 45, stroke: 8 });
    expect(group.circumference).toBeCloseTo(282.7433, 4);
  });

  it("leaves the whole ring empty at 0%, none of it at 100% and a quarter at 75%", () => {
    const empty = radialGeometry("account", 0);
    expect(empty.dashOffset).toBeCloseTo(empty.circumference, 10);
    expect(radialGeometry("account", 100).dashOffset).toBeCloseTo(0, 10);
    const group = radialGeometry("group", 75);
    expect(group.dashOffset).toBeCloseTo(group.circumference / 4, 10);
  });

  it("clamps the percentage to 0–100", () => {
    expect(radialGeometry("account", 140).dashOffset).toBeCloseTo(0, 10);
    const below = radialGeometry("account", -20);
    expect(below.dashOffset).toBeCloseTo(below.circumference, 10);
    expect(radialGeometry("account", Number.NaN).dashOffset).toBeCloseTo(below.circumference, 10);
  });
});
