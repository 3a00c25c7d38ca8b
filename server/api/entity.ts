import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import { prepared } from "../db/prepared";
import { ShapedStatements } from "../db/shaped";
import { addresses, adviserClients, contacts, entities, users } from "../db/schema";
import { decodeBookmark, encodeBookmark } from "../lib/bookmark";
import { foldText, likeEscape, parseQuicksearch, postcodeKey } from "../lib/text";
import { wireDate, wireDateTime } from "../lib/wire";
import { assertCanSeeClient, requireAdviser, requireClientUser } from "./access";
import { ApiError, forbidden, notFound, validate } from "./http";
import { entityById, entityName, groupMembersOf } from "./people";
import { json, type Route, signedIn } from "./router";

/** An empty query value counts as absent (a search form sends every field). */
const optional = <S extends z.ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

const Id = z.coerce.number().int().positive();
const IdParams = z.object({ id: Id });
const SORTS = ["entity_name", "-entity_name", "dob", "-dob"] as const;
type Sort = (typeof SORTS)[number];

// spec 002 §5 client search: names of letters (accented too), digits, space, _ ' . -
const NameText = z
  .string()
  .max(200)
  .regex(/^[\p{L}\p{M}\d _'.-]*$/u, "Please enter a valid name");
const PostcodeText = z
  .string()
  .max(20)
  .regex(/^[A-Za-z\d _]*$/, "Please only enter a number or a letter");

const ClientListQuery = z.object({
  quicksearch: optional(z.string().max(200)),
  postcode: optional(PostcodeText),
  page_size: optional(z.coerce.number().int().min(1).max(100)),
  page_sort: optional(z.enum(SORTS)),
  page_bookmark: optional(z.string().max(500)),
});

const ClientSearchQuery = z.object({
  name: optional(NameText),
  postcode: optional(PostcodeText),
  dob: optional(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD")),
});

/** The client's postcode: its current preferred address, residential before postal before work. */
const postcodeOfClient = sql<string | null>`(select a.postcode from addresses a where a.entity_id = ${entities.id}
  and a.status = 'Current' order by a.preferred desc, case a.type when 1 then 0 when 0 then 1 else 2 end, a.id limit 1)`;

const NO_DOB = "9999-12-31";
const sortKeyOf = (sort: Sort): SQL<string> =>
  sort.endsWith("dob") ? sql<string>`coalesce(${entities.dob}, ${NO_DOB})` : sql<string>`${entities.sortName}`;

type Criteria = { words: string[]; dobs: string[]; postcode?: string };

/** What a client list statement's text depends on: the sort, how many words and dates, which filters. */
type ClientShape = { sort: Sort; words: number; dobs: number; postcode: boolean; after: boolean };

function criteriaConditions(shape: ClientShape): SQL[] {
  const conditions: SQL[] = [];
  for (let i = 0; i < shape.words; i++)
    conditions.push(sql`${entities.searchText} like ${sql.placeholder(`word${i}`)} escape '\\'`);
  for (let i = 0; i < shape.dobs; i++) conditions.push(eq(entities.dob, sql.placeholder(`dob${i}`)));
  if (shape.postcode) {
    conditions.push(
      sql`exists (select 1 from addresses a where a.entity_id = ${entities.id} and a.postcode_key like ${sql.placeholder("postcode")} escape '\\')`,
    );
  }
  return conditions;
}

/** The client list's statement for a shape, its values as placeholders (built once per shape). */
function clientStatement(db: Db, shape: ClientShape) {
  const key = sortKeyOf(shape.sort);
  const descending = shape.sort.startsWith("-");
  const conditions = [
    eq(adviserClients.adviserUserId, sql.placeholder("adviser")),
    eq(entities.entityType, "client"),
    ...criteriaConditions(shape),
  ];
  if (shape.after) {
    const afterKey = sql.placeholder("afterKey");
    const afterId = sql.placeholder("afterId");
    conditions.push(
      descending
        ? sql`(${key} < ${afterKey} or (${key} = ${afterKey} and ${entities.id} < ${afterId}))`
        : sql`(${key} > ${afterKey} or (${key} = ${afterKey} and ${entities.id} > ${afterId}))`,
    );
  }
  return db
    .select({
      entity: entities,
      userId: users.id,
      lastLogin: users.lastLogin,
      postcode: postcodeOfClient,
      sortKey: key,
    })
    .from(entities)
    .innerJoin(adviserClients, eq(adviserClients.clientEntityId, entities.id))
    .leftJoin(users, and(eq(users.entityId, entities.id), eq(users.roleName, "ClientUser")))
    .where(and(...conditions))
    .orderBy(descending ? desc(key) : asc(key), descending ? desc(entities.id) : asc(entities.id))
    .limit(sql.placeholder("limit"))
    .prepare();
}

const clientStatements = new ShapedStatements<ReturnType<typeof clientStatement>>(64);

/** The adviser's clients matching the criteria, in the sort's order, after the bookmark. */
function clientRows(
  db: Db,
  adviserUserId: number,
  criteria: Criteria,
  sort: Sort,
  after: { key: string; id: number } | null,
  limit: number,
) {
  const shape: ClientShape = {
    sort,
    words: criteria.words.length,
    dobs: criteria.dobs.length,
    postcode: !!criteria.postcode,
    after: after !== null,
  };
  const values: Record<string, unknown> = {
    adviser: adviserUserId,
    limit,
    afterKey: after?.key ?? null,
    afterId: after?.id ?? null,
  };
  criteria.words.forEach((word, i) => (values[`word${i}`] = `%${likeEscape(word)}%`));
  criteria.dobs.forEach((dob, i) => (values[`dob${i}`] = dob));
  values.postcode = criteria.postcode ? `${likeEscape(postcodeKey(criteria.postcode))}%` : null;
  const rows = clientStatements.get(db, JSON.stringify(shape), () => clientStatement(db, shape)).all(values);
  return rows.map((r) => ({
    id: r.entity.id,
    entity_name: entityName(r.entity),
    first_name: r.entity.firstName,
    last_name: r.entity.lastName,
    display_name: r.entity.displayName,
    dob: wireDate(r.entity.dob),
    last_login_datetime: wireDateTime(r.lastLogin),
    user_id: r.userId ?? null,
    client_access_level: r.entity.clientAccessLevel,
    postcode: r.postcode,
    email: r.entity.preferredEmail,
    bookmark: encodeBookmark({ sort, key: r.sortKey, id: r.entity.id }),
  }));
}

export const entityRoutes: Route[] = [
  signedIn("GET", "/resourceful/entity/client/:id/client_group/member", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    return json(groupMembersOf(db, id));
  }),

  // spec 002 §2 adviser client list, paged by bookmark (design: paging)
  signedIn("GET", "/resourceful/entity/client-v3", (request, { db, caller }) => {
    requireAdviser(caller);
    const query = validate(ClientListQuery, request.query, "query");
    const sort: Sort = query.page_sort ?? "entity_name";
    let after: { key: string; id: number } | null = null;
    if (query.page_bookmark) {
      const bookmark = decodeBookmark(query.page_bookmark);
      if (!bookmark || bookmark.sort !== sort || typeof bookmark.key !== "string") {
        throw new ApiError(400, "Invalid query: page_bookmark does not belong to this page_sort");
      }
      after = { key: bookmark.key, id: bookmark.id };
    }
    const { words, dobs } = parseQuicksearch(query.quicksearch ?? "");
    return json(
      clientRows(db, caller.user.id, { words, dobs, postcode: query.postcode }, sort, after, query.page_size ?? 20),
    );
  }),

  signedIn("GET", "/resourceful/entity/client", (request, { db, caller }) => {
    requireAdviser(caller);
    const query = validate(ClientSearchQuery, request.query, "query");
    const words = foldText(query.name ?? "")
      .split(" ")
      .filter(Boolean);
    return json(
      clientRows(
        db,
        caller.user.id,
        { words, dobs: query.dob ? [query.dob] : [], postcode: query.postcode },
        "entity_name",
        null,
        100,
      ),
    );
  }),

  // spec 002 §3 personal details and preferences
  signedIn("GET", "/resourceful/entity/client-v3/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    return json(clientRecord(db, id));
  }),

  // spec 002 §7 set preferences: success is 200; a client edits only their own, advisers read only
  signedIn("PATCH", "/resourceful/entity/client-v3/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    requireClientUser(caller);
    if (id !== caller.user.entityId) throw forbidden();
    const input = validate(PreferencesBody, request.body, "body");
    db.update(entities)
      .set({
        commPrefEmail: input.comm_pref_email,
        commPrefMail: input.comm_pref_mail,
        commPrefSms: input.comm_pref_sms,
      })
      .where(eq(entities.id, id))
      .run();
    return json(clientRecord(db, id));
  }),

  signedIn("GET", "/resourceful/entity/client-v3/:id/contact", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    return json(contactsOf(db, id));
  }),

  signedIn("GET", "/resourceful/entity/client-v3/:id/address", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    assertCanSeeClient(db, caller, id);
    return json(addressesOf(db, id));
  }),
];

