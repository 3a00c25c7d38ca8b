// The planning platform's records (design: "The two systems"). Only the tables the portal's
// issues need so far; portfolios, prices, messages and signatures come with their issues.
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sealedText } from "../lib/secrets-at-rest";

const createdAt = () => text("created_at").notNull();
const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

export const firms = sqliteTable("firms", {
  id: integer("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

/** spec 000 §4: the session-timeout profile (idle minutes). */
export const loginProfiles = sqliteTable("login_profiles", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  sessionTimeout: integer("session_timeout").notNull(),
});

/** Clients and advisers: the people records (spec 002 §3 personal details). */
export const entities = sqliteTable(
  "entities",
  {
    id: integer("id").primaryKey(),
    firmId: integer("firm_id")
      .notNull()
      .references(() => firms.id),
    entityType: text("entity_type", { enum: ["client", "adviser"] }).notNull(),
    title: text("title"),
    firstName: text("first_name").notNull(),
    middleName: text("middle_name"),
    lastName: text("last_name").notNull(),
    preferredName: text("preferred_name"),
    displayName: text("display_name").notNull(),
    salutation: text("salutation"),
    addressTitle: text("address_title"),
    /** First, last, display and preferred names folded (lower case, no accents) for quicksearch. */
    searchText: text("search_text").notNull(),
    /** "last, first" folded: the client list's entity_name sort key. */
    sortName: text("sort_name").notNull(),
    dob: text("dob"),
    countryOfBirth: text("country_of_birth"),
    preferredEmail: text("preferred_email"),
    maritalStatus: text("marital_status"),
    dependents: integer("dependents").notNull().default(0),
    /** spec 000 §3: NotAssigned 0, Portfolio 1, Assets 2, Messages 3. */
    clientAccessLevel: integer("client_access_level").notNull().default(0),
    commPrefEmail: text("comm_pref_email", { enum: ["1", "0"] })
      .notNull()
      .default("1"),
    commPrefMail: text("comm_pref_mail", { enum: ["1", "0"] })
      .notNull()
      .default("0"),
    commPrefSms: text("comm_pref_sms", { enum: ["1", "0"] })
      .notNull()
      .default("0"),
    planCurrency: text("plan_currency").notNull().default("GBP"),
    // spec 002 §3 notification config
    reviewStatus: text("xpt_review_status"),
    factFindStatus: text("fact_find_status").notNull().default("0"),
    roboJourneyType: text("robo_journey_type"),
    roboJourneyStatus: text("robo_journey_status"),
    consentWorkflowStatus: text("consent_workflow_status"),
    feeSummaryOptInStatus: text("fee_summary_opt_in_status"),
    /** spec 002 §3 risk profile: the index on the 1–7 scale of server/domain/risk-profile.ts; null when none. */
    riskProfileIndex: integer("risk_profile_index"),
    createdAt: createdAt(),
  },
  (t) => [index("entities_sort_name_idx").on(t.sortName, t.id), index("entities_dob_idx").on(t.dob)],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey(),
    firmId: integer("firm_id")
      .notNull()
      .references(() => firms.id),
    username: text("username").notNull(),
    /** Trimmed and lower-cased: usernames are unique and matched case-insensitively. */
    usernameKey: text("username_key").notNull(),
    passwordHash: text("password_hash").notNull(),
    roleName: text("role_name", { enum: ["ClientUser", "User"] }).notNull(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    locale: text("locale", { enum: ["en-GB", "en-CA", "en-AU", "fr-CA"] })
      .notNull()
      .default("en-GB"),
    timezone: text("timezone").notNull().default("Europe/London"),
    preferredCurrency: text("preferred_currency").notNull().default("GBP"),
    /** How the portal looks to this user (docs/decisions/203): the device's setting, or always light or dark. */
    theme: text("theme", { enum: ["system", "light", "dark"] })
      .notNull()
      .default("system"),
    loginProfileId: integer("login_profile_id")
      .notNull()
      .default(1)
      .references(() => loginProfiles.id),
    loginMethod: text("login_method", { enum: ["Basic", "MemorableWord", "MFA"] })
      .notNull()
      .default("Basic"),
    disabled: flag("disabled"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    lockedUntil: text("locked_until"),
    // pending sign-in steps (spec 000 §4), taken in this order
    forceChangePassword: flag("force_change_password"),
    mustAgreeTerms: flag("must_agree_terms"),
    mustSetSecurityQuestions: flag("must_set_security_questions"),
    /** spec 000 §3 enrolment: sms, email or token; null when MFA is not used. */
    mfaMethod: text("mfa_method", { enum: ["sms", "email", "token"] }),
    mfaEnrolled: flag("mfa_enrolled"),
    mfaMobile: text("mfa_mobile"),
    mfaEmail: text("mfa_email"),
    /**
     * Base32 secret of an enrolled software token (RFC 6238 needs the key itself), sealed with the
     * platform's key (docs/decisions/172).
     */
    mfaTotpSecret: sealedText("mfa_totp_secret"),
    /** The last TOTP time step accepted, so a code cannot be used twice. */
    mfaTotpLastStep: integer("mfa_totp_last_step"),
    /** The MFA methods this user may use, comma-separated; null means every method (sms, email, token). */
    mfaMethodsAllowed: text("mfa_methods_allowed"),
    /**
     * Kept so that it can be read back (the memorable-word step compares single characters at
     * chosen positions), sealed with the platform's key (docs/decisions/172).
     */
    memorableWord: sealedText("memorable_word"),
    memorableWordHint: text("memorable_word_hint"),
    /** The latest successful sign-in, and the one before it (shown as "last login" in a session). */
    lastLogin: text("last_login"),
    previousLogin: text("previous_login"),
    termsAgreedAt: text("terms_agreed_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_username_key_idx").on(t.usernameKey), index("users_entity_idx").on(t.entityId)],
);

/** spec 000 §3 capabilities, held per entity (a client without a login still has them in preview). */
export const capabilities = sqliteTable(
  "capabilities",
  {
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.name] })],
);

