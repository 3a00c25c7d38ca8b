import type { MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 "Page not found": any address no route claims answers 404 with 'Page Not Found'
// and 'Return to Client Online' (the shared error boundary picks the link for the user).
export function loader() {
  throw json({ notFound: true }, { status: 404 });
}

export default function NotFoundPage() {
  return null;
}

export const meta: MetaFunction = ({ error, matches }) => [{ title: errorPageTitle(error, matches) }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
