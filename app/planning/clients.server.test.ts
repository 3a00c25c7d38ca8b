import { describe, expect, it } from "vitest";
import { createPlanningClient } from "./client.server";
import { searchClients } from "./clients.server";

// spec 002 "Adviser client list flow": "Paging continues via bookmark until fewer than 20 are
// returned" (docs/decisions/031: as few calls as the platform's page limit of 100 allows, then the
// last row's bookmark). A fake platform of `total` clients that pages by bookmark as the real one.

function platformOf(total: number) {
  const clients = Array.from({ length: total }, (_, i) => ({
    id: i + 1,
    entity_name: `Client ${String(i + 1).padStart(4, "0")}`,
    client_access_level: 1,
    bookmark: `b${i + 1}`,
  }));
  const calls: Array<{ size: number; bookmark: string | null }> = [];
  const planning = createPlanningClient({
    baseUrl: "http://platform.test",
    retryDelayMs: 0,
    fetch: async (input) => {
      const url = new URL(String(input));
      const size = Number(url.searchParams.get("page_size"));
      const bookmark = url.searchParams.get("page_bookmark");
      calls.push({ size, bookmark });
      const from = bookmark ? clients.findIndex((c) => c.bookmark === bookmark) + 1 : 0;
      return new Response(JSON.stringify(clients.slice(from, from + size)), {
        headers: { "Content-Type": "application/json" },
      });
    },
  });
  return { planning, calls };
}

const search = (pages: number) => ({ name: "Client", sort: "name" as const, pages });

describe("searchClients: Load more by bookmark", () => {
  it("asks for one row more than it shows, in one call up to the platform's page of 100", async () => {
    const { planning, calls } = platformOf(250);
    const first = await searchClients(planning, search(1));
    expect(first.clients.map((c) => c.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(first.hasMore).toBe(true);
    expect(calls).toEqual([{ size: 21, bookmark: null }]);
  });

  it("follows the last row's bookmark past 100 rows, without gaps or repeats", async () => {
    const { planning, calls } = platformOf(250);
    const six = await searchClients(planning, search(6));
    expect(six.clients.map((c) => c.id)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(six.hasMore).toBe(true);
    expect(calls).toEqual([
      { size: 100, bookmark: null },
      { size: 21, bookmark: "b100" },
    ]);
  });

  it("ends when the platform returns fewer than asked for: no more to load", async () => {
    const { planning, calls } = platformOf(230);
    const all = await searchClients(planning, search(12));
    expect(all.clients).toHaveLength(230);
    expect(all.hasMore).toBe(false);
    expect(calls).toEqual([
      { size: 100, bookmark: null },
      { size: 100, bookmark: "b100" },
      { size: 41, bookmark: "b200" },
    ]);
    // exactly a page's worth left: 'Load more' is not offered for an empty page
    const exact = platformOf(40);
    const two = await searchClients(exact.planning, search(2));
    expect(two).toMatchObject({ hasMore: false });
    expect(two.clients).toHaveLength(40);
  });
});
