import { contentDisposition } from "~/lib/messages/files";
import { fetchAttachmentFile, findAttachment } from "~/planning/docnote.server";
import { attachmentsDownloadable } from "~/planning/messages.server";
import type { Site } from "~/planning/site.server";
import { orFail } from "~/session/failures.server";
import { accessDenied, type ClientContext, notFound } from "~/session/guards.server";

// spec 002 §4 "Attachment download": the portal streams the platform's bytes with the user's
// session, so the platform's address never reaches the browser.

/** The file's bytes as the portal's answer: the platform's type, length and disposition. */
export async function streamAttachment(request: Request, context: ClientContext, site: Site, documentId: number, docpartid: number): Promise<Response> {
  if (!attachmentsDownloadable(site)) throw accessDenied();
  const attachment = await orFail(request, findAttachment(context.planning, documentId, docpartid));
  if (!attachment) throw notFound();
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
