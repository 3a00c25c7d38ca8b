// spec 002 "Annual Review page", §3 "Review state", "Review page config", §4 "Review status",
// "Review flow", §5 "Review": the annual review's pure rules, shared by the server and the browser.

export const REVIEW_PATH = "/clients/annual-review";
/** spec 002: Finish goes to the configured home URL: the clients home. */
export const REVIEW_HOME = "/clients/";

export const REVIEW_PAGE_TYPES = [
  "reviewIntro",
  "standardQuestionPage",
  "riskProfileQuestion",
  "contactDetailsQuestionPage",
  "personalDetailsQuestionPage",
  "submission",
  "completion",
] as const;
export type ReviewPageType = (typeof REVIEW_PAGE_TYPES)[number];

export type ReviewPage = {
  order: number;
  type: ReviewPageType;
  heading: string;
  secondaryHeading: string | null;
  introductionText: string | null;
  clientQuestion: string | null;
  partnerQuestion: string | null;
  alternateClientQuestion: string | null;
  alternatePartnerQuestion: string | null;
  hint: string | null;
  showAdditionalInformation: boolean;
  fields: { fieldName: string; description: string; enabled: boolean }[];
  changesText: string | null;
  noChangesText: string | null;
  successText: string | null;
  errorText: string | null;
  displayAdviserDetail: boolean;
  adviserDetailsHeader: string | null;
};

/** spec 002 §3: one answer; its id is the order of its page. */
export type ReviewAnswer = { id: number; question: string; response: boolean | null; additionalText: string | null };

export type ReviewState = {
  /** The furthest page reached (its order). */
  order: number;
  respondForPartner: boolean | null;
  clientQuestions: ReviewAnswer[];
  partnerQuestions: ReviewAnswer[];
  isSubmitted: boolean;
};

/** spec 002 §4: None=1, InProgress=2, FollowUpRequired=3, ChangesReported=4, NoChangesReported=5. */
export enum ReviewStatus {
  None = 1,
  InProgress = 2,
  FollowUpRequired = 3,
  ChangesReported = 4,
  NoChangesReported = 5,
}

const STATUS_TEXTS: Record<string, ReviewStatus> = {
  "": ReviewStatus.None,
  "in progress": ReviewStatus.InProgress,
  "follow up required": ReviewStatus.FollowUpRequired,
  "changes reported": ReviewStatus.ChangesReported,
  "no changes reported": ReviewStatus.NoChangesReported,
};

/** The platform's status text ('In Progress' …, matched case-insensitively) or number; unknown reads as None. */
export function reviewStatusOf(value: string | number | null | undefined): ReviewStatus {
  if (typeof value === "number") return value >= 1 && value <= 5 ? (value as ReviewStatus) : ReviewStatus.None;
  return STATUS_TEXTS[(value ?? "").trim().toLowerCase().replace(/\s+/g, " ")] ?? ReviewStatus.None;
}

/** The text the platform takes for a status (PATCH xpt_review_status). */
export const REVIEW_STATUS_TEXT: Record<ReviewStatus, string> = {
  [ReviewStatus.None]: "",
  [ReviewStatus.InProgress]: "In Progress",
  [ReviewStatus.FollowUpRequired]: "Follow Up Required",
  [ReviewStatus.ChangesReported]: "Changes Reported",
  [ReviewStatus.NoChangesReported]: "No Changes Reported",
};

const QUESTION_TYPES: ReadonlySet<ReviewPageType> = new Set([
  "standardQuestionPage",
  "riskProfileQuestion",
  "contactDetailsQuestionPage",
  "personalDetailsQuestionPage",
]);

export const isQuestionPage = (page: Pick<ReviewPage, "type">) => QUESTION_TYPES.has(page.type);

/** The question pages in order: the progress bar counts these. */
export function questionPages<P extends Pick<ReviewPage, "type" | "order">>(pages: readonly P[]): P[] {
  return pages.filter(isQuestionPage).sort((a, b) => a.order - b.order);
}

/**
 * spec 002 §4 "Review flow": progress = (order-1)/questions*100 on arrival at a question,
 * order/questions*100 once it is answered, 100 at submission; order counts the question pages
 * (1 for the first). 0 on the introduction. Rounded down to a whole percent.
 */
export function reviewProgress(
  pages: readonly Pick<ReviewPage, "type" | "order">[],
  current: number,
  answered: boolean,
): number {
  const questions = questionPages(pages);
  const page = pages.find((p) => p.order === current);
  if (!page || page.type === "reviewIntro" || questions.length === 0) return 0;
  if (page.type === "submission" || page.type === "completion") return 100;
  const position = questions.findIndex((q) => q.order === current) + 1;
  if (position === 0) return 0;
  return Math.floor(((answered ? position : position - 1) / questions.length) * 100);
}

/** The page after or before `order`, in the pages' order (null at either end). */
export function neighbour<P extends Pick<ReviewPage, "order">>(
  pages: readonly P[],
  order: number,
  step: 1 | -1,
): P | null {
  const sorted = [...pages].sort((a, b) => a.order - b.order);
  const index = sorted.findIndex((p) => p.order === order);
  if (index < 0) return null;
  return sorted[index + step] ?? null;
}

/** spec 002 §3: ChangesReported if any response is yes, otherwise NoChangesReported. */
export function submissionStatus(
  responses: readonly Pick<ReviewAnswer, "response">[],
): "ChangesReported" | "NoChangesReported" {
  return responses.some((r) => r.response === true) ? "ChangesReported" : "NoChangesReported";
}

