// spec 002 §3 "Notification config", §4 "Notification flow", §7: a client's review, fact-find and
// robo-journey statuses, read (GET) and set (PATCH) on entity/client-v4 (docs/platform-api.md
// "Review and notifications").
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import { prepared } from "../db/prepared";
import { emailTemplates, entities, siteSettings } from "../db/schema";
import {
  FACT_FIND_TEMPLATE_PURPOSE,
  parseReviewStatus,
  REVIEW_STATUS_TEXTS,
  ROBO_JOURNEY_STATUSES,
  roboJourneyStatus,
  roboJourneyType,
  reviewStatusText,
  statusNumber,
} from "../domain/review-status";
import type { Caller } from "../sessions";
import { advises, isAdviser, isClientUser, reachableEntities } from "./access";
import { hasCapability } from "./docnote/scope";
import { ApiError, forbidden, MESSAGES, notFound, validate } from "./http";
import { type EntityRow, entityById, partnerEntityIdOf } from "./people";
import { json, type Route, signedIn } from "./router";

export const NOTIFICATION_FIELDS = [
  "fact_find_status",
  "xpt_review_status",
  "robo_journey_type",
  "robo_journey_status",
  "consent_workflow_status",
  "fee_summary_opt_in_status",
  "can_complete_journey",
  "email_template_id",
  "partner_entity_id",
] as const;
type FieldName = (typeof NOTIFICATION_FIELDS)[number];

/** Site setting: a comma list of field names answered as unknown, as an older platform version does. */
export const UNSUPPORTED_FIELDS_SETTING = "notificationFieldsUnsupported";

const Id = z.coerce.number().int().positive();
const IdParams = z.object({ id: Id });
const ConfigQuery = z.object({ fields: z.string().max(1000).optional() }).passthrough();

const invalidField = (name: string) => new ApiError(400, `invalid field name: ${name}`);

/** An entity that is a client, else 404. */
export function clientEntity(db: Db, id: number): EntityRow {
  const entity = entityById(db, id);
  if (!entity || entity.entityType !== "client") throw notFound("Client");
  return entity;
}

/**
 * The client's partner that a ClientUser may act for: the Partner (or Client) of their client group,
 * login-accessible, while the ClientUser holds view_partner; else null.
 */
export function partnerActedFor(db: Db, caller: Caller): number | null {
  if (!isClientUser(caller)) return null;
  const own = caller.user.entityId;
  const partner = partnerEntityIdOf(db, own);
  if (partner === null || partner === own) return null;
  if (!hasCapability(db, own, "view_partner") || !reachableEntities(db, own).has(partner)) return null;
  return partner;
}

// the notification config's statements, prepared once per database (decision 131)
const settingByKey = (db: Db) =>
  db
    .select()
    .from(siteSettings)
    .where(eq(siteSettings.key, sql.placeholder("key")))
    .prepare();
const templateForPurpose = (db: Db) =>
  db
    .select({ id: emailTemplates.id })
    .from(emailTemplates)
    .where(eq(emailTemplates.purpose, sql.placeholder("purpose")))
    .orderBy(emailTemplates.id)
    .limit(1)
    .prepare();

function unsupportedFields(db: Db): Set<string> {
  const row = prepared(db, settingByKey).get({ key: UNSUPPORTED_FIELDS_SETTING });
  let value: unknown = "";
  try {
    value = row ? JSON.parse(row.valueJson) : "";
  } catch {
    value = "";
  }
  return new Set(
    String(value ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean),
  );
}

function factFindTemplateId(db: Db): number | null {
  return prepared(db, templateForPurpose).get({ purpose: FACT_FIND_TEMPLATE_PURPOSE })?.id ?? null;
}

