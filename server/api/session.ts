import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { inJsonList, jsonList } from "../db/json-list";
import { prepared } from "../db/prepared";
import { z } from "zod";
import { capabilities, featureAccess, loginProfiles, passkeys, sessions, users } from "../db/schema";
import { endOtherSessionsOf, endSessionOf, liveSessionsOf, type SessionRow } from "../sessions";
import { wireDateTime } from "../lib/wire";
import { advises, assertCanSeeClient, clientEntityOf, isAdviser, isClientUser, requireAdviser } from "./access";
import { forbidden, notFound, validate } from "./http";
import { clientInContextView, clientUserOf, entityById, entityName, partnerEntityIdOf } from "./people";
import { confirmCurrentPassword } from "./reauthentication";
import { json, noContent, open, type Route, signedIn } from "./router";

const AccessLevel = z.coerce.number().int().min(0).max(3);
const Id = z.coerce.number().int().positive();

/** docs/decisions/203: how the portal looks to the user, kept with their other settings. */
const ThemeBody = z.object({ theme: z.enum(["system", "light", "dark"]) }).strict();
const ClientInContextBody = z.object({ client_id: Id, client_access_level: AccessLevel });
const CapabilityQuery = z.object({ client_id: Id.optional() });
const FeatureAccessQuery = z.record(z.string());

/** One of the caller's sessions as the list shows it (docs/platform-api.md "Session"). */
function sessionView(row: SessionRow, currentId: number) {
  return {
    id: row.id,
    user_agent: row.userAgent,
    client_address: row.clientAddress,
    created_at: wireDateTime(row.createdAt),
    last_active: wireDateTime(row.lastSeenAt),
    current: row.id === currentId,
  };
}

// the statements of calls every page makes, prepared once per database (decision 131)
const capabilityNames = (db: Db) =>
  db
    .select({ name: capabilities.name })
    .from(capabilities)
    .where(eq(capabilities.entityId, sql.placeholder("entityId")))
    .orderBy(capabilities.name)
    .prepare();
const featureAccessOf = (db: Db) =>
  db.select().from(featureAccess).where(inJsonList(featureAccess.name, "names")).prepare();