const Preference = z.enum(["1", "0"]);
const PreferencesBody = z
  .object({
    comm_pref_email: Preference.optional(),
    comm_pref_mail: Preference.optional(),
    comm_pref_sms: Preference.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "Expected at least one of comm_pref_email, comm_pref_mail, comm_pref_sms");

/** spec 002 §3 personal details and preferences of a client. */
function clientRecord(db: Db, id: number) {
  const e = entityById(db, id);
  if (!e || e.entityType !== "client") throw notFound("Client");
  return {
    id: e.id,
    title: e.title,
    first_name: e.firstName,
    middle_name: e.middleName,
    last_name: e.lastName,
    preferred_name: e.preferredName,
    display_name: e.displayName,
    dob: wireDate(e.dob),
    country_of_birth: e.countryOfBirth,
    preferred_email: e.preferredEmail,
    marital_status: e.maritalStatus,
    dependents: e.dependents,
    client_access_level: e.clientAccessLevel,
    comm_pref_email: e.commPrefEmail,
    comm_pref_mail: e.commPrefMail,
    comm_pref_sms: e.commPrefSms,
  };
}

// a client's contacts and addresses, prepared once per database
const contactsOfEntity = (db: Db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.entityId, sql.placeholder("entityId")))
    .orderBy(contacts.type, contacts.id)
    .prepare();
