// spec 002 §2 documents and messages, §4 reading, sending and attachment download, §5 compose, §7
// (docs/platform-api.md "Documents and messages").
import type { IncomingMessage } from "node:http";
import { and, asc, count, desc, eq, exists, gte, inArray, isNull, lt, ne, notInArray, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import {
  adviserClients,
  adviserProfiles,
  capabilities,
  contacts,
  documentAccounts,
  documentAttachments,
  documentCategories,
  documentCategoryLinks,
  documentEntities,
  documentFirstReads,
  documents,
  documentTypes,
  emailTemplates,
  entities,
  featureToggles,
  outbox,
  users,
} from "../db/schema";
import type { Caller } from "../sessions";
import { decodeBookmark, encodeBookmark } from "../lib/bookmark";
import { likeEscape } from "../lib/text";
import { wireDate, wireDateTime } from "../lib/wire";
import { clientEntityOf, isClientUser, reachableEntities, requireClientUser } from "./access";
import { ApiError, forbidden, MESSAGES, validate } from "./http";
import { entityById, partnerEntityIdOf } from "./people";
import { visibleAccounts } from "./portfolio";
import { LOGO_PNG } from "../seed/files";
import { json, noContent, open, type Route, signedIn } from "./router";

// ── limits (spec 002 §5 compose, §9) ─────────────────────────────────────────────────────────

export const MAX_ATTACHMENTS = 5;
export const MAX_FILE_BYTES = 10_000_000;
/** The largest multipart body read at all: one file at the limit and its envelope. */
export const MAX_UPLOAD_BODY = 11 * 1024 * 1024;
export const EXCLUDED_EXTENSIONS = ["exe", "bat", "com", "msi", "js", "bin", "vb", "dll", "vbs", "zip"] as const;
const CLIENT_INITIATED = "Client Initiated";

export const DOC_MESSAGES = {
  notFound: "Document not found",
  tooMany: "You can upload a maximum of 5 attachments.",
  tooLarge: "File is too large, please remove.",
  typeNotAllowed: "File type not allowed, please remove.",
  typeAndSize: "File type not allowed and file is too large, please remove.",
  emptyFile: "File is empty, please remove.",
  noFileName: "File name is missing.",
  notMultipart: "Expected multipart/form-data with the file in the part 'content'",
  notOwnMessage: "Permission Error: Attachments can only be added to your own messages",
  oneWay: "Permission Error: Messages are one-way",
  noAccount: "Permission Error: You do not have access to this account",
  noAdviser: "No adviser to notify",
} as const;

const documentNotFound = () => new ApiError(404, DOC_MESSAGES.notFound);

// ── who sees what ────────────────────────────────────────────────────────────────────────────

/** The session's client, the entities whose documents it sees, and whether adviser-only notes show. */
export type DocScope = { client: number; entities: number[]; adviser: boolean; caller: Caller };

function hasCapability(db: Db, entityId: number, name: string): boolean {
  return !!db
    .select({ name: capabilities.name })
    .from(capabilities)
    .where(and(eq(capabilities.entityId, entityId), eq(capabilities.name, name)))
    .get();
}

/**
 * spec 002 §6: a client's own entity, and the partner's when the client holds view_partner and the
 * partner is a login-accessible member of the client group; with the related-entities option on,
 * every login-accessible member of the client's groups. An adviser sees the client in context's.
 */
export function docScopeOf(db: Db, caller: Caller): DocScope {
  const client = clientEntityOf(caller);
  const adviser = !isClientUser(caller);
  if (toggleOn(db, "related_entities")) return { client, entities: [...reachableEntities(db, client)], adviser, caller };
  const visible = [client];
  const partner = partnerEntityIdOf(db, client);
  if (partner !== null && partner !== client && hasCapability(db, client, "view_partner") && reachableEntities(db, client).has(partner)) {
    visible.push(partner);
  }
  return { client, entities: visible, adviser, caller };
}

/** The documents the scope may see, limited to some of its entities. */
function visibleCondition(scope: DocScope, entityIds: number[] = scope.entities): SQL {
  const belongs = exists(
    sqlSelectOne(and(eq(documentEntities.documentId, documents.id), inArray(documentEntities.entityId, entityIds)) as SQL, "document_entities"),
  );
  return scope.adviser ? belongs : (and(belongs, eq(documents.isClientAccessAccessible, true)) as SQL);
}

/** `(select 1 from <table> where <condition>)`, for exists() over a correlated condition. */
function sqlSelectOne(condition: SQL, table: "document_entities" | "document_category_links" | "document_first_reads"): SQL {
  return sql`(select 1 from ${sql.identifier(table)} where ${condition})`;
}

/** The document if the scope may see it, else 404 (its existence is not revealed). */
function visibleDocument(db: Db, scope: DocScope, id: number) {
  const row = db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), visibleCondition(scope)))
    .get();
  if (!row) throw documentNotFound();
  return row;
}

