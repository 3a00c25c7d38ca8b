import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { fixedClock } from "../../server/clock";
import { closeDatabase, openDatabase } from "../../server/db/connection";
import { type PlatformEnv, readEnv } from "../../server/env";
import { registry, serveMetrics } from "../../server/lib/metrics";
import { DEMO_PASSWORD, seedIfEmpty } from "../../server/seed";
import { START } from "./harness";

// The platform's Prometheus metrics (docs/decisions/126).

const dir = mkdtempSync(join(tmpdir(), "platform-metrics-"));
const db = openDatabase(join(dir, "platform.sqlite"));
const clock = fixedClock(START);
seedIfEmpty(db, clock);
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

async function platform(metrics: PlatformEnv["metrics"]): Promise<string> {
  const env: PlatformEnv = {
    port: 0,
    host: "127.0.0.1",
    dbFile: join(dir, "platform.sqlite"),
    nodeEnv: "test",
    devEndpoints: true,
    metrics,
  };
  const server = createApp({ db, clock, env }).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function valueOf(name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name.replace(/_(count|sum)$/, ""));
  const sample = metric?.values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? metric.name) === name &&
      Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l),
  );
  return sample?.value ?? 0;
}

const get = (url: string) =>
  fetch(url, { headers: { "X-Xplan-Auth-Failure-Action": "error", "X-Xplan-App-Id": "client-online" } }).then(
    async (r) => {
      await r.text();
      return r.status;
    },
  );

// production needs the keys of the secrets at rest (docs/decisions/172), its callers' (186) and its database's (188)
const PRODUCTION = {
  NODE_ENV: "production",
  PLATFORM_SECRET_KEYS: "k".repeat(64),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_PEPPER_KEYS: "p".repeat(64),
  PLATFORM_CALLER_KEYS: "c".repeat(64),
  PLATFORM_DB_KEYS: "d".repeat(64),
} as const;

describe("the platform's metrics", () => {
  it("are off without PLATFORM_METRICS_PORT, and on loopback unless told otherwise", async () => {
    expect(readEnv({ ...PRODUCTION }).metrics).toBeUndefined();
    expect(readEnv({ ...PRODUCTION, PLATFORM_METRICS_PORT: "" }).metrics).toBeUndefined();
    expect(readEnv({ ...PRODUCTION, PLATFORM_METRICS_PORT: "9465" }).metrics).toEqual({
      port: 9465,
      host: "127.0.0.1",
    });
    expect(readEnv({ ...PRODUCTION, PLATFORM_METRICS_PORT: "9465", PLATFORM_METRICS_HOST: "0.0.0.0" }).metrics).toEqual(
      { port: 9465, host: "0.0.0.0" },
    );
    // Off: nothing counted, no default metrics.
    const base = await platform(undefined);
    expect(await get(`${base}/xplan/health`)).toBe(200);
    expect(await valueOf("platform_http_requests_total", { route: "/xplan/health" })).toBe(0);
    expect((await registry.getMetricsAsJSON()).some((m) => m.name === "process_resident_memory_bytes")).toBe(false);
  });

  it("count requests per route pattern and status, never per raw path", async () => {
    const base = await platform({ port: 0, host: "127.0.0.1" });
    expect(await get(`${base}/xplan/health`)).toBe(200);
    expect(await get(`${base}/xplan/health`)).toBe(200);
    expect(await get(`${base}/resourceful/docnote-v2/4242`)).toBe(401);
    expect(await get(`${base}/no/such/4242`)).toBe(404);
    expect(
      await valueOf("platform_http_requests_total", { method: "GET", route: "/xplan/health", status: "200" }),
    ).toBe(2);
    expect(
      await valueOf("platform_http_request_duration_seconds_count", {
        method: "GET",
        route: "/xplan/health",
        status: "200",
      }),
    ).toBe(2);
    expect(
      await valueOf("platform_http_requests_total", {
        method: "GET",
        route: "/resourceful/docnote-v2/:id",
        status: "401",
      }),
    ).toBe(1);
    expect(await valueOf("platform_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    const text = await registry.metrics();
    expect(text).not.toContain("4242");
    expect(text).toMatch(/platform_build_info\{version="\d+\.\d+\.\d+",platform_version="\d+\.\d+\.\d+"\} 1/);
    for (const name of ["process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds"])
      expect(text).toContain(`# TYPE ${name} gauge`);
  });

  it("count authentication decisions by step and outcome, and the lockouts (decision 190)", async () => {
    const base = await platform({ port: 0, host: "127.0.0.1" });
    const login = (username: string, password: string) =>
      fetch(`${base}/auth/login`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Xplan-Auth-Failure-Action": "error",
          "X-Xplan-App-Id": "client-online",
        },
        body: JSON.stringify({ username, password, user_type: "client" }),
      }).then(async (r) => {
        await r.text();
        return r.status;
      });
    const decisions = (step: string, outcome: string) => valueOf("platform_auth_decisions_total", { step, outcome });
    expect(await login("demo.client", DEMO_PASSWORD)).toBe(200);
    expect(await login("nobody.at.all", "Wrong-pass-1")).toBe(401);
    expect(await decisions("password", "success")).toBe(1);
    expect(await decisions("password", "failure")).toBe(1);
    // the fifth wrong password in a row locks the account; the owner's right one is then refused
    for (let attempt = 1; attempt <= 5; attempt++) await login("demo.lockout", `Wrong-${attempt}-pass`);
    expect(await login("demo.lockout", DEMO_PASSWORD)).toBe(403);
    expect(await decisions("password", "failure")).toBe(5);
    expect(await decisions("password", "locked")).toBe(2);
    expect(await valueOf("platform_auth_lockouts_total", {})).toBe(1);
    const text = await registry.metrics();
    expect(text).not.toContain("demo.lockout");
    expect(text).not.toContain("nobody.at.all");
  });

  it("are served at GET /metrics where told; other paths are 404", async () => {
    const server = await serveMetrics(registry, { port: 0, host: "127.0.0.1" });
    servers.push(server);
    const { address, port } = server.address() as AddressInfo;
    expect(address).toBe("127.0.0.1");
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("platform_http_requests_total");
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "DELETE" })).status).toBe(405);
  });
});
