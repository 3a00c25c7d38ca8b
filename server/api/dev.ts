import { desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import {
  adviserClients,
  addresses,
  capabilities,
  clientGroupMembers,
  clientGroups,
  contacts,
  entities,
  outbox,
  reportTemplateClients,
  securityQuestions,
  siteSettings,
  users,
} from "../db/schema";
import { hashSecret } from "../lib/password";
import { wireDateTime } from "../lib/wire";
import { inMaintenance, MAINTENANCE_SETTING } from "./health";
import { ApiError, notFound, validate } from "./http";
import { partnerEntityIdOf } from "./people";
import { failNextJob } from "./reports/runner";
import { json, open, type Route } from "./router";
import { copySignatureItems } from "./signature/copy";

const OutboxQuery = z.object({ to: z.string().trim().max(320).optional() });
const MaintenanceBody = z.object({ maintenance: z.boolean() });
const UsernameParams = z.object({ username: z.string().trim().min(1).max(256) });
const CopyBody = z.object({
  username: z
    .string()
    .trim()
    .regex(/^[a-z0-9._-]{3,64}$/i),
  /** Also copy the signature items the template signs (docs/platform-api.md "Development only"). */
  signatures: z.boolean().optional(),
  /** The copy's own email address, so that a journey's copy is never found by the template's (forgotten username). */
  email: z.string().trim().email().max(200).optional(),
  /** Also copy the template's partner into a new client group with the copy (docs/platform-api.md "Development only"). */
  review: z.boolean().optional(),
  /** An adviser (username) the copy is a client of, so 'Speak to adviser' is offered (issue 25 item 12). */
  adviser: z.string().trim().min(1).max(256).optional(),
  /** The copy's password, taken as it is: one set before the policy, say a common one (decision 180). */
  password: z.string().min(1).max(128).optional(),
  /** An adviser's copy advises the template's clients too (not as their primary adviser): a journey's adviser of its own (decision 212). */
  clients: z.boolean().optional(),
});
// Any integer on purpose: a level outside NotAssigned 0 … ClientMessages 3 is how a test meets a
// platform whose level the portal has no mapping for (spec 000 §8 site access errors).
const AccessLevelBody = z.object({ client_access_level: z.number().int().min(-1000).max(1000) });
const SettingParams = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,100}$/),
});
const SettingBody = z.object({ value: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]) });
const FailNextBody = z.object({ username: z.string().trim().min(1).max(256).optional() });

// design: what the platform "sends" is readable here outside production (the app leaves it out there)
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Entity = typeof entities.$inferSelect;

/** A copy of an entity with its contacts, addresses and capabilities (emails replaced when asked). */
function copyPerson(tx: Tx, source: Entity, now: string, newEmail?: string): number {
  const { id: _entityId, ...personFields } = source;
  const copiedId = tx
    .insert(entities)
    .values({ ...personFields, ...(newEmail ? { preferredEmail: newEmail } : {}), createdAt: now })
    .returning({ id: entities.id })
    .get().id;
  for (const { id: _id, ...c } of tx.select().from(contacts).where(eq(contacts.entityId, source.id)).all()) {
    const isEmail = c.type === "m1" || c.type === "m2";
    tx.insert(contacts)
      .values({ ...c, entityId: copiedId, value: newEmail && isEmail ? newEmail : c.value })
      .run();
  }
  for (const { id: _id, ...a } of tx.select().from(addresses).where(eq(addresses.entityId, source.id)).all()) {
    tx.insert(addresses)
      .values({ ...a, entityId: copiedId })
      .run();
  }
  for (const c of tx.select().from(capabilities).where(eq(capabilities.entityId, source.id)).all()) {
    tx.insert(capabilities)
      .values({ ...c, entityId: copiedId })
      .run();
  }
  return copiedId;
}

/** The named adviser (a user of role 'User') takes the copy as a client. */
function assignAdviser(tx: Tx, adviser: string, entityId: number): void {
  const adviserUser = tx.select().from(users).where(eq(users.usernameKey, adviser.toLowerCase())).get();
  if (!adviserUser || adviserUser.roleName !== "User") throw notFound("Adviser");
  tx.insert(adviserClients).values({ adviserUserId: adviserUser.id, clientEntityId: entityId, isPrimary: true }).run();
}

