import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { SiteAccessLevel } from "~/lib/site-access";
import { requireClientContext } from "~/session/guards.server";

/** spec 000 §2 "Index routing": documents and messages unless the level is Assets or Portfolio. */
export function clientsLandingPath(level: SiteAccessLevel): string {
  return level === "Assets" || level === "Portfolio" ? "/clients/home" : "/clients/documents-and-messages";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  return redirect(clientsLandingPath(context.siteAccessLevel));
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
