import { describe, expect, it } from "vitest";
import { everyRoutePath, matchedIds, portalManifest, remixTreeOf } from "../../tests/route-manifest";
import { bounded, callOutcome, endpointOf, MAX_ENDPOINTS, OTHER, routeMatcher, UNMATCHED } from "./metric-labels";

const remixRoutes = remixTreeOf();
const remixRouteOf = (pathname: string) => matchedIds(remixRoutes, pathname).at(-1) ?? UNMATCHED;

describe("the route label of a request", () => {
  const routeOf = routeMatcher(portalManifest);

  it("is the id of the route Remix renders, for every route's path and paths no route has", () => {
    const paths = [
      "/",
      "/login",
      "/login/",
      "/LOGIN",
      "/login/help",
      "/login/help/reset",
      "/clients",
      "/clients/",
      "/clients/home",
      "/clients/analysis",
      "/clients/analysis/download/csv",
      "/clients/documents-and-messages",
      "/clients/documents-and-messages/attachments/12/3",
      "/clients/documents-and-messages/files/12/3",
      "/clients/documents-and-messages/images/a/b/c.png",
      "/clients/documents-and-messages/signatures/7",
      "/clients/valuation-report/jobs/abc-123",
      "/clients/valuation-report/jobs/abc-123/report.pdf",
      "/clients/valuation-report/jobs/abc-123/reportxpdf",
      "/advisers",
      "/advisers/clients",
      "/core/apa",
      "/core/anything",
      "/locales/en-GB",
      "/healthz",
      "/readyz",
      "/session/heartbeat",
      "/nothing/here",
      "/clients/home/extra",
      "/%E2%9C%93",
    ];
    // Every route's own path, with its parameters filled in.
    paths.push(...everyRoutePath());
    const ours = paths.map((p) => [p, routeOf(p)]);
    expect(ours).toEqual(paths.map((p) => [p, remixRouteOf(p)]));
    // The paths above reach the pages, the resource routes and the catch-all.
    expect(routeOf("/clients/home")).toBe("routes/clients.home");
    expect(routeOf("/clients/valuation-report/jobs/abc/report.pdf")).toBe(
      "routes/clients.valuation-report_.jobs.$jobId_.report[.]pdf",
    );
    expect(routeOf("/nothing/here")).toBe("routes/$");
  });

  it("is 'unmatched' where no route takes the path", () => {
    const routeOfSome = routeMatcher({
      root: { id: "root", path: "" },
      "routes/login": { id: "routes/login", parentId: "root", path: "login" },
    });
    expect(routeOfSome("/login")).toBe("routes/login");
    expect(routeOfSome("/clients/42")).toBe(UNMATCHED);
  });
});

describe("the endpoint label of a platform call", () => {
  it("keeps the resources' names and puts {id} for ids, codes and file names", () => {
    expect(endpointOf("resourceful/docnote-v2/42")).toBe("/resourceful/docnote-v2/{id}");
    expect(endpointOf("resourceful/docnote-v2/42/body")).toBe("/resourceful/docnote-v2/{id}/body");
    expect(endpointOf("resourceful/docnote/files/42/7/statement%20May.pdf")).toBe(
      "/resourceful/docnote/files/{id}/{id}/{id}",
    );
    expect(endpointOf("resourceful/job_queue/completed_job/3f2a9c1e-0b7d")).toBe(
      "/resourceful/job_queue/completed_job/{id}",
    );
    expect(endpointOf("resourceful/portfolio/security/GBPUSD/FX")).toBe("/resourceful/portfolio/security/{id}/{id}");
    expect(endpointOf("resourceful/session/client_in_context")).toBe("/resourceful/session/client_in_context");
    expect(endpointOf("/resourceful/entity/client-v3/1001/contact?fields=a")).toBe(
      "/resourceful/entity/client-v3/{id}/contact",
    );
    expect(endpointOf("resourceful")).toBe("/resourceful");
    expect(endpointOf("")).toBe("/");
  });

  it("has at most MAX_ENDPOINTS values, whatever the paths", () => {
    const seen = new Set<string>();
    const labels = new Set<string>();
    for (let i = 0; i < MAX_ENDPOINTS * 3; i++)
      labels.add(
        bounded(
          seen,
          endpointOf(`resourceful/name${"x".repeat(i % 30)}${String.fromCharCode(97 + (i % 26))}/${i}`),
          MAX_ENDPOINTS,
        ),
      );
    expect(labels.size).toBeLessThanOrEqual(MAX_ENDPOINTS + 1);
    expect(labels.has(OTHER)).toBe(true);
    // A value seen before the bound keeps its own label.
    expect(bounded(seen, [...seen][0]!, MAX_ENDPOINTS)).toBe([...seen][0]);
    expect(bounded(seen, "/never/seen", MAX_ENDPOINTS)).toBe(OTHER);
  });
});

describe("the outcome of a platform call", () => {
  it("is ok, a status class, a timeout or a network error", () => {
    expect(callOutcome(200)).toBe("ok");
    expect(callOutcome(204)).toBe("ok");
    expect(callOutcome(302)).toBe("3xx");
    expect(callOutcome(404)).toBe("4xx");
    expect(callOutcome(503)).toBe("5xx");
    expect(callOutcome(new DOMException("The operation was aborted due to timeout", "TimeoutError"))).toBe("timeout");
    expect(callOutcome(new TypeError("fetch failed", { cause: new DOMException("timed out", "TimeoutError") }))).toBe(
      "timeout",
    );
    expect(callOutcome(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") }))).toBe(
      "network_error",
    );
    expect(callOutcome("reset")).toBe("network_error");
  });
});
