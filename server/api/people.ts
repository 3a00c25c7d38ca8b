import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { alias } from "drizzle-orm/sqlite-core";
import { prepared } from "../db/prepared";
import { clientGroupMembers, entities, users } from "../db/schema";
import { wireDateTime } from "../lib/wire";
import type { SessionRow } from "../sessions";

export type EntityRow = typeof entities.$inferSelect;

// prepared once per database (decision 131): the notification config and the entity calls ask it
const entityWithId = (db: Db) =>
  db
    .select()
    .from(entities)
    .where(eq(entities.id, sql.placeholder("id")))
    .prepare();

export function entityById(db: Db, id: number): EntityRow | undefined {
  return prepared(db, entityWithId).get({ id });
}

/** "Last, First", as the client list and signatories show a name (spec 002 §3). */
export const entityName = (e: { firstName: string; lastName: string }) => `${e.lastName}, ${e.firstName}`;

/** The client login of an entity, if it has one. */
export function clientUserOf(db: Db, entityId: number) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.entityId, entityId), eq(users.roleName, "ClientUser")))
    .get();
}

/** The partner in the entity's client group: the Partner of a Client, or the Client of a Partner. */
export function partnerEntityIdOf(db: Db, entityId: number): number | null {
  const own = prepared(db, membershipsOf).all({ entityId });
  for (const membership of own) {
    const wanted =
      membership.relationship === "Partner" ? "Client" : membership.relationship === "Client" ? "Partner" : null;
    if (!wanted) continue;
    const partner = prepared(db, memberOfGroupAs).get({ groupId: membership.groupId, relationship: wanted });
    if (partner) return partner.entityId;
  }
  return null;
}

// the partner lookup every document call makes, prepared once per database (decision 123)
const membershipsOf = (db: Db) =>
  db
    .select()
    .from(clientGroupMembers)
    .where(eq(clientGroupMembers.entityId, sql.placeholder("entityId")))
    .prepare();
const memberOfGroupAs = (db: Db) =>
  db
    .select({ entityId: clientGroupMembers.entityId })
    .from(clientGroupMembers)
    .where(
      and(
        eq(clientGroupMembers.groupId, sql.placeholder("groupId")),
        eq(clientGroupMembers.relationship, sql.placeholder("relationship")),
      ),
    )
    .prepare();

/** The members of the entity's client groups (spec 000 §4 step 1 keeps the login-accessible ones). */
export function groupMembersOf(db: Db, entityId: number) {
  const rows = prepared(db, membersOfGroupsOf).all({ entityId });
  const seen = new Set<number>();
  return rows.filter((r) => (seen.has(r.entity_id) ? false : (seen.add(r.entity_id), true)));
}

// every page a client opens asks for the members: one statement, prepared once (decision 160)
const ownGroups = alias(clientGroupMembers, "own_groups");
const membersOfGroupsOf = (db: Db) =>
  db
    .select({
      entity_id: entities.id,
      display_name: entities.displayName,
      first_name: entities.firstName,
      last_name: entities.lastName,
      relationship: clientGroupMembers.relationship,
      login_accessible: clientGroupMembers.loginAccessible,
    })
    .from(clientGroupMembers)
    .innerJoin(entities, eq(entities.id, clientGroupMembers.entityId))
    .where(
      inArray(
        clientGroupMembers.groupId,
        db
          .select({ groupId: ownGroups.groupId })
          .from(ownGroups)
          .where(eq(ownGroups.entityId, sql.placeholder("entityId"))),
      ),
    )
    .orderBy(clientGroupMembers.groupId, clientGroupMembers.sortOrder, entities.id)
    .prepare();

/** spec 000 §3 client in context, as the session answers it. */
export function clientInContextView(db: Db, session: SessionRow) {
  if (session.clientInContextId === null) return null;
  const client = entityById(db, session.clientInContextId);
  if (!client) return null;
  const user = clientUserOf(db, client.id);
  return {
    id: client.id,
    entity_id: client.id,
    display_name: client.displayName,
    last_login_datetime: wireDateTime(user?.lastLogin),
    user_timezone: user?.timezone ?? "Europe/London",
    is_preview_mode: session.isPreviewMode,
    preferred_currency: user?.preferredCurrency ?? client.planCurrency,
    client_access_level: session.previewAccessLevel ?? client.clientAccessLevel,
  };
}