export const clientGroups = sqliteTable("client_groups", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  primaryEntityId: integer("primary_entity_id")
    .notNull()
    .references(() => entities.id),
});

export const clientGroupMembers = sqliteTable(
  "client_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => clientGroups.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    relationship: text("relationship").notNull(),
    loginAccessible: flag("login_accessible"),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.entityId] }), index("members_entity_idx").on(t.entityId)],
);

/** The adviser's public profile (spec 002 §3 adviser contact), keyed by the adviser's user. */
export const adviserProfiles = sqliteTable("adviser_profiles", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  adviserName: text("adviser_name").notNull(),
  role: text("role"),
  photo: text("photo"),
});

export const adviserClients = sqliteTable(
  "adviser_clients",
  {
    adviserUserId: integer("adviser_user_id")
      .notNull()
      .references(() => users.id),
    clientEntityId: integer("client_entity_id")
      .notNull()
      .references(() => entities.id),
    isPrimary: flag("is_primary"),
  },
  (t) => [
    primaryKey({ columns: [t.adviserUserId, t.clientEntityId] }),
    index("adviser_clients_client_idx").on(t.clientEntityId),
  ],
);

/** spec 002 §3 contact: p1 home phone, p2 work phone, p3 mobile, m1 personal email, m2 work email. */
export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    type: text("type", { enum: ["p1", "p2", "p3", "m1", "m2"] }).notNull(),
    value: text("value").notNull(),
    preferred: flag("preferred"),
    countryCode: text("country_code"),
  },
  (t) => [index("contacts_entity_idx").on(t.entityId)],
);

