import { json, redirect } from "@remix-run/node";
import type { TFunction } from "i18next";
import { countryName } from "~/lib/address";
import { formatDate } from "~/lib/format-date.server";
import type { Locale } from "~/lib/i18n";
import {
  REVIEW_HOME,
  REVIEW_PATH,
  allAnswered,
  answersFor,
  isPhoneField,
  isQuestionPage,
  neighbour,
  playbackLines,
  questionText,
  readAnswers,
  readYesNo,
  REQUIRED_ANSWER,
  REVIEW_STATUS_TEXT,
  type ReviewAnswer,
  type ReviewPage,
  reviewProgress,
  type ReviewState,
  ReviewStatus,
  reviewStatusOf,
  submissionStatus,
  withAnswer,
  currentPage,
} from "~/lib/review";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import type { SpeakToAdviser } from "~/lib/speak-to-adviser";
import { fetchContactUs, fetchSpeakToAdviser, toContactUsView } from "~/planning/adviser.server";
import { patchClientStatus } from "~/planning/notifications.server";
import type { PlanningClient } from "~/planning/client.server";
import {
  fetchReview,
  type Playback,
  resetReviewState,
  type ReviewStatus as ReviewStatusAnswer,
  type RiskProfile,
  saveReviewState,
  submitReview,
} from "~/planning/review.server";
import { attempt, orFail } from "~/session/failures.server";
import { logger } from "~/runtime/logger.server";

// spec 002 "Annual Review page", §4 "Review flow", §5 "Review", §8 "Review and notifications"
// (docs/decisions/098-annual-review.md): the review's pages by their order in the URL (?page=),
// the answers kept by the platform at every Next and Previous, each page one plain post.

export type Loaded = { status: ReviewStatusAnswer; pages: ReviewPage[]; playback: Playback };

export type PersonAnswer = { response: "yes" | "no" | null; additionalText: string };

export type PlaybackRow = {
  fieldName: string;
  label: string;
  client: string[] | null;
  partner: string[] | null;
  phone: boolean;
};

export type RiskView = { rating: string | null; description: string | null };

export type ReviewView = {
  kind: "page" | "followUp";
  page: {
    order: number;
    type: ReviewPage["type"];
    heading: string;
    secondaryHeading: string | null;
    introHtml: string | null;
    hint: string | null;
    showAdditionalInformation: boolean;
  };
  /** The question pages and where this one is among them ('Question 2 of 6'). */
  position: { index: number; total: number } | null;
  progress: { arrival: number; answered: number; shown: number };
  clientName: string;
  partnerName: string | null;
  canAnswerForPartner: boolean;
  respondForPartner: boolean;
  /** The introduction's 'Answer on behalf of your partner' as stored. */
  partnerChoice: "yes" | "no" | null;
  questions: { client: string; partner: string | null } | null;
  answers: { client: PersonAnswer; partner: PersonAnswer };
  risk: { client: RiskView; partner: RiskView | null } | null;
  playback: PlaybackRow[] | null;
  summary: string | null;
  completion: {
    successText: string | null;
    adviserHeader: string | null;
    advisers: {
      name: string;
      phones: { text: string; href: string }[];
      email: { text: string; href: string } | null;
    }[];
  } | null;
  previousOrder: number | null;
  /** A review whose answers are open: Log out asks first, and leaving the page warns (spec 000 §2, 002 §4). */
  inProgress: boolean;
  /** The introduction's 'Speak to adviser', or whom to contact instead (issue 25 item 12); null elsewhere. */
  speakToAdviser: SpeakToAdviser | null;
};

const toPersonAnswer = (a: ReviewAnswer | undefined): PersonAnswer => ({
  response: a?.response === true ? "yes" : a?.response === false ? "no" : null,
  additionalText: a?.additionalText ?? "",
});

function riskView(profile: RiskProfile | null | undefined, t: TFunction): RiskView {
  if (!profile || profile.is_empty || profile.index === null) return { rating: null, description: null };
  return {
    rating: t("review:risk.rating", { index: profile.index, name: profile.name ?? "" }),
    description: profile.description,
  };
}

