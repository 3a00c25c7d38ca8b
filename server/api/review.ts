// spec 002 §2 "Annual Review page", §3 "Review state", "Review page config", §4 "Review flow": the
// review's pages, a client's review and stored state, the data playback and the submission
// (docs/platform-api.md "Review and notifications").
import { and, asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/connection";
import { addresses, contacts, documentFirstReads, reviewPages, reviewStates } from "../db/schema";
import { riskRating } from "../domain/risk-profile";
import { REVIEW_STATUS, reviewStatusText } from "../domain/review-status";
import type { Caller } from "../sessions";
import { isClientUser, reachableEntities } from "./access";
import { insertSecureMessage } from "./docnote/documents";
import { ApiError, forbidden, MESSAGES, validate } from "./http";
import { clientEntity, partnerActedFor } from "./notifications";
import { type EntityRow, entityById, partnerEntityIdOf } from "./people";
import { json, noContent, type Route, signedIn } from "./router";
import { siteLocale } from "./site";

export const REVIEW_MESSAGES = {
  notInProgress: "The review is not in progress",
  notForPartner: "Permission Error: You cannot answer for your partner",
  partnerNotInProgress: "Your partner's review is not in progress",
  notRecorded: "Your response could not be recorded. Please contact your adviser.",
} as const;

const Id = z.coerce.number().int().positive();
const IdParams = z.object({ id: Id });
const LocaleQuery = z.object({ site_locales: z.string().max(100).optional() }).passthrough();

const Answer = z.object({
  id: z.number().int().min(1).max(50),
  question: z.string().max(1000),
  response: z.boolean().nullable(),
  additional_text: z
    .string()
    .max(4000)
    .nullish()
    .transform((v) => v ?? null),
});
type AnswerView = z.output<typeof Answer>;
const Answers = z.array(Answer).max(50);

const StateBody = z.object({
  order: z.number().int().min(1).max(50),
  respond_for_partner: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  client_questions: Answers.default([]),
  partner_questions: Answers.default([]),
});

const Status = z.enum(["ChangesReported", "NoChangesReported"]);
const Person = z.object({
  id: z.number().int().positive(),
  name: z.string().max(200),
  responses: Answers,
  status: Status,
});
const SubmitBody = z.object({
  client: Person,
  partner: Person.extend({ partner_id: z.number().int().positive().optional() }).nullish(),
  client_access: z.number().int().min(-1000).max(1000),
});

// ── answers ──────────────────────────────────────────────────────────────────────────────────

type PageRow = typeof reviewPages.$inferSelect;

function pageView(p: PageRow) {
  return {
    order: p.orderNo,
    type: p.type,
    heading: p.heading,
    secondary_heading: p.secondaryHeading,
    introduction_text: p.introductionText,
    client_question: p.clientQuestion,
    partner_question: p.partnerQuestion,
    alternate_client_question: p.alternateClientQuestion,
    alternate_partner_question: p.alternatePartnerQuestion,
    hint: p.hint,
    show_additional_information: p.showAdditionalInformation,
    fields: JSON.parse(p.fields) as Array<{ field_name: string; description: string; enabled: boolean }>,
    changes_text: p.changesText,
    no_changes_text: p.noChangesText,
    success_text: p.successText,
    error_text: p.errorText,
    display_adviser_detail: p.displayAdviserDetail,
    adviser_details_header: p.adviserDetailsHeader,
  };
}

/** The review's pages in a locale, in order; a locale without pages falls back to en-GB. */
function pagesOf(db: Db, locale: string): PageRow[] {
  const of = (l: string) =>
    db.select().from(reviewPages).where(eq(reviewPages.locale, l)).orderBy(asc(reviewPages.orderNo)).all();
  const pages = of(locale);
  return pages.length || locale === "en-GB" ? pages : of("en-GB");
}

const localeOf = (caller: Caller, asked: string | undefined) => siteLocale(asked ?? caller.user.locale);

/** spec 002 §6: the annual review is a client's own, for a numeric entity id that is a client. */
function ownReview(db: Db, caller: Caller, id: number): EntityRow {
  const entity = clientEntity(db, id);
  if (!isClientUser(caller)) throw forbidden(MESSAGES.clientOnly);
  if (caller.user.entityId !== id) throw forbidden();
  return entity;
}

/** The group's partner of the client, when login-accessible. */
function groupPartner(db: Db, clientId: number): EntityRow | null {
  const partnerId = partnerEntityIdOf(db, clientId);
  if (partnerId === null || partnerId === clientId || !reachableEntities(db, clientId).has(partnerId)) return null;
  return entityById(db, partnerId) ?? null;
}

const parseAnswers = (text: string) => JSON.parse(text) as AnswerView[];

function stateOf(db: Db, entityId: number) {
  return db.select().from(reviewStates).where(eq(reviewStates.entityId, entityId)).get();
}

function reviewView(db: Db, caller: Caller, client: EntityRow) {
  const partner = groupPartner(db, client.id);
  const partnerStatus = partner ? reviewStatusText(partner.reviewStatus) : "";
  const state = stateOf(db, client.id);
  return {
    client_id: client.id,
    review_status: reviewStatusText(client.reviewStatus),
    partner: partner ? { id: partner.id, name: partner.displayName, review_status: partnerStatus } : null,
    can_answer_for_partner:
      !!partner && partnerActedFor(db, caller) === partner.id && partnerStatus === REVIEW_STATUS.inProgress,
    state: state
      ? {
          order: state.orderNo,
          respond_for_partner: state.respondForPartner,
          client_questions: parseAnswers(state.clientQuestions),
          partner_questions: parseAnswers(state.partnerQuestions),
          is_submitted: state.isSubmitted,
          submitted_at: state.submittedAt,
          updated_at: state.updatedAt,
        }
      : null,
  };
}

// ── data playback ────────────────────────────────────────────────────────────────────────────

const CONTACT_FIELDS = [
  ["home_phone", "p1"],
  ["work_phone", "p2"],
  ["mobile_phone", "p3"],
  ["personal_email", "m1"],
  ["work_email", "m2"],
] as const;
const ADDRESS_FIELDS = [
  ["residential_address", 1],
  ["postal_address", 0],
] as const;
export const PLAYBACK_FIELDS = [
  ...CONTACT_FIELDS.map(([f]) => f),
  ...ADDRESS_FIELDS.map(([f]) => f),
  "title",
  "first_name",
  "middle_name",
  "last_name",
  "dob",
  "country_of_birth",
  "marital_status",
  "dependents",
] as const;
type PlaybackField = (typeof PLAYBACK_FIELDS)[number];

const blankToNull = (v: string | null | undefined) => (v === null || v === undefined || v.trim() === "" ? null : v);

/** The person's current values of the review's contact and personal fields, from the platform's records. */
function recordValues(db: Db, e: EntityRow): Record<PlaybackField, string | null> {
  const values = {} as Record<PlaybackField, string | null>;
  for (const [field, type] of CONTACT_FIELDS) {
    const c = db
      .select()
      .from(contacts)
      .where(and(eq(contacts.entityId, e.id), eq(contacts.type, type)))
      .orderBy(desc(contacts.preferred), asc(contacts.id))
      .get();
    values[field] = blankToNull(c?.value);
  }
  for (const [field, type] of ADDRESS_FIELDS) {
    const a = db
      .select()
      .from(addresses)
      .where(and(eq(addresses.entityId, e.id), eq(addresses.type, type), eq(addresses.status, "Current")))
      .orderBy(desc(addresses.preferred), asc(addresses.id))
      .get();
    if (!a) {
      values[field] = null;
      continue;
    }
    const split = [a.block, a.streetName, a.streetName2].filter((l) => blankToNull(l) !== null);
    const lines = [...(split.length ? split : [a.street]), a.suburb, a.state, a.postcode].filter(
      (l): l is string => blankToNull(l) !== null,
    );
    values[field] = lines.length ? lines.map((l) => l.trim()).join("\n") : null;
  }
  values.title = blankToNull(e.title);
  values.first_name = blankToNull(e.firstName);
  values.middle_name = blankToNull(e.middleName);
  values.last_name = blankToNull(e.lastName);
  values.dob = blankToNull(e.dob);
  values.country_of_birth = blankToNull(e.countryOfBirth);
  values.marital_status = blankToNull(e.maritalStatus);
  values.dependents = e.dependents === null || e.dependents === undefined ? null : String(e.dependents);
  return values;
}

function riskProfileView(e: EntityRow, locale: string) {
  const rating = riskRating(e.riskProfileIndex, locale);
  return rating
    ? { name: rating.name, index: rating.index, description: rating.description, is_empty: false }
    : { name: null, index: null, description: null, is_empty: true };
}

// ── submission ───────────────────────────────────────────────────────────────────────────────

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The message's own words, in the review's language (the locale the client answered in): French
 * for fr-CA, English otherwise, as the review's pages and risk scale.
 */
const WORDS = {
  en: {
    subject: {
      ChangesReported: "Annual review: changes reported",
      NoChangesReported: "Annual review: no changes reported",
    },
    outcome: { ChangesReported: "changes reported", NoChangesReported: "no changes reported" },
    intro: (name: string, by: string, on: string, outcome: string) =>
      `Annual review of ${name}, answered by ${by} on ${on}: ${outcome}.`,
    answer: (text: string) => `Answer: ${text}`,
    yes: "Yes",
    no: "No",
    noAnswer: "No answer",
    shown: "Details shown:",
    none: "None supplied",
    risk: (index: number, name: string) => `Risk rating: ${index} (${name})`,
    field: (label: string, value: string) => `${label}: ${value}`,
  },
  fr: {
    subject: {
      ChangesReported: "Revue annuelle : changements signalés",
      NoChangesReported: "Revue annuelle : aucun changement signalé",
    },
    outcome: { ChangesReported: "changements signalés", NoChangesReported: "aucun changement signalé" },
    intro: (name: string, by: string, on: string, outcome: string) =>
      `Revue annuelle de ${name}, répondue par ${by} le ${on} : ${outcome}.`,
    answer: (text: string) => `Réponse : ${text}`,
    yes: "Oui",
    no: "Non",
    noAnswer: "Sans réponse",
    shown: "Renseignements affichés :",
    none: "Non fourni",
    risk: (index: number, name: string) => `Profil de risque : ${index} (${name})`,
    field: (label: string, value: string) => `${label} : ${value}`,
  },
} as const;
const wordsOf = (locale: string) => (locale.startsWith("fr") ? WORDS.fr : WORDS.en);

const longDate = (isoDate: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${isoDate.slice(0, 10)}T00:00:00Z`),
  );

/** A country's name in the locale for an ISO 3166 code ('GB' → 'United Kingdom'); any other value as it is. */
function countryName(value: string, locale: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) return value;
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(value.toUpperCase()) ?? value;
  } catch {
    return value;
  }
}

/** A recorded value as the playback page shows it: lines joined, a date in words, a country by name. */
function shownValue(
  field: string,
  value: string | null,
  locale: string,
  words: (typeof WORDS)[keyof typeof WORDS],
): string {
  if (value === null) return words.none;
  if (field === "dob" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return longDate(value, locale);
  if (field === "country_of_birth") return countryName(value, locale);
  return value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(", ");
}

type Submitted = { name: string; responses: AnswerView[]; status: z.output<typeof Status> };

/**
 * The message body (spec 002 §4 "Review flow"): who answered for whom, then each answered page under
 * its heading, with its question, what the person was shown on it (the details of the page's enabled
 * fields, or the risk profile) and the answer with its additional text. Two pages may ask the same
 * question ('Do any of these details need updating?'): the heading and the details tell them apart.
 */
function submissionBody(
  person: Submitted,
  shown: { db: Db; entity: EntityRow; pages: PageRow[]; locale: string },
  answeredBy: string,
  at: Date,
): string {
  const { entity, pages, locale } = shown;
  const words = wordsOf(locale);
  const values = recordValues(shown.db, entity);
  const lines = [
    `<p>${escapeHtml(words.intro(person.name, answeredBy, longDate(at.toISOString(), locale), words.outcome[person.status]))}</p>`,
  ];
  for (const r of [...person.responses].sort((a, b) => a.id - b.id)) {
    const page = pages.find((p) => p.orderNo === r.id);
    if (page) lines.push(`<h3>${escapeHtml(page.heading)}</h3>`);
    lines.push(`<p>${escapeHtml(r.question)}</p>`);
    const details: string[] = [];
    if (page?.type === "riskProfileQuestion") {
      const rating = riskRating(entity.riskProfileIndex, locale);
      details.push(rating ? words.risk(rating.index, rating.name) : words.none);
    } else if (page?.type === "contactDetailsQuestionPage" || page?.type === "personalDetailsQuestionPage") {
      const fields = JSON.parse(page.fields) as Array<{ field_name: string; description: string; enabled: boolean }>;
      for (const f of fields) {
        if (!f.enabled || !(PLAYBACK_FIELDS as readonly string[]).includes(f.field_name)) continue;
        details.push(
          words.field(f.description, shownValue(f.field_name, values[f.field_name as PlaybackField], locale, words)),
        );
      }
    }
    if (details.length)
      lines.push(
        `<p>${escapeHtml(words.shown)}</p>`,
        "<ul>",
        ...details.map((d) => `<li>${escapeHtml(d)}</li>`),
        "</ul>",
      );
    const answer = r.response === null ? words.noAnswer : r.response ? words.yes : words.no;
    lines.push(`<p>${escapeHtml(words.answer(answer))}</p>`);
    if (r.additional_text) lines.push(`<p>${escapeHtml(r.additional_text).replace(/\r?\n/g, "<br>")}</p>`);
  }
  return lines.join("\n");
}

function submissionOrder(db: Db): number {
  return (
    db
      .select({ order: reviewPages.orderNo })
      .from(reviewPages)
      .where(eq(reviewPages.type, "submission"))
      .orderBy(asc(reviewPages.orderNo))
      .get()?.order ?? 1
  );
}

const notInProgress = () => new ApiError(409, REVIEW_MESSAGES.notInProgress);

// ── routes ───────────────────────────────────────────────────────────────────────────────────

export const reviewRoutes: Route[] = [
  // spec 002 §3 review page config, from the site's content for the locale
  signedIn("GET", "/resourceful/review/config", (request, { db, caller }) => {
    const { site_locales } = validate(LocaleQuery, request.query, "query");
    return json({ pages: pagesOf(db, localeOf(caller, site_locales)).map(pageView) });
  }),

  // spec 002 §2: the review status (scope review), the partner's and the stored state
  signedIn("GET", "/resourceful/review/client/:id", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    return json(reviewView(db, caller, ownReview(db, caller, id)));
  }),

  // spec 002 §4 review flow: Next stores the responses
  signedIn("PUT", "/resourceful/review/client/:id/state", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const client = ownReview(db, caller, id);
    const input = validate(StateBody, request.body, "body");
    if (reviewStatusText(client.reviewStatus) !== REVIEW_STATUS.inProgress || stateOf(db, id)?.isSubmitted)
      throw notInProgress();
    const row = {
      orderNo: input.order,
      respondForPartner: input.respond_for_partner,
      clientQuestions: JSON.stringify(input.client_questions),
      partnerQuestions: JSON.stringify(input.partner_questions),
      updatedAt: clock.now().toISOString(),
    };
    db.insert(reviewStates)
      .values({ entityId: id, ...row, isSubmitted: false, submittedAt: null })
      .onConflictDoUpdate({ target: reviewStates.entityId, set: row })
      .run();
    return json(reviewView(db, caller, client));
  }),

  // spec 002 §4: exit from completion resets the review state
  signedIn("DELETE", "/resourceful/review/client/:id/state", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    ownReview(db, caller, id);
    db.delete(reviewStates).where(eq(reviewStates.entityId, id)).run();
    return noContent();
  }),

  // spec 002 §2 data playback: the client's (and with view_partner the partner's) recorded values
  signedIn("GET", "/resourceful/review/client/:id/playback", (request, { db, caller }) => {
    const { id } = validate(IdParams, request.params, "path");
    const client = ownReview(db, caller, id);
    const { site_locales } = validate(LocaleQuery, request.query, "query");
    const locale = localeOf(caller, site_locales);
    const partnerId = partnerActedFor(db, caller);
    const partner = partnerId === null ? null : (entityById(db, partnerId) ?? null);
    const own = recordValues(db, client);
    const theirs = partner ? recordValues(db, partner) : null;
    return json({
      client: { id: client.id, name: client.displayName },
      partner: partner ? { id: partner.id, name: partner.displayName } : null,
      values: PLAYBACK_FIELDS.map((field) => ({
        field_name: field,
        client_value: own[field],
        partner_value: theirs ? theirs[field] : null,
      })),
      risk_profile: {
        client: riskProfileView(client, locale),
        partner: partner ? riskProfileView(partner, locale) : null,
      },
    });
  }),

  // spec 002 §4 review flow: Submit posts a message per person (then the portal patches the statuses)
  signedIn("POST", "/resourceful/review/client/:id/submit", (request, { db, caller, clock }) => {
    const { id } = validate(IdParams, request.params, "path");
    const client = ownReview(db, caller, id);
    const input = validate(SubmitBody, request.body, "body");
    const { site_locales } = validate(LocaleQuery, request.query, "query");
    const locale = localeOf(caller, site_locales);
    const pages = pagesOf(db, locale);
    if (input.client.id !== id)
      throw new ApiError(400, `Invalid body: client.id: Expected ${id}`, MESSAGES.argumentsIncorrect);
    if (reviewStatusText(client.reviewStatus) !== REVIEW_STATUS.inProgress || stateOf(db, id)?.isSubmitted)
      throw notInProgress();
    let partner: EntityRow | null = null;
    if (input.partner) {
      if (partnerActedFor(db, caller) !== input.partner.id) throw forbidden(REVIEW_MESSAGES.notForPartner);
      partner = entityById(db, input.partner.id) ?? null;
    }
    const now = clock.now();
    const answeredBy = client.displayName;
    const record = (entity: EntityRow, person: z.output<typeof Person>) => {
      const entityId = entity.id;
      try {
        const docnoteId = insertSecureMessage(db, {
          subject: wordsOf(locale).subject[person.status],
          body: submissionBody(person, { db, entity, pages, locale }, answeredBy, now),
          entityId,
          creatorUserId: caller.user.id,
          creatorName: answeredBy,
          createdAt: now.toISOString(),
        });
        // spec 002 §4 "Sending": the sender's message is marked first-read, so it is read in the
        // client's own Sent folder; the partner's copy stays unread for the partner, who did not write it
        db.insert(documentFirstReads)
          .values({ documentId: docnoteId, entityId: id, readAt: now.toISOString() })
          .onConflictDoNothing()
          .run();
        return { id: entityId, docnote_id: docnoteId, status: person.status };
      } catch {
        return { id: entityId, status: person.status, user_message: REVIEW_MESSAGES.notRecorded };
      }
    };
    const results: Array<{ id: number; docnote_id?: number; status: string; user_message?: string }> = [
      record(client, input.client),
    ];
    if (input.partner && partner) {
      results.push(
        reviewStatusText(partner.reviewStatus) === REVIEW_STATUS.inProgress
          ? record(partner, input.partner)
          : { id: partner.id, status: input.partner.status, user_message: REVIEW_MESSAGES.partnerNotInProgress },
      );
    }
    if (results[0]?.docnote_id !== undefined) {
      const at = now.toISOString();
      db.insert(reviewStates)
        .values({
          entityId: id,
          orderNo: submissionOrder(db),
          respondForPartner: !!input.partner,
          isSubmitted: true,
          submittedAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: reviewStates.entityId,
          set: { isSubmitted: true, submittedAt: at, updatedAt: at },
        })
        .run();
    }
    return json(results);
  }),
];
