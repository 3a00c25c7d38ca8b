import { describe, expect, it } from "vitest";
import { attachmentIdsOf, contentDisposition, extensionOf, formatFileSize, isRiskyFile, safeFilename } from "./files";

describe("attachment files (spec 002 §4 'Attachment download')", () => {
  it("warns for macro-capable, executable and unknown types, not for plain documents and images", () => {
    for (const name of [
      "a.docm",
      "b.XLSM",
      "c.pptm",
      "d.dotm",
      "e.xlam",
      "f.doc",
      "g.xls",
      "h.exe",
      "i.js",
      "noextension",
      "j.html",
    ]) {
      expect(isRiskyFile(name), name).toBe(true);
    }
    for (const name of ["a.pdf", "b.DOCX", "c.xlsx", "d.pptx", "e.png", "f.jpeg", "g.txt", "h.csv"]) {
      expect(isRiskyFile(name), name).toBe(false);
    }
    expect(extensionOf("Report.Final.PDF")).toBe("pdf");
  });

  it("formats sizes in bytes, KB and MB in the locale", () => {
    expect(formatFileSize(512, "en-GB")).toBe("512 bytes");
    expect(formatFileSize(2048, "en-GB")).toBe("2 kB");
    expect(formatFileSize(150 * 1024, "en-GB")).toBe("150 kB");
    expect(formatFileSize(3.5 * 1024 * 1024, "en-GB")).toBe("3.5 MB");
    expect(formatFileSize(null, "en-GB")).toBe("");
  });

  it("makes a name safe for a header", () => {
    expect(safeFilename("../a/b\u0000.pdf")).toBe(".._a_b.pdf");
    expect(safeFilename("   ")).toBe("attachment");
  });
});

describe('attachment routes (spec 002 §4 "Attachment download")', () => {
  it("takes two positive integers as the ids, and nothing else", () => {
    expect(attachmentIdsOf({ documentId: "12", docpartid: "3" })).toEqual({ documentId: 12, docpartid: 3 });
    expect(attachmentIdsOf({ documentId: "0", docpartid: "3" })).toBeNull();
    expect(attachmentIdsOf({ documentId: "12", docpartid: "-3" })).toBeNull();
    expect(attachmentIdsOf({ documentId: "1e3", docpartid: "3" })).toBeNull();
    expect(attachmentIdsOf({ documentId: "1234567890123", docpartid: "3" })).toBeNull();
    expect(attachmentIdsOf({ documentId: "12" })).toBeNull();
  });

  it("names the file for the browser in ASCII and in UTF-8 (RFC 6266)", () => {
    expect(contentDisposition("Valuation 2026.pdf")).toBe(
      `attachment; filename="Valuation 2026.pdf"; filename*=UTF-8''Valuation%202026.pdf`,
    );
    expect(contentDisposition('Prévision "net".pdf')).toBe(
      `attachment; filename="Pr_vision _net_.pdf"; filename*=UTF-8''${encodeURIComponent(safeFilename('Prévision "net".pdf'))}`,
    );
    // RFC 5987: the characters outside attr-char are percent-encoded; '%' never reaches the fallback
    expect(contentDisposition("Q3 (final)*'s 100%.pdf")).toBe(
      `attachment; filename="Q3 (final)*'s 100_.pdf"; filename*=UTF-8''Q3%20%28final%29%2A%27s%20100%25.pdf`,
    );
    expect(contentDisposition("statement=2026.pdf")).toBe(
      `attachment; filename="statement=2026.pdf"; filename*=UTF-8''statement%3D2026.pdf`,
    );
  });
});