/** A playback value as the page shows it: dates in the locale, a country by its name, other values split by line. */
function playbackValue(fieldName: string, value: string | null, locale: Locale): string[] | null {
  if (fieldName === "dob" && value && /^\d{4}-\d{2}-\d{2}$/.test(value)) return [formatDate(value, locale)];
  if (fieldName === "country_of_birth" && value?.trim()) return [countryName(value.trim(), locale)];
  return playbackLines(value);
}

/** The page asked for in the URL: ?page=<order>. */
export function askedPage(url: URL): number | null {
  const raw = url.searchParams.get("page");
  if (!raw || !/^\d{1,3}$/.test(raw)) return null;
  return Number(raw);
}

/** spec 002: the page shows only while the review is in progress or has been submitted. */
export function reviewIsOpen(status: ReviewStatusAnswer): boolean {
  return reviewStatusOf(status.reviewStatus) === ReviewStatus.InProgress || Boolean(status.state?.isSubmitted);
}

/** The partner's part of the review: answered for only when the platform allows it and the client chose to. */
function respondingForPartner(status: ReviewStatusAnswer): boolean {
  return Boolean(status.canAnswerForPartner && status.partner && status.state?.respondForPartner);
}

/** spec 002 §4: a contact or personal details page shows the values the platform holds, the partner's beside. */
function playbackRows(
  page: ReviewPage,
  playback: Loaded["playback"],
  respondForPartner: boolean,
  locale: Locale,
): PlaybackRow[] | null {
  if (page.type !== "contactDetailsQuestionPage" && page.type !== "personalDetailsQuestionPage") return null;
  return page.fields
    .filter((f) => f.enabled)
    .map((f) => {
      const value = playback.values.find((v) => v.field_name === f.fieldName);
      return {
        fieldName: f.fieldName,
        label: f.description,
        client: playbackValue(f.fieldName, value?.client_value ?? null, locale),
        partner: respondForPartner ? playbackValue(f.fieldName, value?.partner_value ?? null, locale) : null,
        phone: isPhoneField(f.fieldName),
      };
    });
}

/** spec 002 §4: the submission page says whether the answers report changes. */
function submissionSummary(page: ReviewPage, loaded: Loaded, respondForPartner: boolean): string | null {
  const state = loaded.status.state;
  if (page.type !== "submission" || !state) return null;
  const all = [
    ...answersFor(loaded.pages, state.clientQuestions),
    ...(respondForPartner ? answersFor(loaded.pages, state.partnerQuestions) : []),
  ];
  return submissionStatus(all) === "ChangesReported" ? page.changesText : page.noChangesText;
}

export function buildView(loaded: Loaded, page: ReviewPage, r: { t: TFunction; locale: Locale }): ReviewView {
  const { status, pages, playback } = loaded;
  const { t, locale } = r;
  const state = status.state;
  const respondForPartner = respondingForPartner(status);
  const partnerName = status.partner?.name ?? playback.partner?.name ?? null;
  const questionsOf = { respondForPartner, partnerName };
  const stored = {
    client: state?.clientQuestions.find((a) => a.id === page.order),
    partner: state?.partnerQuestions.find((a) => a.id === page.order),
  };
  const answers = { client: toPersonAnswer(stored.client), partner: toPersonAnswer(stored.partner) };
  const answered = answers.client.response !== null && (!respondForPartner || answers.partner.response !== null);
  const questionList = pages.filter(isQuestionPage);
  const index = questionList.findIndex((p) => p.order === page.order);
  const arrival = reviewProgress(pages, page.order, false);
  const done = reviewProgress(pages, page.order, true);
  const isQuestion = isQuestionPage(page);

  const risk: ReviewView["risk"] =
    page.type === "riskProfileQuestion"
      ? {
          client: riskView(playback.risk_profile.client, t),
          partner: respondForPartner ? riskView(playback.risk_profile.partner, t) : null,
        }
      : null;
  const previous = neighbour(pages, page.order, -1);
  return {
    kind: "page",
    page: {
      order: page.order,
      type: page.type,
      heading: page.heading,
      secondaryHeading: page.secondaryHeading,
      introHtml: page.introductionText ? sanitiseTextPage(page.introductionText) : null,
      hint: page.hint,
      showAdditionalInformation: page.showAdditionalInformation,
    },
    position: index >= 0 ? { index: index + 1, total: questionList.length } : null,
    progress: { arrival, answered: done, shown: isQuestion && answered ? done : arrival },
    clientName: playback.client.name,
    partnerName,
    canAnswerForPartner: Boolean(status.canAnswerForPartner && status.partner),
    respondForPartner,
    partnerChoice: state?.respondForPartner === true ? "yes" : state?.respondForPartner === false ? "no" : null,
    questions: isQuestion
      ? {
          client: questionText(page, "client", questionsOf),
          partner: respondForPartner ? questionText(page, "partner", questionsOf) : null,
        }
      : null,
    answers,
    risk,
    playback: playbackRows(page, loaded.playback, respondForPartner, locale),
    summary: submissionSummary(page, loaded, respondForPartner),
    completion: null,
    previousOrder: page.type === "reviewIntro" || page.type === "completion" || !previous ? null : previous.order,
    inProgress: !state?.isSubmitted && page.type !== "completion",
    speakToAdviser: null,
  };
}

