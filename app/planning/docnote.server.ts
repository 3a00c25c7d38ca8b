import { z } from "zod/v4";
import type { PlanningClient } from "./client.server";
import { ClientGroupMembers } from "./entity.server";
import { readFeatureToggles } from "./feature-toggles.server";
import { WholeNumber } from "~/lib/whole-number.server";
import { CapabilitiesAnswer, WireDate, WireDateTime } from "./wire";

// spec 002 §7 "Messages and documents" (docs/platform-api.md "Documents and messages"): the
// document list, one document, its body and attachments, first read, categories and types.

/** spec 002 §9: messages are listed 20 at a time. */
export const MESSAGES_PAGE_SIZE = 20;
/** spec 002 §9: unread counts ask for 21 rows, so that '20+' is known. */
export const UNREAD_PAGE_SIZE = 21;
/** The platform's largest page (docs/platform-api.md, paging). */
const MAX_PLATFORM_PAGE = 100;

export const CLIENT_INITIATED = "Client Initiated";

export const SIGNATURE_STATUSES = ["Pending", "Signed", "Declined"] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];

export const AttachmentAnswer = z.object({
  docpartid: z.number(),
  filename: z.string(),
  content_type: z.string().nullish(),
  size: z.number().nullish(),
  created_date: WireDateTime.nullish(),
});
export type AttachmentAnswer = z.output<typeof AttachmentAnswer>;
const AttachmentAnswers = z.array(AttachmentAnswer);

/** Where a document found by a search matched (docs/decisions/209): text, its matches flagged; never markup. */
const SearchMatch = z.object({
  field: z.enum(["subject", "body", "attachment"]),
  parts: z.array(z.object({ text: z.string(), match: z.boolean() })),
});
export type SearchMatch = z.output<typeof SearchMatch>;

/** spec 002 §3 "Document or message" (without its body). */
export const DocumentAnswer = z.object({
  id: z.number(),
  subject: z.string().nullish(),
  doctype: z.string().nullish(),
  doctype_name: z.string().nullish(),
  docsubtype: z.string().nullish(),
  categories: z.array(z.object({ id: z.number(), name: z.string() })).nullish(),
  created_date: WireDateTime.nullish(),
  reference_date: WireDate.nullish(),
  entity_ids: z.array(z.number()).nullish(),
  is_client_access_accessible: z.boolean().nullish(),
  is_related_entity: z.boolean().nullish(),
  has_been_seen: z.boolean().nullish(),
  session_info: z.object({ firstread: WireDateTime.nullish() }).nullish(),
  attachment_count: z.number().nullish(),
  digital_signature_status: z.enum(SIGNATURE_STATUSES).nullish(),
  creator: z.object({ id: z.number().nullish(), name: z.string().nullish() }).nullish(),
  bookmark: z.string().nullish(),
  search_matches: z.array(SearchMatch).nullish(),
});
export type DocumentAnswer = z.output<typeof DocumentAnswer>;
const DocumentAnswers = z.array(DocumentAnswer);

export const DocumentDetailAnswer = DocumentAnswer.extend({ attachments: z.array(AttachmentAnswer).nullish() });
export type DocumentDetailAnswer = z.output<typeof DocumentDetailAnswer>;

export const DocumentTypeAnswer = z.object({ code: z.string(), name: z.string() });
export type DocumentTypeAnswer = z.output<typeof DocumentTypeAnswer>;
const DocumentTypeAnswers = z.array(DocumentTypeAnswer);

const CategoryAnswer = z.object({ id: z.number(), name: z.string() });
export const CategoryAnswers = z.array(CategoryAnswer);

/** What one list of documents asks for (spec 002 §7 "List documents"). */
export type DocumentFilter = {
  doctype?: string[];
  doctypeExclude?: string[];
  categories?: number[];
  docsubtype?: string;
  docsubtypeExclude?: string;
  signatureStatus?: SignatureStatus;
  unreadOnly?: boolean;
  subject?: string;
  /** The words of the subject, the body and the attachments' names (decision 209). */
  text?: string;
  entityIds?: number[];
  /** Created on or after / on or before (yyyy-MM-dd, both included). */
  createdFrom?: string;
  createdTo?: string;
  /** Documents to leave out by id (the message being opened, for the unread badge). */
  excludeIds?: number[];
  sort?: string;
};

/** The query of one docnote-v2 list call (pure; tested). */
export function documentListQuery(filter: DocumentFilter, pageSize: number, bookmark?: string | null) {
  return {
    page_size: pageSize,
    page_sort: filter.sort,
    page_bookmark: bookmark ?? undefined,
    ...documentFilterQuery(filter),
  };
}

/** The filters of a list call without its paging: the query of the list's count too. */
function documentFilterQuery(filter: DocumentFilter) {
  return {
    doctype: filter.doctype?.length ? filter.doctype : undefined,
    doctype_exclude: filter.doctypeExclude?.length ? filter.doctypeExclude : undefined,
    categories: filter.categories?.length ? filter.categories : undefined,
    docsubtype: filter.docsubtype,
    docsubtype_exclude: filter.docsubtypeExclude,
    digital_signature_status: filter.signatureStatus,
    "firstread.include_read_notes": filter.unreadOnly ? "false" : undefined,
    subject: filter.subject || undefined,
    text: filter.text || undefined,
    entity_ids: filter.entityIds?.length ? filter.entityIds : undefined,
    "created_date.start_date": filter.createdFrom || undefined,
    "created_date.end_date": filter.createdTo || undefined,
    id_exclude: filter.excludeIds?.length ? filter.excludeIds : undefined,
  };
}

