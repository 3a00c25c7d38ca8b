import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { demoDataOn, type PlatformEnv } from "../env";
import {
  addresses,
  adviserClients,
  adviserProfiles,
  capabilities,
  clientGroupMembers,
  clientGroups,
  contacts,
  entities,
  featureAccess,
  featureToggles,
  firms,
  generalContacts,
  loginProfiles,
  securityQuestions,
  siteContent,
  siteSettings,
  users,
} from "../db/schema";
import { hashSecret } from "../lib/password";
import { between, pick, type Random, seededRandom } from "../lib/random";
import { foldText, postcodeKey, searchTextOf } from "../lib/text";
import { shiftInstant } from "../domain/calendar";
import { seedBankAccounts } from "./bank";
import { sitePages } from "./content";
import { seedDocuments } from "./documents";
import { seedPortfolioBook } from "./portfolio";
import { seedReports } from "./reports";
import { seedReview } from "./review";
import { seedSignatures } from "./signatures";
import { ACCENTED_CLIENTS, FIRST_NAMES, INWARD_LETTERS, LAST_NAMES, MARITAL_STATUSES, PLACES, STREETS } from "./people";
import {
  DEMO_TOKEN_SECRET,
  FEATURE_ACCESS,
  FEATURE_TOGGLES,
  FIRM,
  GENERAL_CONTACTS,
  SECURITY_QUESTIONS,
  SITE_SETTINGS,
} from "./settings";

export const DEMO_PASSWORD = "Demo-pass-1";
const SEED = 20240501;

type Level = 0 | 1 | 2 | 3;
type UserSeed = Partial<typeof users.$inferInsert> & { username: string; roleName: "ClientUser" | "User" };
type AddressSeed = Omit<typeof addresses.$inferInsert, "entityId" | "postcodeKey" | "street">;
type PersonSeed = {
  entityType?: "client" | "adviser";
  title: string;
  first: string;
  middle?: string;
  last: string;
  preferred?: string;
  dob?: string | null;
  countryOfBirth?: string;
  maritalStatus?: string;
  dependents?: number;
  level?: Level;
  email?: string | null;
  commPrefs?: ["1" | "0", "1" | "0", "1" | "0"];
  contacts?: Array<Omit<typeof contacts.$inferInsert, "entityId">>;
  addresses?: AddressSeed[];
  capabilities?: string[];
  user?: UserSeed;
};

const PORTFOLIO_CAPABILITIES = ["view_portfolio", "view_marketdata"];

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** An ISO time `days` days and `hours` hours before the clock's now. */
type Ago = (days: number, hours?: number) => string;
/** What every person's rows need: the transaction, the firm, the shared demo hash and the clock. */
type SeedContext = { tx: Tx; firmId: number; demoHash: string; nowIso: string; ago: Ago; random: Random };
type Person = { entityId: number; userId: number | null };

/** Seeds the demo data set (design: "Demo data set") unless the database already holds a firm. */
/**
 * At start: the demo data set into an empty database when the environment asks for it (never by
 * default in production, where its logins' published password would be a way in: ASVS V2.5.4,
 * V14.2.2, docs/decisions/182). Answers what was done.
 */
export function seedOnStart(db: Db, clock: Clock, env: PlatformEnv): "seeded" | "kept" | "empty" {
  if (db.select({ id: firms.id }).from(firms).get()) return "kept";
  if (!demoDataOn(env)) return "empty";
  seedDemoData(db, clock);
  return "seeded";
}

export function seedIfEmpty(db: Db, clock: Clock): boolean {
  if (db.select({ id: firms.id }).from(firms).get()) return false;
  seedDemoData(db, clock);
  return true;
}

