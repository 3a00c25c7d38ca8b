import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { platformCallObserved, type PortalBuild, registry, serveMetrics, startPortalMetrics } from "./metrics.server";

const build: PortalBuild = {
  assets: { version: "abc123" },
  routes: {
    root: { id: "root", path: "" },
    "routes/clients": { id: "routes/clients", parentId: "root", path: "clients" },
    "routes/clients.home": { id: "routes/clients.home", parentId: "routes/clients", path: "home" },
    "routes/healthz": { id: "routes/healthz", parentId: "root", path: "healthz" },
  },
};

/** The value of one series of the registry (0 when it has none). */
async function valueOf(name: string, labels: Record<string, string>): Promise<number> {
  // A histogram's _count and _sum are values of the histogram itself.
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name.replace(/_(count|sum)$/, ""));
  const sample = metric?.values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? metric.name) === name &&
      Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l),
  );
  return sample?.value ?? 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

describe("the portal's metrics, before they are started", () => {
  it("are off without METRICS_PORT: no server, nothing observed", async () => {
    expect(parseEnv({}).metrics).toBeNull();
    expect(parseEnv({ METRICS_PORT: "" }).metrics).toBeNull();
    expect(await startPortalMetrics(build, null)).toBeNull();
    const observed = platformCallObserved("GET", "resourceful/session/user");
    observed.attempt();
    observed.answered(200);
    expect(
      await valueOf("portal_platform_call_duration_seconds_count", { endpoint: "/resourceful/session/user" }),
    ).toBe(0);
    // No default metrics either (event-loop lag, memory) until they are started.
    expect((await registry.getMetricsAsJSON()).some((m) => m.name === "process_resident_memory_bytes")).toBe(false);
  });

  it("are bound to loopback unless told otherwise", () => {
    expect(parseEnv({ METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(parseEnv({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
    });
    expect(() => parseEnv({ METRICS_PORT: "http" })).toThrow(/METRICS_PORT/);
  });
});

describe("the portal's metrics, started", () => {
  let port = 0;
  let metricsUrl = "";
  let countRequests: Awaited<ReturnType<typeof startPortalMetrics>> = null;
  beforeAll(async () => {
    port = await freePort();
    countRequests = await startPortalMetrics(build, parseEnv({ METRICS_PORT: String(port) }).metrics);
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  });

  it("are served at GET /metrics on the loopback address only; other paths are 404", async () => {
    const answer = await fetch(metricsUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    const text = await answer.text();
    for (const name of [
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    expect(text).toMatch(/portal_build_info\{version="\d+\.\d+\.\d+",build="abc123"\} 1/);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics/x`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === "IPv4" && !i.internal);
    if (outside) await expect(fetch(`http://${outside.address}:${port}/metrics`)).rejects.toThrow();
  });

  it("count requests per Remix route id and status, never per raw path", async () => {
    expect(countRequests).not.toBeNull();
    const app = createServer((req, res) =>
      countRequests!(req, res, () => {
        res.statusCode = req.url?.startsWith("/clients/home") ? 200 : 404;
        res.end("answer");
      }),
    );
    servers.push(app);
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const before = await valueOf("portal_http_requests_total", {
      route: "routes/clients.home",
      status: "200",
      method: "GET",
    });
    for (const path of [
      "/clients/home",
      "/clients/home/",
      "/clients/home?_data=routes/clients.home",
      "/clients/home?_data=routes/clients",
      "/clients/home?_data=routes/evil",
      "/client/42/x",
      "/__manifest?p=/x",
    ]) {
      await (await fetch(`${base}${path}`)).text();
    }
    expect(
      await valueOf("portal_http_requests_total", { route: "routes/clients.home", status: "200", method: "GET" }),
    ).toBe(before + 3);
    expect(await valueOf("portal_http_requests_total", { route: "routes/clients", status: "200", method: "GET" })).toBe(
      1,
    );
    expect(await valueOf("portal_http_requests_total", { route: "unmatched", status: "200", method: "GET" })).toBe(1);
    expect(await valueOf("portal_http_requests_total", { route: "unmatched", status: "404", method: "GET" })).toBe(1);
    expect(await valueOf("portal_http_requests_total", { route: "__manifest", status: "404", method: "GET" })).toBe(1);
    expect(
      await valueOf("portal_http_request_duration_seconds_count", { route: "routes/clients.home", status: "200" }),
    ).toBe(before + 3);
    const text = await (await fetch(metricsUrl)).text();
    expect(text).not.toContain("/client/42");
    expect(text).not.toContain("routes/evil");
  });
});

describe("the metrics server", () => {
  it("listens where it is told, answers only GET and HEAD /metrics", async () => {
    const server = await serveMetrics(registry, { port: 0, host: "127.0.0.1" });
    servers.push(server);
    const { address, port } = server.address() as AddressInfo;
    expect(address).toBe("127.0.0.1");
    expect((await fetch(`http://127.0.0.1:${port}/metrics?x=1`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
  });
});
