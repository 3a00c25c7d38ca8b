import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { documentListQuery, documentListUrl } from "~/planning/docnote.server";
import type { Site } from "~/planning/site.server";
import { importantPanelOf } from "./important-panel.server";
import { folderDefinitions, listFilter, messagesSettings, messagesToggles, unreadLabel } from "./view.server";

const t = ((key: string) => key) as unknown as TFunction;
const site = (settings: Site["settings"]): Site =>
  ({ version: null, firmName: "F", logo: null, logoOnWhite: null, memorableWordEnabled: false, chartColours: [], pages: {}, settings }) as Site;

describe("messages settings, folders and counts (spec 002 page, §6)", () => {
  it("reads the site settings with their defaults", () => {
    expect(messagesSettings(site({}))).toEqual({ heading: null, inboxName: null, customFolders: [], importantCategoryId: null, attachmentsDownloadable: true });
    const s = messagesSettings(
      site({ messagesHeading: "Secure mail", inboxName: "Received", messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]},{"name":"Bad"}]', importantCategoryId: 3, attachmentsDownloadable: false }),
    );
    expect(s).toEqual({ heading: "Secure mail", inboxName: "Received", customFolders: [{ name: "Valuations", codes: ["Valuation"] }], importantCategoryId: 3, attachmentsDownloadable: false });
    expect(messagesSettings(site({ messageFolders: "not json" })).customFolders).toEqual([]);
  });

  it("offers Sent and To be signed to clients only, Sent with one-way messaging only after sending", () => {
    const settings = messagesSettings(site({ messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]}]' }));
    const all = messagesToggles([{ name: "digital_signatures", enabled: true }]);
    const keys = (isClient: boolean, oneWay: boolean, hasSent: boolean) =>
      folderDefinitions({ t, settings, toggles: { ...all, oneWay }, isClient, importantCategoryId: 2, hasSent }).map((f) => f.key);
    expect(keys(true, false, false)).toEqual(["inbox", "important", "sent", "custom-1", "signature"]);
    expect(keys(true, true, false)).toEqual(["inbox", "important", "custom-1", "signature"]);
    expect(keys(true, true, true)).toContain("sent");
    expect(keys(false, false, true)).toEqual(["inbox", "important", "custom-1"]);
  });

  it("combines a custom folder's types with the type filter", () => {
    const folder = { key: "custom-1" as const, kind: "custom" as const, name: "V", filter: { doctype: ["Valuation", "Letter"] } };
    const base = { search: "tax", entityIds: [5], sort: "oldest" as const };
    expect(listFilter(folder, { ...base, type: null })).toMatchObject({ doctype: ["Valuation", "Letter"], subject: "tax", entityIds: [5], sort: "created_date" });
    expect(listFilter(folder, { ...base, type: "Letter" })?.doctype).toEqual(["Letter"]);
    expect(listFilter(folder, { ...base, type: "SecureMessage" })).toBeNull();
  });

  it("passes the created-date bounds that apply, and none when left out (spec 002 §5)", () => {
    const folder = { key: "inbox" as const, kind: "received" as const, name: "Inbox", filter: { docsubtypeExclude: "Client Initiated" } };
    const base = { type: null, search: "", entityIds: null, sort: "newest" as const };
    expect(listFilter(folder, { ...base, dates: { start: "2026-01-01", end: "2026-03-31" } })).toMatchObject({
      createdFrom: "2026-01-01",
      createdTo: "2026-03-31",
    });
    const open = listFilter(folder, { ...base, dates: { start: null, end: "2026-03-31" } });
    expect(open).toMatchObject({ createdTo: "2026-03-31" });
    expect(open?.createdFrom).toBeUndefined();
    const none = listFilter(folder, base);
    expect(none?.createdFrom).toBeUndefined();
    expect(none?.createdTo).toBeUndefined();
  });

  it("asks the platform for created_date.start_date and end_date (docs/platform-api.md)", () => {
    expect(documentListQuery({ createdFrom: "2026-01-01", createdTo: "2026-03-31" }, 21)).toMatchObject({
      "created_date.start_date": "2026-01-01",
      "created_date.end_date": "2026-03-31",
    });
    expect(documentListUrl({ createdFrom: "2026-01-01" }, 21)).toBe("docnote-v2?page_size=21&created_date.start_date=2026-01-01");
    const bare = documentListQuery({}, 21);
    expect(bare["created_date.start_date"]).toBeUndefined();
    expect(bare["created_date.end_date"]).toBeUndefined();
  });

  it("shows unread counts as '(n)' up to 20, then '(20+)', and none for zero", () => {
    expect(unreadLabel(3)).toBe("(3)");
    expect(unreadLabel(20)).toBe("(20)");
    expect(unreadLabel(21)).toBe("(20+)");
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(null)).toBeNull();
  });

  it("builds the home panel's links only for what is there", () => {
    expect(importantPanelOf({ important: 0, toBeSigned: null })).toBeNull();
    expect(importantPanelOf({ important: 21, toBeSigned: 1 })).toEqual({
      important: { count: "20+", href: "/clients/documents-and-messages?importantOnly=true" },
      toBeSigned: { count: "1", href: "/clients/documents-and-messages?toBeSigned=true" },
    });
  });
});
