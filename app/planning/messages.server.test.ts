import { describe, expect, it } from "vitest";
import { attachmentsDownloadable, messagesSettings } from "./messages.server";
import type { Site } from "./site.server";

const site = (settings: Site["settings"]): Site =>
  ({ version: null, firmName: "F", logo: null, logoOnWhite: null, memorableWordEnabled: false, chartColours: [], pages: {}, settings }) as Site;

describe("messages settings (docs/platform-api.md \"Documents and messages\")", () => {
  it("reads the site settings with their defaults", () => {
    expect(messagesSettings(site({}))).toEqual({ heading: null, inboxName: null, customFolders: [], importantCategoryId: null, attachmentsDownloadable: true });
    const s = messagesSettings(
      site({ messagesHeading: "Secure mail", inboxName: "Received", messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]},{"name":"Bad"}]', importantCategoryId: 3, attachmentsDownloadable: false }),
    );
    expect(s).toEqual({ heading: "Secure mail", inboxName: "Received", customFolders: [{ name: "Valuations", codes: ["Valuation"] }], importantCategoryId: 3, attachmentsDownloadable: false });
    expect(messagesSettings(site({ messageFolders: "not json" })).customFolders).toEqual([]);
  });


  it("downloads attachments unless the site says they cannot be (spec 002 §4)", () => {
    expect(attachmentsDownloadable(site({}))).toBe(true);
    expect(attachmentsDownloadable(site({ attachmentsDownloadable: "false" }))).toBe(false);
  });
});
