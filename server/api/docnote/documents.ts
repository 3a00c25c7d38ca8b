// spec 002 §2, §4 documents and messages: categories, types, the list, one document, its body,
// the first read, and compose (docs/platform-api.md "Documents and messages").
import { and, asc, desc, eq, exists, getTableColumns, gte, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { DerivedCache } from "../../db/derived";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { ShapedStatements } from "../../db/shaped";
import {
  documentAccounts,
  documentAttachments,
  documentCategories,
  documentCategoryLinks,
  documentEntities,
  documentFirstReads,
  documents,
  documentTypes,
} from "../../db/schema";
import { shiftDays } from "../../domain/calendar";
import { decodeBookmark, encodeBookmark } from "../../lib/bookmark";
import { likeEscape } from "../../lib/text";
import { wireDate, wireDateTime } from "../../lib/wire";
import { isClientUser, requireClientUser } from "../access";
import { ApiError, forbidden, MESSAGES, validate } from "../http";
import { entityById } from "../people";
import { visibleAccounts } from "../portfolio/visibility";
import { json, noContent, type Route, signedIn } from "../router";
import {
  CLIENT_INITIATED,
  DOC_MESSAGES,
  type DocScope,
  docScopeOf,
  Id,
  IdParams,
  sqlSelectOne,
  toggleOn,
  visibleCondition,
  visibleDocument,
} from "./scope";
import { templateById } from "./email";
import { ftsQuery, searchMatches } from "./search";

// ── answers ──────────────────────────────────────────────────────────────────────────────────

type DocumentRow = typeof documents.$inferSelect;
/** A document as the list reads it: every column but the body. */
type ListedDocument = Omit<DocumentRow, "body">;
type AttachmentMeta = {
  docpartid: number;
  documentId: number;
  filename: string;
  contentType: string;
  size: number;
  createdAt: string;
};

const SORTS = ["-created_date", "created_date", "-reference_date", "reference_date", "subject", "-subject"] as const;
type Sort = (typeof SORTS)[number];

const NO_REFERENCE_DATE = "";

function sortKeyOf(sort: Sort): SQL<string> {
  if (sort.endsWith("created_date")) return sql<string>`${documents.createdAt}`;
  if (sort.endsWith("reference_date")) return sql<string>`coalesce(${documents.referenceDate}, ${NO_REFERENCE_DATE})`;
  return sql<string>`lower(${documents.subject})`;
}

function rowSortKey(sort: Sort, d: ListedDocument): string {
  if (sort.endsWith("created_date")) return d.createdAt;
  if (sort.endsWith("reference_date")) return d.referenceDate ?? NO_REFERENCE_DATE;
  return d.subject.toLowerCase();
}

export const attachmentView = (a: AttachmentMeta) => ({
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

export function attachmentsOf(db: Db, documentId: number): AttachmentMeta[] {
  return prepared(db, attachmentsOfDocument).all({ documentId });
}

const attachmentsOfDocument = (db: Db) =>
  db
    .select(attachmentColumns)
    .from(documentAttachments)
    .where(eq(documentAttachments.documentId, sql.placeholder("documentId")))
    .orderBy(asc(documentAttachments.docpartid))
    .prepare();

/** What the list shape shows of each document besides its own columns, for a JSON array of ids. */
const DOCUMENT_EXTRAS = `SELECT d.value AS id,
  (SELECT json_group_array(e.entity_id) FROM document_entities e WHERE e.document_id = d.value) AS entities,
  (SELECT json_group_array(json_array(c.id, c.name)) FROM document_category_links l
    JOIN document_categories c ON c.id = l.category_id WHERE l.document_id = d.value) AS categories,
  (SELECT r.read_at FROM document_first_reads r WHERE r.document_id = d.value AND r.entity_id = ?) AS first_read,
  (SELECT count(*) FROM document_attachments a WHERE a.document_id = d.value) AS attachments,
  (SELECT t.name FROM documents x JOIN document_types t ON t.code = x.doctype WHERE x.id = d.value) AS type_name
FROM json_each(?) d`;

type ExtrasRow = {
  id: number;
  entities: string;
  categories: string;
  first_read: string | null;
  attachments: number;
  type_name: string | null;
};

const documentExtras = (db: Db) => db.$client.prepare<[number, string], ExtrasRow>(DOCUMENT_EXTRAS);

/** The list shape of documents, with what they link to read in one statement. */
function documentViews(db: Db, scope: DocScope, rows: ListedDocument[], sort: Sort, reader: number) {
  if (rows.length === 0) return [];
  const extras = new Map(
    prepared(db, documentExtras)
      .all(reader, JSON.stringify(rows.map((r) => r.id)))
      .map((e) => [e.id, e]),
  );
  const visible = new Set(scope.entities);
  return rows.map((d) => {
    const extra = extras.get(d.id);
    const linked = extra ? (JSON.parse(extra.entities) as number[]) : [];
    const categories = extra ? (JSON.parse(extra.categories) as Array<[number, string]>) : [];
    const firstRead = extra?.first_read ?? null;
    return {
      id: d.id,
      subject: d.subject,
      doctype: d.doctype,
      doctype_name: extra?.type_name ?? d.doctype,
      docsubtype: d.docsubtype,
      categories: categories.sort((x, y) => x[0] - y[0]).map(([id, name]) => ({ id, name })),
      created_date: wireDateTime(d.createdAt),
      reference_date: wireDate(d.referenceDate),
      entity_ids: linked.filter((e) => visible.has(e)).sort((x, y) => x - y),
      is_client_access_accessible: d.isClientAccessAccessible,
      is_related_entity: !linked.includes(scope.client),
      has_been_seen: firstRead !== null,
      session_info: { firstread: wireDateTime(firstRead) },
      attachment_count: extra?.attachments ?? 0,
      digital_signature_status: d.digitalSignatureStatus,
      creator: { id: d.creatorUserId, name: d.creatorName },
      bookmark: encodeBookmark({ sort, key: rowSortKey(sort, d), id: d.id }),
    };
  });
}

// ── query parsing ────────────────────────────────────────────────────────────────────────────

/** An empty query value counts as absent (a search form sends every field). */
const optional = <S extends z.ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const DateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD")
  .refine(isRealDate, "Not a date");
const Code = z.string().regex(/^[\w .-]{1,100}$/, "Expected a document type code");

/** The list's filters: every parameter but the paging ones, which the count takes too. */
const FilterQuery = z
  .object({
    docsubtype: optional(z.string().max(100)),
    docsubtype_exclude: optional(z.string().max(100)),
    digital_signature_status: optional(z.enum(["Pending", "Signed", "Declined"])),
    "firstread.include_read_notes": optional(z.enum(["true", "false"])),
    "firstread.entity_id": optional(Id),
    "created_date.start_date": optional(DateText),
    "created_date.end_date": optional(DateText),
    subject: optional(z.string().max(255)),
    // docs/decisions/209: the words of the subject, the body and the attachments' names
    text: optional(z.string().max(255)),
    session_info: optional(z.string().max(200)),
  })
  .passthrough();

const ListQuery = FilterQuery.extend({
  page_size: optional(z.coerce.number().int().min(1).max(100)),
  page_sort: optional(z.enum(SORTS)),
  page_bookmark: optional(z.string().max(500)),
});

const PAGING = ["page_size", "page_sort", "page_bookmark"] as const;

/** A list parameter given as `name.N` (each), `name` or comma-separated values. */
function listParam<S extends z.ZodTypeAny>(query: Record<string, string>, name: string, item: S): Array<z.output<S>> {
  const values: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === name || (key.startsWith(`${name}.`) && /^\d+$/.test(key.slice(name.length + 1)))) {
      values.push(
        ...value
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean),
      );
    }
  }
  if (values.length > 100)
    throw new ApiError(400, `Invalid query: ${name}: at most 100 values`, MESSAGES.argumentsIncorrect);
  return values.map((v) => validate(item, v, "query") as z.output<S>);
}

