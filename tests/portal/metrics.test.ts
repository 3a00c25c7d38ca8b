import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { createPlanningClient, PlanningError } from "~/planning/client.server";
import { observePortal, registry } from "~/runtime/metrics.server";
import { createRateLimits } from "~/session/rate-limit.server";

// The planning client's and the rate limits' hooks into the portal's metrics (docs/decisions/126).

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

const fakeFetch = (answers: Array<Response | Error>) =>
  (async () => {
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof fetch;

describe("the portal's metrics", () => {
  observePortal({ assets: { version: "test" }, routes: { root: { id: "root", path: "" } } });

  it("time each platform call's attempts per endpoint and outcome, and count the retries", async () => {
    const client = createPlanningClient({
      baseUrl: "http://platform.test",
      retryDelayMs: 1,
      fetch: fakeFetch([
        new TypeError("fetch failed"),
        new Response("{}", { status: 503 }),
        new Response(JSON.stringify({ n: 1 }), { status: 200 }),
        new Response(JSON.stringify({ api_message: "no" }), { status: 404 }),
      ]),
    });
    await expect(client.get("resourceful/docnote-v2/42", z.object({ n: z.number() }))).resolves.toEqual({ n: 1 });
    await expect(client.get("resourceful/docnote-v2/43", z.object({}))).rejects.toBeInstanceOf(PlanningError);
    const endpoint = "/resourceful/docnote-v2/{id}";
    const count = (outcome: string) =>
      valueOf("portal_platform_call_duration_seconds_count", { method: "GET", endpoint, outcome });
    expect([await count("network_error"), await count("5xx"), await count("ok"), await count("4xx")]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(await valueOf("portal_platform_call_retries_total", { method: "GET", endpoint })).toBe(2);
  });

  it("count the posts a rate limit refuses, by limit", async () => {
    const limits = createRateLimits({
      keyPrefix: "test",
      limits: {
        signIn: { max: 1, windowMs: 60_000 },
        recovery: { max: 1, windowMs: 60_000 },
        passkeyOptions: { max: 1, windowMs: 60_000 },
        signInFailures: { max: 1, windowMs: 60_000 },
        deviceFailures: { max: 1, windowMs: 60_000 },
      },
    });
    expect(await limits.hit("signIn", "192.0.2.1")).toBe(0);
    expect(await limits.hit("signIn", "192.0.2.1")).toBeGreaterThan(0);
    expect(await limits.hit("signIn", "192.0.2.1")).toBeGreaterThan(0);
    await limits.signInAttempt({ username: "jane", device: null });
    await limits.signInAttempt({ username: "jane", device: null });
    await limits.signInAttempt({ username: "jane", device: "nonce-of-janes-browser" });
    await limits.signInAttempt({ username: "jane", device: "nonce-of-janes-browser" });
    expect(await valueOf("portal_rate_limit_refusals_total", { limit: "signIn" })).toBe(2);
    expect(await valueOf("portal_rate_limit_refusals_total", { limit: "signInFailures" })).toBe(1);
    expect(await valueOf("portal_rate_limit_refusals_total", { limit: "deviceFailures" })).toBe(1);
    expect(await valueOf("portal_rate_limit_refusals_total", { limit: "recovery" })).toBe(0);
  });
});
