import { contentTypeOf, normaliseFilename } from "~/lib/attachments";
import { contentDisposition } from "~/lib/messages/files";
import { fetchAttachmentFile, findAttachment } from "~/planning/docnote.server";
import { attachmentsDownloadable } from "~/planning/messages.server";
import type { Site } from "~/planning/site.server";
import { NOT_A_PAGE_CONTENT_SECURITY_POLICY } from "~/runtime/security-headers.server";
import { orFail } from "~/session/failures.server";
import { type ClientContext, notFound, refuseAccess } from "~/session/guards.server";

// spec 002 §4 "Attachment download": the portal streams the platform's bytes with the user's
// session, so the platform's address never reaches the browser.

/**
 * The file's bytes as the portal's answer (issue 24, docs/decisions/111): the allow-list's type
 * (bytes to save for anything outside it), never the uploader's or the platform's; always saved,
 * never opened in the page (`attachment`, under its normalised name); never sniffed; and
 * sandboxed, should a browser show it all the same. Only the platform's length is passed on.
 */
export async function streamAttachment(
  request: Request,
  context: ClientContext,
  site: Site,
  documentId: number,
  docpartid: number,
): Promise<Response> {
  if (!attachmentsDownloadable(site)) throw refuseAccess(context, "attachment downloads are off");
  const attachment = await orFail(request, findAttachment(context.planning, documentId, docpartid));
  if (!attachment) throw notFound();
  const upstream = await orFail(
    request,
    fetchAttachmentFile(context.planning, documentId, docpartid, attachment.filename),
  );
  const filename = normaliseFilename(attachment.filename) || "attachment";
  const headers = new Headers({
    "Content-Type": contentTypeOf(filename),
    "Content-Disposition": contentDisposition(filename),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    // nothing loads, nothing frames it, and it runs as a sandbox (the portal's policy for what is not a page)
    "Content-Security-Policy": NOT_A_PAGE_CONTENT_SECURITY_POLICY,
  });
  const length = upstream.headers.get("Content-Length");
  if (length && /^\d+$/.test(length)) headers.set("Content-Length", length);
  return new Response(upstream.body, { status: 200, headers });
}
