// The documents-and-messages page's state is its query (spec 002 "Documents and messages page",
// design "URL state"): view, folder, entity, sort, document type, search, created-date range,
// pages, the open message and its size. Pure: shared by the server and the browser.
import { PAGE_PATHS } from "~/lib/navigation";
import { parseDisplayDate } from "~/lib/date-range";

export const MESSAGES_PATH = PAGE_PATHS.documentsAndMessages;

/** spec 002 §9 sort options, by a readable URL value; the first is the default. */
export const MESSAGE_SORTS = {
  newest: "-created_date",
  oldest: "created_date",
  "reference-newest": "-reference_date",
  "reference-oldest": "reference_date",
  "subject-az": "subject",
  "subject-za": "-subject",
} as const;
export type MessageSort = keyof typeof MESSAGE_SORTS;
export const DEFAULT_MESSAGE_SORT: MessageSort = "newest";
export const MESSAGE_SORT_KEYS = Object.keys(MESSAGE_SORTS) as MessageSort[];

/** Folders: the fixed ones and the site's custom folders by position (`custom-1` is the first). */
export type FolderKey = "inbox" | "important" | "sent" | "signature" | `custom-${number}`;
const FOLDER = /^(inbox|important|sent|signature|custom-[1-9]\d?)$/;

export type MessagesView = "messages" | "compose" | "reply" | "invalid";
const VIEWS = new Set(["messages", "compose", "reply"]);

/** How many pages of 20 can be asked for in one URL (docs/decisions/031: the same cap). */
export const MAX_PAGES = 50;
export const MAX_SEARCH_LENGTH = 255;
/** A date as typed is kept (and echoed back) up to this length; a real one is 10 characters. */
export const MAX_DATE_TEXT_LENGTH = 30;

export type MessagesQuery = {
  view: MessagesView;
  /** The message replied to (view reply). */
  replyTo: number | null;
  folder: FolderKey;
  /** 'Show messages for': a member's entity id; null is the default (the client). */
  entity: number | null;
  sort: MessageSort;
  /** A document type code; null is 'All'. */
  type: string | null;
  search: string;
  /**
   * spec 002 §5 "Date range pickers": the created-date range as given (yyyy-MM-dd from a date
   * input, or typed), kept as written so that a wrong value is shown back; '' is no bound.
   * checkDateRange says which bounds apply.
   */
  from: string;
  to: string;
  pages: number;
  /** The message open in the reading pane. */
  message: number | null;
  expanded: boolean;
};

export const DEFAULT_MESSAGES_QUERY: MessagesQuery = {
  view: "messages",
  replyTo: null,
  folder: "inbox",
  entity: null,
  sort: DEFAULT_MESSAGE_SORT,
  type: null,
  search: "",
  from: "",
  to: "",
  pages: 1,
  message: null,
  expanded: false,
};

function positiveId(value: string | null): number | null {
  if (!value || !/^[1-9]\d{0,11}$/.test(value)) return null;
  return Number(value);
}

function dateText(value: string | null): string {
  return (value ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_DATE_TEXT_LENGTH);
}

/** A real calendar date written yyyy-MM-dd (4-digit year from 0001), else null. */
export function isoDate(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return year >= 1 && days !== undefined && day >= 1 && day <= days ? text : null;
}

/**
 * A typed filter date: DD-MM-YYYY, the portal's one date field (issue 25 item 18,
 * docs/decisions/116-form-errors-after-a-submit.md), or yyyy-MM-dd (the spec's value format, and the
 * addresses bookmarked before the field changed); yyyy-MM-dd, or null.
 */
export function filterDate(text: string): string | null {
  return isoDate(text) ?? parseDisplayDate(text);
}

/** The i18n keys (namespace `messages`) of the date range's errors. */
export const DATE_ERRORS = {
  invalid: "messages:dates.invalid",
  endBeforeStart: "messages:dates.endBeforeStart",
} as const;

export type DateRangeCheck = {
  /** The bounds that apply (yyyy-MM-dd, both included); null is no bound. */
  start: string | null;
  end: string | null;
  /** An error per field, as an i18n key; null when the field is empty or right. */
  errors: { from: string | null; to: string | null };
};

