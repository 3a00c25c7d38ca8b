import { z } from "zod/v4";
import { CLIENT_LIST_PAGE_SIZE, type ClientListSort, platformSortOf, toQuicksearch } from "~/lib/client-search";
import type { PlanningClient } from "./client.server";
import { toClientInContext } from "./session.server";
import type { SiteAccessLevel } from "~/lib/site-access";
import { ClientAccessLevel, clientAccessLevelOf, WireDate, WireDateTime } from "./wire";

// spec 002 §7 "Client list" and "Client in context": the adviser's clients and choosing one.

/** spec 002 §3 client list item (docs/platform-api.md, entity/client-v3). */
export const ClientListItem = z.object({
  id: z.number(),
  entity_name: z.string(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  display_name: z.string().nullish(),
  dob: WireDate.nullish(),
  last_login_datetime: WireDateTime.nullish(),
  user_id: z.number().nullish(),
  /**
   * null when the platform's level has no mapping (spec 000 §8 site-access errors): one such row
   * must not fail the whole list, and the row offers only a preview (advisers.clients).
   */
  client_access_level: ClientAccessLevel.nullable().catch(null),
  postcode: z.string().nullish(),
  email: z.string().nullish(),
  bookmark: z.string(),
});
export type ClientListItem = z.output<typeof ClientListItem>;
const ClientListItems = z.array(ClientListItem);

/** The platform's largest page (docs/platform-api.md, paging). */
const MAX_PLATFORM_PAGE = 100;

export type ClientSearch = {
  name?: string;
  /** ISO date (YYYY-MM-DD). */
  dob?: string | null;
  postcode?: string;
  sort: ClientListSort;
  /** How many pages of 20 to show. */
  pages: number;
};

export type ClientSearchResult = { clients: ClientListItem[]; hasMore: boolean };

/** The query of one client-v3 call (pure; tested). */
export function clientListQuery(search: Omit<ClientSearch, "pages">, pageSize: number, bookmark?: string | null) {
  return {
    quicksearch: toQuicksearch(search.name, search.dob),
    postcode: search.postcode?.trim() || undefined,
    page_size: pageSize,
    page_sort: platformSortOf(search.sort),
    page_bookmark: bookmark ?? undefined,
  };
}

/**
 * The first `pages` × 20 clients matching the search, and whether more remain.
 *
 * docs/decisions/031: the rows are asked for in as few calls as the platform's page limit (100)
 * allows, one row more than shown so that "more remain" is known without an empty extra page;
 * further calls (only beyond 100 rows) follow the last row's bookmark, so they are sequential.
 */
export async function searchClients(planning: PlanningClient, search: ClientSearch): Promise<ClientSearchResult> {
  const wanted = search.pages * CLIENT_LIST_PAGE_SIZE;
  const clients: ClientListItem[] = [];
  let bookmark: string | null = null;
  for (;;) {
    const pageSize = Math.min(MAX_PLATFORM_PAGE, wanted + 1 - clients.length);
    const page: ClientListItem[] = await planning.get("resourceful/entity/client-v3", ClientListItems, {
      query: clientListQuery(search, pageSize, bookmark),
    });
    clients.push(...page);
    if (page.length < pageSize || clients.length > wanted) break;
    bookmark = page[page.length - 1]!.bookmark;
  }
  return { clients: clients.slice(0, wanted), hasMore: clients.length > wanted };
}

const ClientInContextAnswer = z.object({
  id: z.number(),
  entity_id: z.number(),
  display_name: z.string(),
  last_login_datetime: WireDateTime.nullish(),
  user_timezone: z.string().nullish(),
  is_preview_mode: z.boolean(),
  client_access_level: ClientAccessLevel,
});
const SessionClientInContext = z.object({ client_in_context: ClientInContextAnswer.nullish() });

/** spec 002 §4 "Preview access": puts a client in context at a level; the platform decides preview. */
export async function setClientInContext(planning: PlanningClient, clientId: number, level: SiteAccessLevel) {
  const answer = await planning.put("resourceful/session/client_in_context", ClientInContextAnswer, {
    body: { client_id: clientId, client_access_level: clientAccessLevelOf(level) },
  });
  return toClientInContext(answer);
}

/** The client in context as the session knows it now (last login and time zone for the home page). */
export async function fetchClientInContext(planning: PlanningClient) {
  const user = await planning.get("resourceful/session/user", SessionClientInContext);
  return user.client_in_context ?? null;
}
