import { expect, signInThroughForm, test } from "./fixtures";

// Issue 26 "What an operator watches" (docs/decisions/126): after a client signs in and opens two
// pages, both processes' Prometheus metrics count what the journey did — the portal its pages per
// Remix route and its calls per platform endpoint, the platform those calls per route pattern.
// The journeys' servers serve their metrics on ports of their own (scripts/servers.mjs); other
// journeys may run at the same time, so the counts are compared as "at least".

type Samples = Map<string, number>;

/** Prometheus text as `name{labels}` → value (labels in the order the process wrote them). */
async function scrape(url: string | undefined): Promise<Samples> {
  if (!url) throw new Error("the metrics' addresses are not set (run through npm run test:e2e)");
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  const samples: Samples = new Map();
  for (const line of (await answer.text()).split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/** The labels of a sample's key. */
function labelsOf(key: string): Record<string, string> {
  return Object.fromEntries([...key.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
}

/** How much each sample of `name` grew between two scrapes, with its labels. */
function grown(before: Samples, after: Samples, name: string): Array<{ labels: Record<string, string>; by: number }> {
  const out = [];
  for (const [key, value] of after) {
    if (key !== name && !key.startsWith(`${name}{`)) continue;
    const by = value - (before.get(key) ?? 0);
    if (by > 0) out.push({ labels: labelsOf(key), by });
  }
  return out;
}

const sum = (rows: Array<{ by: number }>) => rows.reduce((total, row) => total + row.by, 0);

/** Whether a platform route pattern (`/a/:id/b`) is a portal endpoint label (`/a/{id}/b`). */
function sameEndpoint(pattern: string, endpoint: string): boolean {
  const p = pattern.split("/");
  const e = endpoint.split("/");
  return p.length === e.length && p.every((segment, i) => e[i] === "{id}" || segment === e[i]);
}

test.describe("the operator's metrics", () => {
  test("count a client's sign-in and pages in the portal and the platform", async ({ page }) => {
    const portalUrl = process.env.E2E_PORTAL_METRICS_URL;
    const platformUrl = process.env.E2E_PLATFORM_METRICS_URL;
    // Other journeys call the platform at the same time. A call the portal counts was counted by the
    // platform before the portal had its answer, so the platform is read first before and last after:
    // its window holds the portal's (read at once, a call between the two reads broke the count).
    const platformBefore = await scrape(platformUrl);
    const portalBefore = await scrape(portalUrl);

    // Through the form, not a kept session: the sign-in's own POST and platform calls are counted.
    await signInThroughForm(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ellie" })).toBeVisible();
    await page.goto("/clients/personal-details");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    const portal = await scrape(portalUrl);
    const platform = await scrape(platformUrl);

    // The portal: the home page and the personal details, per Remix route id and status.
    const pages = grown(portalBefore, portal, "portal_http_requests_total");
    const routeCount = (route: string, status: string) =>
      sum(pages.filter((r) => r.labels.route === route && r.labels.status === status));
    expect(routeCount("routes/clients.home", "200")).toBeGreaterThanOrEqual(1);
    expect(routeCount("routes/clients.personal-details", "200")).toBeGreaterThanOrEqual(1);
    expect(
      sum(pages.filter((r) => r.labels.route === "routes/login" && r.labels.method === "POST")),
    ).toBeGreaterThanOrEqual(1);
    // Never a raw path with an id in a label.
    for (const row of pages) expect(row.labels.route).toMatch(/^(root|routes\/[^/]+|unmatched|__manifest)$/);
    expect(sum(grown(portalBefore, portal, "portal_http_request_duration_seconds_count"))).toBe(sum(pages));

    // The portal's calls to the platform, per endpoint and outcome, and the platform's own count.
    const calls = grown(portalBefore, portal, "portal_platform_call_duration_seconds_count").filter(
      (r) => r.labels.outcome === "ok",
    );
    expect(calls.map((r) => r.labels.endpoint)).toContain("/auth/login");
    const answered = grown(platformBefore, platform, "platform_http_requests_total");
    expect(
      sum(
        answered.filter(
          (r) => r.labels.route === "/auth/login" && r.labels.method === "POST" && r.labels.status === "200",
        ),
      ),
    ).toBeGreaterThanOrEqual(1);
    for (const call of calls) {
      const counted = answered.filter(
        (r) => r.labels.method === call.labels.method && sameEndpoint(r.labels.route!, call.labels.endpoint!),
      );
      expect(
        sum(counted),
        `${call.labels.method} ${call.labels.endpoint} counted by the platform`,
      ).toBeGreaterThanOrEqual(call.by);
    }
    expect(calls.length).toBeGreaterThanOrEqual(3);

    // What else an operator reads: memory, event-loop lag, the build.
    for (const samples of [portal, platform]) {
      expect(samples.get("process_resident_memory_bytes")).toBeGreaterThan(0);
      expect([...samples.keys()].some((key) => key.startsWith("nodejs_eventloop_lag_seconds"))).toBe(true);
    }
    expect([...portal.keys()].some((key) => key.startsWith("portal_build_info{"))).toBe(true);
    expect([...platform.keys()].some((key) => key.startsWith("platform_build_info{"))).toBe(true);
  });
});
