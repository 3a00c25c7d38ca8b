import type { Clock } from "../clock";
import type { Db } from "../db/connection";
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
const DAY = 24 * 60 * 60_000;

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

/** Seeds the demo data set (design: "Demo data set") unless the database already holds a firm. */
export function seedIfEmpty(db: Db, clock: Clock): boolean {
  if (db.select({ id: firms.id }).from(firms).get()) return false;
  seedDemoData(db, clock);
  return true;
}

function seedDemoData(db: Db, clock: Clock): void {
  const now = clock.now();
  const nowIso = now.toISOString();
  const random = seededRandom(SEED);
  // One hash of the shared demo password serves every demo login (decision 012): scrypt is slow
  // on purpose and the data set has dozens of users.
  const demoHash = hashSecret(DEMO_PASSWORD);
  const ago = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * 3_600_000).toISOString();

  db.transaction((tx) => {
    const firmId = tx.insert(firms).values(FIRM).returning({ id: firms.id }).get().id;
    tx.insert(loginProfiles).values({ id: 1, name: "Standard", sessionTimeout: 30 }).run();

    function addPerson(p: PersonSeed): { entityId: number; userId: number | null } {
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
      let userId: number | null = null;
      if (p.user) {
        userId = tx
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
      }
      return { entityId, userId };
    }

    const gbAddress = (
      type: number,
      block: string | null,
      streetName: string,
      suburb: string,
      state: string,
      postcode: string,
      preferred = true,
      status: "Current" | "Previous" = "Current",
    ): AddressSeed => ({
      type,
      block,
      streetName,
      streetName2: null,
      suburb,
      state,
      country: "GB",
      postcode,
      preferred,
      status,
    });

    // ── the demo logins (design table) ────────────────────────────────────────────────────────
    const client = addPerson({
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
    });
    const partner = addPerson({
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
    });
    const child = addPerson({
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

    const simpleClient = (
      title: string,
      first: string,
      last: string,
      dob: string,
      level: Level,
      user: UserSeed,
      place: readonly [string, string, string],
      extra: Partial<PersonSeed> = {},
    ) =>
      addPerson({
        title,
        first,
        last,
        dob,
        level,
        maritalStatus: "Single",
        email: `${foldText(first)}.${foldText(last).replace(/[^a-z]/g, "")}@example.com`,
        contacts: [
          {
            type: "m1",
            value: `${foldText(first)}.${foldText(last).replace(/[^a-z]/g, "")}@example.com`,
            preferred: true,
            countryCode: null,
          },
        ],
        addresses: [
          gbAddress(
            1,
            null,
            `${between(random, 1, 120)} ${pick(random, STREETS)}`,
            place[1],
            place[2],
            `${place[0]} ${inward(random)}`,
          ),
        ],
        capabilities: level === 1 ? PORTFOLIO_CAPABILITIES : [],
        user,
        ...extra,
      });

    const demoLogins = [
      simpleClient(
        "Mr",
        "Marcus",
        "Bell",
        "1959-02-03",
        2,
        { username: "demo.assets", roleName: "ClientUser", lastLogin: ago(6, 1) },
        ["BS8", "Bristol", "Bristol"],
      ),
      simpleClient(
        "Ms",
        "Priya",
        "Shah",
        "1982-11-21",
        3,
        { username: "demo.messages", roleName: "ClientUser", lastLogin: ago(1, 7) },
        ["LS6", "Leeds", "West Yorkshire"],
      ),
      simpleClient(
        "Mr",
        "Daniel",
        "Okafor",
        "1975-07-14",
        1,
        {
          username: "demo.mfa",
          roleName: "ClientUser",
          loginMethod: "MFA",
          mfaMethod: "sms",
          mfaEnrolled: true,
          mfaMobile: "+447700900123",
          lastLogin: ago(4, 2),
        },
        ["M20", "Manchester", "Greater Manchester"],
        {
          contacts: [{ type: "p3", value: "07700 900123", preferred: true, countryCode: "GB" }],
        },
      ),
      simpleClient(
        "Mrs",
        "Grace",
        "O'Neill",
        "1970-01-09",
        1,
        {
          username: "demo.enrol",
          roleName: "ClientUser",
          loginMethod: "MFA",
          mfaMethod: null,
          mfaEnrolled: false,
          mfaMobile: "+447700900234",
          mfaEmail: "grace.oneill@example.com",
          lastLogin: ago(30, 3),
        },
        ["BT9", "Belfast", "County Antrim"],
      ),
      simpleClient(
        "Mr",
        "Thomas",
        "Reid",
        "1988-05-27",
        1,
        {
          username: "demo.memorable",
          roleName: "ClientUser",
          loginMethod: "MemorableWord",
          memorableWord: "chestnut",
          memorableWordHint: "The tree in your first garden",
          lastLogin: ago(8, 6),
        },
        ["EH3", "Edinburgh", "City of Edinburgh"],
      ),
      simpleClient(
        "Ms",
        "Aisha",
        "Rahman",
        "1993-08-02",
        1,
        {
          username: "demo.newuser",
          roleName: "ClientUser",
          forceChangePassword: true,
          mustAgreeTerms: true,
          mustSetSecurityQuestions: true,
          lastLogin: null,
        },
        ["B15", "Birmingham", "West Midlands"],
      ),
    ];

    // ── advisers ──────────────────────────────────────────────────────────────────────────────
    const adviser = addPerson({
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
    const otherAdviser = addPerson({
      entityType: "adviser",
      title: "Mr",
      first: "Oliver",
      last: "Grant",
      email: "oliver.grant@northbridgewealth.example",
      contacts: [
        { type: "m2", value: "oliver.grant@northbridgewealth.example", preferred: true, countryCode: null },
        { type: "p2", value: "0131 496 0456", preferred: true, countryCode: "GB" },
      ],
      addresses: [
        gbAddress(2, "Northbridge Wealth", "9 Charlotte Square", "Edinburgh", "City of Edinburgh", "EH2 4DR"),
      ],
      capabilities: ["view_marketdata"],
      user: { username: "demo.adviser2", roleName: "User", lastLogin: ago(5) },
    });
    const sarah = adviser.userId as number;
    const oliver = otherAdviser.userId as number;
    tx.insert(adviserProfiles)
      .values([
        { userId: sarah, adviserName: "Sarah Whitfield", role: "Chartered Financial Planner", photo: null },
        { userId: oliver, adviserName: "Oliver Grant", role: "Paraplanner", photo: null },
      ])
      .run();

    const advisedBySarah: number[] = [client.entityId, partner.entityId, ...demoLogins.map((d) => d.entityId)];

    // ── generated clients: every access level, some without a login ────────────────────────────
    const usedUsernames = new Set<string>();
    const usedNames = new Set<string>();
    const generated: Array<{ title: string; first: string; last: string }> = [...ACCENTED_CLIENTS];
    while (generated.length < 44) {
      const [first, title] = pick(random, FIRST_NAMES);
      const last = pick(random, LAST_NAMES);
      if (usedNames.has(`${first} ${last}`)) continue;
      usedNames.add(`${first} ${last}`);
      generated.push({ title, first, last });
    }
    generated.forEach((person, i) => {
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
      const { entityId } = addPerson({
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
        addresses: [
          gbAddress(1, null, `${streetNumber} ${street}`, place[1], place[2], `${place[0]} ${inward(random)}`),
        ],
        capabilities: level === 1 ? PORTFOLIO_CAPABILITIES : [],
        user: hasLogin
          ? {
              username,
              roleName: "ClientUser",
              lastLogin: lastLoginDays > 100 ? null : ago(lastLoginDays, between(random, 0, 23)),
            }
          : undefined,
      });
      // Sarah advises the first 38, Oliver the rest (and Sarah cannot see those)
      if (i < 38) advisedBySarah.push(entityId);
      else tx.insert(adviserClients).values({ adviserUserId: oliver, clientEntityId: entityId, isPrimary: true }).run();
    });

    for (const clientEntityId of advisedBySarah) {
      tx.insert(adviserClients).values({ adviserUserId: sarah, clientEntityId, isPrimary: true }).run();
    }
    // Oliver also looks after the Hartleys' pensions: a second, non-primary adviser
    tx.insert(adviserClients)
      .values({ adviserUserId: oliver, clientEntityId: client.entityId, isPrimary: false })
      .run();

    // ── sign-in and account-security logins (docs/decisions/044): added last so that no earlier
    // entity or user id moves, and advised by Oliver so that Sarah's client list stays as it was
    const securityLogins = [
      simpleClient(
        "Mr",
        "Samuel",
        "Adeyemi",
        "1979-10-05",
        1,
        {
          username: "demo.token",
          roleName: "ClientUser",
          loginMethod: "MFA",
          mfaMethod: "token",
          mfaEnrolled: true,
          mfaTotpSecret: DEMO_TOKEN_SECRET,
          mfaEmail: "samuel.adeyemi@example.com",
          lastLogin: ago(2, 4),
        },
        ["OX2", "Oxford", "Oxfordshire"],
      ),
      simpleClient(
        "Mrs",
        "Fiona",
        "MacDonald",
        "1962-03-17",
        1,
        {
          username: "demo.single",
          roleName: "ClientUser",
          loginMethod: "MFA",
          mfaMethod: "email",
          mfaEnrolled: true,
          mfaEmail: "fiona.macdonald@example.com",
          mfaMethodsAllowed: "email",
          lastLogin: ago(9, 1),
        },
        ["G12", "Glasgow", "Glasgow City"],
      ),
      simpleClient(
        "Mr",
        "Ravi",
        "Kapoor",
        "1984-12-01",
        1,
        {
          username: "demo.noword",
          roleName: "ClientUser",
          loginMethod: "MemorableWord",
          memorableWord: null,
          lastLogin: ago(15, 2),
        },
        ["CB2", "Cambridge", "Cambridgeshire"],
      ),
      simpleClient(
        "Ms",
        "Laura",
        "Pennington",
        "1990-07-22",
        1,
        {
          username: "demo.lockout",
          roleName: "ClientUser",
          lastLogin: ago(5, 6),
        },
        ["YO1", "York", "North Yorkshire"],
      ),
    ];
    for (const login of securityLogins) {
      tx.insert(adviserClients)
        .values({ adviserUserId: oliver, clientEntityId: login.entityId, isPrimary: true })
        .run();
    }

    // ── site ──────────────────────────────────────────────────────────────────────────────────
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

    // ── the portfolio book (docs/decisions/071): last, with its own random sequence
    seedPortfolioBook(db, now, {
      client: client.entityId,
      partner: partner.entityId,
      child: child.entityId,
      assets: (demoLogins[0] as { entityId: number }).entityId,
    });

    // ── documents and messages: after the book, with their own random sequence
    const messagesLogin = demoLogins[1] as { entityId: number; userId: number | null };
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

    // ── the annual review and the notification panels (docs/platform-api.md "Review and
    // notifications"): last of all, drawing nothing; the two logins have no adviser, so no adviser's
    // client list changes
    const factFind = addPerson({
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
      user: { username: "demo.factfind", roleName: "ClientUser", lastLogin: ago(20, 3) },
    });
    const robo = addPerson({
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
      user: { username: "demo.robo", roleName: "ClientUser", lastLogin: ago(11, 2) },
    });
    seedReview(db, {
      client: client.entityId,
      partner: partner.entityId,
      factFind: factFind.entityId,
      robo: robo.entityId,
    });

    // ── valuation report templates and the runner's settings (docs/platform-api.md "Valuation
    // reports"): after everything else, drawing nothing
    seedReports(db, { client: client.entityId });
  });
}

const pad = (n: number) => String(n).padStart(2, "0");

function inward(random: Random): string {
  return `${between(random, 1, 9)}${pick(random, [...INWARD_LETTERS])}${pick(random, [...INWARD_LETTERS])}`;
}
