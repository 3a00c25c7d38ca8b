// What an error page is titled (issue 40, "Titles"): the browser's tab and a screen reader's first
// words say what happened ('Page Not Found | Client Online'), as its heading does, not only
// 'Client Online'. Remix calls every route's `meta` with the error its boundary shows and no data;
// the words come written in the page's language from the root loader (`errorTitles`), since `meta`
// has no translator and the texts stay out of the first load. When the root's own loader failed
// there are no such words: the root's `meta` gives no title and the root's Layout writes it with
// the translator the boundary's heading uses (`rootFailureTitle`).

/** What an error boundary shows: the same cases as app/components/error-boundary.tsx. */
export type ErrorPageKind = "accessDenied" | "notFound" | "tooLarge" | "network" | "generic";

/** Each kind's heading, in the page's language (the `common` texts of the boundary's headings). */
export type ErrorTitles = Record<ErrorPageKind, string>;

export const ERROR_TITLE_KEYS: Record<ErrorPageKind, string> = {
  accessDenied: "accessDenied.title",
  notFound: "notFound.title",
  tooLarge: "errors.tooLarge.title",
  network: "errors.network.title",
  generic: "errors.generic.title",
};

export const SITE_TITLE = "Client Online";

type RouteErrorLike = { status: number; data: unknown; internal?: boolean };

const isRouteError = (error: unknown): error is RouteErrorLike =>
  Boolean(error && typeof error === "object" && "status" in error && "data" in error) &&
  typeof (error as { status: unknown }).status === "number";

function failureKindOf(data: unknown): string | null {
  if (data && typeof data === "object" && "failure" in data) {
    const failure = (data as { failure: unknown }).failure;
    if (failure && typeof failure === "object" && "kind" in failure) return String((failure as { kind: unknown }).kind);
  }
  return null;
}

/** The kind of page the error boundary shows for an error (a thrown answer or anything else: 500). */
export function errorPageKind(error: unknown): ErrorPageKind {
  const status = isRouteError(error) ? error.status : 500;
  const failure = isRouteError(error) ? failureKindOf(error.data) : null;
  if (status === 403 && (!failure || failure === "forbidden")) return "accessDenied";
  if (status === 404 && (!failure || failure === "not-found")) return "notFound";
  // a post over its size limit (docs/decisions/111)
  if (status === 413) return "tooLarge";
  if (failure === "network") return "network";
  return "generic";
}

type MatchLike = { id: string; data?: unknown };

/**
 * The title of a page without its own data: an error page's heading and the site's name, or the
 * site's name alone without an error. Null when the root's own loader failed: no route's data has
 * the words in the page's language, and the root's Layout titles that page (`rootFailureTitle`).
 */
export function errorPageTitle(error: unknown, matches: readonly MatchLike[] | undefined): string | null {
  if (error === undefined || error === null) return SITE_TITLE;
  const root = matches?.find((m) => m.id === "root")?.data as { errorTitles?: ErrorTitles } | undefined;
  if (!root) return null;
  const title = root.errorTitles?.[errorPageKind(error)];
  return title ? `${title} | ${SITE_TITLE}` : SITE_TITLE;
}

/** The title of the root boundary's page when the root's loader failed, in the words of its heading. */
export function rootFailureTitle(error: unknown, translate: (key: string) => string): string {
  return `${translate(ERROR_TITLE_KEYS[errorPageKind(error)])} | ${SITE_TITLE}`;
}
