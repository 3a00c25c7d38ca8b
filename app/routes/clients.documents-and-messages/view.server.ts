import type { TFunction } from "i18next";
import type { Locale } from "~/lib/i18n";
import { formatDate, formatLastLogin } from "~/lib/format-date.server";
import { logger } from "~/runtime/logger.server";
import { unreadLabel } from "~/lib/navigation";
import { type PlanningClient, PlanningError, isLostSession, type Settled } from "~/planning/client.server";
import {
  CLIENT_INITIATED,
  documentCountItem,
  type DocumentAnswer,
  type DocumentDetailAnswer,
  type DocumentFilter,
  fetchDocument,
  fetchDocumentBody,
  documentListItem,
  documentTypesItem,
  type DocumentTypeAnswer,
  fetchMessagesBasics,
  listDocuments,
  markFirstRead,
  MESSAGES_PAGE_SIZE,
  type SearchMatch,
  UNREAD_PAGE_SIZE,
} from "~/planning/docnote.server";
import {
  messagesSettings,
  type MessagesSettings,
  messagesToggles,
  type MessagesToggles,
} from "~/planning/messages.server";
import type { Site } from "~/planning/site.server";
import { type SignatureItem, signatureItemsItem } from "~/planning/signature.server";
import {
  awaitsAction,
  badgeOf,
  dayIn,
  finishedAt,
  folderOrder,
  SIGNATURES_PATH,
  STATUS,
} from "~/lib/messages/signature";
import { formatFileSize, isRiskyFile } from "~/lib/messages/files";
import {
  checkDateRange,
  type DateRangeCheck,
  type FolderKey,
  listQuery,
  MESSAGE_SORT_KEYS,
  MESSAGE_SORTS,
  type MessageSort,
  messagesHref,
  type MessagesQuery,
} from "~/lib/messages/query";
import { sanitiseMessageBody } from "~/lib/sanitise.server";
import { byName } from "~/lib/collation";
import type { Worded } from "~/lib/site-words";

// spec 002 "Documents and messages page", §4 "Reading and listing messages", §6 roles: the page's
// view model, built on the server from parallel platform calls (docs/decisions/080).

/** Where the portal serves the platform's images (relative image sources of message bodies). */
export const MESSAGE_IMAGES_PATH = "/clients/documents-and-messages/images";

/** spec 002 §3 "Folder": its kind, name and the list query it stands for. */
export type FolderDefinition = {
  key: FolderKey;
  kind: "received" | "important" | "sent" | "custom" | "digitalSignatures";
  name: string;
  /** The name's language when it is not the page's (a custom folder named by the site in English). */
  lang?: string;
  filter: DocumentFilter;
};

/**
 * spec 002 "Folders" and §6: Inbox, Important only (when a category is configured or named
 * 'Important'), Sent (clients, unless one-way messaging is on and the client has sent nothing),
 * the site's custom folders, To be signed (clients, with digital signatures on).
 */
export function folderDefinitions(input: {
  t: TFunction;
  settings: MessagesSettings;
  toggles: MessagesToggles;
  isClient: boolean;
  importantCategoryId: number | null;
  hasSent: boolean;
}): FolderDefinition[] {
  const { t, settings, toggles, isClient } = input;
  const folders: FolderDefinition[] = [
    {
      key: "inbox",
      kind: "received",
      name: settings.inboxName ?? t("folders.inbox"),
      filter: { docsubtypeExclude: CLIENT_INITIATED },
    },
  ];
  if (input.importantCategoryId !== null) {
    folders.push({
      key: "important",
      kind: "important",
      name: t("folders.important"),
      filter: { categories: [input.importantCategoryId] },
    });
  }
  if (isClient && (!toggles.oneWay || input.hasSent)) {
    folders.push({ key: "sent", kind: "sent", name: t("folders.sent"), filter: { docsubtype: CLIENT_INITIATED } });
  }
  settings.customFolders.forEach((f, i) => {
    folders.push({
      key: `custom-${i + 1}`,
      kind: "custom",
      name: f.name,
      ...(f.lang ? { lang: f.lang } : {}),
      filter: { doctype: f.codes },
    });
  });
  // spec 002 §6: the signature folder is for ClientUser only; an adviser in context has none (decision 197)
  if (toggles.digitalSignatures && isClient) {
    folders.push({
      key: "signature",
      kind: "digitalSignatures",
      name: t("folders.signature"),
      filter: { signatureStatus: "Pending" },
    });
  }
  return folders;
}

