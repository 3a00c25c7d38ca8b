import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import type { Failure } from "~/lib/error-catalogue";
import { ERROR_TITLE_KEYS, errorPageKind } from "~/lib/error-title";
import { homePathFor } from "~/lib/navigation";
import { useShellData } from "./shell/root-data";

type Props = {
  /** Per-status overrides, e.g. a page's own 404 text. */
  statusHandlers?: Partial<Record<number, (error: unknown) => React.ReactNode>>;
};

function failureOf(data: unknown): Failure | null {
  if (data && typeof data === "object" && "failure" in data) return (data as { failure: Failure }).failure;
  return null;
}

/**
 * Every route's ErrorBoundary: 403 → Access Denied, 404 → Page Not Found, a failed platform call
 * → the global error catalogue (spec 000 §8), never a stack trace.
 */
export function GeneralErrorBoundary({ statusHandlers }: Props) {
  const error = useRouteError();
  const { t } = useTranslation();
  // spec 000 §2 Access Denied: back to the clients home for a client (or an adviser with a client
  // in context), the advisers home otherwise; login when signed out.
  const home = homePathFor(useShellData()?.user ?? null);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const custom = statusHandlers?.[status];
  if (custom) return <>{custom(error)}</>;

  const failure = isRouteErrorResponse(error) ? failureOf(error.data) : null;
  // the same cases and words as the page's title (app/lib/error-title.ts)
  const kind = errorPageKind(error);
  const heading = <h1 id="error-heading">{t(ERROR_TITLE_KEYS[kind])}</h1>;

  if (kind === "accessDenied") {
    return (
      <section className="page-message" aria-labelledby="error-heading">
        {heading}
        <p>{t("accessDenied.text")}</p>
        <p>
          <Link to={home}>{t("returnToClientOnline")}</Link>
        </p>
      </section>
    );
  }
  if (kind === "notFound") {
    return (
      <section className="page-message" aria-labelledby="error-heading">
        {heading}
        <p>
          <Link to={home}>{t("returnToClientOnline")}</Link>
        </p>
      </section>
    );
  }
  // a post over its size limit (docs/decisions/111): nothing of it was read
  if (kind === "tooLarge") {
    return (
      <section className="page-message" role="alert" aria-labelledby="error-heading">
        {heading}
        <p>{t("errors.tooLarge.text")}</p>
      </section>
    );
  }
  if (kind === "network") {
    return (
      <section className="page-message" role="alert" aria-labelledby="error-heading">
        {heading}
        <p>{t("errors.network.text")}</p>
      </section>
    );
  }
  return (
    <section className="page-message" role="alert" aria-labelledby="error-heading">
      {heading}
      {failure?.detail ? <p>{failure.detail}</p> : null}
      <p>{t("errors.generic.text")}</p>
    </section>
  );
}
