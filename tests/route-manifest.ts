import { resolve } from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { matchRoutes } from "@remix-run/react";
import type { ManifestRoute } from "~/lib/metric-labels";

// The portal's own routes for tests that check a rule against Remix's matcher (the metrics' route
// label, the route tree's sections).

/** The portal's route manifest, as the compiler makes it (remix.config.js's ignored files). */
export const portalManifest: Record<string, ManifestRoute> = {
  root: { id: "root", path: "" },
  ...(flatRoutes(resolve(import.meta.dirname, "../app"), ["**/.*", "**/*.test.{ts,tsx}"]) as Record<
    string,
    ManifestRoute
  >),
};

type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] };

/** Remix's route tree of the manifest's routes in `ids` (all of them without), as its server builds it. */
export function remixTreeOf(ids?: Set<string>, parentId?: string): RouteObject[] {
  return Object.values(portalManifest)
    .filter((route) => route.parentId === parentId && (!ids || ids.has(route.id)))
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: remixTreeOf(ids, route.id) },
    );
}

/** The ids of the routes Remix's own matcher matches for `pathname` in `tree`, the root first. */
export function matchedIds(tree: RouteObject[], pathname: string): string[] {
  return (
    matchRoutes(tree as Parameters<typeof matchRoutes>[0], pathname)?.map((match) => (match.route as RouteObject).id) ??
    []
  );
}

/** Every route's own whole path, with its parameters filled in and a splat given two segments. */
export function everyRoutePath(): string[] {
  return Object.values(portalManifest).map((route) => {
    let path = "";
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? portalManifest[r.parentId] : undefined) {
      if (r.path) path = `/${r.path}${path}`;
    }
    return (path || "/").replace(/:[\w-]+/g, "42").replace(/\*$/, "x/y");
  });
}
