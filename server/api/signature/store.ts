// spec 002 §3 "Digital signature item", "Signatory", §4 "Digital-signature status", "Who can sign",
// §6: who sees a signature item, who may sign it, and the answers' shapes (docs/platform-api.md
// "Digital signatures").
import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, exists, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { inJsonList, jsonList } from "../../db/json-list";
import { prepared } from "../../db/prepared";
import { contacts, digitalSignatures, digitalSignatureSignatories, documents, entities } from "../../db/schema";
import { wireDate, wireDateTime } from "../../lib/wire";
import type { Caller } from "../../sessions";
import { clientEntityOf, isClientUser } from "../access";
import { ApiError, forbidden, notFound } from "../http";

/** spec 002 §4: partSigned=0, signed=1, declined=2, pending=3, awaitingSignature=4. */
export const SIGNATURE_STATUS = { partSigned: 0, signed: 1, declined: 2, pending: 3, awaitingSignature: 4 } as const;
export const STATUS_NAMES = ["partSigned", "signed", "declined", "pending", "awaitingSignature"] as const;
/** spec 002 §4 "Signature outcome": signed=0, declined=1. */
export const SIGNATURE_OUTCOME = { signed: 0, declined: 1 } as const;

export const CODE_MINUTES = 5;
export const MAX_CODE_ATTEMPTS = 3;
export const MAX_CODES = 5;
export const CODE_WINDOW_MINUTES = 15;

export const SIGNATURE_MESSAGES = {
  cannotSign: "Permission Error: You cannot sign this document",
  invalidPhone: "Invalid phone number",
  tooManyCodes: "Too many codes requested",
  invalidSecureData: "Invalid secure data",
  expired: "OTP code has expired",
  mismatch: "OTP does not match",
  tooManyAttempts: "Too many incorrect OTP attempts",
  nothingToConfirm: "Nothing to confirm",
  fileNotFound: "File not found",
  noEmail: "No email address on record",
} as const;

/** spec 002 §8 "Digital signature": what the user is shown for each refusal (the user_message). */
export const SIGNATURE_USER_MESSAGES: Partial<Record<keyof typeof SIGNATURE_MESSAGES, string>> = {
  invalidPhone:
    "We are unable to sign the document as there seems to be a problem with your registered phone number. Please contact your adviser.",
  tooManyCodes: "We have been unable to generate your code. Please try again.",
  expired: "The security code that we sent has expired.",
  mismatch: "The security code that you provided does not match the one that was sent. Please try again.",
  tooManyAttempts: "Too many invalid code attempts.",
};

export function signatureError(status: number, key: keyof typeof SIGNATURE_MESSAGES): ApiError {
  const api = SIGNATURE_MESSAGES[key];
  return new ApiError(status, api, SIGNATURE_USER_MESSAGES[key] ?? api);
}

export const TERMS = {
  title: "Terms and conditions of electronic signature",
  /** The language the terms are written in (BCP 47), so a page in another language can mark them (issue 25 item 3). */
  lang: "en",
  html: [
    "<p>By signing a document electronically you agree that your electronic signature has the same legal effect as signing the document by hand on paper, and that you intend to be bound by the document you sign.</p>",
    "<p>To sign, we send a one-time security code by text message to the mobile phone number registered for you with your adviser. The code can be used once, for the document you asked it for, and expires after 5 minutes. If your registered number is wrong or out of date, please contact your adviser before signing.</p>",
    "<p>Keep the code private: do not share it with anyone, including anyone who says they work for us. We will never ask you for it by phone or email. Entering the code is how you confirm that it is you who signs.</p>",
    "<p>Please read the whole document before you sign it. You may decline to sign instead; your adviser will then be in touch. We keep a record of the date and time you signed or declined, and send you an email to confirm it.</p>",
  ].join(""),
} as const;

type ItemRow = typeof digitalSignatures.$inferSelect;
type SignatoryRow = typeof digitalSignatureSignatories.$inferSelect;

/** The session's client and whether the session is that client signing (not an adviser reading). */
export type Viewer = { client: number; isClient: boolean; caller: Caller };

export function viewerOf(caller: Caller): Viewer {
  return { client: clientEntityOf(caller), isClient: isClientUser(caller), caller };
}

/** spec 002 §6: an item is the viewer's when the session's client is one of its signatories. */
export function visibleCondition(viewer: Viewer): SQL {
  return visibleTo(viewer.client);
}

/** The same condition for a client entity, or a placeholder for it in a prepared statement. */
export function visibleTo(client: number | Placeholder): SQL {
  return exists(
    sql`(select 1 from ${digitalSignatureSignatories} where ${and(
      eq(digitalSignatureSignatories.digitalSignatureId, digitalSignatures.id),
      eq(digitalSignatureSignatories.entityId, client),
    )})`,
  );
}

/** The item if the viewer sees it; otherwise 404 (never 403, so ids are not probed). */
export function visibleItem(db: Db, viewer: Viewer, id: number): ItemRow {
  const row = db
    .select()
    .from(digitalSignatures)
    .where(and(eq(digitalSignatures.id, id), visibleCondition(viewer)))
    .get();
  if (!row) throw notFound(`Digital signature ${id}`);
  return row;
}

export type SignatoryFull = SignatoryRow & { firstName: string; lastName: string; phone: string | null };