/** The list query of a folder with the page's filters (type, search, created dates, entity, sort). */
export function listFilter(
  folder: FolderDefinition,
  filters: {
    type: string | null;
    search: string;
    entityIds: number[] | null;
    sort: MessageSort;
    /** The created-date bounds that apply (checkDateRange); none when left out. */
    dates?: Pick<DateRangeCheck, "start" | "end">;
  },
): DocumentFilter | null {
  let doctype = folder.filter.doctype;
  if (filters.type) {
    // a type outside a custom folder's types leaves nothing to list
    if (doctype && !doctype.includes(filters.type)) return null;
    doctype = [filters.type];
  }
  return {
    ...folder.filter,
    doctype,
    // decision 209: the words of the subject, the body and the attachments' names
    text: filters.search || undefined,
    entityIds: filters.entityIds ?? undefined,
    createdFrom: filters.dates?.start ?? undefined,
    createdTo: filters.dates?.end ?? undefined,
    sort: MESSAGE_SORTS[filters.sort],
  };
}

export type MessageListItem = {
  id: number;
  subject: string;
  date: string;
  from: string | null;
  type: string | null;
  /** The type's language where the site has no name in the page's (decision 210). */
  typeLang: "en" | null;
  href: string;
  current: boolean;
  unread: boolean;
  adviserOnly: boolean;
  relatedEntity: boolean;
  awaitingSignature: boolean;
  attachmentCount: number;
  /** spec 002 §4 "Badge": a signature item's status. */
  badge?: { text: string; tone: string } | null;
  /** Where a search matched (decision 209): the subject's parts, a snippet of the body, attachments' names. */
  found?: {
    subject: MatchPart[] | null;
    body: MatchPart[] | null;
    attachments: MatchPart[][];
  } | null;
};

/** A piece of a searched text; `match` when it is what was searched for (shown marked). */
export type MatchPart = { text: string; match: boolean };

/** Where a document found by a search matched, as the list shows it; null when it was not searched for. */
function foundOf(matches: DocumentAnswer["search_matches"]): MessageListItem["found"] {
  if (!matches?.length) return null;
  const parts = (field: SearchMatch["field"]) => matches.filter((m) => m.field === field).map((m) => m.parts);
  return {
    subject: parts("subject")[0] ?? null,
    body: parts("body")[0] ?? null,
    attachments: parts("attachment"),
  };
}

export type MessageAttachment = {
  docpartid: number;
  filename: string;
  size: string;
  /** The confirmation page (without JavaScript). */
  href: string;
  /** The file itself, after confirming; null when downloads are not allowed here. */
  fileHref: string | null;
  risky: boolean;
};

export type ReadingPane =
  | {
      state: "ok";
      id: number;
      subject: string;
      date: string;
      from: string | null;
      type: string | null;
      typeLang: "en" | null;
      bodyHtml: string;
      attachments: MessageAttachment[];
      signatureStatus: string | null;
      /** The signature page of the item this message carries: the document, its signatures and the signed copy (issue 25 item 11). */
      signatureHref: string | null;
      adviserOnly: boolean;
      relatedEntity: boolean;
      expanded: boolean;
      closeHref: string;
      sizeHref: string;
      previousHref: string | null;
      nextHref: string | null;
      replyHref: string | null;
    }
  | { state: "notFound"; closeHref: string };

export type FolderLink = {
  key: FolderKey;
  name: string;
  lang: string | null;
  href: string;
  current: boolean;
  unread: string | null;
};