// ── answers ──────────────────────────────────────────────────────────────────────────────────

type DocumentRow = typeof documents.$inferSelect;
type AttachmentMeta = { docpartid: number; documentId: number; filename: string; contentType: string; size: number; createdAt: string };

const SORTS = ["-created_date", "created_date", "-reference_date", "reference_date", "subject", "-subject"] as const;
type Sort = (typeof SORTS)[number];

const NO_REFERENCE_DATE = "";

function sortKeyOf(sort: Sort): SQL<string> {
  if (sort.endsWith("created_date")) return sql<string>`${documents.createdAt}`;
  if (sort.endsWith("reference_date")) return sql<string>`coalesce(${documents.referenceDate}, ${NO_REFERENCE_DATE})`;
  return sql<string>`lower(${documents.subject})`;
}

function rowSortKey(sort: Sort, d: DocumentRow): string {
  if (sort.endsWith("created_date")) return d.createdAt;
  if (sort.endsWith("reference_date")) return d.referenceDate ?? NO_REFERENCE_DATE;
  return d.subject.toLowerCase();
}

const attachmentView = (a: AttachmentMeta) => ({
  docpartid: a.docpartid,
  filename: a.filename,
  content_type: a.contentType,
  size: a.size,
  created_date: wireDateTime(a.createdAt),
});

const attachmentColumns = {
  docpartid: documentAttachments.docpartid,
  documentId: documentAttachments.documentId,
  filename: documentAttachments.filename,
  contentType: documentAttachments.contentType,
  size: documentAttachments.size,
  createdAt: documentAttachments.createdAt,
};

function attachmentsOf(db: Db, documentId: number): AttachmentMeta[] {
  return db
    .select(attachmentColumns)
    .from(documentAttachments)
    .where(eq(documentAttachments.documentId, documentId))
    .orderBy(asc(documentAttachments.docpartid))
    .all();
}

/** The list shape of documents, with what they link to loaded in a few queries. */
function documentViews(db: Db, scope: DocScope, rows: DocumentRow[], sort: Sort, reader: number) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const links = db.select().from(documentEntities).where(inArray(documentEntities.documentId, ids)).all();
  const categoryRows = db
    .select({ documentId: documentCategoryLinks.documentId, id: documentCategories.id, name: documentCategories.name })
    .from(documentCategoryLinks)
    .innerJoin(documentCategories, eq(documentCategories.id, documentCategoryLinks.categoryId))
    .where(inArray(documentCategoryLinks.documentId, ids))
    .orderBy(asc(documentCategories.id))
    .all();
  const reads = db
    .select()
    .from(documentFirstReads)
    .where(and(inArray(documentFirstReads.documentId, ids), eq(documentFirstReads.entityId, reader)))
    .all();
  const counts = db
    .select({ documentId: documentAttachments.documentId, n: count() })
    .from(documentAttachments)
    .where(inArray(documentAttachments.documentId, ids))
    .groupBy(documentAttachments.documentId)
    .all();
  const typeNames = new Map(db.select().from(documentTypes).all().map((t) => [t.code, t.name]));
  const visible = new Set(scope.entities);
  return rows.map((d) => {
    const linked = links.filter((l) => l.documentId === d.id).map((l) => l.entityId);
    const firstRead = reads.find((r) => r.documentId === d.id)?.readAt ?? null;
    return {
      id: d.id,
      subject: d.subject,
      doctype: d.doctype,
      doctype_name: typeNames.get(d.doctype) ?? d.doctype,
      docsubtype: d.docsubtype,
      categories: categoryRows.filter((c) => c.documentId === d.id).map((c) => ({ id: c.id, name: c.name })),
      created_date: wireDateTime(d.createdAt),
      reference_date: wireDate(d.referenceDate),
      entity_ids: linked.filter((e) => visible.has(e)).sort((a, b) => a - b),
      is_client_access_accessible: d.isClientAccessAccessible,
      is_related_entity: !linked.includes(scope.client),
      has_been_seen: firstRead !== null,
      session_info: { firstread: wireDateTime(firstRead) },
      attachment_count: counts.find((c) => c.documentId === d.id)?.n ?? 0,
      digital_signature_status: d.digitalSignatureStatus,
      creator: { id: d.creatorUserId, name: d.creatorName },
      bookmark: encodeBookmark({ sort, key: rowSortKey(sort, d), id: d.id }),
    };
  });
}