function seedDemoData(db: Db, clock: Clock): void {
  const now = clock.now();
  // One hash of the shared demo password serves every demo login (decision 012): scrypt is slow
  // on purpose and the data set has dozens of users.
  const demoHash = hashSecret(DEMO_PASSWORD);
  const ago: Ago = (days, hours = 0) => shiftInstant(now, -days, -hours).toISOString();

  db.transaction((tx) => {
    const firmId = tx.insert(firms).values(FIRM).returning({ id: firms.id }).get().id;
    tx.insert(loginProfiles).values({ id: 1, name: "Standard", sessionTimeout: 30 }).run();
    const ctx: SeedContext = { tx, firmId, demoHash, nowIso: now.toISOString(), ago, random: seededRandom(SEED) };

    const hartleys = seedHartleys(ctx);
    const demoLogins = DEMO_LOGINS.map((login) => simpleClient(ctx, login));
    const { sarah, oliver } = seedAdvisers(ctx);
    const advisedBySarah = [hartleys.client, hartleys.partner, ...demoLogins].map((p) => p.entityId);
    seedGeneratedClients(ctx, advisedBySarah, oliver);
    for (const clientEntityId of advisedBySarah) {
      tx.insert(adviserClients).values({ adviserUserId: sarah, clientEntityId, isPrimary: true }).run();
    }
    // Oliver also looks after the Hartleys' pensions: a second, non-primary adviser
    tx.insert(adviserClients)
      .values({ adviserUserId: oliver, clientEntityId: hartleys.client.entityId, isPrimary: false })
      .run();
    seedSecurityLogins(ctx, oliver);
    seedSite(tx);
    seedLaterParts(db, ctx, now, { ...hartleys, demoLogins, sarah });
  });
}

function insertPerson({ tx, firmId, demoHash, nowIso }: SeedContext, p: PersonSeed): Person {
  const display = `${p.preferred ?? p.first} ${p.last}`;
  const entityId = tx
    .insert(entities)
    .values({
      firmId,
      entityType: p.entityType ?? "client",
      title: p.title,
      firstName: p.first,
      middleName: p.middle ?? null,
      lastName: p.last,
      preferredName: p.preferred ?? null,
      displayName: display,
      salutation: `${p.title} ${p.last}`,
      addressTitle: `${p.title} ${p.first.charAt(0)} ${p.last}`,
      searchText: searchTextOf([p.first, p.middle, p.last, p.preferred, display]),
      sortName: foldText(`${p.last}, ${p.first}`),
      dob: p.dob ?? null,
      countryOfBirth: p.countryOfBirth ?? "GB",
      preferredEmail: p.email ?? null,
      maritalStatus: p.maritalStatus ?? null,
      dependents: p.dependents ?? 0,
      clientAccessLevel: p.level ?? 0,
      commPrefEmail: p.commPrefs?.[0] ?? "1",
      commPrefMail: p.commPrefs?.[1] ?? "0",
      commPrefSms: p.commPrefs?.[2] ?? "0",
      createdAt: nowIso,
    })
    .returning({ id: entities.id })
    .get().id;
  for (const c of p.contacts ?? [])
    tx.insert(contacts)
      .values({ ...c, entityId })
      .run();
  for (const a of p.addresses ?? []) {
    const street = [a.block, a.streetName, a.streetName2].filter(Boolean).join(", ");
    tx.insert(addresses)
      .values({ ...a, entityId, street, postcodeKey: a.postcode ? postcodeKey(a.postcode) : null })
      .run();
  }
  for (const name of p.capabilities ?? []) tx.insert(capabilities).values({ entityId, name }).run();
  if (!p.user) return { entityId, userId: null };
  const userId = tx
    .insert(users)
    .values({
      firmId,
      passwordHash: demoHash,
      usernameKey: p.user.username.trim().toLowerCase(),
      entityId,
      createdAt: nowIso,
      ...p.user,
    })
    .returning({ id: users.id })
    .get().id;
  return { entityId, userId };
}

function gbAddress(
  type: number,
  block: string | null,
  streetName: string,
  suburb: string,
  state: string,
  postcode: string,
  preferred = true,
  status: "Current" | "Previous" = "Current",
): AddressSeed {
  return { type, block, streetName, streetName2: null, suburb, state, country: "GB", postcode, preferred, status };
}

// ── the demo logins (design table) ──────────────────────────────────────────────────────────────