export const sessionRoutes: Route[] = [
  // spec 000 §3 User
  signedIn("GET", "/resourceful/session/user", (_request, { db, caller }) => {
    const { user, session } = caller;
    const entity = entityById(db, user.entityId);
    if (!entity) throw notFound("Entity");
    const client = isClientUser(caller);
    return json({
      id: user.id,
      entity_id: entity.id,
      entity_type: entity.entityType,
      entity_name: entityName(entity),
      display_name: entity.displayName,
      first_name: entity.firstName,
      last_name: entity.lastName,
      preferred_name: entity.preferredName,
      salutation: entity.salutation,
      address_title: entity.addressTitle,
      role_name: user.roleName,
      locale: user.locale,
      last_login: wireDateTime(user.previousLogin),
      user_timezone: user.timezone,
      partner_entity_id: client ? partnerEntityIdOf(db, entity.id) : null,
      preferred_currency: user.preferredCurrency,
      theme: user.theme,
      login_method: user.loginMethod,
      is_preview_mode: isAdviser(caller) && session.isPreviewMode,
      client_access_level: client ? entity.clientAccessLevel : null,
      client_in_context: isAdviser(caller) ? clientInContextView(db, session) : null,
      // docs/platform-api.md "Passkeys": how many passkeys the user has (the portal's menu rule)
      passkey_count: db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id)).get()?.n ?? 0,
    });
  }),

  // docs/decisions/203: the user's own theme (an adviser's, never the client in context's)
  signedIn("PUT", "/resourceful/session/user/theme", (request, { db, caller }) => {
    const { theme } = validate(ThemeBody, request.body, "body");
    db.update(users).set({ theme }).where(eq(users.id, caller.user.id)).run();
    return json({ theme });
  }),

  // spec 002 §4 preview access: preview when the client has no login or the level differs
  signedIn("PUT", "/resourceful/session/client_in_context", (request, { db, caller }) => {
    requireAdviser(caller);
    const input = validate(ClientInContextBody, request.body, "body");
    if (!advises(db, caller.user.id, input.client_id)) throw forbidden();
    const client = entityById(db, input.client_id);
    if (!client) throw notFound("Client");
    const hasLogin = !!clientUserOf(db, client.id);
    const isPreviewMode = !hasLogin || input.client_access_level !== client.clientAccessLevel;
    db.update(sessions)
      .set({ clientInContextId: client.id, previewAccessLevel: input.client_access_level, isPreviewMode })
      .where(eq(sessions.id, caller.session.id))
      .run();
    const updated = {
      ...caller.session,
      clientInContextId: client.id,
      previewAccessLevel: input.client_access_level,
      isPreviewMode,
    };
    return json(clientInContextView(db, updated));
  }),

  signedIn("DELETE", "/resourceful/session/client_in_context", (_request, { db, caller }) => {
    requireAdviser(caller);
    db.update(sessions)
      .set({ clientInContextId: null, previewAccessLevel: null, isPreviewMode: false })
      .where(eq(sessions.id, caller.session.id))
      .run();
    return noContent();
  }),

  // spec 000 §6: an adviser gets the client in context's capabilities, or the given client's
  signedIn("GET", "/resourceful/session/capability", (request, { db, caller }) => {
    const query = validate(CapabilityQuery, request.query, "query");
    let entityId: number;
    if (query.client_id !== undefined) {
      assertCanSeeClient(db, caller, query.client_id);
      entityId = query.client_id;
    } else if (isAdviser(caller) && caller.session.clientInContextId === null) {
      entityId = caller.user.entityId;
    } else {
      entityId = clientEntityOf(caller);
    }
    const names = prepared(db, capabilityNames)
      .all({ entityId })
      .map((c) => c.name);
    return json({ capabilities: names });
  }),

  signedIn("GET", "/resourceful/session/feature_access", (request, { db }) => {
    const query = validate(FeatureAccessQuery, request.query, "query");
    // feature_names=a,b or feature_names.0=a&feature_names.1=b
    const names = Object.entries(query)
      .filter(([key]) => key === "feature_names" || /^feature_names\.\d+$/.test(key))
      .flatMap(([, value]) => value.split(","))
      .map((n) => n.trim())
      .filter(Boolean);
    const rows = names.length ? prepared(db, featureAccessOf).all({ names: jsonList(names) }) : [];
    return json(Object.fromEntries(names.map((n) => [n, rows.find((r) => r.name === n)?.enabled ?? false])));
  }),

  // ASVS V3.3.4 (docs/decisions/170): where the signed-in user is signed in, and ending those
  // sessions. Always the caller's own user's: an adviser with a client in context sees and ends
  // only the adviser's own, never the client's.
  signedIn("GET", "/resourceful/session/sessions", (_request, { db, clock, caller }) =>
    json({ sessions: liveSessionsOf(db, clock, caller.user).map((row) => sessionView(row, caller.session.id)) }),
  ),

  // all the caller's other sessions; this one carries on
  // (decision 179: with the current password, `{ current_password }`, as a password change asks it)
  signedIn("DELETE", "/resourceful/session/sessions", (request, context) => {
    confirmCurrentPassword(context, request.body);
    const { db, caller } = context;
    return json({ ended: endOtherSessionsOf(db, caller.user.id, caller.session.id) });
  }),

  // one of the caller's sessions (this one too: that is a log out); another user's is unknown here
  signedIn("DELETE", "/resourceful/session/sessions/:id", (request, context) => {
    const { id } = validate(z.object({ id: Id }), request.params, "path");
    confirmCurrentPassword(context, request.body);
    const { db, caller } = context;
    if (!endSessionOf(db, caller.user.id, id)) throw notFound("Session");
    return noContent();
  }),

  // spec 000 §8: heartbeat failure is 'No current session'
  signedIn("GET", "/resourceful/session/heartbeat", () => json({ session: "ok" }), {
    noSessionMessage: "No current session",
  }),

  // spec 000 §7: the session-timeout profile; read before sign-in too, so no session is needed
  open("GET", "/resourceful/sysadmin/loginsetting/login_profile/:id", (request, { db }) => {
    const { id } = validate(z.object({ id: Id }), request.params, "path");
    const profile = db.select().from(loginProfiles).where(eq(loginProfiles.id, id)).get();
    if (!profile) throw notFound("Login profile");
    return json({ id: profile.id, session_timeout: profile.sessionTimeout });
  }),
];