/**
 * The question a page asks: the client's own wording when they answer only for themselves, the
 * alternate one when they answer for their partner too; the partner's with the partner's name (the
 * alternate one when there is no name).
 */
export function questionText(
  page: ReviewPage,
  who: "client" | "partner",
  r: { respondForPartner: boolean; partnerName: string | null },
): string {
  if (who === "client") {
    const text = r.respondForPartner ? page.alternateClientQuestion || page.clientQuestion : page.clientQuestion;
    return text || page.heading;
  }
  const name = r.partnerName?.trim();
  const text = name
    ? page.partnerQuestion?.replace(/\{partnerName\}/g, name)
    : page.alternatePartnerQuestion || page.partnerQuestion?.replace(/\{partnerName\}/g, "");
  return text || page.heading;
}

export type AnswerInput = { response: string | null; additionalText: string | null };
export type AnswerErrors = { client?: string; partner?: string };

export const REQUIRED_ANSWER = "review:errors.required";
/** The additional text's limit (the platform's). */
export const ADDITIONAL_TEXT_MAX = 4000;
export const ADDITIONAL_TEXT_TOO_LONG = "review:errors.tooLong";

/** 'yes' or 'no' as the form sends them; anything else is no answer. */
export function readYesNo(value: string | null | undefined): boolean | null {
  return value === "yes" ? true : value === "no" ? false : null;
}

/**
 * spec 002 §5 "Review": a Yes/No answer is required for the client and, when answering for the
 * partner, for the partner ('This question requires an answer'). The additional text is kept only
 * with a Yes on a page that asks for it.
 */
export function readAnswers(
  page: ReviewPage,
  input: { client: AnswerInput; partner: AnswerInput | null },
  r: { respondForPartner: boolean; partnerName: string | null },
): { errors: AnswerErrors; client: ReviewAnswer; partner: ReviewAnswer | null } {
  const errors: AnswerErrors = {};
  const one = (who: "client" | "partner", value: AnswerInput): ReviewAnswer => {
    const response = readYesNo(value.response);
    if (response === null) errors[who] = REQUIRED_ANSWER;
    const text = page.showAdditionalInformation && response === true ? (value.additionalText ?? "").trim() : "";
    if (text.length > ADDITIONAL_TEXT_MAX && !errors[who]) errors[who] = ADDITIONAL_TEXT_TOO_LONG;
    return { id: page.order, question: questionText(page, who, r), response, additionalText: text || null };
  };
  const client = one("client", input.client);
  const partner = r.respondForPartner
    ? one("partner", input.partner ?? { response: null, additionalText: null })
    : null;
  return { errors, client, partner };
}

/** Replaces (or adds) the answer to one page, keeping the answers in page order. */
export function withAnswer(answers: readonly ReviewAnswer[], answer: ReviewAnswer): ReviewAnswer[] {
  return [...answers.filter((a) => a.id !== answer.id), answer].sort((a, b) => a.id - b.id);
}

/** The answers that belong to the review's question pages (an answer to a removed page is dropped). */
export function answersFor(
  pages: readonly Pick<ReviewPage, "type" | "order">[],
  answers: readonly ReviewAnswer[],
): ReviewAnswer[] {
  const ids = new Set(questionPages(pages).map((p) => p.order));
  return answers.filter((a) => ids.has(a.id));
}

/** Every question page has an answer for the client (and the partner when answering for them). */
export function allAnswered(
  pages: readonly Pick<ReviewPage, "type" | "order">[],
  state: Pick<ReviewState, "clientQuestions" | "partnerQuestions" | "respondForPartner">,
): boolean {
  const answered = (list: readonly ReviewAnswer[], order: number) =>
    list.some((a) => a.id === order && a.response !== null);
  return questionPages(pages).every(
    (p) =>
      answered(state.clientQuestions, p.order) &&
      (!state.respondForPartner || answered(state.partnerQuestions, p.order)),
  );
}

/**
 * Which page to show: the one asked for, if reached; else the furthest reached (the stored order);
 * the introduction when nothing is stored. A submitted review shows its completion.
 */
export function currentPage(
  pages: readonly ReviewPage[],
  state: Pick<ReviewState, "order" | "isSubmitted"> | null,
  asked: number | null,
): ReviewPage | null {
  const sorted = [...pages].sort((a, b) => a.order - b.order);
  if (sorted.length === 0) return null;
  if (state?.isSubmitted) return sorted.find((p) => p.type === "completion") ?? sorted[sorted.length - 1]!;
  const reached = state?.order ?? sorted[0]!.order;
  const submissionOrder = sorted.find((p) => p.type === "submission")?.order ?? Infinity;
  // before submitting, nothing past the submission page can be shown
  const limit = Math.min(reached, submissionOrder);
  const wanted = asked !== null && asked <= limit ? asked : limit;
  return sorted.find((p) => p.order === wanted) ?? sorted.filter((p) => p.order <= wanted).pop() ?? sorted[0]!;
}

/** spec 002 "Annual Review page": the playback's phone fields show as phone links. */
export const isPhoneField = (fieldName: string) => /phone/i.test(fieldName);

/** spec 002 "Annual Review page": multi-line values split by line breaks; empty is none supplied (null). */
export function playbackLines(value: string | null | undefined): string[] | null {
  const lines = (value ?? "")
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length ? lines : null;
}

/** A phone number as a tel: link target: digits and a leading plus only. */
export function telHref(value: string): string {
  const trimmed = value.trim();
  return `tel:${trimmed.startsWith("+") ? "+" : ""}${trimmed.replace(/[^\d]/g, "")}`;
}