/** The Hartley family (client, partner and child), their group and the client's security questions. */
function seedHartleys(ctx: SeedContext): { client: Person; partner: Person; child: Person } {
  const { tx } = ctx;
  const client = insertPerson(ctx, hartleyClient(ctx.ago));
  const partner = insertPerson(ctx, hartleyPartner(ctx.ago));
  const child = insertPerson(ctx, {
    title: "Miss",
    first: "Olivia",
    last: "Hartley",
    dob: "2010-06-18",
    maritalStatus: "Single",
    level: 0,
  });
  const group = tx
    .insert(clientGroups)
    .values({ name: "Hartley family", primaryEntityId: client.entityId })
    .returning({ id: clientGroups.id })
    .get().id;
  tx.insert(clientGroupMembers)
    .values([
      { groupId: group, entityId: client.entityId, relationship: "Client", loginAccessible: true, sortOrder: 0 },
      { groupId: group, entityId: partner.entityId, relationship: "Partner", loginAccessible: true, sortOrder: 1 },
      { groupId: group, entityId: child.entityId, relationship: "Child", loginAccessible: false, sortOrder: 2 },
    ])
    .run();
  if (client.userId) {
    for (const [i, question] of SECURITY_QUESTIONS.entries()) {
      tx.insert(securityQuestions)
        .values({
          userId: client.userId,
          position: i + 1,
          question,
          answerHash: hashSecret(i === 0 ? "biscuit" : "harrogate"),
        })
        .run();
    }
  }
  return { client, partner, child };
}

function hartleyClient(ago: Ago): PersonSeed {
  return {
    title: "Mrs",
    first: "Eleanor",
    middle: "Rose",
    last: "Hartley",
    preferred: "Ellie",
    dob: "1968-04-12",
    maritalStatus: "Married",
    dependents: 1,
    level: 1,
    email: "eleanor.hartley@example.com",
    commPrefs: ["1", "0", "1"],
    contacts: [
      { type: "p1", value: "020 7946 0321", preferred: false, countryCode: "GB" },
      { type: "p2", value: "020 7946 0654", preferred: false, countryCode: "GB" },
      // with its country code: the number a signing code is sent to (docs/platform-api.md "Digital signatures")
      { type: "p3", value: "+44 7700 900456", preferred: true, countryCode: "GB" },
      { type: "m1", value: "eleanor.hartley@example.com", preferred: true, countryCode: null },
      { type: "m2", value: "e.hartley@hartley-architects.example", preferred: false, countryCode: null },
    ],
    addresses: [
      gbAddress(1, "Flat 3", "27 Kensington Park Road", "London", "Greater London", "W11 2EU"),
      {
        ...gbAddress(0, "Hartley Architects", "8 Portobello Road", "London", "Greater London", "W11 3DA"),
        streetName2: "Notting Hill",
      },
      gbAddress(1, null, "14 Mill Lane", "Guildford", "Surrey", "GU1 3ZA", false, "Previous"),
    ],
    capabilities: [...PORTFOLIO_CAPABILITIES, "view_partner", "modelling_by_target_sets"],
    user: { username: "demo.client", roleName: "ClientUser", lastLogin: ago(3, 5), previousLogin: ago(10, 2) },
  };
}

function hartleyPartner(ago: Ago): PersonSeed {
  return {
    title: "Mr",
    first: "James",
    middle: "Edward",
    last: "Hartley",
    dob: "1965-09-30",
    maritalStatus: "Married",
    dependents: 1,
    level: 1,
    email: "james.hartley@example.com",
    contacts: [
      { type: "p1", value: "020 7946 0321", preferred: false, countryCode: "GB" },
      // without '+': the invalid-phone path of signing (spec 002 "Signing journey" step 1)
      { type: "p3", value: "07700 900457", preferred: true, countryCode: "GB" },
      { type: "m1", value: "james.hartley@example.com", preferred: true, countryCode: null },
    ],
    addresses: [gbAddress(1, "Flat 3", "27 Kensington Park Road", "London", "Greater London", "W11 2EU")],
    capabilities: [...PORTFOLIO_CAPABILITIES, "view_partner"],
    user: { username: "demo.partner", roleName: "ClientUser", lastLogin: ago(12, 4) },
  };
}

