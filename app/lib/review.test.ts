import { describe, expect, it } from "vitest";
import {
  allAnswered,
  answersFor,
  currentPage,
  isPhoneField,
  neighbour,
  playbackLines,
  questionText,
  readAnswers,
  REQUIRED_ANSWER,
  type ReviewPage,
  reviewProgress,
  ReviewStatus,
  reviewStatusOf,
  submissionStatus,
  telHref,
  withAnswer,
} from "./review";

const page = (order: number, type: ReviewPage["type"], extra: Partial<ReviewPage> = {}): ReviewPage => ({
  order,
  type,
  heading: `Page ${order}`,
  secondaryHeading: null,
  introductionText: null,
  clientQuestion: `Have your circumstances changed (${order})?`,
  partnerQuestion: `Have {partnerName}'s circumstances changed (${order})?`,
  alternateClientQuestion: `Have your own circumstances changed (${order})?`,
  alternatePartnerQuestion: `Have your partner's circumstances changed (${order})?`,
  hint: null,
  showAdditionalInformation: true,
  fields: [],
  changesText: null,
  noChangesText: null,
  successText: null,
  errorText: null,
  displayAdviserDetail: false,
  adviserDetailsHeader: null,
  ...extra,
});

// introduction, four questions, submission, completion
const PAGES = [
  page(1, "reviewIntro"),
  page(2, "standardQuestionPage"),
  page(3, "riskProfileQuestion"),
  page(4, "contactDetailsQuestionPage"),
  page(5, "personalDetailsQuestionPage"),
  page(6, "submission"),
  page(7, "completion"),
];

describe("reviewStatusOf (spec 002 §4)", () => {
  it("matches the texts case-insensitively, empty as None", () => {
    expect(reviewStatusOf("In Progress")).toBe(ReviewStatus.InProgress);
    expect(reviewStatusOf("in progress")).toBe(ReviewStatus.InProgress);
    expect(reviewStatusOf("FOLLOW UP REQUIRED")).toBe(ReviewStatus.FollowUpRequired);
    expect(reviewStatusOf("Changes Reported")).toBe(ReviewStatus.ChangesReported);
    expect(reviewStatusOf("No Changes Reported")).toBe(ReviewStatus.NoChangesReported);
    expect(reviewStatusOf("")).toBe(ReviewStatus.None);
    expect(reviewStatusOf(null)).toBe(ReviewStatus.None);
  });
  it("takes the numbers 1–5 and reads anything else as None", () => {
    expect(reviewStatusOf(2)).toBe(ReviewStatus.InProgress);
    expect(reviewStatusOf(5)).toBe(ReviewStatus.NoChangesReported);
    expect(reviewStatusOf(9)).toBe(ReviewStatus.None);
    expect(reviewStatusOf("Pending")).toBe(ReviewStatus.None);
  });
});

describe("reviewProgress (spec 002 §4: (order-1)/questions on arrival, order/questions answered, 100 at submission)", () => {
  it("is 0 on the introduction", () => {
    expect(reviewProgress(PAGES, 1, false)).toBe(0);
  });
  it("counts question pages only", () => {
    expect(reviewProgress(PAGES, 2, false)).toBe(0);
    expect(reviewProgress(PAGES, 2, true)).toBe(25);
    expect(reviewProgress(PAGES, 3, false)).toBe(25);
    expect(reviewProgress(PAGES, 4, true)).toBe(75);
    expect(reviewProgress(PAGES, 5, true)).toBe(100);
  });
  it("rounds down to a whole percent", () => {
    const three = [
      page(1, "reviewIntro"),
      page(2, "standardQuestionPage"),
      page(3, "standardQuestionPage"),
      page(4, "standardQuestionPage"),
      page(5, "submission"),
    ];
    expect(reviewProgress(three, 2, true)).toBe(33);
    expect(reviewProgress(three, 3, true)).toBe(66);
  });
  it("is 100 at submission and completion", () => {
    expect(reviewProgress(PAGES, 6, false)).toBe(100);
    expect(reviewProgress(PAGES, 7, false)).toBe(100);
  });
  it("is 0 for an unknown page", () => {
    expect(reviewProgress(PAGES, 42, true)).toBe(0);
  });
});

describe("neighbour", () => {
  it("moves along the pages' order", () => {
    expect(neighbour(PAGES, 2, 1)?.order).toBe(3);
    expect(neighbour(PAGES, 2, -1)?.order).toBe(1);
    expect(neighbour(PAGES, 1, -1)).toBeNull();
    expect(neighbour(PAGES, 7, 1)).toBeNull();
    expect(neighbour(PAGES, 99, 1)).toBeNull();
  });
});

describe("submissionStatus (spec 002 §3)", () => {
  it("is ChangesReported when any response is yes", () => {
    expect(submissionStatus([{ response: false }, { response: true }])).toBe("ChangesReported");
    expect(submissionStatus([{ response: false }, { response: false }])).toBe("NoChangesReported");
    expect(submissionStatus([])).toBe("NoChangesReported");
  });
});

