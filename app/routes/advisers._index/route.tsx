import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireAdviser } from "~/session/guards.server";

// spec 000 §2 "Index routing": the advisers index is the client list; other roles get Access Denied.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdviser(request);
  return redirect("/advisers/clients");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
