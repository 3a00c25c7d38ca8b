import type { SiteAccessLevel } from "./site-access";
import { parseShortDate, shortDatePattern } from "./format";

// spec 002 "Adviser client list", §4 "Adviser client list flow" and "Preview access", §5 "Client
// search", §9 "Client list": the search form's rules and the list's URL state, shared by the
// loader, the action and the browser.

/** spec 002 §9: the list grows by 20 rows per 'Load more...'. */
export const CLIENT_LIST_PAGE_SIZE = 20;
/** A bookmarked URL cannot ask for more than this many pages (1,000 rows). */
export const CLIENT_LIST_MAX_PAGES = 50;
export const NAME_MAX_LENGTH = 200;
export const POSTCODE_MAX_LENGTH = 20;

/**
 * A validation message with values, as an i18n key the form components translate: i18next's
 * nesting (`$t(key, {...})`) interpolates the values when the key is translated.
 */
export function messageWithValues(key: string, values: Record<string, string>): string {
  const safe = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replace(/[(),"{}]/g, "")]));
  return `$t(${key}, ${JSON.stringify(safe)})`;
}

export type DateRules = {
  /** The locale's short date format as the user reads it (shown as the hint and in the message). */
  pattern: string;
  /** Strict parse in that format: the ISO date (YYYY-MM-DD), or null when it does not parse. */
  parse: (value: string) => string | null;
};

/**
 * spec 002 §5 and docs/platform-api.md: the name and the date of birth travel together as the
 * quicksearch, the date as YYYYMMDD ("Hartley 19720314"). Empty when neither is given.
 */
export function toQuicksearch(name: string | undefined, dobIso: string | null | undefined): string {
  const words = [name?.trim(), dobIso ? dobIso.replaceAll("-", "") : undefined].filter(Boolean);
  return words.join(" ");
}

// ── sort ─────────────────────────────────────────────────────────────────────────────────────

export const CLIENT_LIST_SORTS = ["name", "-name", "dob", "-dob"] as const;
export type ClientListSort = (typeof CLIENT_LIST_SORTS)[number];
export type SortColumn = "name" | "dob";
/** spec 002 §9: sorted by entity_name by default. */
export const DEFAULT_SORT: ClientListSort = "name";

export function parseSort(value: string | null | undefined): ClientListSort {
  return (CLIENT_LIST_SORTS as readonly string[]).includes(value ?? "") ? (value as ClientListSort) : DEFAULT_SORT;
}

/** The platform's page_sort for a sort. */
export function platformSortOf(sort: ClientListSort): "entity_name" | "-entity_name" | "dob" | "-dob" {
  switch (sort) {
    case "name":
      return "entity_name";
    case "-name":
      return "-entity_name";
    default:
      return sort;
  }
}

/** spec 002: a column's header toggles ascending and descending; another column starts ascending. */
export function nextSort(current: ClientListSort, column: SortColumn): ClientListSort {
  if (current === column) return `-${column}`;
  return column;
}

/** The column's aria-sort value, or undefined when the list is not sorted by it. */
export function ariaSortOf(current: ClientListSort, column: SortColumn): "ascending" | "descending" | undefined {
  if (current === column) return "ascending";
  if (current === `-${column}`) return "descending";
  return undefined;
}

// ── URL state ────────────────────────────────────────────────────────────────────────────────

/** spec 002 §4: before the first search nothing is listed. A submitted form always sends the fields. */
export function hasSearched(params: URLSearchParams): boolean {
  return params.has("name") || params.has("dob") || params.has("postcode");
}

/** How many pages of 20 the URL asks for (1 when absent or not a number). */
export function parsePages(value: string | null | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, CLIENT_LIST_MAX_PAGES);
}

export type ListState = { name?: string; dob?: string; postcode?: string; sort: ClientListSort; pages: number };

/** The list's URL for a state: the search as typed, the sort and the pages (defaults left out). */
export function clientListHref(state: ListState, hash?: string): string {
  const params = new URLSearchParams();
  params.set("name", state.name ?? "");
  params.set("dob", state.dob ?? "");
  params.set("postcode", state.postcode ?? "");
  if (state.sort !== DEFAULT_SORT) params.set("sort", state.sort);
  if (state.pages > 1) params.set("pages", String(state.pages));
  return `/advisers/clients?${params.toString()}${hash ? `#${hash}` : ""}`;
}

/** spec 002 "Adviser client list": the table's caption. */
export function captionOf(shown: number, hasMore: boolean): { key: string; count?: number } {
  return hasMore
    ? { key: "advisers:clientList.caption.first", count: shown }
    : { key: "advisers:clientList.caption.all" };
}

// ── portal view and preview (spec 000 §3, 002 §4 "Preview access") ─────────────────────────

export const PORTAL_VIEWS = ["Portfolio", "Assets", "Messages"] as const;
export type PortalView = (typeof PORTAL_VIEWS)[number];

/** NotAssigned is shown (and chosen) as Messages. */
export function portalViewOf(level: SiteAccessLevel): PortalView {
  return level === "NotAssigned" ? "Messages" : level;
}

/**
 * The level to put in context for a choice: the client's own level when the choice is how that
 * level is shown (so a NotAssigned client opened as Messages is not a preview), else the choice.
 */
export function accessLevelToSend(choice: PortalView, own: SiteAccessLevel): SiteAccessLevel {
  return portalViewOf(own) === choice ? own : choice;
}

/** Preview mode: the client has no login, or the chosen view differs from the client's own. */
export function isPreviewChoice(client: { hasLogin: boolean; own: SiteAccessLevel }, choice: PortalView): boolean {
  return !client.hasLogin || portalViewOf(client.own) !== choice;
}

/** The date rules of a locale: its short format, shown and parsed strictly (app/lib/format.ts). */
export function dateRulesFor(locale: string): DateRules {
  return { pattern: shortDatePattern(locale), parse: (value) => parseShortDate(value, locale) };
}