describe("questionText", () => {
  const p = PAGES[1]!;
  it("asks the client's own question, or the alternate one when answering for the partner", () => {
    expect(questionText(p, "client", { respondForPartner: false, partnerName: "James" })).toBe(
      "Have your circumstances changed (2)?",
    );
    expect(questionText(p, "client", { respondForPartner: true, partnerName: "James" })).toBe(
      "Have your own circumstances changed (2)?",
    );
  });
  it("names the partner, or uses the alternate question without a name", () => {
    expect(questionText(p, "partner", { respondForPartner: true, partnerName: "James Hartley" })).toBe(
      "Have James Hartley's circumstances changed (2)?",
    );
    expect(questionText(p, "partner", { respondForPartner: true, partnerName: " " })).toBe(
      "Have your partner's circumstances changed (2)?",
    );
  });
  it("falls back to the heading when the page has no question", () => {
    expect(
      questionText({ ...p, clientQuestion: null, alternateClientQuestion: null }, "client", {
        respondForPartner: true,
        partnerName: null,
      }),
    ).toBe("Page 2");
  });
});

describe("readAnswers (spec 002 §5 Review)", () => {
  const p = PAGES[1]!;
  const r = { respondForPartner: true, partnerName: "James" };
  it("requires a Yes/No for the client and, when answering for them, the partner", () => {
    const read = readAnswers(
      p,
      { client: { response: null, additionalText: null }, partner: { response: "maybe", additionalText: null } },
      r,
    );
    expect(read.errors).toEqual({ client: REQUIRED_ANSWER, partner: REQUIRED_ANSWER });
  });
  it("does not ask the partner when not answering for them", () => {
    const read = readAnswers(
      p,
      { client: { response: "no", additionalText: null }, partner: null },
      { respondForPartner: false, partnerName: null },
    );
    expect(read.errors).toEqual({});
    expect(read.partner).toBeNull();
    expect(read.client).toEqual({
      id: 2,
      question: "Have your circumstances changed (2)?",
      response: false,
      additionalText: null,
    });
  });
  it("keeps the free text only with a Yes on a page that asks for it", () => {
    const yes = readAnswers(
      p,
      {
        client: { response: "yes", additionalText: "  We moved house  " },
        partner: { response: "no", additionalText: "ignored" },
      },
      r,
    );
    expect(yes.client.additionalText).toBe("We moved house");
    expect(yes.partner?.additionalText).toBeNull();
    const notAsked = readAnswers(
      { ...p, showAdditionalInformation: false },
      { client: { response: "yes", additionalText: "text" }, partner: { response: "yes", additionalText: "x" } },
      r,
    );
    expect(notAsked.client.additionalText).toBeNull();
  });
  it("refuses a free text over 4,000 characters", () => {
    const read = readAnswers(
      p,
      {
        client: { response: "yes", additionalText: "x".repeat(4001) },
        partner: { response: "no", additionalText: null },
      },
      r,
    );
    expect(read.errors.client).toBe("review:errors.tooLong");
  });
});

describe("answers", () => {
  const a = (id: number, response: boolean | null) => ({ id, question: `q${id}`, response, additionalText: null });
  it("withAnswer replaces one page's answer and keeps page order", () => {
    expect(withAnswer([a(3, true), a(2, false)], a(2, true)).map((x) => [x.id, x.response])).toEqual([
      [2, true],
      [3, true],
    ]);
  });
  it("answersFor drops answers of pages that are not questions", () => {
    expect(answersFor(PAGES, [a(1, true), a(2, false), a(9, true)]).map((x) => x.id)).toEqual([2]);
  });
  it("allAnswered needs every question for the client and, when answering for them, the partner", () => {
    const client = [a(2, false), a(3, true), a(4, false), a(5, false)];
    expect(allAnswered(PAGES, { clientQuestions: client, partnerQuestions: [], respondForPartner: false })).toBe(true);
    expect(allAnswered(PAGES, { clientQuestions: client, partnerQuestions: [], respondForPartner: true })).toBe(false);
    expect(
      allAnswered(PAGES, { clientQuestions: client.slice(1), partnerQuestions: [], respondForPartner: false }),
    ).toBe(false);
    expect(
      allAnswered(PAGES, {
        clientQuestions: [a(2, null), ...client.slice(1)],
        partnerQuestions: [],
        respondForPartner: false,
      }),
    ).toBe(false);
  });
});

describe("currentPage", () => {
  it("starts at the introduction", () => {
    expect(currentPage(PAGES, null, null)?.order).toBe(1);
    expect(currentPage(PAGES, null, 4)?.order).toBe(1);
  });
  it("shows a reached page asked for, else the furthest reached", () => {
    const state = { order: 4, isSubmitted: false };
    expect(currentPage(PAGES, state, 2)?.order).toBe(2);
    expect(currentPage(PAGES, state, 5)?.order).toBe(4);
    expect(currentPage(PAGES, state, null)?.order).toBe(4);
  });
  it("never shows the completion before submitting, and only it after", () => {
    expect(currentPage(PAGES, { order: 7, isSubmitted: false }, 7)?.order).toBe(6);
    expect(currentPage(PAGES, { order: 6, isSubmitted: true }, 2)?.order).toBe(7);
  });
  it("has nothing to show without pages", () => {
    expect(currentPage([], null, null)).toBeNull();
  });
});

describe("playback display rules (spec 002 'Annual Review page')", () => {
  it("splits multi-line values and reads empty as none supplied", () => {
    expect(playbackLines("12 Elm Road\r\nLondon\n\nSW1A 1AA")).toEqual(["12 Elm Road", "London", "SW1A 1AA"]);
    expect(playbackLines("  ")).toBeNull();
    expect(playbackLines(null)).toBeNull();
  });
  it("links phone fields", () => {
    expect(isPhoneField("mobile_phone")).toBe(true);
    expect(isPhoneField("personal_email")).toBe(false);
    expect(telHref("+44 7700 900456")).toBe("tel:+447700900456");
    expect(telHref("020 7946-0800")).toBe("tel:02079460800");
  });
});
