// spec 002 §4 status enumerations of the notification config: review status (as text on the wire),
// robo journey type and status, consent workflow and fee opt-in.

export const REVIEW_STATUS = {
  none: "",
  inProgress: "In Progress",
  followUpRequired: "Follow Up Required",
  changesReported: "Changes Reported",
  noChangesReported: "No Changes Reported",
} as const;
export type ReviewStatusText = (typeof REVIEW_STATUS)[keyof typeof REVIEW_STATUS];
export const REVIEW_STATUS_TEXTS: readonly ReviewStatusText[] = Object.values(REVIEW_STATUS);

/** A review status read case-insensitively (spec 002 §4), as its canonical text; null when unknown. */
export function parseReviewStatus(value: string | null | undefined): ReviewStatusText | null {
  const folded = (value ?? "").trim().toLowerCase();
  return REVIEW_STATUS_TEXTS.find((s) => s.toLowerCase() === folded) ?? null;
}

/** The stored status as the wire's text: "" for none (or a value the platform does not know). */
export const reviewStatusText = (stored: string | null | undefined): ReviewStatusText =>
  parseReviewStatus(stored) ?? "";

export const ROBO_JOURNEY_TYPES = ["none", "investment", "retirement_health_check"] as const;
export const ROBO_JOURNEY_STATUSES = ["none", "in_progress", "follow_up_requested", "declined", "enabled"] as const;
export type RoboJourneyType = (typeof ROBO_JOURNEY_TYPES)[number];
export type RoboJourneyStatus = (typeof ROBO_JOURNEY_STATUSES)[number];

export const roboJourneyType = (stored: string | null | undefined): RoboJourneyType =>
  ROBO_JOURNEY_TYPES.find((t) => t === stored) ?? "none";
export const roboJourneyStatus = (stored: string | null | undefined): RoboJourneyStatus =>
  ROBO_JOURNEY_STATUSES.find((t) => t === stored) ?? "none";

/** A stored number 0..max, else 0 (Blank for the consent workflow, OptOut for the fee opt-in). */
export function statusNumber(stored: string | null | undefined, max: number): number {
  const n = Number(stored);
  return Number.isInteger(n) && n >= 0 && n <= max && stored !== null && stored !== "" ? n : 0;
}

/** The email template the fact find's 'speak to adviser' sends (the notification config's email_template_id). */
export const FACT_FIND_TEMPLATE_PURPOSE = "fact_find_speak_to_adviser";
