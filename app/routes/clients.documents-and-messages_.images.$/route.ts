import type { LoaderFunctionArgs } from "@remix-run/node";
import { PlanningError } from "~/planning/client.server";
import { notFound, requireClientContext } from "~/session/guards.server";

// spec 002 §5: relative image sources of a message body are relative to the platform's base. The
// page's content policy allows images from the portal only (and the platform's address stays
// private), so the sanitiser points them here and the portal fetches them with the user's session.
// Only the platform's message-image endpoint is asked (docs/platform-api.md: the images message
// bodies refer to, `/resourceful/docnote/images/{name}`), never any other path with the user's
// session (docs/decisions/112); and only raster images pass. Anything else is a 404.

const IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp|bmp)(;|$)/i;
const IMAGE_ENDPOINT = /^resourceful\/docnote\/images\/([A-Za-z0-9][A-Za-z0-9._-]{0,199})$/;

/** The platform path of a message image (relative to its base), or null for any other path. */
function messageImagePath(splat: string): string | null {
  const name = IMAGE_ENDPOINT.exec(splat)?.[1];
  if (!name || name.includes("..")) return null;
  return `resourceful/docnote/images/${name}`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { planning } = await requireClientContext(request);
  const path = messageImagePath(params["*"] ?? "");
  if (!path) throw notFound();
  let upstream: Response;
  try {
    upstream = await planning.send("GET", path, { retry: false });
  } catch (error) {
    if (error instanceof PlanningError) throw notFound();
    throw error;
  }
  const type = upstream.headers.get("Content-Type") ?? "";
  if (!IMAGE_TYPES.test(type)) {
    await upstream.body?.cancel();
    throw notFound();
  }
  return new Response(upstream.body, {
    headers: { "Content-Type": type, "Cache-Control": "private, max-age=300", "X-Content-Type-Options": "nosniff" },
  });
}
