import { describe, expect, it } from "vitest";
import {
  ATTACHMENT_TYPES,
  attachmentExtension,
  attachmentTypeOf,
  contentTypeOf,
  normaliseFilename,
} from "./attachments";

// Issue 24 finding 2: an allow-list of what clients send advisers, judged on a normalised name.

describe("normaliseFilename", () => {
  it("drops trailing dots and spaces, as Windows does when it saves the file", () => {
    expect(normaliseFilename("evil.exe.")).toBe("evil.exe");
    expect(normaliseFilename("evil.exe . . ")).toBe("evil.exe");
    expect(normaliseFilename("  statement.pdf  ")).toBe("statement.pdf");
  });

  it("folds compatibility look-alikes (NFKC): a full-width dot and letters are plain ones", () => {
    expect(normaliseFilename("evil．ｅｘｅ")).toBe("evil.exe");
    expect(normaliseFilename("ﬁgures.csv")).toBe("figures.csv");
  });

  it("removes control and invisible formatting characters (a right-to-left override hides .exe)", () => {
    expect(normaliseFilename("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(normaliseFilename("a\u0000b\u001f\u007f\u200b.pdf")).toBe("ab.pdf");
  });

  it("keeps only the last part of a path, whichever the separator", () => {
    expect(normaliseFilename("C:\\Users\\me\\Letter.DOCX")).toBe("Letter.DOCX");
    expect(normaliseFilename("../../etc/passwd.txt")).toBe("passwd.txt");
  });

  it("replaces the characters a desktop cannot save in a name", () => {
    expect(normaliseFilename('a<b>c:d"e|f?g*h.pdf')).toBe("a_b_c_d_e_f_g_h.pdf");
  });

  it("keeps '=' and accents, and cuts a long name keeping its extension", () => {
    expect(normaliseFilename("statement=2026.pdf")).toBe("statement=2026.pdf");
    expect(normaliseFilename("Relevé de compte.pdf")).toBe("Relevé de compte.pdf");
    const long = normaliseFilename(`${"a".repeat(300)}.pdf`);
    expect(long).toHaveLength(255);
    expect(long.endsWith(".pdf")).toBe(true);
  });

  it("gives '' for a name with nothing left", () => {
    expect(normaliseFilename(" . . ")).toBe("");
    expect(normaliseFilename("\u202E")).toBe("");
  });
});

describe("the allow-list", () => {
  it("accepts what clients send advisers, whatever the case", () => {
    for (const name of [
      "a.pdf",
      "a.docx",
      "a.xlsx",
      "a.csv",
      "a.txt",
      "a.rtf",
      "a.odt",
      "a.ods",
      "a.jpg",
      "a.JPEG",
      "a.png",
      "a.gif",
      "a.heic",
      "a.heif",
    ]) {
      expect(attachmentTypeOf(name), name).not.toBeNull();
    }
  });

  it("refuses everything else, including the review's bypasses", () => {
    for (const name of [
      "evil.exe",
      "page.html",
      "page.htm",
      "image.svg",
      "app.hta",
      "screen.scr",
      "script.ps1",
      "a.js",
      "a.zip",
      "a.docm",
      "a.xlsm",
      // the old binary Office formats, whose macros and objects cannot be read through (issue 39)
      "a.doc",
      "a.XLS",
      "README",
      "a.pdf.exe",
      "archive.zip.",
    ]) {
      expect(attachmentTypeOf(name), name).toBeNull();
    }
    // trailing dots do not hide the real extension
    expect(attachmentExtension("evil.exe.")).toBe("exe");
    expect(attachmentTypeOf("evil.exe.")).toBeNull();
    // a Cyrillic 'р' in 'pdf' is not a PDF
    expect(attachmentTypeOf("statement.\u0440df")).toBeNull();
  });

  it("gives each extension one Content-Type, and application/octet-stream for anything outside it", () => {
    expect(contentTypeOf("a.PDF")).toBe("application/pdf");
    expect(contentTypeOf("a.docx")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(contentTypeOf("a.csv")).toBe("text/csv; charset=utf-8");
    expect(contentTypeOf("page.html")).toBe("application/octet-stream");
    for (const type of Object.values(ATTACHMENT_TYPES))
      expect(type.contentType).not.toMatch(/html|svg|javascript|[/+]xml/);
  });
});
