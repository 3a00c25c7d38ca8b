import { orFail } from "~/planning/client.server";
import { type AttachmentAnswer, fetchAttachmentFile, fetchAttachments } from "~/planning/docnote.server";
import type { Site } from "~/planning/site.server";
import { accessDenied, type ClientContext, notFound } from "~/session/guards.server";
import { safeFilename } from "./files";
import { messagesSettings } from "./view.server";

// spec 002 §4 "Attachment download": the portal streams the platform's bytes with the user's
// session, so the platform's address never reaches the browser.

/** The ids of an attachment route, or a 404 for anything that is not two positive integers. */
export function attachmentIds(params: Record<string, string | undefined>): { documentId: number; docpartid: number } {
  const documentId = Number(params.documentId);
  const docpartid = Number(params.docpartid);
  if (!/^[1-9]\d{0,11}$/.test(params.documentId ?? "") || !/^[1-9]\d{0,11}$/.test(params.docpartid ?? "")) throw notFound();
  return { documentId, docpartid };
}

/** The attachment as the platform lists it, or a 404 (the document or the part is not visible). */
export async function findAttachment(request: Request, context: ClientContext, documentId: number, docpartid: number): Promise<AttachmentAnswer> {
  const attachments = await orFail(request, fetchAttachments(context.planning, documentId));
  const attachment = attachments.find((a) => a.docpartid === docpartid);
  if (!attachment) throw notFound();
  return attachment;
}

/** spec 002 §4: 'Attachments can be downloaded via Xplan' when the site says they cannot be. */
export function attachmentsDownloadable(site: Site): boolean {
  return messagesSettings(site).attachmentsDownloadable;
}

/** An RFC 6266 Content-Disposition for a file name (ASCII fallback and the UTF-8 form). */
export function contentDisposition(filename: string): string {
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The file's bytes as the portal's answer: the platform's type, length and disposition. */
export async function streamAttachment(request: Request, context: ClientContext, site: Site, documentId: number, docpartid: number): Promise<Response> {
  if (!attachmentsDownloadable(site)) throw accessDenied();
  const attachment = await findAttachment(request, context, documentId, docpartid);
  const upstream = await orFail(request, fetchAttachmentFile(context.planning, documentId, docpartid, attachment.filename));
  const headers = new Headers({
    "Content-Type": upstream.headers.get("Content-Type") ?? attachment.content_type ?? "application/octet-stream",
    "Content-Disposition": upstream.headers.get("Content-Disposition") ?? contentDisposition(attachment.filename),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  const length = upstream.headers.get("Content-Length");
  if (length && /^\d+$/.test(length)) headers.set("Content-Length", length);
  return new Response(upstream.body, { status: 200, headers });
}
