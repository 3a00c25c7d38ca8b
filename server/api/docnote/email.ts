// spec 002 §4 sending, step 4: the notification email to the client's adviser, from a template.
import { and, asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/connection";
import { adviserClients, adviserProfiles, contacts, emailTemplates, entities, users } from "../../db/schema";
import { send } from "../../domain/accounts";
import { ApiError, validate } from "../http";
import { entityById } from "../people";
import { json, noContent, type Route, signedIn } from "../router";
import { DOC_MESSAGES, docScopeOf, IdParams, visibleDocument } from "./scope";

// ── notification email ───────────────────────────────────────────────────────────────────────

const SendQuery = z.object({ _method: z.literal("send") }).passthrough();
const SendBody = z.object({
  template_id: z.coerce.number().int().positive(),
  subject: z.string().trim().min(1).max(255),
  document_id: z.coerce.number().int().positive().nullish(),
});

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

export function templateById(db: Db, id: number) {
  const template = db.select().from(emailTemplates).where(eq(emailTemplates.id, id)).get();
  if (!template) throw new ApiError(404, "Template not found");
  return template;
}

/** The client's adviser to notify: the primary one first, and their work address. */
function adviserToNotify(db: Db, clientEntityId: number) {
  const rows = db
    .select({
      userId: users.id,
      username: users.username,
      entityId: users.entityId,
      email: entities.preferredEmail,
      name: adviserProfiles.adviserName,
    })
    .from(adviserClients)
    .innerJoin(users, eq(users.id, adviserClients.adviserUserId))
    .innerJoin(entities, eq(entities.id, users.entityId))
    .leftJoin(adviserProfiles, eq(adviserProfiles.userId, users.id))
    .where(eq(adviserClients.clientEntityId, clientEntityId))
    .orderBy(desc(adviserClients.isPrimary), asc(users.id))
    .all();
  for (const row of rows) {
    const address =
      row.email ??
      db
        .select({ value: contacts.value })
        .from(contacts)
        .where(and(eq(contacts.entityId, row.entityId), eq(contacts.type, "m2")))
        .orderBy(desc(contacts.preferred), asc(contacts.id))
        .get()?.value;
    if (address) return { ...row, address };
  }
  return null;
}

export const emailRoutes: Route[] = [
  signedIn("GET", "/resourceful/email/template/:id", (request, { db }) => {
    const { id } = validate(IdParams, request.params, "path");
    const t = templateById(db, id);
    return json({ id: t.id, name: t.name, subject: t.subject, body: t.body });
  }),

  // spec 002 §4 sending, step 4: a notification to the client's adviser
  signedIn("POST", "/resourceful/email/email", (request, { db, caller, clock }) => {
    validate(SendQuery, request.query, "query");
    const scope = docScopeOf(db, caller);
    const input = validate(SendBody, request.body, "body");
    const template = templateById(db, input.template_id);
    if (input.document_id) visibleDocument(db, scope, input.document_id);
    const adviser = adviserToNotify(db, scope.client);
    if (!adviser) throw new ApiError(422, DOC_MESSAGES.noAdviser);
    const client = entityById(db, scope.client);
    const values = {
      client_name: client?.displayName ?? "",
      subject: input.subject,
      adviser_name: adviser.name ?? adviser.username,
    };
    send(db, clock, {
      to: adviser.address,
      username: adviser.username,
      channel: "email",
      subject: fill(template.subject, values),
      body: fill(template.body, values),
    });
    return noContent();
  }),
];
