import { z } from "zod/v4";
import { logger } from "~/runtime/logger.server";
import { type PlanningClient, PlanningError, isLostSession } from "./client.server";
import { keptAnswers } from "./kept-answers.server";

// spec 000 §1: feature toggles gate parts of the product; "If the toggle call fails, the toggle
// list becomes empty (all off)." Every page reads them here (docs/decisions/025).

export const FeatureToggles = z.array(z.object({ name: z.string(), enabled: z.boolean() }));
export type FeatureToggles = z.output<typeof FeatureToggles>;

/**
 * The toggles are the firm's, the same for every user: one answer serves every page of this
 * instance for a minute (issue 38), and the parts of a page that each need them share one call.
 */
export const TOGGLES_KEPT_MS = 60_000;
const kept = keptAnswers<FeatureToggles>({ ttlMs: TOGGLES_KEPT_MS, max: 8 });

/**
 * The toggles of the firm, or an empty list (all off) when the platform cannot give them: the
 * page goes on without the gated parts. A lost session is not a toggle failure and is rethrown,
 * so the page sends the user to sign in again: asked again with this page's own session, since the
 * call that failed may have been another page's.
 */
export async function readFeatureToggles(planning: PlanningClient): Promise<FeatureToggles> {
  const ask = () => planning.get("resourceful/feature_toggle/toggle_condition", FeatureToggles);
  try {
    return await kept.get(planning.keys.site, ask).catch((error: unknown) => {
      if (isLostSession(error)) return ask();
      throw error;
    });
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
