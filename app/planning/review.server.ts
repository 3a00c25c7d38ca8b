import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import type { Locale } from "~/lib/i18n";
import { REVIEW_PAGE_TYPES, type ReviewAnswer, type ReviewPage, type ReviewState } from "~/lib/review";
import type { PlanningClient } from "./client.server";

// spec 002 §3 "Review state", "Review page config", "Playback value", "Risk profile", §7 "Review
// status", "Review submit" (docs/platform-api.md "Review and notifications"). The answers in
// progress live on the platform, so a review survives a new device, a lost cookie or another
// portal instance.

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

const Page = z.object({
  order: WholeNumber,
  type: z.enum(REVIEW_PAGE_TYPES),
  heading: z.string(),
  secondary_heading: text,
  introduction_text: text,
  client_question: text,
  partner_question: text,
  alternate_client_question: text,
  alternate_partner_question: text,
  hint: text,
  show_additional_information: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  fields: z
    .array(z.object({ field_name: z.string(), description: z.string(), enabled: z.boolean() }))
    .nullish()
    .transform((v) => v ?? []),
  changes_text: text,
  no_changes_text: text,
  success_text: text,
  error_text: text,
  display_adviser_detail: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  adviser_details_header: text,
});

const ConfigAnswer = z.object({ pages: z.array(Page) });

const Answer = z.object({
  id: WholeNumber,
  question: z.string(),
  response: z.boolean().nullable(),
  additional_text: text,
});

const ReviewAnswerWire = z.object({
  client_id: WholeNumber,
  review_status: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  partner: z
    .object({
      id: WholeNumber,
      name: z.string(),
      review_status: z
        .string()
        .nullish()
        .transform((v) => v ?? ""),
    })
    .nullable(),
  can_answer_for_partner: z.boolean(),
  state: z
    .object({
      order: WholeNumber,
      respond_for_partner: z.boolean().nullable(),
      client_questions: z.array(Answer),
      partner_questions: z.array(Answer),
      is_submitted: z.boolean(),
      submitted_at: text,
    })
    .nullable(),
});

const RiskProfile = z.object({
  name: text,
  index: WholeNumber.nullable(),
  description: text,
  is_empty: z.boolean(),
});

const PlaybackAnswer = z.object({
  client: z.object({ id: WholeNumber, name: z.string() }),
  partner: z.object({ id: WholeNumber, name: z.string() }).nullable(),
  values: z.array(z.object({ field_name: z.string(), client_value: text, partner_value: text })),
  risk_profile: z.object({ client: RiskProfile, partner: RiskProfile.nullable() }),
});
export type Playback = z.output<typeof PlaybackAnswer>;
export type RiskProfile = z.output<typeof RiskProfile>;

const SubmitAnswer = z.array(
  z.object({
    id: WholeNumber,
    docnote_id: WholeNumber.nullish(),
    status: z.string().nullish(),
    user_message: z.string().nullish(),
    api_message: z.string().nullish(),
  }),
);

export type ReviewStatus = {
  clientId: number;
  /** The platform's text ('In Progress' …); read with reviewStatusOf. */
  reviewStatus: string;
  partner: { id: number; name: string; reviewStatus: string } | null;
  canAnswerForPartner: boolean;
  state: ReviewState | null;
};

const toAnswer = (a: z.output<typeof Answer>): ReviewAnswer => ({
  id: a.id,
  question: a.question,
  response: a.response,
  additionalText: a.additional_text,
});
const fromAnswer = (a: ReviewAnswer) => ({
  id: a.id,
  question: a.question,
  response: a.response,
  additional_text: a.additionalText,
});

function toStatus(w: z.output<typeof ReviewAnswerWire>): ReviewStatus {
  return {
    clientId: w.client_id,
    reviewStatus: w.review_status,
    partner: w.partner ? { id: w.partner.id, name: w.partner.name, reviewStatus: w.partner.review_status } : null,
    canAnswerForPartner: w.can_answer_for_partner,
    state: w.state
      ? {
          order: w.state.order,
          respondForPartner: w.state.respond_for_partner,
          clientQuestions: w.state.client_questions.map(toAnswer),
          partnerQuestions: w.state.partner_questions.map(toAnswer),
          isSubmitted: w.state.is_submitted,
        }
      : null,
  };
}