/** spec 002 §7 subject search: case-insensitive, `*` a wildcard, a plain value matches anywhere. */
function subjectPattern(value: string): string {
  const escaped = likeEscape(value);
  return value.includes("*") ? escaped.replace(/\*/g, "%") : `%${escaped}%`;
}

function assertInScope(scope: DocScope, entityIds: number[]): void {
  for (const id of entityIds) if (!scope.entities.includes(id)) throw forbidden(MESSAGES.noEntityAccess);
}

/** The columns the list reads (the body only travels on its own call). */
const { body: _body, ...listedColumns } = getTableColumns(documents);

/** Which of the list's optional filters a call uses: the shape of its statement and of the count's. */
type FilterShape = {
  adviser: boolean;
  doctypes: boolean;
  excluded: boolean;
  idsExcluded: boolean;
  categories: boolean;
  docsubtype: boolean;
  docsubtypeExclude: boolean;
  signature: boolean;
  unread: boolean;
  start: boolean;
  end: boolean;
  subject: boolean;
  text: boolean;
};

/** The list's shape: its filters, its order and whether it starts after a bookmark. */
type ListShape = FilterShape & { sort: Sort; bookmark: boolean };

/** The documents a call's filters leave, its values as placeholders: the list's and the count's conditions. */
function filterConditions(shape: FilterShape): SQL[] {
  const conditions: SQL[] = [visibleCondition(shape)];
  if (shape.doctypes) conditions.push(inJsonList(documents.doctype, "doctypes"));
  if (shape.excluded) conditions.push(sql`not ${inJsonList(documents.doctype, "excluded")}`);
  if (shape.idsExcluded) conditions.push(sql`not ${inJsonList(documents.id, "idsExcluded")}`);
  if (shape.categories) {
    conditions.push(
      exists(
        sqlSelectOne(
          and(
            eq(documentCategoryLinks.documentId, documents.id),
            inJsonList(documentCategoryLinks.categoryId, "categories"),
          ) as SQL,
          "document_category_links",
        ),
      ),
    );
  }
  if (shape.docsubtype) conditions.push(eq(documents.docsubtype, sql.placeholder("docsubtype")));
  if (shape.docsubtypeExclude)
    conditions.push(
      or(isNull(documents.docsubtype), ne(documents.docsubtype, sql.placeholder("docsubtypeExclude"))) as SQL,
    );
  if (shape.signature) conditions.push(eq(documents.digitalSignatureStatus, sql.placeholder("signature")));
  if (shape.unread) {
    conditions.push(
      sql`not exists ${sqlSelectOne(
        and(
          eq(documentFirstReads.documentId, documents.id),
          eq(documentFirstReads.entityId, sql.placeholder("reader")),
        ) as SQL,
        "document_first_reads",
      )}`,
    );
  }
  if (shape.start) conditions.push(gte(documents.createdAt, sql.placeholder("start")));
  if (shape.end) conditions.push(lt(documents.createdAt, sql.placeholder("end")));
  if (shape.subject) conditions.push(sql`${documents.subject} like ${sql.placeholder("subject")} escape '\\'`);
  // the full-text index is asked for ids only: who may see them stays the conditions above (decision 209)
  if (shape.text)
    conditions.push(
      sql`${documents.id} in (select rowid from document_search where document_search match ${sql.placeholder("text")})`,
    );
  return conditions;
}

