import { describe, expect, it } from "vitest";
import * as portal from "~/lib/attachments";
import { contentMatchesName as portalContentMatches } from "~/lib/attachment-content.server";
import * as platform from "../../server/lib/attachments";
import { SAMPLES, wordDocument, workbook } from "../sample-files";

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
    let allowed = 0;
    const samples = [...Object.values(SAMPLES).map((make) => make()), wordDocument(), wordDocument(true), workbook()];
    for (const bytes of samples) {
      for (const ext of extensions) {
        const name = `file.${ext}`;
        const verdict = await portalContentMatches(name, bytes);
        expect(await platform.contentMatchesName(name, bytes), `${name}`).toBe(verdict);
        if (verdict) allowed += 1;
      }
    }
    // the samples do match some names: the comparison is not between two refusals only
    expect(allowed).toBeGreaterThan(0);
  });
});