/** The adviser's copy advises each of the template's clients too, never as their primary adviser. */
function adviseClientsOf(tx: Tx, templateUserId: number, copyUserId: number): void {
  const links = tx.select().from(adviserClients).where(eq(adviserClients.adviserUserId, templateUserId)).all();
  for (const link of links)
    tx.insert(adviserClients)
      .values({ adviserUserId: copyUserId, clientEntityId: link.clientEntityId, isPrimary: false })
      .run();
}

/** The report templates assigned to the person are the copy's too. */
function copyReportTemplates(tx: Tx, personId: number, entityId: number): void {
  for (const a of tx.select().from(reportTemplateClients).where(eq(reportTemplateClients.entityId, personId)).all()) {
    tx.insert(reportTemplateClients).values({ templateId: a.templateId, entityId }).run();
  }
}

/**
 * A copy of the person's partner (if any) in a new client group with the copy, each member as
 * login-accessible as the original; the partner copy's id, or null without a partner.
 */
function copyPartner(db: Db, tx: Tx, person: Entity, entityId: number, copyName: string, now: string): number | null {
  const partnerId = partnerEntityIdOf(db, person.id);
  const partner = partnerId === null ? undefined : tx.select().from(entities).where(eq(entities.id, partnerId)).get();
  if (!partner) return null;
  const partnerCopyId = copyPerson(tx, partner, now);
  const accessible = (id: number) =>
    tx
      .select({ loginAccessible: clientGroupMembers.loginAccessible })
      .from(clientGroupMembers)
      .where(eq(clientGroupMembers.entityId, id))
      .get()?.loginAccessible ?? true;
  const groupId = tx
    .insert(clientGroups)
    .values({ name: `${person.lastName} family (${copyName})`, primaryEntityId: entityId })
    .returning({ id: clientGroups.id })
    .get().id;
  tx.insert(clientGroupMembers)
    .values([
      { groupId, entityId, relationship: "Client", loginAccessible: accessible(person.id), sortOrder: 0 },
      {
        groupId,
        entityId: partnerCopyId,
        relationship: "Partner",
        loginAccessible: accessible(partner.id),
        sortOrder: 1,
      },
    ])
    .run();
  return partnerCopyId;
}

/** The copy's user, in the template's state, with the template's security questions. */
function copyUser(
  tx: Tx,
  template: typeof users.$inferSelect,
  entityId: number,
  copy: { name: string; password?: string | undefined },
  now: string,
) {
  const { id: templateId, ...fields } = template;
  const copyName = copy.name;
  const passwordHash = copy.password === undefined ? fields.passwordHash : hashSecret(copy.password);
  const copyId = tx
    .insert(users)
    .values({
      ...fields,
      passwordHash,
      entityId,
      username: copyName,
      usernameKey: copyName.toLowerCase(),
      createdAt: now,
    })
    .returning({ id: users.id })
    .get().id;
  const questions = tx.select().from(securityQuestions).where(eq(securityQuestions.userId, templateId)).all();
  for (const { id: _id, ...q } of questions)
    tx.insert(securityQuestions)
      .values({ ...q, userId: copyId })
      .run();
  return copyId;
}

/** The whole copy of a seeded login (see the route below), inside the caller's transaction. */
function copyLogin(
  db: Db,
  tx: Tx,
  template: typeof users.$inferSelect,
  { username: copyName, signatures, email, review, adviser, password, clients }: z.output<typeof CopyBody>,
  now: string,
) {
  const person = tx.select().from(entities).where(eq(entities.id, template.entityId)).get();
  if (!person) throw notFound("Entity");
  if (clients && template.roleName !== "User") throw new ApiError(400, "Only an adviser's copy takes its clients");
  const entityId = copyPerson(tx, person, now, email);
  if (adviser !== undefined) assignAdviser(tx, adviser, entityId);
  copyReportTemplates(tx, person.id, entityId);
  const partnerCopyId = review ? copyPartner(db, tx, person, entityId, copyName, now) : null;
  const copyId = copyUser(tx, template, entityId, { name: copyName, password }, now);
  if (clients) adviseClientsOf(tx, template.id, copyId);
  const answer = {
    username: copyName,
    user_id: copyId,
    ...(review ? { entity_id: entityId, partner_entity_id: partnerCopyId } : {}),
  };
  if (!signatures) return json(answer, 201);
  // the same connection: these statements run inside this transaction
  const signatureIds = copySignatureItems(db, person.id, entityId);
  return json({ ...answer, signature_ids: signatureIds }, 201);
}

