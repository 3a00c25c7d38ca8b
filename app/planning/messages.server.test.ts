import { describe, expect, it } from "vitest";
import { attachmentsDownloadable, messagesSettings } from "./messages.server";
import type { Site } from "./site.server";

const site = (settings: Site["settings"]): Site =>
  ({
    version: null,
    firmName: "F",
    logo: null,
    logoOnWhite: null,
    memorableWordEnabled: false,
    chartColours: [],
    pages: {},
    settings,
  }) as Site;

describe('messages settings (docs/platform-api.md "Documents and messages")', () => {
  it("reads the site settings with their defaults", () => {
    expect(messagesSettings(site({}), "en-GB")).toEqual({
      heading: null,
      inboxName: null,
      customFolders: [],
      importantCategoryId: null,
      attachmentsDownloadable: true,
      typeName: expect.any(Function),
    });
    const s = messagesSettings(
      site({
        messagesHeading: "Secure mail",
        inboxName: "Received",
        messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]},{"name":"Bad"}]',
        importantCategoryId: 3,
        attachmentsDownloadable: false,
      }),
      "en-GB",
    );
    expect(s).toEqual({
      heading: "Secure mail",
      inboxName: "Received",
      customFolders: [{ name: "Valuations", codes: ["Valuation"], lang: null }],
      importantCategoryId: 3,
      attachmentsDownloadable: false,
      typeName: expect.any(Function),
    });
    expect(messagesSettings(site({ messageFolders: "not json" }), "en-GB").customFolders).toEqual([]);
  });

  it("names the document types in the page's language, English marked where the site has none (decision 210)", () => {
    const settings = { "documentTypeNames.fr-CA": JSON.stringify({ "Secure Message": "Message sécurisé" }) };
    const french = messagesSettings(site(settings), "fr-CA").typeName!;
    expect(french("Secure Message")).toEqual({ text: "Message sécurisé", lang: null });
    expect(french("Letter")).toEqual({ text: "Letter", lang: "en" });
    expect(messagesSettings(site(settings), "en-AU").typeName!("Secure Message")).toEqual({
      text: "Secure Message",
      lang: null,
    });
  });

  it("gives each locale the page's names in its own language (issue 25 item 3, decision 119)", () => {
    const settings = {
      messagesHeading: "Messages and documents",
      "messagesHeading.fr-CA": "Messages et documents",
      inboxName: "Inbox",
      messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]}]',
      "messageFolders.fr-CA": '[{"name":"Évaluations","documentNoteTypes":["Valuation"]}]',
    };
    // the locale's own variant wins
    const fr = messagesSettings(site(settings), "fr-CA");
    expect(fr.heading).toBe("Messages et documents");
    expect(fr.customFolders).toEqual([{ name: "Évaluations", codes: ["Valuation"], lang: null }]);
    // the plain setting is in the site's language (English): not over a French page's own text
    expect(fr.inboxName).toBeNull();
    expect(messagesSettings(site({ messagesHeading: "Secure mail" }), "fr-CA").heading).toBeNull();
    // an English-only folder name has no translation: kept, and marked as English
    expect(messagesSettings(site({ messageFolders: settings.messageFolders }), "fr-CA").customFolders).toEqual([
      { name: "Valuations", codes: ["Valuation"], lang: "en" },
    ]);
    // every English locale takes the plain setting
    for (const locale of ["en-GB", "en-AU", "en-CA"] as const) {
      expect(messagesSettings(site(settings), locale)).toMatchObject({
        heading: "Messages and documents",
        inboxName: "Inbox",
      });
    }
  });

  it("downloads attachments unless the site says they cannot be (spec 002 §4)", () => {
    expect(attachmentsDownloadable(site({}))).toBe(true);
    expect(attachmentsDownloadable(site({ attachmentsDownloadable: "false" }))).toBe(false);
  });
});
