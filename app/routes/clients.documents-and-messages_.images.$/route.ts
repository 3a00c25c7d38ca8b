import type { LoaderFunctionArgs } from "@remix-run/node";
import { PlanningError } from "~/planning/client.server";
import { notFound, requireClientContext } from "~/session/guards.server";

// spec 002 §5: relative image sources of a message body are relative to the platform's base. The
// page's content policy allows images from the portal only (and the platform's address stays
// private), so the sanitiser points them here and the portal fetches them with the user's session.
// Only raster images pass; anything else the platform answers is a 404.

const IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp|bmp)(;|$)/i;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { planning } = await requireClientContext(request);
  const path = (params["*"] ?? "").replace(/\\/g, "/");
  if (!path || path.split("/").some((segment) => segment === ".." || segment === ".")) throw notFound();
  let upstream: Response;
  try {
    upstream = await planning.send("GET", path.split("/").map(encodeURIComponent).join("/"), { retry: false });
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
