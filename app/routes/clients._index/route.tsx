import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { clientsLandingPath } from "~/lib/site-access";
import { requireClientContext } from "~/session/guards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  return redirect(clientsLandingPath(context.siteAccessLevel));
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