type LoadArgs = {
  request: Request;
  planning: PlanningClient;
  clientId: number;
  role: string;
  /** The client's access level as the platform numbers it (spec 002 §3 the submission's clientAccess). */
  clientAccess: number;
  t: TFunction;
  locale: Locale;
};

async function load(a: LoadArgs): Promise<Loaded> {
  return orFail(a.request, fetchReview(a.planning, a.clientId, a.locale));
}

const speakToAdviserFor = (a: LoadArgs) =>
  fetchSpeakToAdviser(a.planning, { locale: a.locale, role: a.role, clientId: a.clientId });

/** The completion page's adviser details, when its content asks for them (a failure shows none). */
async function completionOf(a: LoadArgs, page: ReviewPage): Promise<NonNullable<ReviewView["completion"]>> {
  let advisers: NonNullable<ReviewView["completion"]>["advisers"] = [];
  if (page.displayAdviserDetail) {
    try {
      const view = toContactUsView(
        await fetchContactUs(a.planning, { locale: a.locale, role: a.role, clientId: a.clientId }),
        a.locale,
      );
      advisers = view.advisers.map((card) => ({ name: card.name, phones: card.phones, email: card.email }));
    } catch (error) {
      logger.error("review completion: adviser details unavailable", { error: String(error) });
    }
  }
  return {
    successText: page.successText,
    adviserHeader: page.displayAdviserDetail ? page.adviserDetailsHeader : null,
    advisers,
  };
}

export async function reviewLoader(a: LoadArgs) {
  const url = new URL(a.request.url);
  const loaded = await load(a);
  const { status, pages } = loaded;
  // 'Speak to adviser' on the introduction: its confirmation, once the status says so
  if (
    url.searchParams.get("outcome") === "follow-up" &&
    reviewStatusOf(status.reviewStatus) === ReviewStatus.FollowUpRequired
  ) {
    const intro = pages.find((p) => p.type === "reviewIntro") ?? pages[0];
    if (intro) {
      const view = buildView(loaded, intro, a);
      return json({
        title: a.t("review:title"),
        confirmLogout: false,
        view: { ...view, kind: "followUp" as const, inProgress: false, previousOrder: null },
      });
    }
  }
  if (!reviewIsOpen(status)) throw redirect(REVIEW_HOME);
  const page = currentPage(pages, status.state, askedPage(url));
  if (!page) throw redirect(REVIEW_HOME);
  const view = buildView(loaded, page, a);
  if (page.type === "completion") view.completion = await completionOf(a, page);
  if (page.type === "reviewIntro") view.speakToAdviser = await orFail(a.request, speakToAdviserFor(a));
  // spec 000 §2: while the review is open, Log out asks first (the shell reads confirmLogout)
  // each step titled by its own heading, then the review's (WCAG 2.4.2: the steps are told apart)
  const title = page.heading ? `${page.heading} – ${a.t("review:title")}` : a.t("review:title");
  return json({ title, confirmLogout: view.inProgress, view });
}

// ── the posts ───────────────────────────────────────────────────────────────────────────────

const INTENTS = ["start", "speak", "next", "previous", "submit", "finish"] as const;
type Intent = (typeof INTENTS)[number];

function personInput(form: FormData, who: "client" | "partner"): PersonAnswer {
  const response = readYesNo(String(form.get(who) ?? ""));
  const text = form.get(`${who}Text`);
  return {
    response: response === true ? "yes" : response === false ? "no" : null,
    additionalText: typeof text === "string" ? text : "",
  };
}