export type MessagesView = {
  heading: string;
  isClient: boolean;
  folders: FolderLink[];
  folder: { key: FolderKey; name: string; lang: string | null; kind: FolderDefinition["kind"] };
  entityFilter: { options: Array<{ id: number; name: string }>; selected: number } | null;
  typeFilter: {
    options: Array<{ code: string; name: string; lang: "en" | null }>;
    selected: string | null;
  } | null;
  /**
   * spec 002 §5 "Date range pickers": the created-date range as typed (shown back in the inputs)
   * and each field's error as an i18n key; a refused bound does not filter the list.
   */
  dateFilter: { from: string; to: string; errors: DateRangeCheck["errors"] };
  sortOptions: Array<{ value: MessageSort; label: string }>;
  list: { items: MessageListItem[]; hasMore: boolean; moreHref: string | null; empty: string | null };
  pane: ReadingPane | null;
  /** The compose view's address: clients only, not with one-way messaging (spec 002 §6). */
  composeHref: string | null;
  /** The query as the page understood it (unknown folders and entities replaced by defaults). */
  query: MessagesQuery;
};

export type MessagesInput = {
  planning: PlanningClient;
  /** `messages` namespace. */
  t: TFunction;
  locale: Locale;
  timeZone: string | null;
  site: Site;
  query: MessagesQuery;
  /** The client whose messages are shown (own, or the adviser's client in context). */
  entityId: number;
  isClient: boolean;
  /** The host (`host[:port]`) the user reached the portal on: links elsewhere are external (§8). */
  portalHost: string;
};

/** The open message and its body; null when the platform does not know it (404). */
async function readMessage(
  planning: PlanningClient,
  id: number,
): Promise<{ document: DocumentDetailAnswer; body: string } | null> {
  try {
    const [document, body] = await Promise.all([fetchDocument(planning, id), fetchDocumentBody(planning, id)]);
    return { document, body };
  } catch (error) {
    if (error instanceof PlanningError && error.status === 404) return null;
    throw error;
  }
}

function signatureStatusText(t: TFunction, status: DocumentAnswer["digital_signature_status"]): string | null {
  if (!status) return null;
  return t(`signature.status.${status}`);
}

type MessagesBasics = Awaited<ReturnType<typeof fetchMessagesBasics>>;
type Member = MessagesBasics["members"][number];
type OpenedMessage = { document: DocumentDetailAnswer; body: string };
type DocumentsPage = Awaited<ReturnType<typeof listDocuments>>;

/**
 * spec 002 §4: opening a message as a ClientUser marks it read once, before the list and the
 * counts are asked for, so that they already show it read.
 */
async function markOpenedRead(planning: PlanningClient, opened: OpenedMessage | null, isClient: boolean) {
  if (!opened || !isClient || opened.document.has_been_seen) return;
  try {
    await markFirstRead(planning, opened.document.id);
    opened.document.has_been_seen = true;
  } catch (error) {
    if (isLostSession(error)) throw error;
    logger.error("first read not recorded", { id: opened.document.id, error: String(error) });
  }
}

/** spec 002 §6 "Member lists": 'Me' (or the client in context) first, then the other members; null without related entities. */
function entityFilterOf(
  members: Member[],
  input: Pick<MessagesInput, "t" | "entityId" | "isClient" | "query">,
  toggles: MessagesToggles,
): MessagesView["entityFilter"] {
  const { t, entityId, isClient, query } = input;
  if (!toggles.relatedEntities) return null;
  const self = members.find((m) => m.entity_id === entityId);
  const options = [
    { id: entityId, name: isClient ? t("entity.me") : (self?.display_name ?? t("entity.client")) },
    ...members.filter((m) => m.entity_id !== entityId).map((m) => ({ id: m.entity_id, name: m.display_name })),
  ];
  return { options, selected: options.some((o) => o.id === query.entity) ? query.entity! : entityId };
}

/**
 * The document types of the members shown (spec 002 "Changing the entity … reloads the document
 * types"); without related entities, §6 limits them to the client and a partner they may view.
 */
