import { describe, expect, it, vi } from "vitest";
import { createMaintenanceState, type Health, platformHealth, skipsMaintenanceCheck } from "./maintenance.server";

describe("paths that skip the maintenance check (spec 000 §2)", () => {
  it.each([
    "/maintenance",
    "/maintenance/",
    "/core/maintenance",
    "/core/site-terms",
    "/core/site-terms-view",
    "/core/privacy-policy",
    "/core/privacy-policy-view/",
    "/core/cookie-policy",
    "/core/cookie-policy-view",
    "/healthz",
    "/readyz",
    "/locales/en-GB",
    "/build/entry.client-ABC.js",
    "/brand/logo.svg",
    "/favicon.svg",
  ])("%s is served during maintenance", (path) => {
    expect(skipsMaintenanceCheck(path)).toBe(true);
  });

  it.each([
    "/",
    "/login",
    "/clients/home",
    "/advisers/clients",
    "/core/accessibility",
    "/core/site-terms-viewer",
    "/core/site-terms/extra",
    "/maintenance-notes",
    "/logout",
    "/session/heartbeat",
  ])("%s goes to the maintenance page", (path) => {
    expect(skipsMaintenanceCheck(path)).toBe(false);
  });
});

describe("the health answer kept per instance", () => {
  it("asks once within the cache time, then again", async () => {
    let now = 0;
    let answer: Health = "GOOD";
    const check = vi.fn(async () => answer);
    const state = createMaintenanceState(check, 5_000, () => now);
    expect(await state.isOn()).toBe(false);
    answer = "BAD";
    now = 4_999;
    expect(await state.isOn()).toBe(false);
    expect(check).toHaveBeenCalledTimes(1);
    now = 5_000;
    expect(await state.isOn()).toBe(true);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it("shares one call between concurrent requests", async () => {
    const check = vi.fn(async (): Promise<Health> => "BAD");
    const state = createMaintenanceState(check, 5_000, () => 0);
    expect(await Promise.all([state.isOn(), state.isOn(), state.isOn()])).toEqual([true, true, true]);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it("is not maintenance when the check could not tell", async () => {
    const state = createMaintenanceState(
      async () => "UNKNOWN",
      5_000,
      () => 0,
    );
    expect(await state.isOn()).toBe(false);
  });
});

describe("the platform's health check (spec 000 §8)", () => {
  const answering = (status: number, body: unknown) =>
    platformHealth({
      baseUrl: "http://platform.test",
      fetch: async () =>
        new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }),
    });

  it("reads GOOD and BAD", async () => {
    expect(await answering(200, { status: "GOOD" })()).toBe("GOOD");
    expect(await answering(200, { status: "BAD" })()).toBe("BAD");
  });

  it("takes a 403 'endpoint disabled' silently as healthy", async () => {
    expect(await answering(403, { api_message: "endpoint disabled" })()).toBe("GOOD");
  });

  it("cannot tell when the platform fails", async () => {
    expect(await answering(500, { api_message: "boom" })()).toBe("UNKNOWN");
  });
});