/** spec 002 §3 address: type 0 postal, 1 residential, 2 work; GB splits the street. */
export const addresses = sqliteTable(
  "addresses",
  {
    id: integer("id").primaryKey(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    type: integer("type").notNull(),
    block: text("block"),
    streetName: text("street_name"),
    streetName2: text("street_name_2"),
    street: text("street"),
    suburb: text("suburb"),
    state: text("state"),
    country: text("country").notNull().default("GB"),
    postcode: text("postcode"),
    /** Upper case without spaces, for the client search's prefix match. */
    postcodeKey: text("postcode_key"),
    preferred: flag("preferred"),
    status: text("status", { enum: ["Current", "Previous"] })
      .notNull()
      .default("Current"),
  },
  (t) => [index("addresses_entity_idx").on(t.entityId), index("addresses_postcode_idx").on(t.postcodeKey)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey(),
    /** SHA-256 of the XPLANID token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastSeenAt: text("last_seen_at").notNull(),
    clientInContextId: integer("client_in_context_id").references(() => entities.id),
    previewAccessLevel: integer("preview_access_level"),
    isPreviewMode: flag("is_preview_mode"),
    /** The browser's User-Agent as the portal forwarded it (X-Client-User-Agent), cut to 256 characters. */
    userAgent: text("user_agent"),
    /** The client's address as the portal forwarded it (X-Client-Address): where it was last active from. */
    clientAddress: text("client_address"),
  },
  (t) => [uniqueIndex("sessions_token_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/** A sign-in part-way through its steps (spec 000 §4); the portal keeps only the opaque ticket. */
export const loginTickets = sqliteTable(
  "login_tickets",
  {
    id: integer("id").primaryKey(),
    ticketHash: text("ticket_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    step: text("step").notNull(),
    /**
     * Step state as JSON, e.g. the memorable-word positions or the device being enrolled with its
     * token secret: sealed with the platform's key (docs/decisions/172).
     */
    state: sealedText("state").notNull().default("{}"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("login_tickets_hash_idx").on(t.ticketHash)],
);

export const securityQuestions = sqliteTable(
  "security_questions",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    answerHash: text("answer_hash").notNull(),
  },
  (t) => [uniqueIndex("security_questions_user_pos_idx").on(t.userId, t.position)],
);

/** Site configuration (spec 000 §3 site settings), each value stored as JSON to keep its type. */
export const siteSettings = sqliteTable("site_settings", {
  key: text("key").primaryKey(),
  valueJson: text("value_json").notNull(),
});

export const siteContent = sqliteTable(
  "site_content",
  {
    segment: text("segment").notNull(),
    locale: text("locale").notNull(),
    title: text("title").notNull(),
    html: text("html").notNull(),
  },
  (t) => [primaryKey({ columns: [t.segment, t.locale] })],
);

/** spec 002 §3 general contact, per locale, with the contact-us page's type and introduction. */
export const generalContacts = sqliteTable("general_contacts", {
  locale: text("locale").primaryKey(),
  contactType: text("contact_type", { enum: ["adviser", "general", "both"] }).notNull(),
  introduction: text("introduction"),
  contactName: text("contact_name"),
  contactDescription: text("contact_description"),
  telephoneNumber: text("telephone_number"),
  emailAddress: text("email_address"),
  openingHours: text("opening_hours"),
  address: text("address"),
  hideAvatars: flag("hide_avatars"),
});

export const featureToggles = sqliteTable("feature_toggles", {
  name: text("name").primaryKey(),
  enabled: flag("enabled"),
});

/** What the platform "sends" (sms, email, codes): read back by GET /dev/outbox outside production. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey(),
    to: text("to").notNull(),
    /** The user it was sent for, so the outbox can be read by username too. */
    username: text("username"),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    subject: text("subject"),
    body: text("body").notNull(),
    code: text("code"),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_to_idx").on(t.to)],
);

/** Session feature access (spec 001 §7 feature_access, e.g. multi_currency), per firm. */
export const featureAccess = sqliteTable("feature_access", {
  name: text("name").primaryKey(),
  enabled: flag("enabled"),
});

/** A forgotten-password request (spec 000 §4): the portal holds only its opaque reference. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: integer("id").primaryKey(),
    /** SHA-256 of the reference the portal passes back as user_id. */
    referenceHash: text("reference_hash").notNull(),
    /** Null for an unknown username: the answer looks the same, nothing can be reset. */
    userId: integer("user_id").references(() => users.id),
    method: text("method", { enum: ["code", "questions"] }).notNull(),
    codeHash: text("code_hash"),
    /** The username asked for, in lower case: wrong codes and answers count against it (docs/decisions/163). */
    usernameKey: text("username_key"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("password_resets_reference_idx").on(t.referenceHash),
    index("password_resets_user_idx").on(t.userId),
  ],
);

/**
 * Wrong reset codes and security answers per username asked for, known or not (docs/decisions/163):
 * counted apart from sign-in failures, so recovery attempts never lock the account.
 */
export const recoveryAttempts = sqliteTable("recovery_attempts", {
  usernameKey: text("username_key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  /** The count is of failures since this time; it starts again once the window is over. */
  windowStartedAt: text("window_started_at").notNull(),
  /** Set when the limit is reached: no reset for this username until then. */
  pausedUntil: text("paused_until"),
});

/**
 * The platform's own random keys, made by the migration that needs them (docs/decisions/163: the
 * key that chooses an unknown username's plausible questions).
 */
export const platformKeys = sqliteTable("platform_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** A device being enrolled from additional verification (spec 000 §4), until its code is validated. */
export const pendingMfaDevices = sqliteTable(
  "pending_mfa_devices",
  {
    id: integer("id").primaryKey(),
    deviceId: text("device_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    method: text("method", { enum: ["sms", "email", "token"] }).notNull(),
    name: text("name").notNull(),
    /** The token secret of a device being enrolled, sealed with the platform's key (docs/decisions/172). */
    totpSecret: sealedText("totp_secret"),
    /** SHA-256 of the latest code sent; null once a wrong code voided it. */
    codeHash: text("code_hash"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("pending_mfa_devices_device_idx").on(t.deviceId)],
);

/** spec 000 §7: agreeing the site terms carries the text agreed to; kept as the record of it. */
export const termsAgreements = sqliteTable("terms_agreements", {
  id: integer("id").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
  termsText: text("terms_text").notNull(),
  agreedAt: text("agreed_at").notNull(),
});

// ── portfolio book (docs/decisions/071-portfolio-book.md) ────────────────────────────────────
// Amounts are integers, never floats: money in minor units (`*_minor`, 1/100), prices, FX rates and
// quantities in micro-units (`*_micros`, 1/1,000,000). Dates are ISO calendar dates 'YYYY-MM-DD'.

/** spec 001 §3 position.security: a listed security, or a cash line (isCash, price 1.00). */
export const securities = sqliteTable(
  "securities",
  {
    id: integer("id").primaryKey(),
    code: text("code").notNull(),
    exchange: text("exchange").notNull(),
    isin: text("isin"),
    description: text("description").notNull(),
    sectorName: text("sector_name").notNull(),
    assetClassCode: text("asset_class_code").notNull(),
    region: text("region").notNull(),
    currency: text("currency").notNull(),
    isCash: flag("is_cash"),
    /** Yearly income as a fraction of the price, in basis points (annual income, % yield). */
    yieldBp: integer("yield_bp").notNull().default(0),
    /**
     * A fund's look-through split, JSON `[{ "name": "Equities", "weight": 60 }, ...]` (percent);
     * null: wholly its own asset class (spec 001 §3 asset_class_allocation).
     */
    assetClassAllocation: text("asset_class_allocation"),
    /** The same by region, JSON; null: wholly its own region (spec 001 §3 regional_allocation). */
    regionalAllocation: text("regional_allocation"),
  },
  (t) => [uniqueIndex("securities_code_exchange_idx").on(t.code, t.exchange)],
);

/** Closing prices on business days (Monday to Friday), in the security's currency. */
export const securityPrices = sqliteTable(
  "security_prices",
  {
    securityId: integer("security_id")
      .notNull()
      .references(() => securities.id),
    date: text("date").notNull(),
    priceMicros: integer("price_micros").notNull(),
  },
  (t) => [primaryKey({ columns: [t.securityId, t.date] })],
);

/** Daily FX on business days: units of `currency` for one GBP (GBP itself is 1, not stored). */
export const fxRates = sqliteTable(
  "fx_rates",
  {
    currency: text("currency").notNull(),
    date: text("date").notNull(),
    rateMicros: integer("rate_micros").notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.date] }), index("fx_rates_date_idx").on(t.date, t.currency)],
);

/**
 * Rows counting the writes to what kept values are computed from. Row 1, the derived figures (books,
 * valuations, returns, series): triggers on transactions, prices, FX rates, securities, accounts and
 * benchmarks add one on every insert, update and delete (migration 0011), so every process on the
 * database sees a write at once and drops what it derived before
 * (docs/decisions/123-platform-derived-figures.md). Row 2, the documents' counts: triggers on the
 * documents, their entities, categories and first reads (migration 0013, decision 160).
 */
export const derivedGeneration = sqliteTable("derived_generation", {
  id: integer("id").primaryKey(),
  generation: integer("generation").notNull().default(0),
});

export const benchmarks = sqliteTable("benchmarks", {
  id: integer("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  currency: text("currency").notNull(),
});

/** A benchmark's own index level on business days. */
export const benchmarkPrices = sqliteTable(
  "benchmark_prices",
  {
    benchmarkId: integer("benchmark_id")
      .notNull()
      .references(() => benchmarks.id),
    date: text("date").notNull(),
    levelMicros: integer("level_micros").notNull(),
  },
  (t) => [primaryKey({ columns: [t.benchmarkId, t.date] })],
);

/** spec 001 §3 portfolio; entityId is the (primary) owner. */
export const portfolios = sqliteTable("portfolios", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  fullName: text("full_name").notNull(),
  ptype: text("ptype", { enum: ["PT_SINGLE", "PT_JOINT", "PT_SHARED"] }).notNull(),
  entityId: integer("entity_id")
    .notNull()
    .references(() => entities.id),
  reportCurrency: text("report_currency").notNull().default("GBP"),
  benchmarkId: integer("benchmark_id").references(() => benchmarks.id),
});

/** Who sees a portfolio and why (spec 001 §4 sortOrder and reasonForVisibility), per entity. */
export const portfolioVisibility = sqliteTable(
  "portfolio_visibility",
  {
    portfolioId: integer("portfolio_id")
      .notNull()
      .references(() => portfolios.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    reasonForVisibility: text("reason_for_visibility", {
      enum: ["single_owner", "primary_joint_owner", "secondary_joint_owner", "shared_owner", "explicit_link"],
    }).notNull(),
    /** 0 own single, 1 own joint, 2 partner joint, 3 shared; 4–6 linked (4 single, 5 joint, 6 explicit link). */
    sortOrder: integer("sort_order").notNull(),
    isLinked: flag("is_linked"),
  },
  (t) => [
    primaryKey({ columns: [t.portfolioId, t.entityId] }),
    index("portfolio_visibility_entity_idx").on(t.entityId),
  ],
);

export const accountGroups = sqliteTable("account_groups", {
  id: integer("id").primaryKey(),
  groupCode: text("group_code").notNull().unique(),
  groupName: text("group_name").notNull(),
  entityId: integer("entity_id")
    .notNull()
    .references(() => entities.id),
  reportCurrency: text("report_currency").notNull().default("GBP"),
});

/** spec 001 §3 account. */
export const accounts = sqliteTable(
  "accounts",
  {
    id: integer("id").primaryKey(),
    portfolioId: integer("portfolio_id")
      .notNull()
      .references(() => portfolios.id),
    accountGroupId: integer("account_group_id").references(() => accountGroups.id),
    description: text("description").notNull(),
    planCurrency: text("plan_currency").notNull(),
    reportCurrency: text("report_currency").notNull(),
    serviceType: text("service_type", {
      enum: ["Discretionary", "Advisory", "Execution only", "Not managed"],
    }).notNull(),
    taxStructure: text("tax_structure"),
    product: text("product"),
    externalAccountId: text("external_account_id"),
    subfund: text("subfund"),
    taxType: text("tax_type"),
    taxTypeTitle: text("tax_type_title"),
    activeDate: text("active_date"),
    inceptionDate: text("inception_date").notNull(),
    vendorId: text("vendor_id"),
    accountOwner: integer("account_owner")
      .notNull()
      .references(() => entities.id),
  },
  (t) => [index("accounts_portfolio_idx").on(t.portfolioId)],
);

/**
 * spec 001 §3 transaction. quantity is unsigned (the type gives the direction); amounts are in the
 * transaction's (native) currency. A cash leg (cashSecurityId) settles buys, sells, income, fees
 * and taxes against a cash line; transfers in and out are the external cash flows.
 */
export const transactions = sqliteTable(
  "transactions",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    securityId: integer("security_id")
      .notNull()
      .references(() => securities.id),
    type: text("type", { enum: ["buy", "sell", "income", "fee", "tax", "transfer_in", "transfer_out"] }).notNull(),
    tradeDate: text("trade_date").notNull(),
    settlementDate: text("settlement_date").notNull(),
    quantityMicros: integer("quantity_micros").notNull().default(0),
    priceMicros: integer("price_micros"),
    currency: text("currency").notNull(),
    grossMinor: integer("gross_minor").notNull(),
    feeMinor: integer("fee_minor").notNull().default(0),
    taxMinor: integer("tax_minor").notNull().default(0),
    netMinor: integer("net_minor").notNull(),
    cashSecurityId: integer("cash_security_id").references(() => securities.id),
    narrative: text("narrative"),
  },
  (t) => [index("transactions_account_date_idx").on(t.accountId, t.tradeDate, t.id)],
);

/** spec 001 §3 target set (investment instructions), with its securities' weights in basis points. */
export const targetSets = sqliteTable("target_sets", {
  id: integer("id").primaryKey(),
  accountId: integer("account_id")
    .notNull()
    .references(() => accounts.id),
  description: text("description").notNull(),
});

export const targetSetSecurities = sqliteTable(
  "target_set_securities",
  {
    targetSetId: integer("target_set_id")
      .notNull()
      .references(() => targetSets.id),
    securityId: integer("security_id")
      .notNull()
      .references(() => securities.id),
    weightBp: integer("weight_bp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.targetSetId, t.securityId] })],
);

/** spec 001 §3 payment information: BPAY (billerCode, reference) or a bank account. */
export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    kind: text("kind", { enum: ["bpay", "bank"] }).notNull(),
    billerCode: text("biller_code"),
    reference: text("reference"),
    bank: text("bank"),
    accountName: text("account_name"),
    bsb: text("bsb"),
    accountNumber: text("account_number"),
  },
  (t) => [index("payment_methods_account_idx").on(t.accountId)],
);

/**
 * spec 001 §7 "Targets and payment information" bank detail (`entity/client/{id}/bank`): a member's
 * own registered bank accounts, where withdrawals are paid. A UK account has a sort code, an
 * Australian one a BSB; the full number never leaves the platform (answers mask it).
 */
export const clientBankAccounts = sqliteTable(
  "client_bank_accounts",
  {
    id: integer("id").primaryKey(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    bankName: text("bank_name").notNull(),
    accountName: text("account_name").notNull(),
    sortCode: text("sort_code"),
    bsb: text("bsb"),
    accountNumber: text("account_number").notNull(),
    isDefault: flag("is_default"),
  },
  (t) => [index("client_bank_accounts_entity_idx").on(t.entityId)],
);

/**
 * The non-managed side of the balance sheet (spec 001 §3 balance-sheet assets): investment assets,
 * pension funds, annuities and liabilities, per family member (entityId: whose balance sheet).
 */
export const otherAssets = sqliteTable(
  "other_assets",
  {
    id: integer("id").primaryKey(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    kind: text("kind", { enum: ["investment", "pension", "annuity", "liability"] }).notNull(),
    description: text("description").notNull(),
    type: text("type").notNull(),
    provider: text("provider"),
    policyNumber: text("policy_number"),
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    /** Market, fund or current value; for a liability the outstanding balance (positive). */
    valueMinor: integer("value_minor").notNull(),
    valuationDate: text("valuation_date").notNull(),
    isSippWrapper: flag("is_sipp_wrapper"),
    underAdvice: flag("under_advice"),
    contributionTotalMinor: integer("contribution_total_minor"),
    withdrawalTotalMinor: integer("withdrawal_total_minor"),
    crystallisedMinor: integer("crystallised_minor"),
    uncrystallisedMinor: integer("uncrystallised_minor"),
    /** Annuity income per payment, its frequency and rate (basis points); liability interest rate. */
    incomeValueMinor: integer("income_value_minor"),
    frequency: text("frequency"),
    rateBp: integer("rate_bp"),
    capitalContentMinor: integer("capital_content_minor"),
  },
  (t) => [index("other_assets_entity_idx").on(t.entityId)],
);

/** Owners of a non-managed asset with their share in basis points (10000 = 100%). */
export const otherAssetOwners = sqliteTable(
  "other_asset_owners",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => otherAssets.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    percentageBp: integer("percentage_bp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.entityId] }), index("other_asset_owners_entity_idx").on(t.entityId)],
);

// ── documents and messages (spec 002 §3 document, folder; docs/platform-api.md "Documents and messages")

/** spec 002 §3 document type: code (e.g. SecureMessage) and its name. */
export const documentTypes = sqliteTable("document_types", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const documentCategories = sqliteTable("document_categories", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

/** A notification email's template (spec 002 §4 sending, step 4). */
export const emailTemplates = sqliteTable("email_templates", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  /** What the platform uses the template for, e.g. `fact_find_speak_to_adviser` (the notification config's email_template_id). */
  purpose: text("purpose"),
});

/** spec 002 §3 document or message; the body is HTML as stored (the portal sanitises it). */
export const documents = sqliteTable(
  "documents",
  {
    id: integer("id").primaryKey(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    doctype: text("doctype")
      .notNull()
      .references(() => documentTypes.code),
    docsubtype: text("docsubtype"),
    createdAt: createdAt(),
    referenceDate: text("reference_date"),
    /** false: an adviser-only note, never sent to a client. */
    isClientAccessAccessible: flag("is_client_access_accessible"),
    editPrivilege: integer("edit_privilege").notNull().default(0),
    permission: text("permission"),
    digitalSignatureStatus: text("digital_signature_status", { enum: ["Pending", "Signed", "Declined"] }),
    notifTemplateId: integer("notif_template_id").references(() => emailTemplates.id),
    creatorUserId: integer("creator_user_id").references(() => users.id),
    creatorName: text("creator_name").notNull(),
  },
  (t) => [index("documents_created_idx").on(t.createdAt, t.id)],
);

/** The entities a document belongs to (many to many). */
export const documentEntities = sqliteTable(
  "document_entities",
  {
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.entityId] }), index("document_entities_entity_idx").on(t.entityId)],
);

export const documentCategoryLinks = sqliteTable(
  "document_category_links",
  {
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    categoryId: integer("category_id")
      .notNull()
      .references(() => documentCategories.id),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.categoryId] })],
);

/** spec 002 §3 accounts: the accounts a message is about. */
export const documentAccounts = sqliteTable(
  "document_accounts",
  {
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.accountId] })],
);