export const devRoutes: Route[] = [
  open("GET", "/dev/outbox", (request, { db }) => {
    const { to } = validate(OutboxQuery, request.query, "query");
    const rows = db
      .select()
      .from(outbox)
      .where(to ? or(eq(outbox.to, to), sql`lower(${outbox.username}) = ${to.toLowerCase()}`) : undefined)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .all();
    return json(
      rows.map((r) => ({
        id: r.id,
        to: r.to,
        channel: r.channel,
        subject: r.subject,
        body: r.body,
        code: r.code,
        created_at: wireDateTime(r.createdAt),
      })),
    );
  }),

  // spec 000 §4 maintenance, switched by an operator (or a test) through the site setting
  open("PUT", "/dev/maintenance", (request, { db, env }) => {
    const { maintenance } = validate(MaintenanceBody, request.body, "body");
    db.insert(siteSettings)
      .values({ key: MAINTENANCE_SETTING, valueJson: JSON.stringify(maintenance) })
      .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson: JSON.stringify(maintenance) } })
      .run();
    const on = inMaintenance(db, env);
    return json({ maintenance: on, status: on ? "BAD" : "GOOD" });
  }),

  // an operator's re-enabling of a locked account, for tests that lock one
  open("POST", "/dev/users/:username/unlock", (request, { db }) => {
    const { username } = validate(UsernameParams, request.params, "path");
    const user = db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
    if (!user) throw notFound("User");
    db.update(users).set({ disabled: false, failedAttempts: 0, lockedUntil: null }).where(eq(users.id, user.id)).run();
    return json({ username: user.username, disabled: false });
  }),

  // the client access level of a login's person, as an operator would change it
  open("PUT", "/dev/users/:username/client_access_level", (request, { db }) => {
    const { username } = validate(UsernameParams, request.params, "path");
    const { client_access_level: level } = validate(AccessLevelBody, request.body, "body");
    const user = db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
    if (!user) throw notFound("User");
    db.update(entities).set({ clientAccessLevel: level }).where(eq(entities.id, user.entityId)).run();
    return json({ username: user.username, client_access_level: level });
  }),

  // a site setting as an operator would set it (e.g. reportJobDelayMs, reportJobFailTemplate)
  open("PUT", "/dev/settings/:key", (request, { db }) => {
    const { key } = validate(SettingParams, request.params, "path");
    const { value } = validate(SettingBody, request.body, "body");
    const valueJson = JSON.stringify(value);
    db.insert(siteSettings)
      .values({ key, valueJson })
      .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson } })
      .run();
    return json({ key, value });
  }),

  // the next report job of a user (or anyone's, without a username) fails with the contract's message
  open("POST", "/dev/report-jobs/fail-next", (request, { db }) => {
    const { username } = validate(FailNextBody, request.body ?? {}, "body");
    let userId: number | "*" = "*";
    if (username) {
      const user = db.select({ id: users.id }).from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
      if (!user) throw notFound("User");
      userId = user.id;
    }
    failNextJob(db, userId);
    return json({ username: username ?? null, fails: "next" });
  }),

  // A fresh login in the state of a seeded one (its pending steps, MFA set-up, memorable word and
  // security questions, and a copy of its person: details, contacts, addresses, capabilities), for
  // journeys that use a login up: each run signs in as its own copy, so journeys stay independent
  // of each other and of the order they run in. The copied person has no adviser (unless `adviser`
  // names one, whose client list then holds the copy: a journey names demo.adviser2), so no adviser's
  // client list changes; the report templates assigned to the person are assigned to the copy. With `signatures: true` the copy also gets its own copies of the template's
  // signature items (and their messages), so each journey signs its own. With `review: true` it also
  // gets a copy of the template's partner (no login) in a new client group, so each review journey
  // answers for its own partner; the people's review statuses and risk profiles come with them.
  open("POST", "/dev/users/:username/copy", (request, { db, clock }) => {
    const { username } = validate(UsernameParams, request.params, "path");
    const body = validate(CopyBody, request.body, "body");
    const template = db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
    if (!template) throw notFound("User");
    if (db.select({ id: users.id }).from(users).where(eq(users.usernameKey, body.username.toLowerCase())).get()) {
      throw new ApiError(409, "That username is taken");
    }
    const now = clock.now().toISOString();
    return db.transaction((tx) => copyLogin(db, tx, template, body, now));
  }),
];