const pageHref = (order: number) => `${REVIEW_PATH}?page=${order}`;

/** A post on an open review, at the page it was made on, with the state the platform keeps. */
type PostContext = {
  a: LoadArgs & { form: FormData };
  loaded: Loaded;
  page: ReviewPage;
  base: Omit<ReviewState, "isSubmitted">;
};

/** spec 002 §4: exit from completion resets the review state. */
async function finishReview(a: LoadArgs) {
  const reset = await attempt(a.request, resetReviewState(a.planning, a.clientId));
  if (!reset.ok) logger.error("review reset failed", { status: reset.error.status });
  return redirect(REVIEW_HOME);
}

/** 'Speak to adviser' on the introduction: the status becomes follow-up required. */
async function speakToAdviser({ a, page }: PostContext) {
  // a client without an adviser is not offered it (issue 25 item 12): a post from an old page changes nothing
  if (!(await orFail(a.request, speakToAdviserFor(a))).offered) return redirect(pageHref(page.order));
  // spec 002 §4: speak to adviser sets the status to follow-up required (and so dismisses the notification)
  await orFail(
    a.request,
    patchClientStatus(a.planning, a.clientId, {
      xpt_review_status: REVIEW_STATUS_TEXT[ReviewStatus.FollowUpRequired],
    }),
  );
  return redirect(`${REVIEW_PATH}?outcome=follow-up`);
}

/** Start on the introduction: whether the client answers for their partner too, then the first page. */
async function startReview({ a, loaded, page, base }: PostContext) {
  const { status, pages } = loaded;
  const next = neighbour(pages, page.order, 1);
  let respondForPartner = false;
  if (status.canAnswerForPartner && status.partner) {
    const choice = readYesNo(String(a.form.get("respondForPartner") ?? ""));
    if (choice === null) {
      return json(
        {
          errors: { respondForPartner: REQUIRED_ANSWER },
          typed: { client: emptyAnswer, partner: emptyAnswer, respondForPartner: null },
        },
        { status: 400 },
      );
    }
    respondForPartner = choice;
  }
  if (!next) return redirect(REVIEW_PATH);
  await orFail(
    a.request,
    saveReviewState(a.planning, a.clientId, { ...base, respondForPartner, order: Math.max(base.order, next.order) }),
  );
  return redirect(pageHref(next.order));
}

/** Submit on the submission page, once every question is answered. */
async function submitAnswers({ a, loaded, page, base }: PostContext) {
  const respondForPartner = respondingForPartner(loaded.status);
  if (page.type !== "submission" || !allAnswered(loaded.pages, { ...base, respondForPartner }))
    return redirect(REVIEW_PATH);
  return submit(a, loaded, base, respondForPartner);
}

/**
 * Next and Previous: the page's answers kept (Previous keeps what was chosen so far, answered or
 * not; Next only a complete answer, else the page again with its errors), then the page beside.
 */
async function turnPage({ a, loaded, page, base }: PostContext, intent: "next" | "previous") {
  const { status, pages } = loaded;
  const respondForPartner = respondingForPartner(status);
  const partnerName = status.partner?.name ?? loaded.playback.partner?.name ?? null;
  const typed = {
    client: personInput(a.form, "client"),
    partner: personInput(a.form, "partner"),
    respondForPartner: null,
  };
  if (isQuestionPage(page)) {
    const read = readAnswers(
      page,
      {
        client: { response: typed.client.response, additionalText: typed.client.additionalText },
        partner: respondForPartner ? typed.partner : null,
      },
      { respondForPartner, partnerName },
    );
    if (intent === "next" && (read.errors.client || read.errors.partner)) {
      return json({ errors: read.errors, typed }, { status: 400 });
    }
    const keep = (list: ReviewAnswer[], answer: ReviewAnswer | null) =>
      answer && (intent === "next" || answer.response !== null) ? withAnswer(list, answer) : list;
    base.clientQuestions = keep(base.clientQuestions, read.client);
    base.partnerQuestions = keep(base.partnerQuestions, read.partner);
  }
  const target = neighbour(pages, page.order, intent === "next" ? 1 : -1);
  if (!target) return redirect(pageHref(page.order));
  if (intent === "next") base.order = Math.max(base.order, target.order);
  const saved = await attempt(a.request, saveReviewState(a.planning, a.clientId, base));
  if (!saved.ok) {
    // the answers stay on the page; the platform's refusal is the catalogue's text
    return json({ failure: saved.error.failure, errors: {}, typed }, { status: saved.error.failure.status });
  }
  return redirect(pageHref(target.order));
}