function visibleMembersOf(
  entityIds: number[] | null,
  members: Member[],
  entityId: number,
  basics: MessagesBasics,
): number[] {
  if (entityIds) return entityIds;
  const partners = basics.capabilities.capabilities.includes("view_partner")
    ? members.filter((m) => m.entity_id !== entityId && m.relationship === "Partner").map((m) => m.entity_id)
    : [];
  return [entityId, ...partners];
}

/** The client's unread counts per folder, and with one-way messaging whether they have sent anything (for Sent). */
function unreadCountRequests(
  folders: FolderDefinition[],
  entityIds: number[] | null,
  toggles: MessagesToggles,
  isClient: boolean,
): Record<string, { filter: DocumentFilter; pageSize: number }> {
  const counted: Record<string, { filter: DocumentFilter; pageSize: number }> = {};
  if (!isClient) return counted;
  for (const f of folders) {
    if (f.kind === "sent" || f.kind === "digitalSignatures") continue;
    counted[f.key] = {
      filter: { ...f.filter, unreadOnly: true, entityIds: entityIds ?? undefined },
      pageSize: UNREAD_PAGE_SIZE,
    };
  }
  if (toggles.oneWay) counted.hasSent = { filter: { docsubtype: CLIENT_INITIATED }, pageSize: 1 };
  return counted;
}

function typeFilterOf(
  types: Array<{ code: string; name: string }> | null,
  query: MessagesQuery,
  locale: Locale,
  typeName: (english: string) => Worded = asItIs,
): MessagesView["typeFilter"] {
  if (!types) return null;
  return {
    options: types
      .map((x) => {
        const { text, lang } = typeName(x.name);
        return { code: x.code, name: text, lang };
      })
      .sort(byName(locale, (x) => x.name)),
    selected: query.type && types.some((x) => x.code === query.type) ? query.type : null,
  };
}

const asItIs = (english: string): Worded => ({ text: english, lang: null });

/** A document's type in the page's language, or marked English (decision 210). */
function typeOf(d: DocumentAnswer, typeName: (english: string) => Worded = asItIs) {
  const worded = d.doctype_name ? typeName(d.doctype_name) : null;
  return { type: worded?.text ?? null, typeLang: worded?.lang ?? null };
}

function listItemOf(
  d: DocumentAnswer,
  query: MessagesQuery,
  opened: OpenedMessage | null,
  input: Pick<MessagesInput, "t" | "locale" | "isClient">,
  typeName?: (english: string) => Worded,
): MessageListItem {
  const { t, locale, isClient } = input;
  return {
    id: d.id,
    subject: d.subject?.trim() || t("list.noSubject"),
    date: d.created_date ? formatDate(d.created_date.slice(0, 10), locale, "short") : "",
    from: d.creator?.name?.trim() || null,
    ...typeOf(d, typeName),
    href: messagesHref(query, { message: d.id }, "reading-pane"),
    current: d.id === query.message,
    unread: isClient && !d.has_been_seen && !(opened && d.id === opened.document.id),
    adviserOnly: d.is_client_access_accessible === false,
    relatedEntity: d.is_related_entity === true,
    awaitingSignature: d.digital_signature_status === "Pending",
    attachmentCount: d.attachment_count ?? 0,
    found: foundOf(d.search_matches),
  };
}

/** The list, 'Load more' while there are more, and what an empty list says (with filters or without). */
function listOf(
  items: MessageListItem[],
  page: DocumentsPage,
  query: MessagesQuery,
  dates: DateRangeCheck,
  t: TFunction,
): MessagesView["list"] {
  const filtered = Boolean(query.search || query.type || query.entity !== null || dates.start || dates.end);
  return {
    items,
    hasMore: page.hasMore,
    moreHref: page.hasMore
      ? messagesHref(query, { pages: query.pages + 1 }, `message-${query.pages * MESSAGES_PAGE_SIZE + 1}`)
      : null,
    empty: items.length ? null : filtered ? t("list.emptyForSelection") : t("list.empty"),
  };
}