/** The list's statement for a shape, its values as placeholders (built once per shape). */
function listStatement(db: Db, shape: ListShape) {
  const sort = shape.sort;
  const descending = sort.startsWith("-");
  const conditions = filterConditions(shape);
  const key = sortKeyOf(sort);
  if (shape.bookmark) {
    const after = sql.placeholder("afterKey");
    const afterId = sql.placeholder("afterId");
    conditions.push(
      descending
        ? sql`(${key} < ${after} or (${key} = ${after} and ${documents.id} < ${afterId}))`
        : sql`(${key} > ${after} or (${key} = ${after} and ${documents.id} > ${afterId}))`,
    );
  }
  return db
    .select(listedColumns)
    .from(documents)
    .where(and(...conditions))
    .orderBy(descending ? desc(key) : asc(key), descending ? desc(documents.id) : asc(documents.id))
    .limit(sql.placeholder("limit"))
    .prepare();
}

/**
 * The count's statement for a shape: the list's very conditions, counted in SQL. With no order to
 * follow, SQLite would read the whole of documents to test each one's entities (the visibility's
 * correlated exists); the same entities as an IN on the id let it start from document_entities'
 * entity index and find each document by its key instead.
 */
function countStatement(db: Db, shape: FilterShape) {
  const entitiesDocuments = sql`${documents.id} in (select ${documentEntities.documentId} from ${documentEntities} where ${inJsonList(documentEntities.entityId, "entities")})`;
  return db
    .select({ count: sql<number>`count(*)` })
    .from(documents)
    .where(and(entitiesDocuments, ...filterConditions(shape)))
    .prepare();
}

const listStatements = new ShapedStatements<ReturnType<typeof listStatement>>(128);

const countStatements = new ShapedStatements<ReturnType<typeof countStatement>>(64);

