import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import { PlanningError, type PlanningClient } from "./client.server";
import { AnyAnswer } from "./wire";

// spec 002 §3 "Notification config", §7 "Set review, fact find or robo status" (docs/platform-api.md
// "Review and notifications"): the client's review, fact-find and robo journey statuses.

export const ROBO_TYPES = ["none", "investment", "retirement_health_check"] as const;
export const ROBO_STATUSES = ["none", "in_progress", "follow_up_requested", "declined", "enabled"] as const;
export type RoboJourneyType = (typeof ROBO_TYPES)[number];
export type RoboJourneyStatus = (typeof ROBO_STATUSES)[number];

/** Type and status default to none (spec 002 §4); an unknown value reads as none too. */
const RoboType = z
  .string()
  .nullish()
  .transform((v): RoboJourneyType =>
    (ROBO_TYPES as readonly string[]).includes(v ?? "") ? (v as RoboJourneyType) : "none",
  );
const RoboStatus = z
  .string()
  .nullish()
  .transform((v): RoboJourneyStatus =>
    (ROBO_STATUSES as readonly string[]).includes(v ?? "") ? (v as RoboJourneyStatus) : "none",
  );

const NotificationAnswer = z.object({
  fact_find_status: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v == null || v === "" ? "0" : String(v))),
  xpt_review_status: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  robo_journey_type: RoboType.optional().transform((v) => v ?? "none"),
  robo_journey_status: RoboStatus.optional().transform((v) => v ?? "none"),
  consent_workflow_status: WholeNumber.nullish().transform((v) => v ?? 0),
  fee_summary_opt_in_status: WholeNumber.nullish().transform((v) => v ?? 0),
  can_complete_journey: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
  email_template_id: WholeNumber.nullish().transform((v) => v ?? null),
});

export type NotificationConfig = {
  factFindStatus: string;
  /** The review status as the platform's text ('In Progress' …, '' for none). */
  reviewStatus: string;
  roboJourneyType: RoboJourneyType;
  roboJourneyStatus: RoboJourneyStatus;
  consentWorkflowStatus: number;
  feeSummaryOptInStatus: number;
  canCompleteJourney: boolean;
  emailTemplateId: number | null;
};

/** spec 002 §7: the default config when the platform does not know the review and robo fields. */
export const DEFAULT_NOTIFICATION_CONFIG: NotificationConfig = {
  factFindStatus: "0",
  reviewStatus: "",
  roboJourneyType: "none",
  roboJourneyStatus: "none",
  consentWorkflowStatus: 0,
  feeSummaryOptInStatus: 0,
  canCompleteJourney: true,
  emailTemplateId: null,
};

const ALL_FIELDS = [
  "fact_find_status",
  "xpt_review_status",
  "robo_journey_type",
  "robo_journey_status",
  "consent_workflow_status",
  "fee_summary_opt_in_status",
  "can_complete_journey",
  "email_template_id",
] as const;
/** The fields an older platform may not know (spec 002 §7: the 400 'invalid field name' fallback). */
const NEWER_FIELDS = new Set(["xpt_review_status", "robo_journey_type", "robo_journey_status"]);

function toConfig(answer: z.output<typeof NotificationAnswer>): NotificationConfig {
  return {
    factFindStatus: answer.fact_find_status,
    reviewStatus: answer.xpt_review_status,
    roboJourneyType: answer.robo_journey_type,
    roboJourneyStatus: answer.robo_journey_status,
    consentWorkflowStatus: answer.consent_workflow_status,
    feeSummaryOptInStatus: answer.fee_summary_opt_in_status,
    canCompleteJourney: answer.can_complete_journey,
    emailTemplateId: answer.email_template_id,
  };
}

/** A 400 naming one of the review or robo fields as invalid: an older platform. */
export function isInvalidFieldName(error: unknown): boolean {
  if (!(error instanceof PlanningError) || error.status !== 400) return false;
  const message = (error.apiMessage ?? "").toLowerCase();
  return message.includes("invalid field name") && [...NEWER_FIELDS].some((field) => message.includes(field));
}

/**
 * spec 002 §7 "Notification config": the client's statuses. A 400 'invalid field name' for the
 * review or robo fields falls back to the default config for those (the other fields asked again).
 */
export async function fetchNotificationConfig(planning: PlanningClient, entityId: number): Promise<NotificationConfig> {
  const ask = (fields: readonly string[]) =>
    planning.get(`resourceful/entity/client-v4/${entityId}`, NotificationAnswer, {
      query: { fields: fields.join(",") },
    });
  try {
    return toConfig(await ask(ALL_FIELDS));
  } catch (error) {
    if (!isInvalidFieldName(error)) throw error;
    const older = await ask(ALL_FIELDS.filter((field) => !NEWER_FIELDS.has(field)));
    return {
      ...toConfig(older),
      reviewStatus: DEFAULT_NOTIFICATION_CONFIG.reviewStatus,
      roboJourneyType: "none",
      roboJourneyStatus: "none",
    };
  }
}

export type StatusPatch = {
  xpt_review_status?: string;
  fact_find_status?: string;
  robo_journey_status?: RoboJourneyStatus;
};

/** spec 002 §7 PATCH entity/client-v4/{id}: the review, fact-find or robo status (not retried). */
export async function patchClientStatus(
  planning: PlanningClient,
  entityId: number,
  patch: StatusPatch,
): Promise<NotificationConfig> {
  return toConfig(
    await planning.patch(`resourceful/entity/client-v4/${entityId}`, NotificationAnswer, { body: patch, retry: false }),
  );
}

/** spec 002 §7 "Send notification email": the adviser's email by template (fact find 'Speak to adviser'). */
export async function sendTemplateEmail(planning: PlanningClient, templateId: number, subject: string): Promise<void> {
  await planning.post("resourceful/email/email", AnyAnswer, {
    query: { _method: "send" },
    body: { template_id: templateId, subject },
    retry: false,
  });
}