/** spec 002 §4: Previous and Next through the list; at its end Next loads more (the next page, and its first message). */
function neighbourHrefs(items: MessageListItem[], id: number, page: DocumentsPage, query: MessagesQuery) {
  const index = items.findIndex((i) => i.id === id);
  const previous = index > 0 ? items[index - 1]! : null;
  const next = index >= 0 && index < items.length - 1 ? items[index + 1]! : null;
  let nextHref = next ? messagesHref(query, { message: next.id }, "reading-pane") : null;
  if (!nextHref && index === items.length - 1 && page.extra) {
    nextHref = messagesHref(query, { pages: Math.min(query.pages + 1, 50), message: page.extra.id }, "reading-pane");
  }
  return { previousHref: previous ? messagesHref(query, { message: previous.id }, "reading-pane") : null, nextHref };
}

function attachmentsOf(
  d: DocumentDetailAnswer,
  query: MessagesQuery,
  settings: MessagesSettings,
  locale: Locale,
): MessageAttachment[] {
  return (d.attachments ?? []).map((a) => ({
    docpartid: a.docpartid,
    filename: a.filename,
    size: formatFileSize(a.size, locale),
    href: attachmentHref(d.id, a.docpartid, query),
    fileHref: settings.attachmentsDownloadable
      ? `/clients/documents-and-messages/files/${d.id}/${a.docpartid}?confirm=1`
      : null,
    risky: isRiskyFile(a.filename),
  }));
}

/** The reading pane of the open message: null with none open, 'not found' when the platform does not know it. */
function readingPaneOf(
  opened: OpenedMessage | null,
  list: { items: MessageListItem[]; page: DocumentsPage; signatures: SignatureItem[] | null },
  query: MessagesQuery,
  r: { settings: MessagesSettings; toggles: MessagesToggles },
  input: MessagesInput,
): ReadingPane | null {
  const { t, locale, isClient } = input;
  const closeHref = messagesHref(listQuery(query));
  if (query.message === null) return null;
  if (!opened) return { state: "notFound", closeHref };
  const d = opened.document;
  return {
    state: "ok",
    id: d.id,
    subject: d.subject?.trim() || t("list.noSubject"),
    date: d.created_date ? formatLastLogin(d.created_date, input.timeZone, locale) : "",
    from: d.creator?.name?.trim() || null,
    ...typeOf(d, r.settings.typeName),
    bodyHtml: sanitiseMessageBody(opened.body, MESSAGE_IMAGES_PATH, input.portalHost),
    attachments: attachmentsOf(d, query, r.settings, locale),
    signatureStatus: signatureStatusText(t, d.digital_signature_status),
    signatureHref: signatureHrefOf(list.signatures, d.id),
    adviserOnly: d.is_client_access_accessible === false,
    relatedEntity: d.is_related_entity === true,
    expanded: query.expanded,
    closeHref,
    sizeHref: messagesHref(query, { expanded: !query.expanded }, "reading-pane"),
    ...neighbourHrefs(list.items, d.id, list.page, query),
    // spec 002 §6: advisers never reply; nobody does with one-way messaging
    replyHref: isClient && !r.toggles.oneWay ? messagesHref(listQuery(query), { view: "reply", replyTo: d.id }) : null,
  };
}

function folderLinks(
  folders: FolderDefinition[],
  current: FolderDefinition,
  query: MessagesQuery,
  counts: Record<string, number | null>,
  isClient: boolean,
): FolderLink[] {
  return folders.map((f) => ({
    key: f.key,
    name: f.name,
    lang: f.lang ?? null,
    href: messagesHref(listQuery(query), { folder: f.key, pages: 1, type: f.kind === "custom" ? null : query.type }),
    current: f.key === current.key,
    unread: isClient ? unreadLabel(counts[f.key]) : null,
  }));
}

/** A batch item the page does without: its failure is logged and the fallback shown. */
function orLoggedItem<T, F>(settled: Settled<T> | undefined, message: string, fallback: F): T | F {
  if (!settled) return fallback;
  if (settled.ok) return settled.value;
  logger.error(message, { error: String(settled.error) });
  return fallback;
}

