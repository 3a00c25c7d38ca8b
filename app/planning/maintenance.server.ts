import { redirect } from "@remix-run/node";
import { z } from "zod/v4";
import { logger } from "~/runtime/logger.server";
import { VIEW_SUFFIX } from "~/lib/text-pages";
import { createPlanningClient, PlanningError, type PlanningClientOptions } from "./client.server";

// spec 000 §2 and §4 "Maintenance": the portal asks the platform's health check; BAD means
// maintenance, and every page except a few sends people to the maintenance page
// (docs/decisions/061).

export const MAINTENANCE_PATH = "/maintenance";

/** spec 000 §2: core legal paths (terms, privacy, cookies, with and without -view). */
const LEGAL_SEGMENTS = ["site-terms", "privacy-policy", "cookie-policy"];

/**
 * Paths that are served whatever the platform's health: the maintenance page itself (also as the
 * core text page), the core legal pages, the probes, the texts the browser loads and static files.
 */
export function skipsMaintenanceCheck(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === MAINTENANCE_PATH || path === "/core/maintenance") return true;
  const core = /^\/core\/([^/]+)$/.exec(path);
  if (core) return LEGAL_SEGMENTS.some((s) => core[1] === s || core[1] === `${s}${VIEW_SUFFIX}`);
  if (path === "/healthz" || path === "/readyz") return true;
  if (/^\/(locales|build|brand|fonts)\//.test(path)) return true;
  return /^\/[^/]+\.(svg|ico|png|txt|webmanifest|css|js)$/.test(path);
}

export type Health = "GOOD" | "BAD" | "UNKNOWN";
export type HealthCheck = () => Promise<Health>;

const HealthAnswer = z.object({ status: z.string() });
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * GET xplan/health. spec 000 §8: a 403 'endpoint disabled' is silent (the platform does not offer
 * the check, so it is not in maintenance); any other failure is logged and is not maintenance
 * either (the pages then meet the platform's own errors).
 */
export function platformHealth(options: PlanningClientOptions = {}): HealthCheck {
  return async () => {
    try {
      const planning = createPlanningClient({ timeoutMs: HEALTH_TIMEOUT_MS, ...options });
      const answer = await planning.get("xplan/health", HealthAnswer, { retry: false });
      return answer.status === "BAD" ? "BAD" : "GOOD";
    } catch (error) {
      if (error instanceof PlanningError && error.status === 403 && /endpoint disabled/i.test(error.apiMessage ?? "")) {
        return "GOOD";
      }
      logger.error("health check failed", { error: String(error) });
      return "UNKNOWN";
    }
  };
}

/** Every request must not pay for a health call: one answer per instance is kept a few seconds. */
export const HEALTH_CACHE_MS = 5_000;

export function createMaintenanceState(
  check: HealthCheck,
  ttlMs = HEALTH_CACHE_MS,
  now: () => number = () => Date.now(),
) {
  let cached: { at: number; health: Health } | null = null;
  let pending: Promise<Health> | null = null;
  async function health(): Promise<Health> {
    const age = cached ? now() - cached.at : Number.POSITIVE_INFINITY;
    if (cached && age >= 0 && age < ttlMs) return cached.health;
    // Concurrent requests share one call.
    pending ??= check()
      .then((h) => {
        cached = { at: now(), health: h };
        return h;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  }
  return {
    health,
    isOn: async () => (await health()) === "BAD",
    forget: () => {
      cached = null;
    },
  };
}

const state = createMaintenanceState(platformHealth());

/** Is the platform in maintenance (as this instance last heard, at most a few seconds ago)? */
export function isUnderMaintenance(): Promise<boolean> {
  return state.isOn();
}

/** For the root loader: a redirect to the maintenance page, or null when the page may be shown. */
export async function maintenanceRedirect(request: Request): Promise<Response | null> {
  if (skipsMaintenanceCheck(new URL(request.url).pathname)) return null;
  if (!(await isUnderMaintenance())) return null;
  return redirect(MAINTENANCE_PATH, { headers: { "Cache-Control": "no-store" } });
}
