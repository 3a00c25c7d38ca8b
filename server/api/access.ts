import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { DerivedCache } from "../db/derived";
import { prepared } from "../db/prepared";
import { adviserClients, clientGroupMembers } from "../db/schema";
import type { Caller } from "../sessions";
import { ApiError, forbidden, MESSAGES } from "./http";

// design: "Every entity call checks that the session may see the entity".

export const isClientUser = (caller: Caller) => caller.user.roleName === "ClientUser";
export const isAdviser = (caller: Caller) => caller.user.roleName === "User";

export function requireAdviser(caller: Caller): void {
  if (!isAdviser(caller)) throw forbidden(MESSAGES.adviserOnly);
}

export function requireClientUser(caller: Caller): void {
  if (!isClientUser(caller)) throw forbidden(MESSAGES.clientOnly);
}

export function advises(db: Db, adviserUserId: number, clientEntityId: number): boolean {
  return !!db
    .select({ id: adviserClients.clientEntityId })
    .from(adviserClients)
    .where(and(eq(adviserClients.adviserUserId, adviserUserId), eq(adviserClients.clientEntityId, clientEntityId)))
    .get();
}

/** The client-group members an entity may act for: itself and the login-accessible members of its groups. */
export function reachableEntities(db: Db, entityId: number): ReadonlySet<number> {
  return reachable.get(db, String(entityId), () => {
    const entities = new Set([entityId]);
    for (const m of prepared(db, loginMembersOfGroupsOf).all({ entityId })) entities.add(m.entityId);
    return entities;
  });
}

// kept between calls like the portfolios an entity sees (portfolio/visibility.ts), dropped when a
// client group's members are written (derived_generation's triggers, decision 158)
const reachable = new DerivedCache<ReadonlySet<number>>(2_000);

// every call's statement, prepared once per database (decision 123)
const loginMembersOfGroupsOf = (db: Db) =>
  db
    .select({ entityId: clientGroupMembers.entityId })
    .from(clientGroupMembers)
    .where(
      and(
        inArray(
          clientGroupMembers.groupId,
          db
            .select({ groupId: clientGroupMembers.groupId })
            .from(clientGroupMembers)
            .where(eq(clientGroupMembers.entityId, sql.placeholder("entityId"))),
        ),
        eq(clientGroupMembers.loginAccessible, true),
      ),
    )
    .prepare();

export function canSeeClient(db: Db, caller: Caller, entityId: number): boolean {
  if (isClientUser(caller)) return reachableEntities(db, caller.user.entityId).has(entityId);
  return advises(db, caller.user.id, entityId);
}

export function assertCanSeeClient(db: Db, caller: Caller, entityId: number): void {
  if (!canSeeClient(db, caller, entityId)) throw forbidden();
}

/**
 * spec 000 §6: for a ClientUser the entity is the session user; otherwise a client must be in
 * context.
 */
export function clientEntityOf(caller: Caller): number {
  if (isClientUser(caller)) return caller.user.entityId;
  const inContext = caller.session.clientInContextId;
  if (inContext === null) throw new ApiError(400, MESSAGES.noClientInContext);
  return inContext;
}
