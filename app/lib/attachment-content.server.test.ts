import { describe, expect, it } from "vitest";
import { SAMPLES, wordDocument, workbook } from "../../tests/sample-files";
import { contentMatchesName } from "./attachment-content.server";

// Issue 24 finding 2: the content's real type against the name.

describe("contentMatchesName", () => {
  it("accepts each allowed type holding its own format", async () => {
    const files: Array<[string, Uint8Array]> = [
      ["a.pdf", SAMPLES.pdf()],
      ["a.png", SAMPLES.png()],
      ["a.jpg", SAMPLES.jpeg()],
      ["a.JPEG", SAMPLES.jpeg()],
      ["a.gif", SAMPLES.gif()],
      ["a.heic", SAMPLES.heic()],
      ["a.doc", SAMPLES.compound()],
      ["a.xls", SAMPLES.compound()],
      ["a.rtf", SAMPLES.rtf()],
      ["a.csv", SAMPLES.csv()],
      ["a.txt", SAMPLES.txt()],
      ["a.docx", wordDocument()],
      ["a.xlsx", workbook()],
    ];
    for (const [name, bytes] of files) expect(await contentMatchesName(name, bytes), name).toBe(true);
  });

  it("refuses a file whose content is another format than its name says", async () => {
    expect(await contentMatchesName("invoice.pdf", SAMPLES.exe())).toBe(false);
    expect(await contentMatchesName("photo.jpg", SAMPLES.png())).toBe(false);
    expect(await contentMatchesName("letter.docx", SAMPLES.zip())).toBe(false);
    // a macro-enabled document renamed .docx
    expect(await contentMatchesName("letter.docx", wordDocument(true))).toBe(false);
    expect(await contentMatchesName("sheet.xlsx", wordDocument())).toBe(false);
    // a text format must not hold a binary one
    expect(await contentMatchesName("notes.txt", SAMPLES.exe())).toBe(false);
    expect(await contentMatchesName("figures.csv", SAMPLES.pdf())).toBe(false);
    // nothing recognisable is not a PDF
    expect(await contentMatchesName("empty.pdf", new Uint8Array(100))).toBe(false);
  });

  it("refuses a type outside the allow-list whatever it holds", async () => {
    expect(await contentMatchesName("page.html", SAMPLES.html())).toBe(false);
    expect(await contentMatchesName("setup.exe", SAMPLES.exe())).toBe(false);
  });
});