const addressesOfEntity = (db: Db) =>
  db
    .select()
    .from(addresses)
    .where(eq(addresses.entityId, sql.placeholder("entityId")))
    .orderBy(addresses.type, addresses.id)
    .prepare();
const addressesOfType = (db: Db) =>
  db
    .select()
    .from(addresses)
    .where(and(eq(addresses.entityId, sql.placeholder("entityId")), eq(addresses.type, sql.placeholder("type"))))
    .orderBy(addresses.type, addresses.id)
    .prepare();

export function contactsOf(db: Db, entityId: number) {
  return prepared(db, contactsOfEntity)
    .all({ entityId })
    .map((c) => ({ id: c.id, type: c.type, value: c.value, preferred: c.preferred, country_code: c.countryCode }));
}

export function addressView(a: typeof addresses.$inferSelect) {
  return {
    id: a.id,
    type: a.type,
    block: a.block,
    street_name: a.streetName,
    street_name_2: a.streetName2,
    street: a.street,
    suburb: a.suburb,
    state: a.state,
    country: a.country,
    postcode: a.postcode,
    preferred: a.preferred,
    status: a.status,
  };
}

export function addressesOf(db: Db, entityId: number, type?: number) {
  const rows =
    type === undefined
      ? prepared(db, addressesOfEntity).all({ entityId })
      : prepared(db, addressesOfType).all({ entityId, type });
  return rows.map(addressView);
}