/** spec 002 §4: a ClientUser's first reading of a document, recorded once per entity. */
export const documentFirstReads = sqliteTable(
  "document_first_reads",
  {
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    readAt: text("read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.entityId] })],
);

/** A document's attached file (docpartid), its bytes kept in the database. */
export const documentAttachments = sqliteTable(
  "document_attachments",
  {
    docpartid: integer("docpartid").primaryKey(),
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    content: blob("content", { mode: "buffer" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("document_attachments_document_idx").on(t.documentId)],
);

// ── digital signatures (spec 002 §3 "Digital signature item", "Signatory"; docs/platform-api.md
// "Digital signatures")

/**
 * A document a client is asked to sign, carried by a docnote message (documentId), whose
 * digital_signature_status is kept in step. status: spec 002 §4 partSigned 0, signed 1, declined 2,
 * pending 3, awaitingSignature 4. signingMethod 1: a one-time code by sms.
 */
export const digitalSignatures = sqliteTable(
  "digital_signatures",
  {
    id: integer("id").primaryKey(),
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    filename: text("filename").notNull(),
    title: text("title").notNull(),
    /** What the document says: paragraphs separated by blank lines (the PDF is made from it). */
    bodyText: text("body_text").notNull(),
    dueDate: text("due_date"),
    status: integer("status").notNull(),
    /** The opaque token sign and decline must send back (32 hex characters). */
    secureData: text("secure_data").notNull(),
    signingMethod: integer("signing_method").notNull().default(1),
    createdAt: createdAt(),
    lastNotifiedAt: text("last_notified_at").notNull(),
    /** Development only: the item a journey's copy was made from (null for a real item), so copies are never copied again. */
    copiedFrom: integer("copied_from"),
  },
  (t) => [
    index("digital_signatures_notified_idx").on(t.lastNotifiedAt, t.id),
    index("digital_signatures_document_idx").on(t.documentId),
  ],
);

/** Who signs a digital signature item, and when they signed or declined. */
export const digitalSignatureSignatories = sqliteTable(
  "digital_signature_signatories",
  {
    id: integer("id").primaryKey(),
    digitalSignatureId: integer("digital_signature_id")
      .notNull()
      .references(() => digitalSignatures.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    signingMethod: integer("signing_method").notNull().default(1),
    signedAt: text("signed_at"),
    declinedAt: text("declined_at"),
  },
  (t) => [
    index("digital_signature_signatories_item_idx").on(t.digitalSignatureId),
    index("digital_signature_signatories_entity_idx").on(t.entityId),
  ],
);

/** A one-time code sent to a signatory to sign with; only its hash is kept. */
export const digitalSignatureCodes = sqliteTable(
  "digital_signature_codes",
  {
    id: integer("id").primaryKey(),
    signatoryId: integer("signatory_id")
      .notNull()
      .references(() => digitalSignatureSignatories.id),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    /** Wrong codes tried against it; the third spends it. */
    attempts: integer("attempts").notNull().default(0),
    /** Used, replaced by a newer code, or worn out by wrong attempts. */
    spent: flag("spent"),
  },
  (t) => [index("digital_signature_codes_signatory_idx").on(t.signatoryId, t.createdAt)],
);

// ── annual review (spec 002 §3 "Review state", "Review page config"; docs/platform-api.md "Review
// and notifications")

/** A client's stored review state (one per client entity); answers are JSON arrays of { id, question, response, additional_text }. */
export const reviewStates = sqliteTable("review_states", {
  entityId: integer("entity_id")
    .primaryKey()
    .references(() => entities.id),
  orderNo: integer("order_no").notNull(),
  respondForPartner: integer("respond_for_partner", { mode: "boolean" }),
  clientQuestions: text("client_questions").notNull().default("[]"),
  partnerQuestions: text("partner_questions").notNull().default("[]"),
  isSubmitted: flag("is_submitted"),
  submittedAt: text("submitted_at"),
  updatedAt: text("updated_at").notNull(),
});

/** The review's pages per locale (spec 002 §3 review page config); fields is a JSON array of { field_name, description, enabled }. */
export const reviewPages = sqliteTable(
  "review_pages",
  {
    locale: text("locale").notNull(),
    orderNo: integer("order_no").notNull(),
    type: text("type", {
      enum: [
        "reviewIntro",
        "standardQuestionPage",
        "riskProfileQuestion",
        "contactDetailsQuestionPage",
        "personalDetailsQuestionPage",
        "submission",
        "completion",
      ],
    }).notNull(),
    heading: text("heading").notNull(),
    secondaryHeading: text("secondary_heading"),
    introductionText: text("introduction_text"),
    clientQuestion: text("client_question"),
    partnerQuestion: text("partner_question"),
    alternateClientQuestion: text("alternate_client_question"),
    alternatePartnerQuestion: text("alternate_partner_question"),
    hint: text("hint"),
    showAdditionalInformation: flag("show_additional_information"),
    fields: text("fields").notNull().default("[]"),
    changesText: text("changes_text"),
    noChangesText: text("no_changes_text"),
    successText: text("success_text"),
    errorText: text("error_text"),
    displayAdviserDetail: flag("display_adviser_detail"),
    adviserDetailsHeader: text("adviser_details_header"),
  },
  (t) => [primaryKey({ columns: [t.locale, t.orderNo] })],
);

// ── valuation reports (spec 002 §3 "Report template", §4 "Report run"; docs/platform-api.md
// "Valuation reports")

/** A report template: firm-wide (allClients), or for the clients assigned to it. */
export const reportTemplates = sqliteTable("report_templates", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  userType: text("user_type", { enum: ["Adviser", "Client"] }).notNull(),
  dateParameters: text("date_parameters", { enum: ["No Date Required", "Single Date", "Date Range"] }).notNull(),
  requiredSelector: text("required_selector", {
    enum: ["Current Client Only", "Select Entity", "Account Group", "Account Group Or Account"],
  }).notNull(),
  allClients: flag("all_clients"),
  sortOrder: integer("sort_order").notNull().default(0),
});

/** The clients a (not firm-wide) template applies to. */
export const reportTemplateClients = sqliteTable(
  "report_template_clients",
  {
    templateId: integer("template_id")
      .notNull()
      .references(() => reportTemplates.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.entityId] }),
    index("report_template_clients_entity_idx").on(t.entityId),
  ],
);

/**
 * A report run: an opaque random id, who ran it (only that user may read it), what for (template
 * null: the single-click valuation), its variables (JSON) and its state; the finished PDF is kept
 * here until the job is cleaned up.
 */
export const reportJobs = sqliteTable(
  "report_jobs",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    templateId: integer("template_id").references(() => reportTemplates.id),
    groupCode: text("group_code"),
    variables: text("variables").notNull().default("{}"),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull(),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    pdf: blob("pdf", { mode: "buffer" }),
  },
  (t) => [index("report_jobs_status_idx").on(t.status, t.createdAt), index("report_jobs_user_idx").on(t.userId)],
);

// ── passkeys (issue 15; docs/platform-api.md "Passkeys", docs/decisions/100)

/**
 * A user's passkey (a WebAuthn credential): its id (base64url, unique), COSE public key, signature
 * counter, transports (JSON array), the name the user gave it and when it was made and last used.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    credentialId: text("credential_id").notNull(),
    publicKey: blob("public_key", { mode: "buffer" }).notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports").notNull().default("[]"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("passkeys_credential_idx").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/**
 * A WebAuthn challenge (single-use, short-lived): for registration it is bound to the signed-in
 * user, for authentication to nobody; deleted when a verification uses it, right or wrong.
 */
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    id: integer("id").primaryKey(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["registration", "authentication"] }).notNull(),
    userId: integer("user_id").references(() => users.id),
    /** A registration's: the session that gave the current password for it (decision 179). */
    sessionId: integer("session_id"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("passkey_challenges_challenge_idx").on(t.challenge),
    index("passkey_challenges_expiry_idx").on(t.expiresAt),
  ],
);
