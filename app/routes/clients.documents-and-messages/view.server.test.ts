import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { Site } from "~/planning/site.server";
import { folderDefinitions, listFilter } from "./view.server";
import { messagesSettings, messagesToggles } from "~/planning/messages.server";

const t = ((key: string) => key) as unknown as TFunction;
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

describe("messages folders and list filters (spec 002 page, §6)", () => {
  it("offers Sent to clients only, with one-way messaging only after sending; To be signed to advisers too, read-only (decision 095)", () => {
    const settings = messagesSettings(
      site({ messageFolders: '[{"name":"Valuations","documentNoteTypes":["Valuation"]}]' }),
      "en-GB",
    );
    const all = messagesToggles([{ name: "digital_signatures", enabled: true }]);
    const keys = (isClient: boolean, oneWay: boolean, hasSent: boolean) =>
      folderDefinitions({ t, settings, toggles: { ...all, oneWay }, isClient, importantCategoryId: 2, hasSent }).map(
        (f) => f.key,
      );
    expect(keys(true, false, false)).toEqual(["inbox", "important", "sent", "custom-1", "signature"]);
    expect(keys(true, true, false)).toEqual(["inbox", "important", "custom-1", "signature"]);
    expect(keys(true, true, true)).toContain("sent");
    expect(keys(false, false, true)).toEqual(["inbox", "important", "custom-1", "signature"]);
    const off = folderDefinitions({
      t,
      settings,
      toggles: messagesToggles([]),
      isClient: true,
      importantCategoryId: 2,
      hasSent: true,
    }).map((f) => f.key);
    expect(off).not.toContain("signature");
  });

  it("combines a custom folder's types with the type filter", () => {
    const folder = {
      key: "custom-1" as const,
      kind: "custom" as const,
      name: "V",
      filter: { doctype: ["Valuation", "Letter"] },
    };
    const base = { search: "tax", entityIds: [5], sort: "oldest" as const };
    expect(listFilter(folder, { ...base, type: null })).toMatchObject({
      doctype: ["Valuation", "Letter"],
      subject: "tax",
      entityIds: [5],
      sort: "created_date",
    });
    expect(listFilter(folder, { ...base, type: "Letter" })?.doctype).toEqual(["Letter"]);
    expect(listFilter(folder, { ...base, type: "SecureMessage" })).toBeNull();
  });

  it("passes the created-date bounds that apply, and none when left out (spec 002 §5)", () => {
    const folder = {
      key: "inbox" as const,
      kind: "received" as const,
      name: "Inbox",
      filter: { docsubtypeExclude: "Client Initiated" },
    };
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
});