/**
 * The folder's list, the unread counts, the document types and the signature items, in one round
 * trip whose items fail apart (decision 175): the list's failure is the page's, the others' are
 * logged and done without; the To be signed folder lists the signature items that await action,
 * not messages (spec 002 §4).
 */
export async function fetchFolderContents(
  planning: PlanningClient,
  folder: FolderDefinition,
  filter: DocumentFilter | null,
  requests: { pages: number; counted: Record<string, { filter: DocumentFilter; pageSize: number }>; members: number[] },
  toggles: MessagesToggles,
) {
  const wanted = requests.pages * MESSAGES_PAGE_SIZE;
  const listed = filter && folder.kind !== "digitalSignatures" ? filter : null;
  const counted = Object.entries(requests.counted);
  const items = {
    ...(listed ? { list: documentListItem(listed, wanted) } : {}),
    ...Object.fromEntries(counted.map(([, list], i) => [`count${i}`, documentCountItem(list.filter)])),
    ...(toggles.documentTypeFilter ? { types: documentTypesItem(requests.members) } : {}),
    ...(toggles.digitalSignatures ? { signatures: signatureItemsItem } : {}),
  };
  let answers: Partial<Record<string, Settled<unknown>>>;
  try {
    answers = await planning.batchSettled(items);
  } catch (error) {
    // the round trip failed: the list with it, the others as when each fails
    if (listed || isLostSession(error)) throw error;
    logger.error("messages page calls unavailable", { error: String(error) });
    answers = {};
  }
  const list = answers.list as Settled<DocumentAnswer[]> | undefined;
  if (list && !list.ok) throw list.error;
  const page = listed
    ? await listDocuments(planning, listed, wanted, list?.value)
    : { documents: [], hasMore: false, extra: null };
  const counts: Record<string, number | null> = {};
  counted.forEach(([name, { pageSize }], i) => {
    const count = answers[`count${i}`] as Settled<{ count: number }> | undefined;
    counts[name] = count?.ok ? Math.min(count.value.count, pageSize) : null;
  });
  const failed = counted.filter((_, i) => answers[`count${i}`]?.ok === false).map(([name]) => name);
  if (failed.length) logger.error("unread counts unavailable", { lists: failed.join(",") });
  const types = toggles.documentTypeFilter
    ? orLoggedItem(answers.types as Settled<DocumentTypeAnswer[]> | undefined, "document types unavailable", null)
    : null;
  const signatures = toggles.digitalSignatures
    ? orLoggedItem(answers.signatures as Settled<SignatureItem[]> | undefined, "signature items unavailable", null)
    : null;
  return [page, counts, types, signatures] as const;
}