/** A single client with one e-mail and one generated address: a row of DEMO_LOGINS or SECURITY_LOGINS. */
type SimpleClient = {
  title: string;
  first: string;
  last: string;
  dob: string;
  level: Level;
  user: Omit<UserSeed, "lastLogin">;
  /** Days and hours before now of the last login, or null for none yet. */
  lastLoginAgo: [days: number, hours: number] | null;
  place: readonly [string, string, string];
  extra?: Partial<PersonSeed>;
};

function simpleClient(ctx: SeedContext, c: SimpleClient): Person {
  const { random } = ctx;
  const email = `${foldText(c.first)}.${foldText(c.last).replace(/[^a-z]/g, "")}@example.com`;
  return insertPerson(ctx, {
    title: c.title,
    first: c.first,
    last: c.last,
    dob: c.dob,
    level: c.level,
    maritalStatus: "Single",
    email,
    contacts: [{ type: "m1", value: email, preferred: true, countryCode: null }],
    addresses: [
      gbAddress(
        1,
        null,
        `${between(random, 1, 120)} ${pick(random, STREETS)}`,
        c.place[1],
        c.place[2],
        `${c.place[0]} ${inward(random)}`,
      ),
    ],
    capabilities: c.level === 1 ? PORTFOLIO_CAPABILITIES : [],
    user: { ...c.user, lastLogin: c.lastLoginAgo ? ctx.ago(...c.lastLoginAgo) : null },
    ...c.extra,
  });
}

const DEMO_LOGINS: SimpleClient[] = [
  {
    title: "Mr",
    first: "Marcus",
    last: "Bell",
    dob: "1959-02-03",
    level: 2,
    user: { username: "demo.assets", roleName: "ClientUser" },
    lastLoginAgo: [6, 1],
    place: ["BS8", "Bristol", "Bristol"],
  },
  {
    title: "Ms",
    first: "Priya",
    last: "Shah",
    dob: "1982-11-21",
    level: 3,
    user: { username: "demo.messages", roleName: "ClientUser" },
    lastLoginAgo: [1, 7],
    place: ["LS6", "Leeds", "West Yorkshire"],
  },
  {
    title: "Mr",
    first: "Daniel",
    last: "Okafor",
    dob: "1975-07-14",
    level: 1,
    user: {
      username: "demo.mfa",
      roleName: "ClientUser",
      loginMethod: "MFA",
      mfaMethod: "sms",
      mfaEnrolled: true,
      mfaMobile: "+447700900123",
    },
    lastLoginAgo: [4, 2],
    place: ["M20", "Manchester", "Greater Manchester"],
    extra: { contacts: [{ type: "p3", value: "07700 900123", preferred: true, countryCode: "GB" }] },
  },
  {
    title: "Mrs",
    first: "Grace",
    last: "O'Neill",
    dob: "1970-01-09",
    level: 1,
    user: {
      username: "demo.enrol",
      roleName: "ClientUser",
      loginMethod: "MFA",
      mfaMethod: null,
      mfaEnrolled: false,
      mfaMobile: "+447700900234",
      mfaEmail: "grace.oneill@example.com",
    },
    lastLoginAgo: [30, 3],
    place: ["BT9", "Belfast", "County Antrim"],
  },
  {
    title: "Mr",
    first: "Thomas",
    last: "Reid",
    dob: "1988-05-27",
    level: 1,
    user: {
      username: "demo.memorable",
      roleName: "ClientUser",
      loginMethod: "MemorableWord",
      memorableWord: "chestnut",
      memorableWordHint: "The tree in your first garden",
    },
    lastLoginAgo: [8, 6],
    place: ["EH3", "Edinburgh", "City of Edinburgh"],
  },
  {
    title: "Ms",
    first: "Aisha",
    last: "Rahman",
    dob: "1993-08-02",
    level: 1,
    user: {
      username: "demo.newuser",
      roleName: "ClientUser",
      forceChangePassword: true,
      mustAgreeTerms: true,
      mustSetSecurityQuestions: true,
    },
    lastLoginAgo: null,
    place: ["B15", "Birmingham", "West Midlands"],
  },
];

// ── advisers ────────────────────────────────────────────────────────────────────────────────────