// ── query parsing ────────────────────────────────────────────────────────────────────────────

/** An empty query value counts as absent (a search form sends every field). */
const optional = <S extends z.ZodTypeAny>(schema: S) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const DateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD").refine(isRealDate, "Not a date");
const Id = z.coerce.number().int().positive();
const IdParams = z.object({ id: Id });
const Code = z.string().regex(/^[\w .-]{1,100}$/, "Expected a document type code");

const ListQuery = z
  .object({
    page_size: optional(z.coerce.number().int().min(1).max(100)),
    page_sort: optional(z.enum(SORTS)),
    page_bookmark: optional(z.string().max(500)),
    docsubtype: optional(z.string().max(100)),
    docsubtype_exclude: optional(z.string().max(100)),
    digital_signature_status: optional(z.enum(["Pending", "Signed", "Declined"])),
    "firstread.include_read_notes": optional(z.enum(["true", "false"])),
    "firstread.entity_id": optional(Id),
    "created_date.start_date": optional(DateText),
    "created_date.end_date": optional(DateText),
    subject: optional(z.string().max(255)),
    session_info: optional(z.string().max(200)),
  })
  .passthrough();

/** A list parameter given as `name.N` (each), `name` or comma-separated values. */
function listParam<S extends z.ZodTypeAny>(query: Record<string, string>, name: string, item: S): Array<z.output<S>> {
  const values: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === name || (key.startsWith(`${name}.`) && /^\d+$/.test(key.slice(name.length + 1)))) {
      values.push(...value.split(",").map((v) => v.trim()).filter(Boolean));
    }
  }
  if (values.length > 100) throw new ApiError(400, `Invalid query: ${name}: at most 100 values`, MESSAGES.argumentsIncorrect);
  return values.map((v) => validate(item, v, "query") as z.output<S>);
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** spec 002 §7 subject search: case-insensitive, `*` a wildcard, a plain value matches anywhere. */
function subjectPattern(value: string): string {
  const escaped = likeEscape(value);
  return value.includes("*") ? escaped.replace(/\*/g, "%") : `%${escaped}%`;
}

function assertInScope(scope: DocScope, entityIds: number[]): void {
  for (const id of entityIds) if (!scope.entities.includes(id)) throw forbidden(MESSAGES.noEntityAccess);
}