/** A call's filters read and checked against the scope: their shape and their values. */
function filtersOf(scope: DocScope, rawQuery: Record<string, string>, query: z.output<typeof FilterQuery>) {
  const doctypes = listParam(rawQuery, "doctype", Code);
  const excluded = listParam(rawQuery, "doctype_exclude", Code);
  const idsExcluded = listParam(rawQuery, "id_exclude", Id);
  const categories = listParam(rawQuery, "categories", Id);
  const entityIds = listParam(rawQuery, "entity_ids", Id);
  assertInScope(scope, entityIds);
  const reader = query["firstread.entity_id"] ?? scope.client;
  assertInScope(scope, [reader]);
  const start = query["created_date.start_date"];
  const end = query["created_date.end_date"];
  const subject = query.subject?.trim();
  const text = query.text?.trim() ? ftsQuery(query.text) : null;
  const shape: FilterShape = {
    adviser: scope.adviser,
    doctypes: doctypes.length > 0,
    excluded: excluded.length > 0,
    idsExcluded: idsExcluded.length > 0,
    categories: categories.length > 0,
    docsubtype: !!query.docsubtype,
    docsubtypeExclude: !!query.docsubtype_exclude,
    signature: !!query.digital_signature_status,
    unread: query["firstread.include_read_notes"] === "false",
    start: !!start,
    end: !!end,
    subject: !!subject,
    text: !!query.text?.trim(),
  };
  const values = {
    entities: jsonList(entityIds.length ? entityIds : scope.entities),
    doctypes: jsonList(doctypes),
    excluded: jsonList(excluded),
    idsExcluded: jsonList(idsExcluded),
    categories: jsonList(categories),
    docsubtype: query.docsubtype ?? null,
    docsubtypeExclude: query.docsubtype_exclude ?? null,
    signature: query.digital_signature_status ?? null,
    reader,
    start: start ? `${start}T00:00:00.000Z` : null,
    end: end ? `${shiftDays(end, 1)}T00:00:00.000Z` : null,
    subject: subject ? subjectPattern(subject) : null,
    // words that hold nothing to look for (only quotes, stars or dashes) find nothing: an empty phrase
    text: shape.text ? (text ?? '""') : null,
  };
  return { shape, values, reader };
}

function listDocuments(db: Db, scope: DocScope, rawQuery: Record<string, string>) {
  const query = validate(ListQuery, rawQuery, "query");
  const sort: Sort = query.page_sort ?? "-created_date";
  const filters = filtersOf(scope, rawQuery, query);
  let after: { key: string; id: number } | null = null;
  if (query.page_bookmark) {
    const bookmark = decodeBookmark(query.page_bookmark);
    if (!bookmark || bookmark.sort !== sort || typeof bookmark.key !== "string") {
      throw new ApiError(
        400,
        "Invalid query: page_bookmark does not belong to this page_sort",
        MESSAGES.argumentsIncorrect,
      );
    }
    after = { key: bookmark.key, id: bookmark.id };
  }
  const shape: ListShape = { ...filters.shape, sort, bookmark: after !== null };
  const statement = listStatements.get(db, JSON.stringify(shape), () => listStatement(db, shape));
  const rows = statement.all({
    ...filters.values,
    afterKey: after?.key ?? null,
    afterId: after?.id ?? null,
    limit: query.page_size ?? 20,
  });
  const views = documentViews(db, scope, rows, sort, filters.reader);
  if (!filters.shape.text || filters.values.text === null) return views;
  // decision 209: where each document found matched, as text and flags
  const matches = searchMatches(
    db,
    filters.values.text,
    views.map((v) => v.id),
  );
  return views.map((v) => ({ ...v, search_matches: matches.get(v.id) ?? [] }));
}

/** How many documents the list would answer, over all its pages, for the same caller and filters. */
function countDocuments(db: Db, scope: DocScope, rawQuery: Record<string, string>): number {
  const paging = PAGING.find((name) => (rawQuery[name] ?? "") !== "");
  if (paging) throw new ApiError(400, `Invalid query: ${paging}: a count has no pages`, MESSAGES.argumentsIncorrect);
  const { shape, values } = filtersOf(scope, rawQuery, validate(FilterQuery, rawQuery, "query"));
  const shapeKey = JSON.stringify(shape);
  return counts.get(db, `${shapeKey} ${JSON.stringify(values)}`, () => {
    const statement = countStatements.get(db, shapeKey, () => countStatement(db, shape));
    return statement.get(values)?.count ?? 0;
  });
}

/**
 * The counts answered, by shape and values (the scope's entities, the reader and every filter's),
 * kept until the documents, their entities, categories or first reads are written (decision 160):
 * every page a client opens counts the unread badge, and the messages page its four folders.
 */
const counts = new DerivedCache<number>(2_000, "documents");

// ── compose ──────────────────────────────────────────────────────────────────────────────────

