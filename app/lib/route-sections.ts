// The route tree in sections by a path's first segment (docs/decisions/162). Remix matches a
// request against the whole route tree several times per page (the server's match, the data
// router's query, the render's router and the browser manifest's matches), and its matcher flattens,
// ranks and compiles every route on each call. A request whose first segment is `clients` can only
// match routes whose path starts with `clients`, or has no static first segment (the root, the index
// at `/`, a pathless layout, a dynamic or splat segment): the portal's server gives each section a
// request handler of its own with a build of those routes only, and Remix matches the same routes
// among a sixth to a half of them.
import type { ManifestRoute } from "./metric-labels";

/** Routes of a manifest whose path has no static first segment: they may match any path. */
const ANY = "";

/** The first segment of a route's whole path (its ancestors' paths joined), lower case; `ANY` when none is static. */
function firstSegmentOf(manifest: Record<string, ManifestRoute | undefined>, route: ManifestRoute): string {
  const paths: string[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest[r.parentId] : undefined) {
    if (r.path) paths.unshift(r.path);
  }
  const first = paths
    .join("/")
    .split("/")
    .find((segment) => segment !== "");
  if (first === undefined || first.startsWith(":") || first === "*" || first.endsWith("?")) return ANY;
  return first.toLowerCase();
}

/**
 * The route ids of each section, by the section's first segment: the routes whose path starts with
 * it, every route that may match any path, and their ancestors, in the manifest's order (Remix
 * ranks routes of equal score by their order among their siblings).
 */
export function routeSections(manifest: Record<string, ManifestRoute | undefined>): Map<string, string[]> {
  const routes = Object.values(manifest).filter((route): route is ManifestRoute => route !== undefined);
  const segmentOf = new Map(routes.map((route) => [route.id, firstSegmentOf(manifest, route)]));
  const sections = new Map<string, string[]>();
  for (const segment of new Set(segmentOf.values())) {
    if (segment === ANY) continue;
    const ids = new Set<string>();
    for (const route of routes) {
      const own = segmentOf.get(route.id);
      if (own !== segment && own !== ANY) continue;
      for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest[r.parentId] : undefined) {
        ids.add(r.id);
      }
    }
    sections.set(
      segment,
      routes.filter((route) => ids.has(route.id)).map((route) => route.id),
    );
  }
  return sections;
}

// A first segment that needs no decoding and that URL parsing cannot change.
const PLAIN_SEGMENT = /^\/([A-Za-z0-9_-]+)(?=[/?#]|$)/;
// What URL parsing rewrites in a path (dot segments, encoded or not; backslashes; tabs and newlines).
const REWRITTEN = /(?:^|\/)(?:\.|%2e){1,2}(?:[/?#]|$)|\\|[\t\n\r]/i;
// A host that could move where URL parsing starts the path.
const ODD_HOST = /[/?#\\@\s]/;

/**
 * The section of a request by its target (`req.originalUrl`) and the hosts it names (Remix builds
 * the request's URL from them), or `undefined` when it is not certain: a first segment that needs
 * decoding, a path that URL parsing would rewrite or a host that could move the path. The whole
 * route tree takes those.
 */
export function sectionOfTarget(target: string, hosts: Array<string | undefined>): string | undefined {
  const plain = PLAIN_SEGMENT.exec(target);
  if (!plain) return undefined;
  const end = target.search(/[?#]/);
  if (REWRITTEN.test(end < 0 ? target : target.slice(0, end))) return undefined;
  if (hosts.some((host) => host !== undefined && ODD_HOST.test(host))) return undefined;
  return plain[1]!.toLowerCase();
}
