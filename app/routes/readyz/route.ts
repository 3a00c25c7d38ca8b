import { json } from "@remix-run/node";
import { z } from "zod/v4";
import { createPlanningClient, PlanningError } from "~/planning/client.server";

const HealthAnswer = z.object({ status: z.string() });

// Readiness: the portal is useful only when the platform answers its health check GOOD
// (spec 000 §4 "Maintenance": BAD means maintenance). A short timeout and no retry, so that a
// load balancer's probe never waits on the platform.
const READY_TIMEOUT_MS = 2_000;

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  try {
    const health = await createPlanningClient({ timeoutMs: READY_TIMEOUT_MS }).get("xplan/health", HealthAnswer, {
      retry: false,
    });
    if (health.status === "GOOD") return json({ status: "ready" }, { headers });
    return json({ status: "not-ready", reason: `platform health is ${health.status}` }, { status: 503, headers });
  } catch (error) {
    const reason =
      error instanceof PlanningError
        ? error.status === 0
          ? "platform did not answer"
          : `platform answered ${error.status}`
        : "platform health check failed";
    return json({ status: "not-ready", reason }, { status: 503, headers });
  }
}
