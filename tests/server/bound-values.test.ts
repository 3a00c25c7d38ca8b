import { afterAll, describe, expect, it } from "vitest";
import { parametersAsPlainValues } from "../../server/db/bound-values";
import { closeDatabase, openDatabase } from "../../server/db/connection";

// Decision 160: the platform's statements are prepared with every bound parameter written `+?`, so
// that SQLite plans each once instead of again on every call; the values they compare and return
// must be the same.

describe("parametersAsPlainValues", () => {
  it("puts a unary plus before every kind of parameter", () => {
    expect(
      parametersAsPlainValues(`select "a"."b" from "a" where "a"."c" = ? and "a"."d" in (?, ?) limit ? offset ?`),
    ).toBe(`select "a"."b" from "a" where "a"."c" = +? and "a"."d" in (+?, +?) limit +? offset +?`);
    expect(parametersAsPlainValues("select ?2, :name, @name, $name from json_each(?)")).toBe(
      "select +?2, +:name, +@name, +$name from json_each(+?)",
    );
  });

  it("leaves literals, quoted names, comments and names holding a $ alone", () => {
    const source = `select '?', 'it''s ?', "q?", [b?], \`c?\`, a$b, json_extract(x, '$.a') -- ?\n/* :x ? */ from t`;
    expect(parametersAsPlainValues(source)).toBe(source);
  });
});

describe("the platform's connection", () => {
  const db = openDatabase(":memory:");
  const sqlite = db.$client;
  afterAll(() => closeDatabase(db));

  it("prepares its statements with the parameters as plain values", () => {
    expect(sqlite.prepare("select ? as v").source).toBe("select +? as v");
  });

  it("binds, compares and answers the same values as before", () => {
    const value = sqlite.prepare<[unknown, unknown], { v: unknown; t: string }>("select ? as v, typeof(?) as t");
    for (const [bound, type] of [
      ["007", "text"],
      // better-sqlite3 binds a number as a double
      [7, "real"],
      [7.5, "real"],
      [null, "null"],
      [Buffer.from([0, 1, 2]), "blob"],
    ] as const) {
      expect(value.get(bound, bound)).toEqual({ v: bound, t: type });
    }
    sqlite.exec("create temp table t (id integer primary key, n integer, s text)");
    sqlite.prepare("insert into t (id, n, s) values (?, ?, ?)").run(1, 5, "05");
    // a column's affinity still applies to the value compared with it: '5' is 5 for an integer column,
    // 5 is '5' for a text column (and not '05')
    const byN = sqlite.prepare<[unknown], { id: number }>("select id from t where n = ?").pluck();
    const byS = sqlite.prepare<[unknown], { id: number }>("select id from t where s = ?").pluck();
    expect([byN.get("5"), byN.get(5), byN.get("05")]).toEqual([1, 1, 1]);
    expect([byS.get("05"), byS.get(5), byS.get("5")]).toEqual([1, undefined, undefined]);
    expect(sqlite.prepare("select id from t where id = ? limit ?").pluck().all("1", 1)).toEqual([1]);
  });
});
