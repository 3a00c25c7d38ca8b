// spec 002 §6: who sees which documents (the client, the partner, related entities, the adviser),
// and the limits and messages every documents endpoint shares (spec 002 §5, §9).
import { and, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { capabilities, documentEntities, documents, featureToggles } from "../../db/schema";
import type { Caller } from "../../sessions";
import { clientEntityOf, isClientUser, reachableEntities } from "../access";
import { ApiError } from "../http";
import { partnerEntityIdOf } from "../people";

// ── limits (spec 002 §5 compose, §9) ─────────────────────────────────────────────────────────

export const MAX_ATTACHMENTS = 5;
export const MAX_FILE_BYTES = 10_000_000;
/** The largest multipart body read at all: one file at the limit and its envelope. */
export const MAX_UPLOAD_BODY = 11 * 1024 * 1024;
// The types a client may attach are an allow-list: server/lib/attachments.ts (issue 24).
export const CLIENT_INITIATED = "Client Initiated";

export const DOC_MESSAGES = {
  notFound: "Document not found",
  tooMany: "You can upload a maximum of 5 attachments.",
  tooLarge: "File is too large, please remove.",
  typeNotAllowed: "File type not allowed, please remove.",
  typeAndSize: "File type not allowed and file is too large, please remove.",
  contentMismatch: "File content does not match its type, please remove.",
  // issue 39 (docs/decisions/165): what an Office package holds, and the allowance of a day
  activeContent: "File contains macros or other active content, please remove.",
  externalContent: "File links to content stored elsewhere, please remove.",
  unpackedTooLarge: "File is too large when unpacked, please remove.",
  dailyLimit: "Attachment limit reached: no more files can be stored for you in the next 24 hours.",
  // ASVS V12.4.2 (docs/decisions/192): what the virus scanner found, or that it could not answer
  virus: "File contains a virus, please remove.",
  scannerUnavailable: "Files cannot be checked for viruses at the moment: the file was not stored.",
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
export type DocScope = {
  client: number;
  entities: number[];
  adviser: boolean;
  caller: Caller;
};

export function hasCapability(db: Db, entityId: number, name: string): boolean {
  return !!prepared(db, capabilityOf).get({ entityId, name });
}

// every document call's statements, prepared once per database (decision 123)
const capabilityOf = (db: Db) =>
  db
    .select({ name: capabilities.name })
    .from(capabilities)
    .where(and(eq(capabilities.entityId, sql.placeholder("entityId")), eq(capabilities.name, sql.placeholder("name"))))
    .prepare();
const toggle = (db: Db) =>
  db
    .select({ enabled: featureToggles.enabled })
    .from(featureToggles)
    .where(eq(featureToggles.name, sql.placeholder("name")))
    .prepare();

/**
 * spec 002 §6: a client's own entity, and the partner's when the client holds view_partner and the
 * partner is a login-accessible member of the client group; with the related-entities option on,
 * every login-accessible member of the client's groups. An adviser sees the client in context's.
 */
export function docScopeOf(db: Db, caller: Caller): DocScope {
  const client = clientEntityOf(caller);
  const adviser = !isClientUser(caller);
  if (toggleOn(db, "related_entities"))
    return {
      client,
      entities: [...reachableEntities(db, client)],
      adviser,
      caller,
    };
  const visible = [client];
  const partner = partnerEntityIdOf(db, client);
  if (
    partner !== null &&
    partner !== client &&
    hasCapability(db, client, "view_partner") &&
    reachableEntities(db, client).has(partner)
  ) {
    visible.push(partner);
  }
  return { client, entities: visible, adviser, caller };
}

/**
 * The documents the scope may see, limited to the entities of the placeholder `entities` (a JSON
 * array of ids, so one prepared statement serves any number of them).
 */
export function visibleCondition(scope: Pick<DocScope, "adviser">): SQL {
  const belongs = sql`exists (select 1 from ${documentEntities} where ${documentEntities.documentId} = ${documents.id} and ${inJsonList(documentEntities.entityId, "entities")})`;
  return scope.adviser ? belongs : (and(belongs, eq(documents.isClientAccessAccessible, true)) as SQL);
}

/** `(select 1 from <table> where <condition>)`, for exists() over a correlated condition. */
export function sqlSelectOne(condition: SQL, table: "document_category_links" | "document_first_reads"): SQL {
  return sql`(select 1 from ${sql.identifier(table)} where ${condition})`;
}

/** The document if the scope may see it, else 404 (its existence is not revealed). */
export function visibleDocument(db: Db, scope: DocScope, id: number) {
  const statement = prepared(db, scope.adviser ? documentForAdviser : documentForClient);
  const row = statement.get({ id, entities: jsonList(scope.entities) });
  if (!row) throw documentNotFound();
  return row;
}

const documentOf = (db: Db, scope: Pick<DocScope, "adviser">) =>
  db
    .select()
    .from(documents)
    .where(and(eq(documents.id, sql.placeholder("id")), visibleCondition(scope)))
    .prepare();
const documentForAdviser = (db: Db) => documentOf(db, { adviser: true });
const documentForClient = (db: Db) => documentOf(db, { adviser: false });

export const Id = z.coerce.number().int().positive();
export const IdParams = z.object({ id: Id });

export function toggleOn(db: Db, name: string): boolean {
  return prepared(db, toggle).get({ name })?.enabled ?? false;
}
