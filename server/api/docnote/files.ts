// spec 002 §4 attachments: the list, the upload (step 3 of sending), the download, and the images
// message bodies refer to.
import type { IncomingMessage } from "node:http";
import { and, count, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { documentAttachments, documents } from "../../db/schema";
import { type AttachmentAllowance, attachmentAllowance } from "../../env";
import { requireClientUser } from "../access";
import { ApiError, forbidden, MESSAGES, validate } from "../http";
import { LOGO_PNG } from "../../seed/files";
import {
  attachmentContentType,
  type ContentProblem,
  contentProblemOf,
  isAllowedAttachment,
  normaliseFilename,
} from "../../lib/attachments";
import { scanForViruses } from "../../lib/virus-scan";
import type { PlatformLogger } from "../../lib/logger";
import type { PlatformEnv } from "../../env";
import { json, open, type Route, signedIn } from "../router";
import {
  CLIENT_INITIATED,
  DOC_MESSAGES,
  MAX_ATTACHMENTS,
  MAX_FILE_BYTES,
  MAX_UPLOAD_BODY,
  docScopeOf,
  Id,
  IdParams,
  visibleDocument,
} from "./scope";
import { attachmentsOf, attachmentView } from "./documents";

// ── upload ───────────────────────────────────────────────────────────────────────────────────

/** A multipart upload as the HTTP layer hands it to the upload route. */
export type UploadBody = {
  kind: "upload";
  filename: string | null;
  file: { name: string; type: string; data: Buffer } | null;
};

const UPLOAD_PATH = /^\/resourceful\/docnote-v2\/[^/]+\/attachment-v3\/?$/;

/** Whether a request is a multipart upload to the attachment route (the only one that reads multipart). */
export const isUploadPath = (path: string) => UPLOAD_PATH.test(path);

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
    file:
      part instanceof Blob
        ? {
            name: "name" in part ? String(part.name) : "",
            type: part.type,
            data: Buffer.from(await part.arrayBuffer()),
          }
        : null,
  };
}

const isUploadBody = (body: unknown): body is UploadBody =>
  typeof body === "object" && body !== null && (body as UploadBody).kind === "upload";