function seedAdvisers(ctx: SeedContext): { sarah: number; oliver: number } {
  const { ago } = ctx;
  const adviser = insertPerson(ctx, {
    entityType: "adviser",
    title: "Mrs",
    first: "Sarah",
    last: "Whitfield",
    email: "sarah.whitfield@northbridgewealth.example",
    contacts: [
      { type: "m2", value: "sarah.whitfield@northbridgewealth.example", preferred: true, countryCode: null },
      { type: "p2", value: "020 7946 0123", preferred: true, countryCode: "GB" },
      { type: "p2", value: "07700 900789", preferred: false, countryCode: "GB" },
    ],
    addresses: [
      {
        ...gbAddress(2, "Northbridge Wealth", "41 Moorgate Place", "London", "Greater London", "EC2R 6EA"),
        streetName2: "City of London",
      },
    ],
    capabilities: ["view_marketdata", "live_marketdata_access"],
    user: { username: "demo.adviser", roleName: "User", lastLogin: ago(1, 2), previousLogin: ago(2, 3) },
  });
  const otherAdviser = insertPerson(ctx, {
    entityType: "adviser",
    title: "Mr",
    first: "Oliver",
    last: "Grant",
    email: "oliver.grant@northbridgewealth.example",
    contacts: [
      { type: "m2", value: "oliver.grant@northbridgewealth.example", preferred: true, countryCode: null },
      { type: "p2", value: "0131 496 0456", preferred: true, countryCode: "GB" },
    ],
    addresses: [gbAddress(2, "Northbridge Wealth", "9 Charlotte Square", "Edinburgh", "City of Edinburgh", "EH2 4DR")],
    capabilities: ["view_marketdata"],
    user: { username: "demo.adviser2", roleName: "User", lastLogin: ago(5) },
  });
  const sarah = adviser.userId as number;
  const oliver = otherAdviser.userId as number;
  ctx.tx
    .insert(adviserProfiles)
    .values([
      { userId: sarah, adviserName: "Sarah Whitfield", role: "Chartered Financial Planner", photo: null },
      { userId: oliver, adviserName: "Oliver Grant", role: "Paraplanner", photo: null },
    ])
    .run();
  return { sarah, oliver };
}

// ── generated clients: every access level, some without a login ───────────────────────────────

/**
 * 44 generated clients (the accented ones first, then drawn names): Sarah advises the first 38
 * (their ids are added to `advisedBySarah`), Oliver the rest (and Sarah cannot see those).
 */
function seedGeneratedClients(ctx: SeedContext, advisedBySarah: number[], oliver: number): void {
  const { random } = ctx;
  const usedNames = new Set<string>();
  const generated: Array<{ title: string; first: string; last: string }> = [...ACCENTED_CLIENTS];
  while (generated.length < 44) {
    const [first, title] = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    if (usedNames.has(`${first} ${last}`)) continue;
    usedNames.add(`${first} ${last}`);
    generated.push({ title, first, last });
  }
  const usedUsernames = new Set<string>();
  generated.forEach((person, i) => {
    const { entityId } = generatedClient(ctx, person, i, usedUsernames);
    if (i < 38) advisedBySarah.push(entityId);
    else
      ctx.tx.insert(adviserClients).values({ adviserUserId: oliver, clientEntityId: entityId, isPrimary: true }).run();
  });
}