function toPage(p: z.output<typeof Page>): ReviewPage {
  return {
    order: p.order,
    type: p.type,
    heading: p.heading,
    secondaryHeading: p.secondary_heading,
    introductionText: p.introduction_text,
    clientQuestion: p.client_question,
    partnerQuestion: p.partner_question,
    alternateClientQuestion: p.alternate_client_question,
    alternatePartnerQuestion: p.alternate_partner_question,
    hint: p.hint,
    showAdditionalInformation: p.show_additional_information,
    fields: p.fields.map((f) => ({ fieldName: f.field_name, description: f.description, enabled: f.enabled })),
    changesText: p.changes_text,
    noChangesText: p.no_changes_text,
    successText: p.success_text,
    errorText: p.error_text,
    displayAdviserDetail: p.display_adviser_detail,
    adviserDetailsHeader: p.adviser_details_header,
  };
}

/** The review's status and answers so far, its pages and the values it plays back, in one round trip. */
export async function fetchReview(planning: PlanningClient, clientId: number, locale: Locale) {
  const lang = encodeURIComponent(locale);
  const answer = await planning.batch({
    review: { url: `review/client/${clientId}`, schema: ReviewAnswerWire },
    config: { url: `review/config?site_locales=${lang}`, schema: ConfigAnswer },
    playback: { url: `review/client/${clientId}/playback?site_locales=${lang}`, schema: PlaybackAnswer },
  });
  return {
    status: toStatus(answer.review),
    pages: answer.config.pages.map(toPage).sort((a, b) => a.order - b.order),
    playback: answer.playback,
  };
}

/** spec 002 §4 "Review flow": Next stores the responses (a PUT: the same state twice is harmless). */
export async function saveReviewState(
  planning: PlanningClient,
  clientId: number,
  state: Omit<ReviewState, "isSubmitted">,
): Promise<ReviewStatus> {
  return toStatus(
    await planning.put(`resourceful/review/client/${clientId}/state`, ReviewAnswerWire, {
      body: {
        order: state.order,
        respond_for_partner: state.respondForPartner,
        client_questions: state.clientQuestions.map(fromAnswer),
        partner_questions: state.partnerQuestions.map(fromAnswer),
      },
    }),
  );
}

/** spec 002 §4: exit from completion resets the review state. */
export async function resetReviewState(planning: PlanningClient, clientId: number): Promise<void> {
  await planning.delete(`resourceful/review/client/${clientId}/state`);
}

export type SubmissionPerson = {
  id: number;
  partnerId?: number;
  name: string;
  responses: ReviewAnswer[];
  status: "ChangesReported" | "NoChangesReported";
};

/**
 * spec 002 §4 "Review flow" Submit: a message per person. Not retried (a second try would post a
 * second message). Answers one entry per person; an entry with a user or api message failed.
 */
/** The messages are written in the review's language (`locale`: its pages, the words around them). */
export async function submitReview(
  planning: PlanningClient,
  clientId: number,
  r: { client: SubmissionPerson; partner: SubmissionPerson | null; clientAccess: number; locale: string },
) {
  const person = (p: SubmissionPerson) => ({
    id: p.id,
    ...(p.partnerId !== undefined ? { partner_id: p.partnerId } : {}),
    name: p.name,
    responses: p.responses.map(fromAnswer),
    status: p.status,
  });
  return planning.post(`resourceful/review/client/${clientId}/submit`, SubmitAnswer, {
    body: {
      client: person(r.client),
      ...(r.partner ? { partner: person(r.partner) } : {}),
      client_access: r.clientAccess,
    },
    query: { site_locales: r.locale },
    retry: false,
  });
}
