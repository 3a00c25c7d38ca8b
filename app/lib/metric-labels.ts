// The labels of the portal's Prometheus metrics (app/runtime/metrics.server.ts, docs/decisions/126).
// Every label has a bounded set of values: a raw path or an id in a label would make a new series
// per client, document or job, and a Prometheus server keeps every series it has ever seen.

/** The route label of a request no route of the portal takes. */
export const UNMATCHED = "unmatched";
/** The endpoint label once `MAX_ENDPOINTS` endpoints have been seen. */
export const OTHER = "other";
/** At most this many distinct endpoint labels per process; the rest count as `OTHER`. */
export const MAX_ENDPOINTS = 200;

/** A route of the server build's manifest (`build.routes`), as far as matching needs it. */
export type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

type Branch = { id: string; score: number; order: number[]; pattern: RegExp };

// Remix's ranking of routes (@remix-run/router's computeScore): more segments and static segments
// first, then dynamic ones, a splat last, an index route before its parent's own path.
const PARAM = /^:[\w-]+$/;
function scoreOf(path: string, index: boolean): number {
  const segments = path.split("/");
  let score = segments.length;
  if (segments.includes("*")) score -= 2;
  if (index) score += 2;
  for (const segment of segments) {
    if (segment === "*") continue;
    score += PARAM.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

// @remix-run/router's compilePath for a whole path that must match to its end.
function patternOf(path: string, caseSensitive: boolean): RegExp {
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)(\?)?/g, (_match, _name, optional) => (optional ? "/?([^\\/]+)?" : "/([^\\/]+)"));
  if (path.endsWith("*")) source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  else source += "\\/*$";
  return new RegExp(source, caseSensitive ? undefined : "i");
}

/**
 * The id of the route Remix renders for a path (the deepest match), by the rules of Remix's own
 * matcher, compiled once from the build's manifest. Remix's `matchRoutes` flattens, ranks and
 * compiles every route on each call (about 1.5 ms for the portal's 50 routes); this tries the
 * precompiled patterns in rank order (microseconds). A path no route takes is `UNMATCHED`.
 */
export function routeMatcher(manifest: Record<string, ManifestRoute | undefined>): (pathname: string) => string {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const branches: Branch[] = [];
  // As @remix-run/router's flattenRoutes: children before their parent, pathless layouts skipped.
  const flatten = (routes: ManifestRoute[], parentPath: string, parentOrder: number[]) => {
    routes.forEach((route, i) => {
      const path = `${parentPath}/${route.path ?? ""}`.replace(/\/\/+/g, "/");
      const order = [...parentOrder, i];
      const below = children.get(route.id);
      if (below?.length) flatten(below, path, order);
      if (route.path === undefined && !route.index) return;
      branches.push({
        id: route.id,
        score: scoreOf(path, route.index === true),
        order,
        pattern: patternOf(path, route.caseSensitive === true),
      });
    });
  };
  flatten(children.get(undefined) ?? [], "", []);
  // A stable sort: equal scores keep the manifest's order, siblings by their position.
  branches.sort((a, b) => {
    if (a.score !== b.score) return b.score - a.score;
    const siblings = a.order.length === b.order.length && a.order.slice(0, -1).every((n, i) => n === b.order[i]);
    return siblings ? (a.order.at(-1) ?? 0) - (b.order.at(-1) ?? 0) : 0;
  });
  return (pathname) => {
    for (const branch of branches) if (branch.pattern.test(pathname)) return branch.id;
    return UNMATCHED;
  };
}

// A path segment that names a resource rather than one of them: lower-case words joined by '_' or
// '-', with an optional version (`docnote-v2`, `client_in_context`, `historic_time_series_twrr`).
const RESOURCE_SEGMENT = /^[a-z]+(?:[_-][a-z]+)*(?:-v\d+)?$/;

/**
 * The endpoint label of a platform call: its path with every segment that is not a resource's
 * name (ids, codes, file names, currency pairs) as `{id}`, without the query:
 * `resourceful/docnote-v2/42/body` is `/resourceful/docnote-v2/{id}/body`.
 */
export function endpointOf(path: string): string {
  const end = path.indexOf("?");
  const segments = (end < 0 ? path : path.slice(0, end)).split("/");
  let label = "";
  for (const segment of segments) {
    if (segment === "") continue;
    label += segment.length <= 40 && RESOURCE_SEGMENT.test(segment) ? `/${segment}` : "/{id}";
  }
  return label || "/";
}

/**
 * `value` while fewer than `max` values have been seen (remembered in `seen`), else `OTHER`: the
 * bound on a label's values whatever the paths turn out to be.
 */
export function bounded(seen: Set<string>, value: string, max: number): string {
  if (seen.has(value)) return value;
  if (seen.size >= max) return OTHER;
  seen.add(value);
  return value;
}

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

/**
 * The outcome of one platform call: `ok` (2xx), the status class of another answer (`3xx`, `4xx`,
 * `5xx`), `timeout` when the planning client's time ran out, `network_error` when there was no
 * answer (refused, reset, cut off).
 */
export function callOutcome(answer: number | unknown): string {
  if (typeof answer === "number") {
    if (answer >= 200 && answer < 300) return "ok";
    return STATUS_CLASSES[Math.floor(answer / 100) - 1] ?? "network_error";
  }
  return isTimeout(answer) ? "timeout" : "network_error";
}

function isTimeout(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 3;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { name?: unknown }).name === "TimeoutError") return true;
  }
  return false;
}
