import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { resolveLocale } from "~/session/i18next.server";
import { attachmentIdsOf } from "~/lib/messages/files";
import { streamAttachment } from "./download.server";
import { getSite } from "~/planning/site.server";
import { readForm } from "~/session/csrf.server";
import { notFound, requireClientContext } from "~/session/guards.server";

// spec 002 §4 "Attachment download": the confirmed download. POST from the confirmation page
// (with the form's CSRF token), or GET with ?confirm=1; a bare GET goes to the confirmation.

/** The ids of the route, or a 404 for anything that is not two positive integers. */
function attachmentIds(params: Record<string, string | undefined>) {
  const ids = attachmentIdsOf(params);
  if (!ids) throw notFound();
  return ids;
}

async function download(request: Request, params: Record<string, string | undefined>) {
  const context = await requireClientContext(request);
  const { documentId, docpartid } = attachmentIds(params);
  const site = await getSite(await resolveLocale(request));
  return streamAttachment(request, context, site, documentId, docpartid);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("confirm") !== "1") {
    const { documentId, docpartid } = attachmentIds(params);
    throw redirect(`/clients/documents-and-messages/attachments/${documentId}/${docpartid}`);
  }
  return download(request, params);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request);
  return download(request, params);
}
