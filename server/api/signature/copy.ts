// For the dev copy of a login (`POST /dev/users/{username}/copy` with `signatures: true`): fresh
// copies of the signature items the template person signs, with the copy in the template's place,
// so each end-to-end journey signs its own items.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/connection";
import {
  digitalSignatures,
  digitalSignatureSignatories,
  documentCategoryLinks,
  documentEntities,
  documentFirstReads,
  documents,
} from "../../db/schema";
import { newSecureData } from "./store";

/**
 * Copies every signature item where `templateEntityId` is a signatory, with its message (entity
 * links, categories, first reads), as they are now; `copyEntityId` takes the template's place,
 * other signatories are kept. Codes are not copied. Answers the new items' ids, oldest first.
 * Run inside the caller's transaction.
 */
export function copySignatureItems(db: Db, templateEntityId: number, copyEntityId: number): number[] {
  const swap = (entityId: number) => (entityId === templateEntityId ? copyEntityId : entityId);
  const itemIds = db
    .select({ id: digitalSignatureSignatories.digitalSignatureId })
    .from(digitalSignatureSignatories)
    .where(eq(digitalSignatureSignatories.entityId, templateEntityId))
    .all()
    .map((r) => r.id);
  if (itemIds.length === 0) return [];
  // only real items: a copy made for another journey (its other signatory kept) is not copied again
  const items = db
    .select()
    .from(digitalSignatures)
    .where(and(inArray(digitalSignatures.id, itemIds), isNull(digitalSignatures.copiedFrom)))
    .orderBy(digitalSignatures.id)
    .all();
  const copies: number[] = [];
  for (const { id: itemId, documentId: templateDocumentId, ...item } of items) {
    const document = db.select().from(documents).where(eq(documents.id, templateDocumentId)).get();
    if (!document) continue;
    const { id: _documentId, ...documentFields } = document;
    const documentId = db.insert(documents).values(documentFields).returning({ id: documents.id }).get().id;
    for (const link of db
      .select()
      .from(documentEntities)
      .where(eq(documentEntities.documentId, templateDocumentId))
      .all()) {
      db.insert(documentEntities)
        .values({ documentId, entityId: swap(link.entityId) })
        .onConflictDoNothing()
        .run();
    }
    for (const link of db
      .select()
      .from(documentCategoryLinks)
      .where(eq(documentCategoryLinks.documentId, templateDocumentId))
      .all()) {
      db.insert(documentCategoryLinks).values({ documentId, categoryId: link.categoryId }).run();
    }
    for (const read of db
      .select()
      .from(documentFirstReads)
      .where(eq(documentFirstReads.documentId, templateDocumentId))
      .all()) {
      db.insert(documentFirstReads)
        .values({ documentId, entityId: swap(read.entityId), readAt: read.readAt })
        .onConflictDoNothing()
        .run();
    }
    const copyId = db
      .insert(digitalSignatures)
      .values({ ...item, documentId, secureData: newSecureData(), copiedFrom: itemId })
      .returning({ id: digitalSignatures.id })
      .get().id;
    const signatories = db
      .select()
      .from(digitalSignatureSignatories)
      .where(eq(digitalSignatureSignatories.digitalSignatureId, itemId))
      .orderBy(digitalSignatureSignatories.id)
      .all();
    for (const { id: _signatoryId, ...signatory } of signatories) {
      db.insert(digitalSignatureSignatories)
        .values({ ...signatory, digitalSignatureId: copyId, entityId: swap(signatory.entityId) })
        .run();
    }
    copies.push(copyId);
  }
  return copies;
}
