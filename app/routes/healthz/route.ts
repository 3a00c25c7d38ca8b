import { json } from "@remix-run/node";

// Liveness (design "Runtime"): the process answers. It calls nothing, so a platform outage does
// not make an orchestrator restart healthy portal instances.
export function loader() {
  return json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