function listDocuments(db: Db, scope: DocScope, rawQuery: Record<string, string>) {
  const query = validate(ListQuery, rawQuery, "query");
  const sort: Sort = query.page_sort ?? "-created_date";
  const descending = sort.startsWith("-");
  const doctypes = listParam(rawQuery, "doctype", Code);
  const excluded = listParam(rawQuery, "doctype_exclude", Code);
  const categories = listParam(rawQuery, "categories", Id);
  const entityIds = listParam(rawQuery, "entity_ids", Id);
  assertInScope(scope, entityIds);
  const reader = query["firstread.entity_id"] ?? scope.client;
  assertInScope(scope, [reader]);

  const conditions: SQL[] = [visibleCondition(scope, entityIds.length ? entityIds : scope.entities)];
  if (doctypes.length) conditions.push(inArray(documents.doctype, doctypes));
  if (excluded.length) conditions.push(notInArray(documents.doctype, excluded));
  if (categories.length) {
    conditions.push(
      exists(sqlSelectOne(and(eq(documentCategoryLinks.documentId, documents.id), inArray(documentCategoryLinks.categoryId, categories)) as SQL, "document_category_links")),
    );
  }
  if (query.docsubtype) conditions.push(eq(documents.docsubtype, query.docsubtype));
  if (query.docsubtype_exclude) conditions.push(or(isNull(documents.docsubtype), ne(documents.docsubtype, query.docsubtype_exclude)) as SQL);
  if (query.digital_signature_status) conditions.push(eq(documents.digitalSignatureStatus, query.digital_signature_status));
  if (query["firstread.include_read_notes"] === "false") {
    conditions.push(
      sql`not exists ${sqlSelectOne(and(eq(documentFirstReads.documentId, documents.id), eq(documentFirstReads.entityId, reader)) as SQL, "document_first_reads")}`,
    );
  }
  const start = query["created_date.start_date"];
  const end = query["created_date.end_date"];
  if (start) conditions.push(gte(documents.createdAt, `${start}T00:00:00.000Z`));
  if (end) conditions.push(lt(documents.createdAt, `${nextDay(end)}T00:00:00.000Z`));
  const subject = query.subject?.trim();
  if (subject) conditions.push(sql`${documents.subject} like ${subjectPattern(subject)} escape '\\'`);

  const key = sortKeyOf(sort);
  if (query.page_bookmark) {
    const bookmark = decodeBookmark(query.page_bookmark);
    if (!bookmark || bookmark.sort !== sort || typeof bookmark.key !== "string") {
      throw new ApiError(400, "Invalid query: page_bookmark does not belong to this page_sort", MESSAGES.argumentsIncorrect);
    }
    conditions.push(
      descending
        ? sql`(${key} < ${bookmark.key} or (${key} = ${bookmark.key} and ${documents.id} < ${bookmark.id}))`
        : sql`(${key} > ${bookmark.key} or (${key} = ${bookmark.key} and ${documents.id} > ${bookmark.id}))`,
    );
  }
  const rows = db
    .select()
    .from(documents)
    .where(and(...conditions))
    .orderBy(descending ? desc(key) : asc(key), descending ? desc(documents.id) : asc(documents.id))
    .limit(query.page_size ?? 20)
    .all();
  return documentViews(db, scope, rows, sort, reader);
}

// ── compose ──────────────────────────────────────────────────────────────────────────────────

const CreateBody = z.object({
  subject: z.string().trim().min(1, "Please enter a message subject.").max(255, "Subject must be under 256 characters."),
  body: z.string().max(100_000),
  accounts: z.array(z.coerce.number().int().positive()).max(200).optional(),
  notification_template_id: z.coerce.number().int().positive().nullish(),
});

function toggleOn(db: Db, name: string): boolean {
  return db.select({ enabled: featureToggles.enabled }).from(featureToggles).where(eq(featureToggles.name, name)).get()?.enabled ?? false;
}

// ── upload ───────────────────────────────────────────────────────────────────────────────────

/** A multipart upload as the HTTP layer hands it to the upload route. */
export type UploadBody = {
  kind: "upload";
  filename: string | null;
  file: { name: string; type: string; data: Buffer } | null;
};

const UPLOAD_PATH = /^\/resourceful\/docnote-v2\/[^/]+\/attachment-v3\/?$/;

/** Whether a request is a multipart upload to the attachment route (the only one that reads multipart). */
export function isUploadRequest(method: string, path: string, contentType: string | undefined): boolean {
  return method === "POST" && UPLOAD_PATH.test(path) && /^multipart\/form-data\s*;/i.test(contentType ?? "");
}

