import { z } from "zod";
import { logger } from "~/runtime/logger.server";
import { type PlanningClient, PlanningError, isLostSession } from "./client.server";

// spec 000 §1: feature toggles gate parts of the product; "If the toggle call fails, the toggle
// list becomes empty (all off)." Every page reads them here (docs/decisions/025).

export const FeatureToggles = z.array(z.object({ name: z.string(), enabled: z.boolean() }));
export type FeatureToggles = z.output<typeof FeatureToggles>;

/** One read per planning client, that is per request: a page whose parts each need the toggles asks once. */
const reads = new WeakMap<PlanningClient, Promise<FeatureToggles>>();

/**
 * The toggles of the firm, or an empty list (all off) when the platform cannot give them: the
 * page goes on without the gated parts. A lost session is not a toggle failure and is rethrown,
 * so the page sends the user to sign in again. Parts of one page (one planning client) share the
 * one read.
 */
export function readFeatureToggles(planning: PlanningClient): Promise<FeatureToggles> {
  let read = reads.get(planning);
  if (!read) {
    read = fetchFeatureToggles(planning);
    reads.set(planning, read);
  }
  return read;
}

async function fetchFeatureToggles(planning: PlanningClient): Promise<FeatureToggles> {
  try {
    return await planning.get("resourceful/feature_toggle/toggle_condition", FeatureToggles);
  } catch (error) {
    if (isLostSession(error)) throw error;
    logger.error("feature toggles unavailable, all taken as off", {
      status: error instanceof PlanningError ? error.status : null,
      error: String(error),
    });
    return [];
  }
}

/** Whether a toggle is on; an unknown toggle is off. */
export function isToggleOn(toggles: FeatureToggles, name: string): boolean {
  return toggles.some((t) => t.name === name && t.enabled);
}