/** A query as a URL relative to /resourceful/, for a batch item. */
function relativeUrl(path: string, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === "") continue;
    if (Array.isArray(value)) value.forEach((v, i) => params.append(`${key}.${i}`, String(v)));
    else params.set(key, String(value));
  }
  return `${path}?${params.toString()}`;
}

/** The count of a list's documents (decision 157), without the list's paging and order, as a relative URL for a batch item. */
export function documentCountUrl(filter: DocumentFilter): string {
  return relativeUrl("docnote-v2/count", documentFilterQuery(filter));
}

export type DocumentPage = { documents: DocumentAnswer[]; hasMore: boolean };

/** The first page of listDocuments' list as a batch item (its answer is listDocuments' `firstPage`). */
export function documentListItem(filter: DocumentFilter, wanted: number) {
  const pageSize = Math.min(MAX_PLATFORM_PAGE, wanted + 1);
  return { url: relativeUrl("docnote-v2", documentListQuery(filter, pageSize)), schema: DocumentAnswers };
}

/** A list's count (decision 157) as a batch item. */
export function documentCountItem(filter: DocumentFilter) {
  return { url: documentCountUrl(filter), schema: DocumentCount };
}

/** spec 002 §7 "Document types": only those the given (visible) members' documents have, as a batch item. */
export function documentTypesItem(memberIds: number[]) {
  return {
    url: relativeUrl("docnote-v2/doctype", { member_ids: memberIds.length ? memberIds.join(",") : undefined }),
    schema: DocumentTypeAnswers,
  };
}

/**
 * The first `wanted` documents of a list and whether more remain: one row more than shown is
 * asked for (docs/decisions/031), and beyond 100 rows the last row's bookmark is followed.
 * Answers `extra`, the first row beyond them, so that Next at the end of the list knows its id.
 */
export async function listDocuments(
  planning: PlanningClient,
  filter: DocumentFilter,
  wanted: number,
  /** The first page, when it came with other calls (documentListItem). */
  firstPage?: DocumentAnswer[],
): Promise<DocumentPage & { extra: DocumentAnswer | null }> {
  const documents: DocumentAnswer[] = [];
  let bookmark: string | null = null;
  for (;;) {
    const pageSize = Math.min(MAX_PLATFORM_PAGE, wanted + 1 - documents.length);
    const page: DocumentAnswer[] =
      firstPage && !documents.length
        ? firstPage
        : await planning.get("resourceful/docnote-v2", DocumentAnswers, {
            query: documentListQuery(filter, pageSize, bookmark),
          });
    documents.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || documents.length > wanted || !last?.bookmark) break;
    bookmark = last.bookmark;
  }
  return {
    documents: documents.slice(0, wanted),
    hasMore: documents.length > wanted,
    extra: documents[wanted] ?? null,
  };
}

export async function fetchDocument(planning: PlanningClient, id: number): Promise<DocumentDetailAnswer> {
  return planning.get(`resourceful/docnote-v2/${id}`, DocumentDetailAnswer);
}

/** The body as stored (HTML); the portal sanitises it before showing it. */
export async function fetchDocumentBody(planning: PlanningClient, id: number): Promise<string> {
  const response = await planning.send("GET", `resourceful/docnote-v2/${id}/body`);
  return response.text();
}

export async function fetchAttachments(planning: PlanningClient, id: number): Promise<AttachmentAnswer[]> {
  return planning.get(`resourceful/docnote-v2/${id}/attachment-v4`, AttachmentAnswers);
}

/** One attachment as the platform lists it; null when the document or the part is not visible. */
export async function findAttachment(
  planning: PlanningClient,
  documentId: number,
  docpartid: number,
): Promise<AttachmentAnswer | null> {
  const attachments = await fetchAttachments(planning, documentId);
  return attachments.find((a) => a.docpartid === docpartid) ?? null;
}

/** spec 002 §4: opening a message as a ClientUser marks it read once. */
export async function markFirstRead(planning: PlanningClient, id: number): Promise<void> {
  await planning.exec("POST", `resourceful/docnote-v2/${id}/firstread`, { retry: false });
}

/** The file's bytes as the platform answers them (status, type, length and disposition). */
export async function fetchAttachmentFile(
  planning: PlanningClient,
  documentId: number,
  docpartid: number,
  filename: string,
): Promise<Response> {
  return planning.send("GET", `resourceful/docnote/files/${documentId}/${docpartid}/${encodeURIComponent(filename)}`);
}

/**
 * What the page's controls depend on: the capabilities (partner viewing), the client group and
 * the categories (the Important folder) in one round trip, and beside it the feature toggles,
 * which are all off when their call fails (spec 000 §1) rather than failing the batch.
 */
export async function fetchMessagesBasics(planning: PlanningClient, entityId: number) {
  const [basics, toggles] = await Promise.all([
    planning.batch({
      capabilities: { url: "session/capability", schema: CapabilitiesAnswer },
      members: { url: `entity/client/${entityId}/client_group/member`, schema: ClientGroupMembers },
      categories: { url: "docnote-v2/category", schema: CategoryAnswers },
    }),
    readFeatureToggles(planning),
  ]);
  return { ...basics, toggles };
}

/** A count of documents (decision 157). */
const DocumentCount = z.object({ count: WholeNumber.nonnegative() });

/**
 * How many unread documents the filter leaves, counted by the platform over the whole list
 * (issue 38: a count answered with `{ count }`, not read off a page of rows). Not repeated: the
 * navigation badge it is for shows none rather than hold up the page.
 */
export async function fetchUnreadCount(planning: PlanningClient, filter: DocumentFilter): Promise<number> {
  const answer = await planning.get("resourceful/docnote-v2/count", DocumentCount, {
    query: documentFilterQuery({ ...filter, unreadOnly: true }),
    retry: false,
  });
  return answer.count;
}