/**
 * spec 002 §5 "Date range pickers" and §9 "Date filters": empty is no bound (the default start
 * 100 years ago and end today ask for nothing more); a value that is not a real date (DD-MM-YYYY, or
 * yyyy-MM-dd) is refused and that bound left out; an end before the start is refused, beside the end, and
 * the range left out altogether.
 */
export function checkDateRange(from: string, to: string): DateRangeCheck {
  const start = from ? filterDate(from) : null;
  const end = to ? filterDate(to) : null;
  const errors = { from: from && !start ? DATE_ERRORS.invalid : null, to: to && !end ? DATE_ERRORS.invalid : null };
  if (start && end && end < start)
    return { start: null, end: null, errors: { ...errors, to: DATE_ERRORS.endBeforeStart } };
  return { start, end, errors };
}

export function readMessagesQuery(url: URL): MessagesQuery {
  const p = url.searchParams;
  const replyTo = positiveId(p.get("reply"));
  const viewParam = p.get("view");
  let view: MessagesView = "messages";
  if (viewParam !== null && !VIEWS.has(viewParam)) view = "invalid";
  else if (viewParam === "compose" || p.get("compose") === "true") view = "compose";
  else if (viewParam === "reply" || p.get("reply") !== null) view = replyTo ? "reply" : "invalid";

  // spec 002 "On load": importantOnly=true opens Important, toBeSigned=true the signature folder
  let folder: FolderKey = "inbox";
  const folderParam = p.get("folder") ?? "";
  if (FOLDER.test(folderParam)) folder = folderParam as FolderKey;
  else if (p.get("importantOnly") === "true") folder = "important";
  else if (p.get("toBeSigned") === "true") folder = "signature";

  const sortParam = p.get("sort") ?? "";
  const sort = (MESSAGE_SORT_KEYS as string[]).includes(sortParam) ? (sortParam as MessageSort) : DEFAULT_MESSAGE_SORT;
  const typeParam = (p.get("type") ?? "").trim();
  const type = typeParam && typeParam !== "All" && /^[\w .&/()-]{1,60}$/.test(typeParam) ? typeParam : null;
  const search = (p.get("search") ?? "").normalize("NFC").replace(/\s+/g, " ").trim().slice(0, MAX_SEARCH_LENGTH);
  const from = dateText(p.get("from"));
  const to = dateText(p.get("to"));
  const pagesParam = Number(p.get("pages"));
  const pages = Number.isInteger(pagesParam) && pagesParam > 1 ? Math.min(pagesParam, MAX_PAGES) : 1;
  const message = positiveId(p.get("message"));
  return {
    view,
    replyTo: view === "reply" ? replyTo : null,
    folder,
    entity: positiveId(p.get("entity")),
    sort,
    type,
    search,
    from,
    to,
    pages,
    message,
    expanded: message !== null && p.get("expanded") === "true",
  };
}

/** The query as URL parameters, defaults left out so that URLs stay short. */
export function messagesParams(query: MessagesQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.view === "compose") params.set("compose", "true");
  if (query.view === "reply" && query.replyTo) params.set("reply", String(query.replyTo));
  if (query.folder !== "inbox") params.set("folder", query.folder);
  if (query.entity !== null) params.set("entity", String(query.entity));
  if (query.sort !== DEFAULT_MESSAGE_SORT) params.set("sort", query.sort);
  if (query.type) params.set("type", query.type);
  if (query.search) params.set("search", query.search);
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (query.pages > 1) params.set("pages", String(query.pages));
  if (query.message !== null) params.set("message", String(query.message));
  if (query.message !== null && query.expanded) params.set("expanded", "true");
  return params;
}

/** The page's URL with some of its query changed. */
export function messagesHref(query: MessagesQuery, change: Partial<MessagesQuery> = {}, hash = ""): string {
  const search = messagesParams({ ...query, ...change }).toString();
  return `${MESSAGES_PATH}${search ? `?${search}` : ""}${hash ? `#${hash}` : ""}`;
}

/** The list's own state, without the view, the open message or its size (the Close link). */
export function listQuery(query: MessagesQuery): MessagesQuery {
  return { ...query, view: "messages", replyTo: null, message: null, expanded: false };
}
