import { describe, expect, it } from "vitest";
import { decodeBookmark, encodeBookmark } from "../../server/lib/bookmark";
import { hashSecret, verifySecret } from "../../server/lib/password";
import { seededRandom } from "../../server/lib/random";
import { foldText, matchesQuicksearch, parseQuicksearch, postcodeKey } from "../../server/lib/text";
import { tokenDigest } from "../../server/lib/tokens";
import { wireDate, wireDateTime, wireMoney } from "../../server/lib/wire";

describe("bookmark", () => {
  it("round-trips the sort, key and id, and rejects anything else", () => {
    const bookmark = { sort: "-dob", key: "1968-04-12", id: 42 };
    expect(decodeBookmark(encodeBookmark(bookmark))).toEqual(bookmark);
    expect(encodeBookmark(bookmark)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBookmark("not a bookmark")).toBeNull();
    expect(decodeBookmark(Buffer.from('{"s":"dob"}').toString("base64url"))).toBeNull();
  });
});

describe("quicksearch", () => {
  it("folds case and accents", () => {
    expect(foldText("  Zoë   BRONTË ")).toBe("zoe bronte");
    expect(foldText("José Núñez")).toBe("jose nunez");
  });

  it("reads an 8-digit word as a date of birth and the rest as name words", () => {
    const q = parseQuicksearch("Núñez 19580101");
    expect(q).toEqual({ dobs: ["1958-01-01"], words: ["nunez"] });
    expect(matchesQuicksearch(q, { searchText: "jose nunez", dob: "1958-01-01" })).toBe(true);
    expect(matchesQuicksearch(q, { searchText: "jose nunez", dob: "1958-01-02" })).toBe(false);
    expect(matchesQuicksearch(parseQuicksearch("jo nun"), { searchText: "jose nunez", dob: null })).toBe(true);
    expect(matchesQuicksearch(parseQuicksearch("1234567"), { searchText: "jose nunez", dob: null })).toBe(false);
  });

  it("matches postcodes ignoring case and spaces", () => {
    expect(postcodeKey(" w11  2eu")).toBe("W112EU");
  });
});

describe("password hashing", () => {
  it("verifies the right secret only, with a fresh salt each time", () => {
    const hash = hashSecret("Demo-pass-1");
    expect(hash).toMatch(/^pscrypt\$[0-9a-f]{8}\$16384\$8\$1\$/);
    expect(hashSecret("Demo-pass-1")).not.toBe(hash);
    expect(verifySecret("Demo-pass-1", hash)).toBe(true);
    expect(verifySecret("demo-pass-1", hash)).toBe(false);
    expect(verifySecret("Demo-pass-1", "scrypt$bad")).toBe(false);
  });

  it("digests tokens with SHA-256", () => {
    expect(tokenDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("wire values and the seeded generator", () => {
  it("types dates, date-times and money", () => {
    expect(wireDate("2024-05-01")).toEqual({ _type: "Date", _val: "2024-05-01" });
    expect(wireDate(null)).toBeNull();
    expect(wireDateTime("2024-05-01T09:30:00.123Z")).toEqual({ _type: "DateTime", _val: "2024-05-01T09:30:00Z" });
    expect(wireMoney("GBP", 1234.5)).toEqual({ code: "GBP", value: { _type: "BigDecimal", _val: "1234.50" } });
  });

  it("repeats the same sequence for the same seed", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(first.every((n) => n >= 0 && n < 1)).toBe(true);
  });
});
