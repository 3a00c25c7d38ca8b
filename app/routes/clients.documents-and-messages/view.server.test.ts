import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { Site } from "~/planning/site.server";
import { type PlanningClient, PlanningError, type Settled } from "~/planning/client.server";
import type { DocumentAnswer } from "~/planning/docnote.server";
import { fetchFolderContents, folderDefinitions, type FolderDefinition, listFilter } from "./view.server";
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
  it("offers Sent and To be signed to clients only, Sent with one-way messaging only after sending (decision 197)", () => {
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
    expect(keys(false, false, true)).toEqual(["inbox", "important", "custom-1"]);
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
      // decision 209: the words of the subject, the body and the attachments' names
      text: "tax",
      entityIds: [5],
      sort: "created_date",
    });
    expect(listFilter(folder, { ...base, type: null })?.subject).toBeUndefined();
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

describe("the folder's contents in one round trip (decision 175)", () => {
  const folder = { key: "inbox", kind: "received", name: "Inbox", filter: {} } as FolderDefinition;
  const toggles = { ...messagesToggles([{ name: "digital_signatures", enabled: true }]), documentTypeFilter: true };
  const requests = {
    pages: 1,
    counted: { inbox: { filter: { unreadOnly: true }, pageSize: 21 }, hasSent: { filter: {}, pageSize: 1 } },
    members: [7],
  };
  const doc = (id: number) => ({ id }) as unknown as DocumentAnswer;
  /** A planning client whose settled batch answers `answers` (or fails with `failure`), recording what was asked. */
  const planningOf = (answers: Record<string, Settled<unknown>>, failure?: PlanningError) => {
    const asked: string[][] = [];
    const gets: unknown[] = [];
    const planning = {
      batchSettled: (items: Record<string, { url: string }>) => {
        asked.push(Object.values(items).map((i) => i.url));
        return failure ? Promise.reject(failure) : Promise.resolve(answers);
      },
      get: (path: string, _schema: unknown, opts: unknown) => {
        gets.push({ path, opts });
        return Promise.resolve([]);
      },
    } as unknown as PlanningClient;
    return { planning, asked, gets };
  };
  const ok = <V>(value: V): Settled<V> => ({ ok: true, value });
  const failed = (status: number): Settled<never> => ({ ok: false, error: new PlanningError(status, null) });

  it("asks for the list, each count, the types and the signature items at once, and reads each answer", async () => {
    const { planning, asked, gets } = planningOf({
      list: ok([doc(1), doc(2)]),
      count0: ok({ count: 30 }),
      count1: ok({ count: 0 }),
      types: ok([{ code: "Letter", name: "Letter" }]),
      signatures: ok([]),
    });
    const [page, counts, types, signatures] = await fetchFolderContents(planning, folder, {}, requests, toggles);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toHaveLength(5);
    expect(asked[0]![0]).toMatch(/^docnote-v2\?page_size=21/);
    expect(asked[0]![3]).toBe("docnote-v2/doctype?member_ids=7");
    expect(gets).toEqual([]);
    expect(page).toEqual({ documents: [doc(1), doc(2)], hasMore: false, extra: null });
    // a count is capped by its page size, as a page of rows would be ('20+' is 21)
    expect(counts).toEqual({ inbox: 21, hasSent: 0 });
    expect(types).toEqual([{ code: "Letter", name: "Letter" }]);
    expect(signatures).toEqual([]);
  });

  it("does without a count, the types or the signature items that failed, and fails with the list", async () => {
    const others = { count0: failed(500), count1: ok({ count: 1 }), types: failed(403), signatures: failed(502) };
    const { planning } = planningOf({ list: ok([doc(1)]), ...others });
    const [page, counts, types, signatures] = await fetchFolderContents(planning, folder, {}, requests, toggles);
    expect(page.documents).toEqual([doc(1)]);
    expect(counts).toEqual({ inbox: null, hasSent: 1 });
    expect(types).toBeNull();
    expect(signatures).toBeNull();

    const listFailed = planningOf({ list: failed(404), ...others });
    await expect(fetchFolderContents(listFailed.planning, folder, {}, requests, toggles)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("follows the list beyond its first page, and without a list does without everything when the trip fails", async () => {
    const full = Array.from({ length: 100 }, (_, i) => ({ ...doc(i), bookmark: `b${i}` }) as unknown as DocumentAnswer);
    const { planning, gets } = planningOf({ list: ok(full) });
    const many = await fetchFolderContents(planning, folder, {}, { ...requests, pages: 6, counted: {} }, toggles);
    expect(gets).toHaveLength(1);
    expect(JSON.stringify(gets[0])).toContain('"page_bookmark":"b99"');
    expect(many[0].documents).toHaveLength(100);

    const signatureFolder = { ...folder, kind: "digitalSignatures" } as FolderDefinition;
    const down = planningOf({}, new PlanningError(0, null));
    const [page, counts, types, signatures] = await fetchFolderContents(
      down.planning,
      signatureFolder,
      {},
      requests,
      toggles,
    );
    expect(down.asked[0]!.some((url) => url.startsWith("docnote-v2?"))).toBe(false);
    expect([page.documents, counts, types, signatures]).toEqual([[], { inbox: null, hasSent: null }, null, null]);
    const withList = planningOf({}, new PlanningError(0, null));
    await expect(fetchFolderContents(withList.planning, folder, {}, requests, toggles)).rejects.toBeInstanceOf(
      PlanningError,
    );
  });
});