/** The i-th generated client: access level by position, a login for two in three, the rest drawn. */
function generatedClient(
  ctx: SeedContext,
  person: { title: string; first: string; last: string },
  i: number,
  usedUsernames: Set<string>,
): Person {
  const { random, ago } = ctx;
  const level = (i % 4) as Level;
  const hasLogin = i % 3 !== 2;
  const place = pick(random, PLACES);
  const year = between(random, 1938, 1998);
  const dob = `${year}-${pad(between(random, 1, 12))}-${pad(between(random, 1, 28))}`;
  const emailName = `${foldText(person.first)}.${foldText(person.last).replace(/[^a-z]/g, "")}`;
  let username = emailName;
  for (let n = 2; usedUsernames.has(username); n++) username = `${emailName}${n}`;
  usedUsernames.add(username);
  const phone = `07700 900${String(between(random, 100, 999))}`;
  const streetNumber = between(random, 1, 180);
  const street = pick(random, STREETS);
  const lastLoginDays = between(random, 0, 120);
  return insertPerson(ctx, {
    title: person.title,
    first: person.first,
    last: person.last,
    dob,
    level,
    maritalStatus: pick(random, MARITAL_STATUSES),
    dependents: between(random, 0, 3),
    email: `${emailName}@example.com`,
    commPrefs: [random() < 0.8 ? "1" : "0", random() < 0.3 ? "1" : "0", random() < 0.5 ? "1" : "0"],
    contacts: [
      { type: "p3", value: phone, preferred: true, countryCode: "GB" },
      { type: "m1", value: `${emailName}@example.com`, preferred: true, countryCode: null },
    ],
    addresses: [gbAddress(1, null, `${streetNumber} ${street}`, place[1], place[2], `${place[0]} ${inward(random)}`)],
    capabilities: level === 1 ? PORTFOLIO_CAPABILITIES : [],
    user: hasLogin
      ? {
          username,
          roleName: "ClientUser",
          lastLogin: lastLoginDays > 100 ? null : ago(lastLoginDays, between(random, 0, 23)),
        }
      : undefined,
  });
}

// ── sign-in and account-security logins (docs/decisions/044) ────────────────────────────────────

/**
 * Added after the generated clients so that no earlier entity or user id moves, and advised by
 * Oliver so that Sarah's client list stays as it was.
 */
function seedSecurityLogins(ctx: SeedContext, oliver: number): void {
  const logins = SECURITY_LOGINS.map((login) => simpleClient(ctx, login));
  for (const login of logins) {
    ctx.tx
      .insert(adviserClients)
      .values({ adviserUserId: oliver, clientEntityId: login.entityId, isPrimary: true })
      .run();
  }
}

const SECURITY_LOGINS: SimpleClient[] = [
  {
    title: "Mr",
    first: "Samuel",
    last: "Adeyemi",
    dob: "1979-10-05",
    level: 1,
    user: {
      username: "demo.token",
      roleName: "ClientUser",
      loginMethod: "MFA",
      mfaMethod: "token",
      mfaEnrolled: true,
      mfaTotpSecret: DEMO_TOKEN_SECRET,
      mfaEmail: "samuel.adeyemi@example.com",
    },
    lastLoginAgo: [2, 4],
    place: ["OX2", "Oxford", "Oxfordshire"],
  },
  {
    title: "Mrs",
    first: "Fiona",
    last: "MacDonald",
    dob: "1962-03-17",
    level: 1,
    user: {
      username: "demo.single",
      roleName: "ClientUser",
      loginMethod: "MFA",
      mfaMethod: "email",
      mfaEnrolled: true,
      mfaEmail: "fiona.macdonald@example.com",
      mfaMethodsAllowed: "email",
    },
    lastLoginAgo: [9, 1],
    place: ["G12", "Glasgow", "Glasgow City"],
  },
  {
    title: "Mr",
    first: "Ravi",
    last: "Kapoor",
    dob: "1984-12-01",
    level: 1,
    user: { username: "demo.noword", roleName: "ClientUser", loginMethod: "MemorableWord", memorableWord: null },
    lastLoginAgo: [15, 2],
    place: ["CB2", "Cambridge", "Cambridgeshire"],
  },
  {
    title: "Ms",
    first: "Laura",
    last: "Pennington",
    dob: "1990-07-22",
    level: 1,
    user: { username: "demo.lockout", roleName: "ClientUser" },
    lastLoginAgo: [5, 6],
    place: ["YO1", "York", "North Yorkshire"],
  },
];

// ── site ────────────────────────────────────────────────────────────────────────────────────────

function seedSite(tx: Tx): void {
  for (const [key, value] of Object.entries(SITE_SETTINGS)) {
    tx.insert(siteSettings)
      .values({ key, valueJson: JSON.stringify(value) })
      .run();
  }
  for (const [locale, pages] of Object.entries(sitePages(FIRM.name))) {
    for (const [segment, page] of Object.entries(pages)) {
      tx.insert(siteContent).values({ segment, locale, title: page.title, html: page.html }).run();
    }
  }
  for (const contact of GENERAL_CONTACTS) tx.insert(generalContacts).values(contact).run();
  for (const [name, enabled] of Object.entries(FEATURE_TOGGLES))
    tx.insert(featureToggles).values({ name, enabled }).run();
  for (const [name, enabled] of Object.entries(FEATURE_ACCESS))
    tx.insert(featureAccess).values({ name, enabled }).run();
}