/** spec 002 "Documents and messages page": everything the list and reading pane show. */
export async function buildMessagesView(input: MessagesInput): Promise<MessagesView> {
  const { planning, t, locale, site, entityId, isClient } = input;
  let query = input.query;
  const settings = messagesSettings(site, locale);

  const [basics, opened] = await Promise.all([
    fetchMessagesBasics(planning, entityId),
    query.message !== null ? readMessage(planning, query.message) : Promise.resolve(null),
  ]);
  // spec 002 §6: no signature items for an adviser (no folder, no signing from a message: decision 197)
  const toggles = { ...messagesToggles(basics.toggles) };
  toggles.digitalSignatures &&= isClient;
  await markOpenedRead(planning, opened, isClient);

  const members = basics.members.filter((m) => m.login_accessible || m.entity_id === entityId);
  const entityFilter = entityFilterOf(members, input, toggles);
  if (!entityFilter || entityFilter.selected === entityId) query = { ...query, entity: null };
  const entityIds = entityFilter ? [entityFilter.selected] : null;

  const importantCategoryId =
    settings.importantCategoryId ??
    basics.categories.find((c) => c.name.trim().toLowerCase() === "important")?.id ??
    null;
  const folderInput = { t, settings, toggles, isClient, importantCategoryId };
  // Sent shows with one-way messaging only when the client has sent something: asked with the counts
  const provisional = folderDefinitions({ ...folderInput, hasSent: true });
  let folder = provisional.find((f) => f.key === query.folder) ?? provisional[0]!;
  if (folder.key !== query.folder) query = { ...query, folder: folder.key, type: query.type };

  const dates = checkDateRange(query.from, query.to);
  const filter = listFilter(folder, { type: query.type, search: query.search, entityIds, sort: query.sort, dates });
  const [page, counts, types, signatures] = await fetchFolderContents(
    planning,
    folder,
    filter,
    {
      pages: query.pages,
      counted: unreadCountRequests(provisional, entityIds, toggles, isClient),
      members: visibleMembersOf(entityIds, members, entityId, basics),
    },
    toggles,
  );
  if (signatures && isClient)
    counts.signature = signatures.filter((s) => awaitsAction(s) && s.signatories.some((x) => x.can_sign)).length;

  const hasSent = !toggles.oneWay || (counts.hasSent ?? 0) > 0 || folder.kind === "sent";
  const folders = folderDefinitions({ ...folderInput, hasSent });
  folder = folders.find((f) => f.key === folder.key) ?? folder;

  const items =
    folder.kind === "digitalSignatures"
      ? signatureItems(signatures ?? [], t, locale, input.timeZone)
      : page.documents.map((d) => listItemOf(d, query, opened, input, settings.typeName));
  return {
    heading: settings.heading ?? t("heading"),
    isClient,
    folders: folderLinks(folders, folder, query, counts, isClient),
    folder: { key: folder.key, name: folder.name, lang: folder.lang ?? null, kind: folder.kind },
    entityFilter,
    typeFilter: typeFilterOf(types, query, locale, settings.typeName),
    dateFilter: { from: query.from, to: query.to, errors: dates.errors },
    sortOptions: MESSAGE_SORT_KEYS.map((value) => ({ value, label: t(`sort.${value}`) })),
    list: listOf(items, page, query, dates, t),
    pane: readingPaneOf(opened, { items, page, signatures }, query, { settings, toggles }, input),
    composeHref: isClient && !toggles.oneWay ? messagesHref(listQuery(query), { view: "compose" }) : null,
    query,
  };
}

/**
 * spec 002 §4: the folder's rows, each opening its signature page: the items awaiting action
 * (neither pending nor signed, with a due date) first, then the signed, declined and pending ones
 * with their badge, so a finished document stays findable with its signed copy (issue 25 item 11,
 * decision 118).
 */
export function signatureItems(
  items: readonly SignatureItem[],
  t: TFunction,
  locale: string,
  timeZone: string | null = null,
): MessageListItem[] {
  return folderOrder(items).map((item) => {
    const badge = badgeOf(item.status);
    const finished = finishedAt(item);
    return {
      id: item.id,
      subject: item.title,
      date: finished
        ? t(`list.${finished.key}`, { date: formatDate(dayIn(finished.at, timeZone), locale, "short") })
        : item.duedate && awaitsAction(item)
          ? t("list.due", { date: formatDate(item.duedate, locale, "short") })
          : "",
      from: null,
      type: null,
      typeLang: null,
      href: `${SIGNATURES_PATH}/${item.id}`,
      current: false,
      unread: false,
      adviserOnly: false,
      relatedEntity: false,
      // spec 002 "Signature view": items awaiting signature are bold and flagged
      awaitingSignature: item.status === STATUS.awaitingSignature || item.status === STATUS.partSigned,
      attachmentCount: 0,
      badge: { text: t(`signature.badge.${badge.key}`), tone: badge.tone },
    };
  });
}

/** The signature page of the item a message carries, when there is one the user sees. */
function signatureHrefOf(signatures: readonly SignatureItem[] | null, documentId: number): string | null {
  const item = signatures?.find((s) => s.docnote_id === documentId);
  return item ? `${SIGNATURES_PATH}/${item.id}` : null;
}

/** The download confirmation page of an attachment, with the way back to the message. */
export function attachmentHref(documentId: number, docpartid: number, query: MessagesQuery): string {
  const back = messagesHref(query, { message: documentId }).replace(/^[^?]*/, "");
  return `/clients/documents-and-messages/attachments/${documentId}/${docpartid}${back}`;
}