/** Reads a multipart body, refusing (413) one over the limit before or while reading it. */
export async function readUpload(req: IncomingMessage, url: URL): Promise<UploadBody> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_UPLOAD_BODY) throw new ApiError(413, "Request body too large");
  let seen = 0;
  let tooLarge = false;
  async function* counted() {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > MAX_UPLOAD_BODY) {
        tooLarge = true;
        throw new Error("too large");
      }
      yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
  const chunks = counted();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  let form: FormData;
  try {
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"]) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    form = await request.formData();
  } catch {
    if (tooLarge) throw new ApiError(413, "Request body too large");
    throw new ApiError(400, "Malformed multipart/form-data body", MESSAGES.argumentsIncorrect);
  }
  const part = form.get("content");
  const name = form.get("filename");
  return {
    kind: "upload",
    filename: typeof name === "string" ? name : null,
    file: part instanceof Blob ? { name: "name" in part ? String(part.name) : "", type: part.type, data: Buffer.from(await part.arrayBuffer()) } : null,
  };
}

const isUploadBody = (body: unknown): body is UploadBody => typeof body === "object" && body !== null && (body as UploadBody).kind === "upload";

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  txt: "text/plain",
  csv: "text/csv",
  rtf: "application/rtf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  docm: "application/vnd.ms-word.document.macroEnabled.12",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroEnabled.12",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

const extensionOf = (name: string) => (name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "");

/** The name without any folder a browser may send, trimmed. */
const baseName = (name: string) => (name.split(/[\\/]/).pop() ?? "").trim();

// ── download ─────────────────────────────────────────────────────────────────────────────────

/** RFC 6266: an ASCII fallback name and the exact name as UTF-8 (RFC 5987). */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// ── notification email ───────────────────────────────────────────────────────────────────────

const SendQuery = z.object({ _method: z.literal("send") }).passthrough();
const SendBody = z.object({
  template_id: z.coerce.number().int().positive(),
  subject: z.string().trim().min(1).max(255),
  document_id: z.coerce.number().int().positive().nullish(),
});

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

function templateById(db: Db, id: number) {
  const template = db.select().from(emailTemplates).where(eq(emailTemplates.id, id)).get();
  if (!template) throw new ApiError(404, "Template not found");
  return template;
}

/** The client's adviser to notify: the primary one first, and their work address. */
function adviserToNotify(db: Db, clientEntityId: number) {
  const rows = db
    .select({ userId: users.id, username: users.username, entityId: users.entityId, email: entities.preferredEmail, name: adviserProfiles.adviserName })
    .from(adviserClients)
    .innerJoin(users, eq(users.id, adviserClients.adviserUserId))
    .innerJoin(entities, eq(entities.id, users.entityId))
    .leftJoin(adviserProfiles, eq(adviserProfiles.userId, users.id))
    .where(eq(adviserClients.clientEntityId, clientEntityId))
    .orderBy(desc(adviserClients.isPrimary), asc(users.id))
    .all();
  for (const row of rows) {
    const address =
      row.email ??
      db
        .select({ value: contacts.value })
        .from(contacts)
        .where(and(eq(contacts.entityId, row.entityId), eq(contacts.type, "m2")))
        .orderBy(desc(contacts.preferred), asc(contacts.id))
        .get()?.value;
    if (address) return { ...row, address };
  }
  return null;
}

// ── routes ───────────────────────────────────────────────────────────────────────────────────