// ── the allowance of a day (ASVS V12.1.3, docs/decisions/165) ──────────────────────────────────

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a client has stored in the last 24 hours, from the platform's own records. */
function storedInLastDay(db: Db, userId: number, now: Date): { files: number; bytes: number } {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const row = db
    .select({ files: count(), bytes: sql<number>`coalesce(sum(${documentAttachments.size}), 0)` })
    .from(documentAttachments)
    .innerJoin(documents, eq(documents.id, documentAttachments.documentId))
    .where(and(eq(documents.creatorUserId, userId), gte(documentAttachments.createdAt, since)))
    .get();
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/** What a client may still attach: the allowance less what the last 24 hours stored. */
function allowanceLeft(db: Db, userId: number, now: Date, allowance: AttachmentAllowance) {
  const stored = storedInLastDay(db, userId, now);
  return { files: Math.max(0, allowance.files - stored.files), bytes: Math.max(0, allowance.bytes - stored.bytes) };
}

/** Refuses (429) a file that would take the client past the allowance. */
function requireAllowance(db: Db, userId: number, now: Date, allowance: AttachmentAllowance, size: number): void {
  const left = allowanceLeft(db, userId, now, allowance);
  if (left.files < 1 || left.bytes < size) throw new ApiError(429, DOC_MESSAGES.dailyLimit);
}

/**
 * ASVS V12.4.2 (docs/decisions/192): a file is stored only once clamd has found nothing in it;
 * refused (400) when it found something, and (503) when it could not say. Off (PLATFORM_CLAMD_ADDRESS
 * unset or `off`, never unset in production): stored unscanned.
 */
async function requireNoVirus(env: PlatformEnv, data: Buffer, userId: number, log?: PlatformLogger): Promise<void> {
  if (!env.clamd) return;
  const scan = await scanForViruses(env.clamd, data);
  if (scan.verdict === "clean") return;
  if (scan.verdict === "infected") {
    log?.warn({ userId, signatures: scan.signatures }, "attachment refused: the virus scanner found something");
    throw new ApiError(400, DOC_MESSAGES.virus);
  }
  log?.error({ userId, reason: scan.reason }, "attachment refused: the virus scanner did not answer");
  throw new ApiError(503, DOC_MESSAGES.scannerUnavailable);
}

const CONTENT_MESSAGES: Record<ContentProblem, string> = {
  mismatch: DOC_MESSAGES.contentMismatch,
  "active-content": DOC_MESSAGES.activeContent,
  external: DOC_MESSAGES.externalContent,
  "unpacked-too-large": DOC_MESSAGES.unpackedTooLarge,
};

/** The client's allowance, asked before a message is created (a fixed path: before `:id`). */
export const allowanceRoute: Route = signedIn(
  "GET",
  "/resourceful/docnote-v2/attachment-allowance",
  (_request, { db, caller, clock, env }) => {
    requireClientUser(caller);
    const allowance = attachmentAllowance(env);
    const left = allowanceLeft(db, caller.user.id, clock.now(), allowance);
    return json({
      files_per_day: allowance.files,
      bytes_per_day: allowance.bytes,
      files_left: left.files,
      bytes_left: left.bytes,
    });
  },
);

// ── download ─────────────────────────────────────────────────────────────────────────────────

/** RFC 6266: an ASCII fallback name and the exact name as UTF-8 (RFC 5987); saved, or shown inline. */
export function contentDisposition(filename: string, disposition: "attachment" | "inline" = "attachment"): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const fileRoutes: Route[] = [
  // the images message bodies refer to by relative source: public, like the site's brand images
  open("GET", "/resourceful/docnote/images/:name", (request) => {
    if (request.params.name !== "logo.png") throw new ApiError(404, "Image not found");
    return {
      status: 200,
      raw: LOGO_PNG,
      headers: {
        "Content-Type": "image/png",
        "Content-Length": String(LOGO_PNG.length),
      },
    };
  }),

  signedIn("GET", "/resourceful/docnote-v2/:id/attachment-v4", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    visibleDocument(db, docScopeOf(db, caller), id);
    return json(attachmentsOf(db, id).map(attachmentView));
  }),

  // spec 002 §4 sending, step 3; §5 compose attachment rules
  signedIn("POST", "/resourceful/docnote-v2/:id/attachment-v3", async (request, { db, caller, clock, env, log }) => {
    const { id } = validate(IdParams, request.params, "path");
    const scope = docScopeOf(db, caller);
    const document = visibleDocument(db, scope, id);
    requireClientUser(caller);
    if (document.docsubtype !== CLIENT_INITIATED || document.creatorUserId !== caller.user.id)
      throw forbidden(DOC_MESSAGES.notOwnMessage);
    if (!isUploadBody(request.body) || !request.body.file)
      throw new ApiError(400, DOC_MESSAGES.notMultipart, MESSAGES.argumentsIncorrect);
    const { file } = request.body;
    // issue 24: judged, stored and served under its normalised name (docs/decisions/111)
    const filename = normaliseFilename(request.body.filename?.trim() || file.name);
    if (!filename) throw new ApiError(400, DOC_MESSAGES.noFileName);
    const existing =
      db.select({ n: count() }).from(documentAttachments).where(eq(documentAttachments.documentId, id)).get()?.n ?? 0;
    if (existing >= MAX_ATTACHMENTS) throw new ApiError(400, DOC_MESSAGES.tooMany);
    const excluded = !isAllowedAttachment(filename);
    const tooLarge = file.data.length > MAX_FILE_BYTES;
    if (excluded && tooLarge) throw new ApiError(400, DOC_MESSAGES.typeAndSize);
    if (excluded) throw new ApiError(400, DOC_MESSAGES.typeNotAllowed);
    if (tooLarge) throw new ApiError(400, DOC_MESSAGES.tooLarge);
    if (file.data.length === 0) throw new ApiError(400, DOC_MESSAGES.emptyFile);
    // ASVS V12.1.3: the allowance before the content is read, and again as the file is stored
    const allowance = attachmentAllowance(env);
    requireAllowance(db, caller.user.id, clock.now(), allowance, file.data.length);
    const problem = await contentProblemOf(filename, file.data);
    if (problem) throw new ApiError(400, CONTENT_MESSAGES[problem]);
    await requireNoVirus(env, file.data, caller.user.id, log);
    requireAllowance(db, caller.user.id, clock.now(), allowance, file.data.length);
    // the allow-list's type, never the one the uploader declared
    const contentType = attachmentContentType(filename);
    const docpartid = db
      .insert(documentAttachments)
      .values({
        documentId: id,
        filename,
        contentType,
        size: file.data.length,
        content: file.data,
        createdAt: clock.now().toISOString(),
      })
      .returning({ docpartid: documentAttachments.docpartid })
      .get().docpartid;
    return json({ docpartid, filename, size: file.data.length }, 201);
  }),

  // spec 002 §4 attachment download: the bytes, named for saving
  signedIn("GET", "/resourceful/docnote/files/:documentId/:docpartid/:filename", (request, { db, caller }) => {
    const params = validate(
      z.object({
        documentId: Id,
        docpartid: Id,
        filename: z.string().min(1).max(1000),
      }),
      request.params,
      "path",
    );
    visibleDocument(db, docScopeOf(db, caller), params.documentId);
    const file = db
      .select()
      .from(documentAttachments)
      .where(
        and(eq(documentAttachments.docpartid, params.docpartid), eq(documentAttachments.documentId, params.documentId)),
      )
      .get();
    if (!file || file.filename !== params.filename) throw new ApiError(404, "File not found");
    return {
      status: 200,
      raw: file.content,
      // issue 24: a type from the allow-list (bytes to save for anything else), saved not
      // opened, never sniffed, and sandboxed should a browser show it all the same
      headers: {
        "Content-Type": attachmentContentType(file.filename),
        "Content-Length": String(file.content.length),
        "Content-Disposition": contentDisposition(file.filename),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
      },
    };
  }),
];
