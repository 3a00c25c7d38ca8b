// spec 002 "Signature view": the document to sign, served through the portal so that the page's
// frame and the download never point at the platform; only its signatories get it (advisers do
// not: spec 002 §6, decision 197). `?download=1` asks for it as an attachment.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { contentDisposition } from "~/lib/messages/files";
import { PlanningError, isLostSession } from "~/planning/client.server";
import { fetchSignatureDocument, fetchSignatureItem } from "~/planning/signature.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { refuseAccess, notFound, requireClientContext } from "~/session/guards.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  if (context.isAdviser) throw refuseAccess(context, "signature folder: clients only");
  if (!/^[1-9]\d{0,9}$/.test(params.id ?? "")) throw notFound();
  try {
    const item = await fetchSignatureItem(context.planning, Number(params.id));
    const document = await fetchSignatureDocument(context.planning, item);
    const download = new URL(request.url).searchParams.get("download") === "1";
    return new Response(document.body, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": download
          ? contentDisposition(item.filename)
          : contentDisposition(item.filename).replace(/^attachment/, "inline"),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        // shown in the signature page's own frame, and nowhere else
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'",
        "X-Frame-Options": "SAMEORIGIN",
      },
    });
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    if (error instanceof PlanningError && (error.status === 404 || error.status === 403)) throw notFound();
    throw error;
  }
}
