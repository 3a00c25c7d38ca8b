// The route tree in sections by a path's first segment (docs/decisions/162). Remix matches a
// request against the whole route tree several times per page (the server's match, the data
// router's query, the render's router and the browser manifest's matches), and its matcher flattens,
// ranks and compiles every route on each call. A request for `/clients/home` can only match routes
// whose path starts with `clients/home` or is a parent of it (`clients`, the root, the index at `/`),
// pathless layouts, and routes with a dynamic or splat segment there: the portal's server gives each
// section (by a path's first segment, and by its first two) a request handler of its own with a
// build of those routes only, and Remix matches the same routes among a tenth to a half of them.
import type { ManifestRoute } from "./metric-labels";

type Manifest = Record<string, ManifestRoute | undefined>;

/** A route and its ancestors, the route first. */
function* lineOf(manifest: Manifest, route: ManifestRoute): Generator<ManifestRoute> {
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest[r.parentId] : undefined) yield r;
}

/** The segments of a route's whole path (its ancestors' paths joined). */
function segmentsOf(manifest: Manifest, route: ManifestRoute): string[] {
  return [...lineOf(manifest, route)]
    .reverse()
    .flatMap((r) => r.path?.split("/") ?? [])
    .filter((segment) => segment !== "");
}

/** A segment that matches more than one word: a parameter, a splat, an optional segment. */
const isDynamic = (segment: string) => segment.startsWith(":") || segment === "*" || segment.endsWith("?");

/**
 * Whether a route may match a path that starts with `prefix`, or one of that path's parents (Remix
 * matches the parent paths too, for the browser's manifest): each of its first segments is the
 * prefix's or dynamic, and a route shorter than the prefix matches a parent at most.
 */
function mayMatchUnder(segments: string[], prefix: string[]): boolean {
  for (let i = 0; i < Math.min(segments.length, prefix.length); i++) {
    const segment = segments[i]!;
    if (isDynamic(segment)) return true;
    if (segment.toLowerCase() !== prefix[i]) return false;
  }
  return true;
}

/**
 * The route ids of each section, by the first segment of a path (`clients`) and by its first two
 * (`clients/home`): the routes that may match a path under it or one of its parents, and their
 * ancestors, in the manifest's order (Remix ranks routes of equal score by their order among
 * their siblings).
 */
export function routeSections(manifest: Manifest): Map<string, string[]> {
  const routes = Object.values(manifest).filter((route): route is ManifestRoute => route !== undefined);
  const segments = new Map(routes.map((route) => [route.id, segmentsOf(manifest, route)]));
  const prefixes = new Set<string>();
  for (const own of segments.values()) {
    for (let depth = 1; depth <= 2 && depth <= own.length; depth++) {
      const prefix = own.slice(0, depth);
      if (prefix.some(isDynamic)) break;
      prefixes.add(prefix.join("/").toLowerCase());
    }
  }
  const sections = new Map<string, string[]>();
  for (const key of prefixes) {
    const prefix = key.split("/");
    const ids = new Set<string>();
    for (const route of routes) {
      if (!mayMatchUnder(segments.get(route.id)!, prefix)) continue;
      for (const r of lineOf(manifest, route)) ids.add(r.id);
    }
    sections.set(
      key,
      routes.filter((route) => ids.has(route.id)).map((route) => route.id),
    );
  }
  return sections;
}

// A segment that needs no decoding and that URL parsing cannot change.
const PLAIN_SEGMENTS = /^\/([A-Za-z0-9_-]+)(?:\/([A-Za-z0-9_-]+))?(?=[/?#]|$)/;
// What URL parsing rewrites in a path (dot segments, encoded or not; backslashes; tabs and newlines).
const REWRITTEN = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|\\|[\t\n\r]/i;
// A host that could move where URL parsing starts the path.
const ODD_HOST = /[/?#\\@\s]/;

/**
 * The sections a request may be answered in, the narrowest first (its first two segments, then its
 * first), by its target (`req.originalUrl`) and the hosts it names (Remix builds the request's URL
 * from them); none when that is not certain: a first segment that needs decoding, a path that URL
 * parsing would rewrite or a host that could move the path. The whole route tree takes those.
 */
export function sectionsOfTarget(target: string, hosts: Array<string | undefined>): string[] {
  const plain = PLAIN_SEGMENTS.exec(target);
  if (!plain) return [];
  const end = target.search(/[?#]/);
  if (REWRITTEN.test(end < 0 ? target : target.slice(0, end))) return [];
  if (hosts.some((host) => host !== undefined && ODD_HOST.test(host))) return [];
  const first = plain[1]!.toLowerCase();
  return plain[2] ? [`${first}/${plain[2].toLowerCase()}`, first] : [first];
}