export const docnoteRoutes: Route[] = [
  // the images message bodies refer to by relative source: public, like the site's brand images
  open("GET", "/resourceful/docnote/images/:name", (request) => {
    if (request.params.name !== "logo.png") throw new ApiError(404, "Image not found");
    return { status: 200, raw: LOGO_PNG, headers: { "Content-Type": "image/png", "Content-Length": String(LOGO_PNG.length) } };
  }),

  signedIn("GET", "/resourceful/docnote-v2/category", (_request, { db, caller }) => {
    docScopeOf(db, caller);
    return json(db.select().from(documentCategories).orderBy(asc(documentCategories.name), asc(documentCategories.id)).all());
  }),

  signedIn("GET", "/resourceful/docnote-v2/doctype", (request, { db, caller }) => {
    const scope = docScopeOf(db, caller);
    const members = listParam(request.query, "member_ids", Id);
    if (members.length === 0) return json(db.select().from(documentTypes).orderBy(asc(documentTypes.name)).all());
    assertInScope(scope, members);
    const rows = db
      .selectDistinct({ code: documentTypes.code, name: documentTypes.name })
      .from(documents)
      .innerJoin(documentTypes, eq(documentTypes.code, documents.doctype))
      .where(visibleCondition(scope, members))
      .orderBy(asc(documentTypes.name))
      .all();
    return json(rows);
  }),

  signedIn("GET", "/resourceful/docnote-v2", (request, { db, caller }) => {
    const scope = docScopeOf(db, caller);
    return json(listDocuments(db, scope, request.query));
  }),

  // spec 002 §4 sending, step 1; §5 compose
  signedIn("POST", "/resourceful/docnote-v2", (request, { db, caller, clock }) => {
    requireClientUser(caller);
    if (toggleOn(db, "one_way_messaging")) throw forbidden(DOC_MESSAGES.oneWay);
    const input = validate(CreateBody, request.body, "body");
    const entityId = caller.user.entityId;
    const accountIds = [...new Set(input.accounts ?? [])];
    if (accountIds.length) {
      const own = new Set(visibleAccounts(db, entityId).map((a) => a.account.id));
      if (accountIds.some((a) => !own.has(a))) throw forbidden(DOC_MESSAGES.noAccount);
    }
    const templateId = input.notification_template_id ?? null;
    if (templateId !== null) templateById(db, templateId);
    const creatorName = entityById(db, entityId)?.displayName ?? caller.user.username;
    const id = db.transaction((tx) => {
      const documentId = tx
        .insert(documents)
        .values({
          subject: input.subject,
          body: input.body,
          doctype: "SecureMessage",
          docsubtype: CLIENT_INITIATED,
          createdAt: clock.now().toISOString(),
          referenceDate: null,
          isClientAccessAccessible: true,
          editPrivilege: 8,
          permission: "Shared With Client Groups",
          digitalSignatureStatus: null,
          notifTemplateId: templateId,
          creatorUserId: caller.user.id,
          creatorName,
        })
        .returning({ id: documents.id })
        .get().id;
      tx.insert(documentEntities).values({ documentId, entityId }).run();
      for (const accountId of accountIds) tx.insert(documentAccounts).values({ documentId, accountId }).run();
      return documentId;
    });
    return json({ id }, 201);
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    const document = visibleDocument(db, scope, id);
    const [view] = documentViews(db, scope, [document], "-created_date", scope.client);
    return json({ ...view, attachments: attachmentsOf(db, id).map(attachmentView) });
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id/body", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const document = visibleDocument(db, docScopeOf(db, caller), id);
    return { status: 200, raw: document.body, headers: { "Content-Type": "text/html; charset=utf-8" } };
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id/attachment-v4", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    visibleDocument(db, docScopeOf(db, caller), id);
    return json(attachmentsOf(db, id).map(attachmentView));
  }),

  // spec 002 §4: a ClientUser's opening marks it read once; an adviser's records nothing
  signedIn("POST", "/resourceful/docnote-v2/:id/firstread", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    visibleDocument(db, scope, id);
    if (isClientUser(caller)) {
      db.insert(documentFirstReads)
        .values({ documentId: id, entityId: scope.client, readAt: clock.now().toISOString() })
        .onConflictDoNothing()
        .run();
    }
    return noContent();
  }),

  // spec 002 §4 sending, step 3; §5 compose attachment rules
  signedIn("POST", "/resourceful/docnote-v2/:id/attachment-v3", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    const document = visibleDocument(db, scope, id);
    requireClientUser(caller);
    if (document.docsubtype !== CLIENT_INITIATED || document.creatorUserId !== caller.user.id) throw forbidden(DOC_MESSAGES.notOwnMessage);
    if (!isUploadBody(request.body) || !request.body.file) throw new ApiError(400, DOC_MESSAGES.notMultipart, MESSAGES.argumentsIncorrect);
    const { file } = request.body;
    const filename = baseName(request.body.filename?.trim() || file.name).slice(0, 255);
    if (!filename) throw new ApiError(400, DOC_MESSAGES.noFileName);
    const existing = db.select({ n: count() }).from(documentAttachments).where(eq(documentAttachments.documentId, id)).get()?.n ?? 0;
    if (existing >= MAX_ATTACHMENTS) throw new ApiError(400, DOC_MESSAGES.tooMany);
    const extension = extensionOf(filename);
    const excluded = (EXCLUDED_EXTENSIONS as readonly string[]).includes(extension);
    const tooLarge = file.data.length > MAX_FILE_BYTES;
    if (excluded && tooLarge) throw new ApiError(400, DOC_MESSAGES.typeAndSize);
    if (excluded) throw new ApiError(400, DOC_MESSAGES.typeNotAllowed);
    if (tooLarge) throw new ApiError(400, DOC_MESSAGES.tooLarge);
    if (file.data.length === 0) throw new ApiError(400, DOC_MESSAGES.emptyFile);
    const declared = file.type.split(";")[0]?.trim().toLowerCase() ?? "";
    const contentType =
      declared && declared !== "application/octet-stream" ? file.type : (CONTENT_TYPES[extension] ?? "application/octet-stream");
    const docpartid = db
      .insert(documentAttachments)
      .values({ documentId: id, filename, contentType, size: file.data.length, content: file.data, createdAt: clock.now().toISOString() })
      .returning({ docpartid: documentAttachments.docpartid })
      .get().docpartid;
    return json({ docpartid, filename, size: file.data.length }, 201);
  }),

  // spec 002 §4 attachment download: the bytes, named for saving
  signedIn("GET", "/resourceful/docnote/files/:documentId/:docpartid/:filename", (request, { db, caller }) => {
    const params = validate(z.object({ documentId: Id, docpartid: Id, filename: z.string().min(1).max(1000) }), request.params, "path");
    visibleDocument(db, docScopeOf(db, caller), params.documentId);
    const file = db
      .select()
      .from(documentAttachments)
      .where(and(eq(documentAttachments.docpartid, params.docpartid), eq(documentAttachments.documentId, params.documentId)))
      .get();
    if (!file || file.filename !== params.filename) throw new ApiError(404, "File not found");
    return {
      status: 200,
      raw: file.content,
      headers: {
        "Content-Type": file.contentType,
        "Content-Length": String(file.content.length),
        "Content-Disposition": contentDisposition(file.filename),
        "X-Content-Type-Options": "nosniff",
      },
    };
  }),

  signedIn("GET", "/resourceful/email/template/:id", (request, { db }) => {
    const { id } = validate(IdParams, request.params, "path");
    const t = templateById(db, id);
    return json({ id: t.id, name: t.name, subject: t.subject, body: t.body });
  }),

  // spec 002 §4 sending, step 4: a notification to the client's adviser
  signedIn("POST", "/resourceful/email/email", (request, { db, caller, clock }) => {
    validate(SendQuery, request.query, "query");
    const scope = docScopeOf(db, caller);
    const input = validate(SendBody, request.body, "body");
    const template = templateById(db, input.template_id);
    if (input.document_id) visibleDocument(db, scope, input.document_id);
    const adviser = adviserToNotify(db, scope.client);
    if (!adviser) throw new ApiError(422, DOC_MESSAGES.noAdviser);
    const client = entityById(db, scope.client);
    const values = { client_name: client?.displayName ?? "", subject: input.subject, adviser_name: adviser.name ?? adviser.username };
    db.insert(outbox)
      .values({
        to: adviser.address,
        username: adviser.username,
        channel: "email",
        subject: fill(template.subject, values),
        body: fill(template.body, values),
        code: null,
        createdAt: clock.now().toISOString(),
      })
      .run();
    return noContent();
  }),
];