const CreateBody = z.object({
  subject: z
    .string()
    .trim()
    .min(1, "Please enter a message subject.")
    .max(255, "Subject must be under 256 characters."),
  body: z.string().max(100_000),
  accounts: z.array(z.coerce.number().int().positive()).max(200).optional(),
  notification_template_id: z.coerce.number().int().positive().nullish(),
});

/** A client-initiated secure message (spec 002 §4 sending, step 1), linked to one entity. */
export type SecureMessageInput = {
  subject: string;
  body: string;
  entityId: number;
  accountIds?: number[];
  templateId?: number | null;
  creatorUserId: number;
  creatorName: string;
  createdAt: string;
};

/** Records a client-initiated secure message (its Sent folder shows it); answers its id. */
export function insertSecureMessage(db: Db, input: SecureMessageInput): number {
  return db.transaction((tx) => {
    const documentId = tx
      .insert(documents)
      .values({
        subject: input.subject,
        body: input.body,
        doctype: "SecureMessage",
        docsubtype: CLIENT_INITIATED,
        createdAt: input.createdAt,
        referenceDate: null,
        isClientAccessAccessible: true,
        editPrivilege: 8,
        permission: "Shared With Client Groups",
        digitalSignatureStatus: null,
        notifTemplateId: input.templateId ?? null,
        creatorUserId: input.creatorUserId,
        creatorName: input.creatorName,
      })
      .returning({ id: documents.id })
      .get().id;
    tx.insert(documentEntities).values({ documentId, entityId: input.entityId }).run();
    for (const accountId of input.accountIds ?? []) tx.insert(documentAccounts).values({ documentId, accountId }).run();
    return documentId;
  });
}

// the categories and types, and the types the given members' documents have, prepared once
const allCategories = (db: Db) =>
  db.select().from(documentCategories).orderBy(asc(documentCategories.name), asc(documentCategories.id)).prepare();
const allTypes = (db: Db) => db.select().from(documentTypes).orderBy(asc(documentTypes.name)).prepare();
const typesOfMembers = (db: Db, adviser: boolean) =>
  db
    .selectDistinct({ code: documentTypes.code, name: documentTypes.name })
    .from(documents)
    .innerJoin(documentTypes, eq(documentTypes.code, documents.doctype))
    .where(visibleCondition({ adviser }))
    .orderBy(asc(documentTypes.name))
    .prepare();
const typesForAdviser = (db: Db) => typesOfMembers(db, true);
const typesForClient = (db: Db) => typesOfMembers(db, false);

export const documentRoutes: Route[] = [
  signedIn("GET", "/resourceful/docnote-v2/category", (_request, { db, caller }) => {
    docScopeOf(db, caller);
    return json(prepared(db, allCategories).all());
  }),

  signedIn("GET", "/resourceful/docnote-v2/doctype", (request, { db, caller }) => {
    const scope = docScopeOf(db, caller);
    const members = listParam(request.query, "member_ids", Id);
    if (members.length === 0) return json(prepared(db, allTypes).all());
    assertInScope(scope, members);
    const rows = prepared(db, scope.adviser ? typesForAdviser : typesForClient).all({ entities: jsonList(members) });
    return json(rows);
  }),

  // issue 38: the list's count (the unread badge), with the list's filters and access rules
  signedIn("GET", "/resourceful/docnote-v2/count", (request, { db, caller }) => {
    const scope = docScopeOf(db, caller);
    return json({ count: countDocuments(db, scope, request.query) });
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
    const id = insertSecureMessage(db, {
      subject: input.subject,
      body: input.body,
      entityId,
      accountIds,
      templateId,
      creatorUserId: caller.user.id,
      creatorName,
      createdAt: clock.now().toISOString(),
    });
    return json({ id }, 201);
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    const document = visibleDocument(db, scope, id);
    const [view] = documentViews(db, scope, [document], "-created_date", scope.client);
    return json({
      ...view,
      attachments: attachmentsOf(db, id).map(attachmentView),
    });
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id/body", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const document = visibleDocument(db, docScopeOf(db, caller), id);
    return {
      status: 200,
      raw: document.body,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    };
  }),

  // spec 002 §4: a ClientUser's opening marks it read once; an adviser's records nothing
  signedIn("POST", "/resourceful/docnote-v2/:id/firstread", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    visibleDocument(db, scope, id);
    if (isClientUser(caller)) {
      db.insert(documentFirstReads)
        .values({
          documentId: id,
          entityId: scope.client,
          readAt: clock.now().toISOString(),
        })
        .onConflictDoNothing()
        .run();
    }
    return noContent();
  }),
];
