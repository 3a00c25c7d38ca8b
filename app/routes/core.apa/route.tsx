import type { LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JourneyRoute, journeyMeta } from "~/components/journey-page";
import { journeyLoader } from "~/session/journey-page.server";

// spec 002 §2: /core/apa, a journey that runs on another system (docs/decisions/096).
export const handle = { i18n: ["messages"] };

export const loader = ({ request }: LoaderFunctionArgs) => journeyLoader(request, "apa");

export default JourneyRoute;

export const meta = journeyMeta;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
