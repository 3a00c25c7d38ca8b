import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import { prepared } from "../db/prepared";
import { adviserClients, adviserProfiles, contacts, users } from "../db/schema";
import type { Caller } from "../sessions";
import { clientEntityOf, isAdviser, reachableEntities } from "./access";
import { forbidden, notFound, validate } from "./http";
import { addressesOf } from "./entity";
import { json, type Route, signedIn } from "./router";
import { compareNames } from "../lib/collation";

const IdParams = z.object({ id: z.coerce.number().int().positive() });

type AdviserView = {
  id: number;
  adviser_name: string;
  client_adviser: boolean;
  role: string | null;
  photo: string | null;
};

// the adviser pages' statements, prepared once per database (decision 131)
const adviserLinksOf = (db: Db) =>
  db
    .select({ link: adviserClients, profile: adviserProfiles })
    .from(adviserClients)
    .innerJoin(adviserProfiles, eq(adviserProfiles.userId, adviserClients.adviserUserId))
    .where(eq(adviserClients.clientEntityId, sql.placeholder("clientEntityId")))
    .prepare();
const adviserUserById = (db: Db) =>
  db
    .select({ user: users, profile: adviserProfiles })
    .from(users)
    .innerJoin(adviserProfiles, eq(adviserProfiles.userId, users.id))
    .where(and(eq(users.id, sql.placeholder("userId")), eq(users.roleName, "User")))
    .prepare();
const contactsOfAdviser = (db: Db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.entityId, sql.placeholder("entityId")))
    .orderBy(desc(contacts.preferred), contacts.id)
    .prepare();

/** spec 002 §3 adviser contact: the advisers of a client, the primary one first. */
function advisersOfClient(db: Db, clientEntityId: number): AdviserView[] {
  return prepared(db, adviserLinksOf)
    .all({ clientEntityId })
    .sort(
      (a, b) =>
        Number(b.link.isPrimary) - Number(a.link.isPrimary) ||
        compareNames(a.profile.adviserName, b.profile.adviserName),
    )
    .map(({ link, profile }) => ({
      id: profile.userId,
      adviser_name: profile.adviserName,
      client_adviser: link.isPrimary,
      role: profile.role,
      photo: profile.photo,
    }));
}

function adviserUser(db: Db, userId: number) {
  const row = prepared(db, adviserUserById).get({ userId });
  if (!row) throw notFound("Adviser");
  return row;
}

function adviserContact(db: Db, entityId: number) {
  const rows = prepared(db, contactsOfAdviser).all({ entityId });
  return {
    workEmail: rows.find((c) => c.type === "m2")?.value ?? null,
    workPhone: rows.filter((c) => c.type === "p2").map((c) => c.value),
  };
}

function adviserAddress(db: Db, entityId: number) {
  return addressesOf(db, entityId, 2).find((a) => a.status === "Current") ?? null;
}

/** The session client's adviser with this user id (404 when not one of theirs). */
function sessionAdviser(db: Db, caller: Caller, adviserUserId: number) {
  const adviser = advisersOfClient(db, clientEntityOf(caller)).find((a) => a.id === adviserUserId);
  if (!adviser) throw notFound("Adviser");
  return { view: adviser, entityId: adviserUser(db, adviserUserId).user.entityId };
}

/**
 * Any adviser user: another adviser may look anyone in the firm up; a client only the advisers of
 * the people they may act for.
 */
function visibleAdviser(db: Db, caller: Caller, adviserUserId: number) {
  const { user, profile } = adviserUser(db, adviserUserId);
  let primary = false;
  if (isAdviser(caller)) {
    if (user.firmId !== caller.user.firmId) throw forbidden();
    const inContext = caller.session.clientInContextId;
    if (inContext !== null) primary = advisersOfClient(db, inContext).some((a) => a.id === user.id && a.client_adviser);
  } else {
    const links = [...reachableEntities(db, caller.user.entityId)].flatMap((entityId) =>
      advisersOfClient(db, entityId),
    );
    const mine = links.filter((a) => a.id === user.id);
    if (mine.length === 0) throw forbidden();
    primary = mine.some((a) => a.client_adviser);
  }
  const view: AdviserView = {
    id: user.id,
    adviser_name: profile.adviserName,
    client_adviser: primary,
    role: profile.role,
    photo: profile.photo,
  };
  return { view, entityId: user.entityId };
}

export const adviserRoutes: Route[] = [
  signedIn("GET", "/resourceful/session/user/adviser", (_request, { db, caller }) =>
    json(advisersOfClient(db, clientEntityOf(caller))),
  ),
  signedIn("GET", "/resourceful/session/user/adviser/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(sessionAdviser(db, caller, id).view);
  }),
  signedIn("GET", "/resourceful/session/user/adviser/:id/contact", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(adviserContact(db, sessionAdviser(db, caller, id).entityId));
  }),
  signedIn("GET", "/resourceful/session/user/adviser/:id/address", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(adviserAddress(db, sessionAdviser(db, caller, id).entityId));
  }),

  signedIn("GET", "/resourceful/entity/user/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(visibleAdviser(db, caller, id).view);
  }),
  signedIn("GET", "/resourceful/entity/user/:id/contact", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(adviserContact(db, visibleAdviser(db, caller, id).entityId));
  }),
  signedIn("GET", "/resourceful/entity/user/:id/address", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(adviserAddress(db, visibleAdviser(db, caller, id).entityId));
  }),
];
