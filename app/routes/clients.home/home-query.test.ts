import { describe, expect, it } from "vitest";
import { homeHref, type HomeQuery, readHomeQuery } from "./home-query";
import { PAGE_PATHS } from "~/lib/navigation";

const read = (search: string) => readHomeQuery(new URL(`http://portal.test/clients/home${search}`));
const DEFAULTS: HomeQuery = { timeframe: "default", currency: "report", expand: [], memberId: null };

describe("readHomeQuery (spec 001 §2.1)", () => {
  it("answers the defaults for a bare URL", () => {
    expect(read("")).toEqual(DEFAULTS);
  });

  it("reads the secondary timeframe and the plan currency", () => {
    expect(read("?timeframe=secondary&currency=plan")).toEqual({
      ...DEFAULTS,
      timeframe: "secondary",
      currency: "plan",
    });
  });

  it.each(["?timeframe=Secondary", "?timeframe=1Y", "?timeframe=", "?timeframe=secondary%20"])(
    "ignores the timeframe in %s",
    (search) => {
      expect(read(search).timeframe).toBe("default");
    },
  );

  it.each(["?currency=PLAN", "?currency=USD", "?currency=", "?currency=report"])(
    "ignores the currency in %s",
    (search) => {
      expect(read(search).currency).toBe("report");
    },
  );

  it("reads the expanded rows of every level, trimmed", () => {
    expect(read("?expand=portfolio-1,%20group-HARTLEY-ISA%20,account-7,group-a_b").expand).toEqual([
      "portfolio-1",
      "group-HARTLEY-ISA",
      "account-7",
      "group-a_b",
    ]);
  });

  it("drops keys that are not a known level and a code", () => {
    const bad = [
      "fund-1",
      "portfolio-",
      "portfolio",
      "portfolio-1;drop",
      "portfolio-<script>",
      "Portfolio-1",
      "portfolio-1.5",
      "",
      "group- x",
    ];
    expect(read(`?expand=${encodeURIComponent([...bad, "portfolio-2"].join(","))}`).expand).toEqual(["portfolio-2"]);
  });

  it("takes codes of up to 60 characters", () => {
    const longest = `group-${"A".repeat(60)}`;
    expect(read(`?expand=${longest},group-${"B".repeat(61)}`).expand).toEqual([longest]);
  });

  it("drops repeated keys, then keeps the first 20", () => {
    const keys = Array.from({ length: 25 }, (_, i) => `portfolio-${i + 1}`);
    const search = `?expand=${["portfolio-1", "portfolio-1", ...keys].join(",")}`;
    expect(read(search).expand).toEqual(keys.slice(0, 20));
  });

  it("reads a member id only when it is a positive whole number", () => {
    expect(read("?id=2").memberId).toBe(2);
    expect(read("?id=1234").memberId).toBe(1234);
    for (const id of ["0", "-3", "2.5", "abc", "", "NaN", "Infinity"])
      expect(read(`?id=${id}`).memberId, id).toBeNull();
  });
});

describe("homeHref", () => {
  it("leaves the defaults out", () => {
    expect(homeHref(DEFAULTS)).toBe(PAGE_PATHS.home);
    expect(PAGE_PATHS.home).toBe("/clients/home");
  });

  it("writes what differs from the defaults, and a hash", () => {
    const href = homeHref(
      { timeframe: "secondary", currency: "plan", expand: ["portfolio-1", "group-ISA"], memberId: 2 },
      {},
      "#other-assets",
    );
    const url = new URL(href, "http://portal.test");
    expect(url.pathname).toBe("/clients/home");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      timeframe: "secondary",
      currency: "plan",
      expand: "portfolio-1,group-ISA",
      id: "2",
    });
    expect(url.hash).toBe("#other-assets");
    expect(homeHref(DEFAULTS, {}, "#other-assets")).toBe("/clients/home#other-assets");
  });

  it("applies a change without touching the query it was given", () => {
    const query: HomeQuery = { ...DEFAULTS, expand: ["portfolio-1"] };
    expect(homeHref(query, { memberId: 2 })).toBe("/clients/home?expand=portfolio-1&id=2");
    expect(homeHref(query, { expand: [] })).toBe("/clients/home");
    expect(homeHref(query, { timeframe: "secondary" })).toBe("/clients/home?timeframe=secondary&expand=portfolio-1");
    expect(query).toEqual({ ...DEFAULTS, expand: ["portfolio-1"] });
  });

  it("reads back as the query it was written from", () => {
    const queries: HomeQuery[] = [
      DEFAULTS,
      { timeframe: "secondary", currency: "report", expand: [], memberId: null },
      { timeframe: "default", currency: "plan", expand: ["portfolio-3"], memberId: null },
      {
        timeframe: "secondary",
        currency: "plan",
        expand: ["portfolio-1", "group-HARTLEY-GIA", "account-5"],
        memberId: 7,
      },
    ];
    for (const query of queries)
      expect(readHomeQuery(new URL(homeHref(query, {}, "#x"), "http://portal.test"))).toEqual(query);
  });
});
