// spec 002 §2 "Signature view", §4 "Signing journey", §7 "Digital signature", §8 "Digital
// signature" (docs/platform-api.md "Digital signatures"): the items a client is asked to sign, their
// signatories, the document, the terms, the one-time code, sign, decline and the confirmation.
import { and, asc, count, desc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import {
  contacts,
  digitalSignatureCodes,
  digitalSignatures,
  digitalSignatureSignatories,
  entities,
  firms,
} from "../../db/schema";
import { send } from "../../domain/accounts";
import { codeMatches, newCode } from "../../domain/mfa";
import { longDate } from "../../domain/calendar";
import { renderSignaturePdf } from "../../domain/signature-pdf";
import { tokenDigest } from "../../lib/tokens";
import { wireDateTime } from "../../lib/wire";
import type { Db } from "../../db/connection";
import { prepared } from "../../db/prepared";
import { contentDisposition } from "../docnote/files";
import { ApiError, MESSAGES, validate } from "../http";
import { json, type Route, signedIn } from "../router";
import {
  CODE_MINUTES,
  CODE_WINDOW_MINUTES,
  itemView,
  itemViews,
  MAX_CODE_ATTEMPTS,
  MAX_CODES,
  SIGNATURE_MESSAGES,
  SIGNATURE_OUTCOME,
  SIGNATURE_STATUS,
  signable,
  signatoriesOf,
  signatureError,
  secureDataMatches,
  setItemStatus,
  TERMS,
  viewerOf,
  visibleTo,
  visibleItem,
} from "./store";

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const IdParams = z.object({ id: Id });
const SignatoryParams = z.object({ id: Id, sid: Id });
const ContentParams = z.object({ id: Id, filename: z.string().min(1).max(1000) });

/** An empty query value counts as absent. */
const optional = <S extends z.ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

const ListQuery = z
  .object({
    page_size: optional(z.coerce.number().int().min(1).max(100)),
    page_sort: optional(z.enum(["-last_notified_at"])),
    page_bookmark: optional(z.string().max(0, "paging is not supported: one page of at most 100 items")),
    status: optional(z.coerce.number().int().min(0).max(4)),
  })
  .passthrough();

const Otp = z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1).max(20));
const SecureData = z.string().min(1).max(200);

/** The body the portal sends; its ids, when sent, must be the path's. */
const GenerateBody = z
  .object({ digSigId: z.coerce.number().int().nullish(), signatoryId: z.coerce.number().int().nullish() })
  .passthrough()
  .nullish();
const SignBody = z.object({
  signing_method: z.coerce.number().int().min(1).max(2).optional(),
  secure_data: SecureData,
  otp: Otp,
});
const DeclineBody = z.object({ secure_data: SecureData, otp: Otp.nullish() });
const ConfirmationBody = z.object({
  outcome: z.union([z.literal(SIGNATURE_OUTCOME.signed), z.literal(SIGNATURE_OUTCOME.declined)]),
});

const minutes = (n: number) => n * 60_000;

/** The latest code of a signatory still usable (not spent), if any. */
function liveCode(db: Db, signatoryId: number) {
  return db
    .select()
    .from(digitalSignatureCodes)
    .where(and(eq(digitalSignatureCodes.signatoryId, signatoryId), eq(digitalSignatureCodes.spent, false)))
    .orderBy(desc(digitalSignatureCodes.createdAt), desc(digitalSignatureCodes.id))
    .get();
}

function spendCodes(db: Db, signatoryId: number): void {
  db.update(digitalSignatureCodes)
    .set({ spent: true })
    .where(and(eq(digitalSignatureCodes.signatoryId, signatoryId), eq(digitalSignatureCodes.spent, false)))
    .run();
}

/** Where a confirmation goes: the entity's personal email, else its work email, else its preferred email. */
function emailOf(db: Db, entityId: number): string | null {
  const rows = db
    .select({ type: contacts.type, value: contacts.value, preferred: contacts.preferred })
    .from(contacts)
    .where(eq(contacts.entityId, entityId))
    .orderBy(desc(contacts.preferred), asc(contacts.id))
    .all();
  const found = rows.find((r) => r.type === "m1") ?? rows.find((r) => r.type === "m2");
  if (found) return found.value;
  return (
    db.select({ email: entities.preferredEmail }).from(entities).where(eq(entities.id, entityId)).get()?.email ?? null
  );
}

function firmNameOf(db: Db, entityId: number | undefined): string {
  const row =
    entityId === undefined
      ? db.select({ name: firms.name }).from(firms).get()
      : db
          .select({ name: firms.name })
          .from(entities)
          .innerJoin(firms, eq(firms.id, entities.firmId))
          .where(eq(entities.id, entityId))
          .get();
  return row?.name ?? "";
}