// ── the parts seeded after the people, each with its own random sequence or none ───────────────

type SeededPeople = { client: Person; partner: Person; child: Person; demoLogins: Person[]; sarah: number };

function seedLaterParts(db: Db, ctx: SeedContext, now: Date, people: SeededPeople): void {
  const { client, partner, child, demoLogins, sarah } = people;
  // ── the portfolio book (docs/decisions/071): last, with its own random sequence
  seedPortfolioBook(db, now, {
    client: client.entityId,
    partner: partner.entityId,
    child: child.entityId,
    assets: (demoLogins[0] as Person).entityId,
  });
  // ── documents and messages: after the book, with their own random sequence
  const messagesLogin = demoLogins[1] as Person;
  seedDocuments(db, now, {
    client: client.entityId,
    partner: partner.entityId,
    messages: messagesLogin.entityId,
    clientUserId: client.userId as number,
    messagesUserId: messagesLogin.userId as number,
    adviserUserId: sarah,
    adviserName: "Sarah Whitfield",
  });
  // ── registered bank accounts: after the documents, drawing nothing, so no earlier row or id moves
  seedBankAccounts(db, { client: client.entityId, partner: partner.entityId });
  // ── digital signatures: after everything else, with their own random sequence, so no earlier
  // row, id or draw moves
  seedSignatures(db, now, {
    client: client.entityId,
    partner: partner.entityId,
    adviserUserId: sarah,
    adviserName: "Sarah Whitfield",
  });
  seedReviewLogins(db, ctx, { client: client.entityId, partner: partner.entityId });
  // ── valuation report templates and the runner's settings (docs/platform-api.md "Valuation
  // reports"): after everything else, drawing nothing
  seedReports(db, { client: client.entityId });
}

/**
 * The annual review and the notification panels (docs/platform-api.md "Review and notifications"):
 * last of all, drawing nothing; the two logins have no adviser, so no adviser's client list changes.
 */
function seedReviewLogins(db: Db, ctx: SeedContext, hartleys: { client: number; partner: number }): void {
  const factFind = insertPerson(ctx, {
    title: "Ms",
    first: "Imogen",
    last: "Ashworth",
    dob: "1979-03-08",
    level: 2,
    maritalStatus: "Single",
    email: "imogen.ashworth@example.com",
    contacts: [
      { type: "p3", value: "+44 7700 900612", preferred: true, countryCode: "GB" },
      { type: "m1", value: "imogen.ashworth@example.com", preferred: true, countryCode: null },
    ],
    addresses: [gbAddress(1, null, "5 Royal Crescent", "Bath", "Somerset", "BA1 2LR")],
    user: { username: "demo.factfind", roleName: "ClientUser", lastLogin: ctx.ago(20, 3) },
  });
  const robo = insertPerson(ctx, {
    title: "Mr",
    first: "Gareth",
    last: "Pryce",
    dob: "1961-11-15",
    level: 2,
    maritalStatus: "Married",
    dependents: 0,
    email: "gareth.pryce@example.com",
    contacts: [
      { type: "p1", value: "029 2018 0734", preferred: false, countryCode: "GB" },
      { type: "m1", value: "gareth.pryce@example.com", preferred: true, countryCode: null },
    ],
    addresses: [gbAddress(1, null, "22 Cathedral Road", "Cardiff", "Cardiff", "CF11 9LJ")],
    user: { username: "demo.robo", roleName: "ClientUser", lastLogin: ctx.ago(11, 2) },
  });
  seedReview(db, { ...hartleys, factFind: factFind.entityId, robo: robo.entityId });
}

const pad = (n: number) => String(n).padStart(2, "0");

function inward(random: Random): string {
  return `${between(random, 1, 9)}${pick(random, [...INWARD_LETTERS])}${pick(random, [...INWARD_LETTERS])}`;
}
