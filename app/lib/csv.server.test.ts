import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { fileNamePart, neutraliseFormula, toCsv } from "./csv.server";

describe("toCsv (RFC 4180, UTF-8 with a byte-order mark)", () => {
  it("starts with a BOM, ends rows with CRLF and quotes what needs quoting", () => {
    const csv = toCsv(
      ["Name", "Value"],
      [
        ['Smith, "Jo"', 12.5],
        ["Line\nbreak", null],
      ],
    );
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain("\r\n");
    expect(csv).toContain('"Smith, ""Jo"""');
    expect(parse(csv, { bom: true })).toEqual([
      ["Name", "Value"],
      ['Smith, "Jo"', "12.5"],
      ["Line\nbreak", ""],
    ]);
  });

  it("neutralises text cells that a spreadsheet would run, never numbers", () => {
    const csv = toCsv(
      ["Cell"],
      [['=HYPERLINK("http://x")'], ["+1"], ["-2+3"], ["@SUM(A1)"], ["\tx"], [-12.34], ["Plain"]],
    );
    expect(
      parse(csv, { bom: true })
        .slice(1)
        .map((r: string[]) => r[0]),
    ).toEqual([`'=HYPERLINK("http://x")`, "'+1", "'-2+3", "'@SUM(A1)", "'\tx", "-12.34", "Plain"]);
  });
});

describe("neutraliseFormula and fileNamePart", () => {
  it("leaves ordinary text alone", () => {
    expect(neutraliseFormula("Unilever plc")).toBe("Unilever plc");
    expect(neutraliseFormula("")).toBe("");
  });

  it("makes a safe part of a file name", () => {
    expect(fileNamePart("Éléanor O'Hartley")).toBe("eleanor-o-hartley");
    expect(fileNamePart("../../etc")).toBe("etc");
    expect(fileNamePart("???")).toBe("client");
  });
});