// the list's two statements (any status, one status), prepared once per database (decision 131)
const listOf = (db: Db, status: boolean) =>
  db
    .select()
    .from(digitalSignatures)
    .where(
      and(
        visibleTo(sql.placeholder("client")),
        status ? eq(digitalSignatures.status, sql.placeholder("status")) : undefined,
      ),
    )
    .orderBy(desc(digitalSignatures.lastNotifiedAt), desc(digitalSignatures.id))
    .limit(sql.placeholder("limit"))
    .prepare();
const itemsSeenBy = (db: Db) => listOf(db, false);
const itemsOfStatusSeenBy = (db: Db) => listOf(db, true);

export const signatureRoutes: Route[] = [
  // the fixed paths first: the router tries routes in order
  signedIn("GET", "/resourceful/digital_signature/terms", () => json(TERMS)),

  signedIn("GET", "/resourceful/digital_signature", (request, { db, caller }) => {
    const viewer = viewerOf(caller);
    const query = validate(ListQuery, request.query, "query");
    const limit = query.page_size ?? 20;
    const rows =
      query.status === undefined
        ? prepared(db, itemsSeenBy).all({ client: viewer.client, limit })
        : prepared(db, itemsOfStatusSeenBy).all({ client: viewer.client, status: query.status, limit });
    return json(itemViews(db, viewer, rows));
  }),

  signedIn("GET", "/resourceful/digital_signature/content/:id/:filename", async (request, { db, caller }) => {
    const { id, filename } = validate(ContentParams, request.params, "path");
    const item = visibleItem(db, viewerOf(caller), id);
    if (filename !== item.filename) throw new ApiError(404, SIGNATURE_MESSAGES.fileNotFound);
    const signatories = signatoriesOf(db, [item.id]);
    const pdf = await renderSignaturePdf({
      firmName: firmNameOf(db, signatories[0]?.entityId),
      title: item.title,
      bodyText: item.bodyText,
      dueDate: item.dueDate,
      createdAt: item.createdAt,
      signatories: signatories.map((s) => ({
        name: `${s.firstName} ${s.lastName}`,
        signedAt: s.signedAt,
        declinedAt: s.declinedAt,
      })),
    });
    return {
      status: 200,
      raw: pdf,
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(pdf.length),
        "Content-Disposition": contentDisposition(item.filename, "inline"),
        "X-Content-Type-Options": "nosniff",
      },
    };
  }),

  signedIn("GET", "/resourceful/digital_signature/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const viewer = viewerOf(caller);
    return json(itemView(db, viewer, visibleItem(db, viewer, id)));
  }),

  signedIn("GET", "/resourceful/digital_signature/:id/signatories", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const viewer = viewerOf(caller);
    return json(itemView(db, viewer, visibleItem(db, viewer, id)).signatories);
  }),

  // spec 002 "Signing journey" step 1: the one-time code, by sms to the registered mobile
  signedIn(
    "POST",
    "/resourceful/digital_signature/:id/signatories/:sid/generate_code",
    (request, { db, caller, clock }) => {
      const { id, sid } = validate(SignatoryParams, request.params, "path");
      const { item, signatory } = signable(db, viewerOf(caller), id, sid);
      const body = validate(GenerateBody, request.body, "body");
      if ((body?.digSigId != null && body.digSigId !== id) || (body?.signatoryId != null && body.signatoryId !== sid)) {
        throw new ApiError(
          400,
          "Invalid body: digSigId and signatoryId must be those of the path",
          MESSAGES.argumentsIncorrect,
        );
      }
      const phone = signatory.phone?.trim() ?? "";
      if (!phone.includes("+")) throw signatureError(400, "invalidPhone");
      const now = clock.now();
      const recent =
        db
          .select({ n: count() })
          .from(digitalSignatureCodes)
          .where(
            and(
              eq(digitalSignatureCodes.signatoryId, signatory.id),
              gt(digitalSignatureCodes.createdAt, new Date(now.getTime() - minutes(CODE_WINDOW_MINUTES)).toISOString()),
            ),
          )
          .get()?.n ?? 0;
      if (recent >= MAX_CODES) throw signatureError(429, "tooManyCodes");
      const code = newCode();
      const expiresAt = new Date(now.getTime() + minutes(CODE_MINUTES)).toISOString();
      db.transaction(() => {
        spendCodes(db, signatory.id);
        db.insert(digitalSignatureCodes)
          .values({ signatoryId: signatory.id, codeHash: tokenDigest(code), createdAt: now.toISOString(), expiresAt })
          .run();
        send(db, clock, {
          to: phone,
          username: caller.user.username,
          channel: "sms",
          body: `Your code to sign ${item.title} is ${code}. It expires in ${CODE_MINUTES} minutes.`,
          code,
        });
      });
      return json({ sent: true, expires_at: wireDateTime(expiresAt) });
    },
  ),

  signedIn("POST", "/resourceful/digital_signature/:id/signatories/:sid/sign", (request, { db, caller, clock }) => {
    const { id, sid } = validate(SignatoryParams, request.params, "path");
    const viewer = viewerOf(caller);
    const { item, signatory } = signable(db, viewer, id, sid);
    const body = validate(SignBody, request.body, "body");
    if (!secureDataMatches(body.secure_data, item.secureData)) throw signatureError(400, "invalidSecureData");
    const now = clock.now();
    const code = liveCode(db, signatory.id);
    if (!code || now.getTime() > new Date(code.expiresAt).getTime()) throw signatureError(400, "expired");
    if (!codeMatches(body.otp.replace(/\s+/g, ""), code.codeHash)) {
      const attempts = code.attempts + 1;
      const spent = attempts >= MAX_CODE_ATTEMPTS;
      db.update(digitalSignatureCodes).set({ attempts, spent }).where(eq(digitalSignatureCodes.id, code.id)).run();
      throw signatureError(400, spent ? "tooManyAttempts" : "mismatch");
    }
    db.transaction(() => {
      db.update(digitalSignatureCodes).set({ spent: true }).where(eq(digitalSignatureCodes.id, code.id)).run();
      db.update(digitalSignatureSignatories)
        .set({ signedAt: now.toISOString() })
        .where(eq(digitalSignatureSignatories.id, signatory.id))
        .run();
      const all = db
        .select({ signedAt: digitalSignatureSignatories.signedAt })
        .from(digitalSignatureSignatories)
        .where(eq(digitalSignatureSignatories.digitalSignatureId, item.id))
        .all();
      setItemStatus(db, item, all.every((s) => s.signedAt) ? SIGNATURE_STATUS.signed : SIGNATURE_STATUS.partSigned);
    });
    return json(itemView(db, viewer, visibleItem(db, viewer, id)));
  }),

  // spec 002 "Signing journey" step 7: decline is sent directly (a code, if sent, is not checked)
  signedIn("POST", "/resourceful/digital_signature/:id/signatories/:sid/decline", (request, { db, caller, clock }) => {
    const { id, sid } = validate(SignatoryParams, request.params, "path");
    const viewer = viewerOf(caller);
    const { item, signatory } = signable(db, viewer, id, sid);
    const body = validate(DeclineBody, request.body, "body");
    if (!secureDataMatches(body.secure_data, item.secureData)) throw signatureError(400, "invalidSecureData");
    const now = clock.now().toISOString();
    db.transaction(() => {
      spendCodes(db, signatory.id);
      db.update(digitalSignatureSignatories)
        .set({ declinedAt: now })
        .where(eq(digitalSignatureSignatories.id, signatory.id))
        .run();
      setItemStatus(db, item, SIGNATURE_STATUS.declined);
    });
    return json(itemView(db, viewer, visibleItem(db, viewer, id)));
  }),

  // spec 002 "Signing journey" steps 4 and 7: the confirmation email of the client's own outcome
  signedIn("POST", "/resourceful/digital_signature/:id/confirmation", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const viewer = viewerOf(caller);
    const item = visibleItem(db, viewer, id);
    const { outcome } = validate(ConfirmationBody, request.body, "body");
    const own = viewer.isClient ? signatoriesOf(db, [item.id]).find((s) => s.entityId === viewer.client) : undefined;
    const at = outcome === SIGNATURE_OUTCOME.signed ? own?.signedAt : own?.declinedAt;
    if (!own || !at) throw new ApiError(400, SIGNATURE_MESSAGES.nothingToConfirm);
    const to = emailOf(db, own.entityId);
    if (!to) throw new ApiError(422, SIGNATURE_MESSAGES.noEmail);
    const signed = outcome === SIGNATURE_OUTCOME.signed;
    const date = longDate(at);
    send(db, clock, {
      to,
      username: caller.user.username,
      channel: "email",
      subject: `${signed ? "You signed" : "You declined"} ${item.title}`,
      body: signed
        ? `Dear ${own.firstName},\n\nYou signed ${item.title} electronically on ${date}. A copy is kept with your documents in Client Online.\n\nIf you did not sign it, please contact your adviser straight away.`
        : `Dear ${own.firstName},\n\nYou declined to sign ${item.title} on ${date}. Your adviser will be in touch about what happens next.\n\nIf you did not decline it, please contact your adviser straight away.`,
    });
    return json({ sent: true });
  }),
];
