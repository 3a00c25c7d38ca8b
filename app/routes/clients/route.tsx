import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireClientContext } from "~/session/guards.server";
import pagesStyles from "~/styles/pages.css";

// spec 000 §4 "Session check and gates": the clients section is for a client, or for an adviser
// with a client in context; an adviser without one is sent to the client list. Every page below
// also calls requireClientContext itself, because Remix runs the loaders of a URL in parallel.

export const handle = { i18n: ["clients"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pagesStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireClientContext(request);
  return json(null);
}

export default function ClientsLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