/** Every field of the notification config of a client entity. */
export function notificationConfig(db: Db, e: EntityRow): Record<FieldName, string | number | boolean | null> {
  return {
    fact_find_status: e.factFindStatus || "0",
    xpt_review_status: reviewStatusText(e.reviewStatus),
    robo_journey_type: roboJourneyType(e.roboJourneyType),
    robo_journey_status: roboJourneyStatus(e.roboJourneyStatus),
    consent_workflow_status: statusNumber(e.consentWorkflowStatus, 4),
    fee_summary_opt_in_status: statusNumber(e.feeSummaryOptInStatus, 3),
    // the reference platform lets every client complete online journeys
    can_complete_journey: true,
    email_template_id: factFindTemplateId(db),
    partner_entity_id: partnerEntityIdOf(db, e.id),
  };
}

const ReviewStatusValue = z
  .string()
  .max(40)
  .refine(
    (v) => parseReviewStatus(v) !== null,
    `Expected one of ${REVIEW_STATUS_TEXTS.filter(Boolean)
      .map((s) => `'${s}'`)
      .join(", ")} or '' (none)`,
  )
  .transform((v) => parseReviewStatus(v) ?? "");
const PATCHABLE = ["xpt_review_status", "fact_find_status", "robo_journey_status"] as const;
const PatchBody = z
  .object({
    xpt_review_status: ReviewStatusValue.optional(),
    fact_find_status: z
      .string()
      .trim()
      .min(1, "Expected a fact find status, '0' for none")
      .max(40)
      .regex(/^[\w .-]+$/, "Expected a fact find status, '0' for none")
      .optional(),
    robo_journey_status: z.enum(ROBO_JOURNEY_STATUSES).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), `Expected at least one of ${PATCHABLE.join(", ")}`);

export const notificationRoutes: Route[] = [
  // spec 002 §3 notification config: the client, their partner (view_partner), their adviser (read)
  signedIn("GET", "/resourceful/entity/client-v4/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const entity = clientEntity(db, id);
    const allowed =
      (isClientUser(caller) && caller.user.entityId === id) ||
      partnerActedFor(db, caller) === id ||
      (isAdviser(caller) && advises(db, caller.user.id, id));
    if (!allowed) throw forbidden();
    const query = validate(ConfigQuery, request.query, "query");
    const unsupported = unsupportedFields(db);
    const asked = (query.fields ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    for (const name of asked) {
      if (!(NOTIFICATION_FIELDS as readonly string[]).includes(name) || unsupported.has(name)) throw invalidField(name);
    }
    const names = asked.length
      ? [...new Set(asked as FieldName[])]
      : NOTIFICATION_FIELDS.filter((n) => !unsupported.has(n));
    const config = notificationConfig(db, entity);
    return json(Object.fromEntries(names.map((n) => [n, config[n]])));
  }),

  // spec 002 §7 set review, fact find or robo status: a client for themselves, and the review status
  // of their partner with view_partner (the review answered for both); advisers read only
  signedIn("PATCH", "/resourceful/entity/client-v4/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    clientEntity(db, id);
    if (!isClientUser(caller)) throw forbidden(MESSAGES.clientOnly);
    const own = caller.user.entityId === id;
    if (!own && partnerActedFor(db, caller) !== id) throw forbidden();
    const body = request.body;
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new ApiError(400, "Invalid body: Expected an object", MESSAGES.argumentsIncorrect);
    for (const name of Object.keys(body))
      if (!(PATCHABLE as readonly string[]).includes(name)) throw invalidField(name);
    const input = validate(PatchBody, body, "body");
    if (!own && (input.fact_find_status !== undefined || input.robo_journey_status !== undefined)) {
      throw forbidden("Permission Error: Only the review status of a partner can be set");
    }
    const set: Partial<typeof entities.$inferInsert> = {};
    if (input.xpt_review_status !== undefined)
      set.reviewStatus = input.xpt_review_status === "" ? null : input.xpt_review_status;
    if (input.fact_find_status !== undefined) set.factFindStatus = input.fact_find_status;
    if (input.robo_journey_status !== undefined) set.roboJourneyStatus = input.robo_journey_status;
    db.update(entities).set(set).where(eq(entities.id, id)).run();
    return json(notificationConfig(db, clientEntity(db, id)));
  }),
];