/** What each post on an open review does, by its intent. */
const POST_HANDLERS = {
  speak: speakToAdviser,
  start: startReview,
  submit: submitAnswers,
  next: (ctx: PostContext) => turnPage(ctx, "next"),
  previous: (ctx: PostContext) => turnPage(ctx, "previous"),
} satisfies Record<Exclude<Intent, "finish">, (ctx: PostContext) => Promise<Response>>;

/** The page a post was made on, and the review state to build on (the stored one, or a fresh one at that page). */
function postedPage(form: FormData, loaded: Loaded): Pick<PostContext, "page" | "base"> | null {
  const state = loaded.status.state;
  const asked = Number(form.get("page"));
  const page = currentPage(loaded.pages, state, Number.isInteger(asked) ? asked : null);
  if (!page) return null;
  const base = {
    order: state?.order ?? page.order,
    respondForPartner: state?.respondForPartner ?? null,
    clientQuestions: state?.clientQuestions ?? [],
    partnerQuestions: state?.partnerQuestions ?? [],
  };
  return { page, base };
}

export async function reviewAction(a: LoadArgs & { form: FormData }) {
  const intent = String(a.form.get("intent") ?? "") as Intent;
  if (!INTENTS.includes(intent)) return json({ errors: {}, typed: null }, { status: 400 });
  const loaded = await load(a);
  if (intent === "finish") return finishReview(a);
  if (!reviewIsOpen(loaded.status)) return redirect(REVIEW_HOME);
  if (loaded.status.state?.isSubmitted) return redirect(REVIEW_PATH);
  const posted = postedPage(a.form, loaded);
  if (!posted) return redirect(REVIEW_HOME);
  return POST_HANDLERS[intent]({ a, loaded, ...posted });
}

const emptyAnswer: PersonAnswer = { response: null, additionalText: "" };

/**
 * spec 002 §4 "Review flow" Submit: a message per person, then the review status of each, then the
 * result. The submission fails when an answer carries a user or api message (§8).
 */
async function submit(
  a: LoadArgs,
  loaded: Loaded,
  state: Omit<ReviewState, "isSubmitted">,
  respondForPartner: boolean,
) {
  const { status, pages, playback } = loaded;
  const client = answersFor(pages, state.clientQuestions);
  const partnerAnswers = respondForPartner ? answersFor(pages, state.partnerQuestions) : [];
  const partner = respondForPartner && status.partner ? status.partner : null;
  const people = {
    client: { id: a.clientId, name: playback.client.name, responses: client, status: submissionStatus(client) },
    partner: partner
      ? {
          id: partner.id,
          partnerId: a.clientId,
          name: partner.name,
          responses: partnerAnswers,
          status: submissionStatus(partnerAnswers),
        }
      : null,
  };
  const failed = () => json({ submitFailed: true as const }, { status: 502 });
  const sent = await attempt(
    a.request,
    submitReview(a.planning, a.clientId, { ...people, clientAccess: a.clientAccess, locale: a.locale }),
  );
  if (!sent.ok || sent.value.some((entry) => entry.user_message || entry.api_message)) {
    logger.error("review submission failed", { clientId: a.clientId, status: sent.ok ? 200 : sent.error.status });
    return failed();
  }
  const statusText = (s: "ChangesReported" | "NoChangesReported") =>
    REVIEW_STATUS_TEXT[s === "ChangesReported" ? ReviewStatus.ChangesReported : ReviewStatus.NoChangesReported];
  const patches = [patchClientStatus(a.planning, a.clientId, { xpt_review_status: statusText(people.client.status) })];
  if (people.partner)
    patches.push(
      patchClientStatus(a.planning, people.partner.id, { xpt_review_status: statusText(people.partner.status) }),
    );
  const patched = await attempt(a.request, Promise.all(patches));
  if (!patched.ok) {
    logger.error("review status not set after submission", { clientId: a.clientId, status: patched.error.status });
    return failed();
  }
  const completion = pages.find((p) => p.type === "completion");
  return redirect(completion ? pageHref(completion.order) : REVIEW_PATH);
}