// the list's statements, prepared once per database for any number of items (decision 131)
const signatoriesOfItems = (db: Db) =>
  db
    .select({ signatory: digitalSignatureSignatories, firstName: entities.firstName, lastName: entities.lastName })
    .from(digitalSignatureSignatories)
    .innerJoin(entities, eq(entities.id, digitalSignatureSignatories.entityId))
    .where(inJsonList(digitalSignatureSignatories.digitalSignatureId, "itemIds"))
    .orderBy(asc(digitalSignatureSignatories.id))
    .prepare();
const mobilesOf = (db: Db) =>
  db
    .select({ entityId: contacts.entityId, value: contacts.value })
    .from(contacts)
    .where(and(inJsonList(contacts.entityId, "entityIds"), eq(contacts.type, "p3")))
    .orderBy(desc(contacts.preferred), asc(contacts.id))
    .prepare();

/** The signatories of some items, by id, with their names and registered mobiles (p3, preferred first). */
export function signatoriesOf(db: Db, itemIds: number[]): SignatoryFull[] {
  if (itemIds.length === 0) return [];
  const rows = prepared(db, signatoriesOfItems).all({ itemIds: jsonList(itemIds) });
  const entityIds = [...new Set(rows.map((r) => r.signatory.entityId))];
  const phones = new Map<number, string>();
  if (entityIds.length) {
    const mobiles = prepared(db, mobilesOf).all({ entityIds: jsonList(entityIds) });
    for (const m of mobiles) if (!phones.has(m.entityId)) phones.set(m.entityId, m.value);
  }
  return rows.map((r) => ({
    ...r.signatory,
    firstName: r.firstName,
    lastName: r.lastName,
    phone: phones.get(r.signatory.entityId) ?? null,
  }));
}

const isOpen = (status: number) =>
  status === SIGNATURE_STATUS.awaitingSignature || status === SIGNATURE_STATUS.partSigned;

/**
 * spec 002 §4 "Who can sign": only the signed-in client's own signatory, while it has neither signed
 * nor declined and the item awaits signatures (awaitingSignature, or partSigned). An adviser reads.
 */
export function canSign(item: Pick<ItemRow, "status">, signatory: SignatoryRow, viewer: Viewer): boolean {
  return (
    viewer.isClient &&
    signatory.entityId === viewer.client &&
    !signatory.signedAt &&
    !signatory.declinedAt &&
    isOpen(item.status)
  );
}

export function signatoryView(item: Pick<ItemRow, "status">, s: SignatoryFull, viewer: Viewer) {
  return {
    id: s.id,
    entityid: s.entityId,
    entity_first_name: s.firstName,
    entity_last_name: s.lastName,
    entity_name: `${s.firstName} ${s.lastName}`,
    entity_phone: s.phone,
    signing_method: s.signingMethod,
    signed_at: wireDateTime(s.signedAt),
    declined_at: wireDateTime(s.declinedAt),
    can_sign: canSign(item, s, viewer),
  };
}

export function statusName(status: number): (typeof STATUS_NAMES)[number] {
  return STATUS_NAMES[status] ?? "pending";
}

export function itemViews(db: Db, viewer: Viewer, items: ItemRow[]) {
  const signatories = signatoriesOf(
    db,
    items.map((i) => i.id),
  );
  return items.map((item) => ({
    id: item.id,
    docnote_id: item.documentId,
    filename: item.filename,
    title: item.title,
    duedate: wireDate(item.dueDate),
    status: item.status,
    status_name: statusName(item.status),
    signing_method: item.signingMethod,
    last_notified_at: wireDateTime(item.lastNotifiedAt),
    terms_and_conds: TERMS.title,
    secure_data: viewer.isClient ? item.secureData : null,
    signatories: signatories.filter((s) => s.digitalSignatureId === item.id).map((s) => signatoryView(item, s, viewer)),
  }));
}

export function itemView(db: Db, viewer: Viewer, item: ItemRow) {
  const [view] = itemViews(db, viewer, [item]);
  if (!view) throw new Error("an item without a view");
  return view;
}

/**
 * The item and the signatory the viewer may sign for: 404 when the item is not the viewer's, 403
 * when the signatory is not one the viewer can sign as (another's, done, the item closed, an adviser).
 */
export function signable(db: Db, viewer: Viewer, id: number, signatoryId: number) {
  const item = visibleItem(db, viewer, id);
  const signatory = signatoriesOf(db, [item.id]).find((s) => s.id === signatoryId);
  if (!signatory || !canSign(item, signatory, viewer)) throw forbidden(SIGNATURE_MESSAGES.cannotSign);
  return { item, signatory };
}

export function secureDataMatches(given: string, stored: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(stored, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newSecureData = () => randomBytes(16).toString("hex");

/** The docnote's digital_signature_status for an item's status (kept in step). */
export function documentStatusOf(status: number): "Pending" | "Signed" | "Declined" {
  if (status === SIGNATURE_STATUS.signed) return "Signed";
  if (status === SIGNATURE_STATUS.declined) return "Declined";
  return "Pending";
}

/** Sets an item's status and its docnote's status with it. */
export function setItemStatus(db: Db, item: Pick<ItemRow, "id" | "documentId">, status: number): void {
  db.update(digitalSignatures).set({ status }).where(eq(digitalSignatures.id, item.id)).run();
  db.update(documents)
    .set({ digitalSignatureStatus: documentStatusOf(status) })
    .where(eq(documents.id, item.documentId))
    .run();
}
