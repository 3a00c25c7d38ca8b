import { describe, expect, it } from "vitest";
import {
  effectOf,
  factFindAwaits,
  isNotificationType,
  nextIndex,
  NO_MARKS,
  notificationQueue,
  type NotificationStatuses,
  pageLabel,
  postponedItems,
  previousIndex,
  type QueueItem,
  REDIRECT_URLS,
  roboTypeOf,
  shownNotifications,
  usesModal,
  withMarks,
} from "./notifications";

const NONE: NotificationStatuses = {
  factFindStatus: "0",
  reviewStatus: "",
  roboJourneyType: "none",
  roboJourneyStatus: "none",
  emailTemplateId: 7,
};
const HOME = { currentPath: "/clients/home", dataLoaded: true, isMessagesPage: false, fetching: false };
const byType = (queue: QueueItem[], type: string) => queue.find((item) => item.type === type);

describe("notification queue (spec 002 §3, §4 Notification flow)", () => {
  it("has the review and the fact find, each with its redirect URL; no robo item without a journey type", () => {
    const queue = notificationQueue(NONE);
    expect(queue.map((item) => [item.type, item.redirectUrl])).toEqual([
      ["review", "/core/review"],
      ["factFind", "/core/factfind"],
    ]);
    expect(queue.every((item) => item.dismissed && !item.awaiting)).toBe(true);
  });

  it("shows the review only when its status is In Progress (the text matched case-insensitively)", () => {
    for (const status of ["In Progress", "in progress", " IN  PROGRESS "]) {
      expect(byType(notificationQueue({ ...NONE, reviewStatus: status }), "review")).toMatchObject({
        awaiting: true,
        dismissed: false,
      });
    }
    for (const status of ["", "Follow Up Required", "Changes Reported", "No Changes Reported", "whatever"]) {
      expect(byType(notificationQueue({ ...NONE, reviewStatus: status }), "review")).toMatchObject({
        awaiting: false,
        dismissed: true,
      });
    }
  });

  it("shows a fact find unless its status is none or '0'", () => {
    expect(factFindAwaits("1")).toBe(true);
    expect(factFindAwaits("pending")).toBe(true);
    for (const status of ["0", "none", "None", "", null, undefined]) expect(factFindAwaits(status)).toBe(false);
    expect(byType(notificationQueue({ ...NONE, factFindStatus: "1" }), "factFind")).toMatchObject({
      dismissed: false,
      redirectUrl: "/core/factfind",
    });
  });

  it("maps the robo journey type: investment → automated personal advice, retirement_health_check → robo advice", () => {
    expect(roboTypeOf("investment")).toBe("automatedPersonalAdvice");
    expect(roboTypeOf("retirement_health_check")).toBe("roboAdvice");
    expect(roboTypeOf("none")).toBeNull();
    expect(roboTypeOf("other")).toBeNull();
    const apa = byType(
      notificationQueue({ ...NONE, roboJourneyType: "investment", roboJourneyStatus: "enabled" }),
      "automatedPersonalAdvice",
    );
    expect(apa).toMatchObject({ redirectUrl: "/core/apa", dismissed: false, inProgress: false });
    const robo = byType(
      notificationQueue({ ...NONE, roboJourneyType: "retirement_health_check", roboJourneyStatus: "in_progress" }),
      "roboAdvice",
    );
    expect(robo).toMatchObject({ redirectUrl: "/core/robo", dismissed: false, inProgress: true });
  });

  it("shows a robo journey only when enabled or in progress", () => {
    for (const status of ["none", "declined", "follow_up_requested"]) {
      const item = byType(
        notificationQueue({ ...NONE, roboJourneyType: "investment", roboJourneyStatus: status }),
        "automatedPersonalAdvice",
      );
      expect(item).toMatchObject({ dismissed: true, awaiting: false, inProgress: false });
    }
  });

  it("keeps an item dismissed, closed or updated in this session", () => {
    const config = { ...NONE, reviewStatus: "In Progress", factFindStatus: "1" };
    const marks = withMarks(withMarks(NO_MARKS, "review", { dismissed: true, closed: true }), "factFind", {
      updated: true,
    });
    const queue = notificationQueue(config, marks);
    expect(byType(queue, "review")).toMatchObject({ awaiting: true, dismissed: true, closed: true, updated: false });
    expect(byType(queue, "factFind")).toMatchObject({ awaiting: true, dismissed: false, closed: false, updated: true });
  });
});

describe("show rules (spec 002 §4 Notification flow)", () => {
  const queue = notificationQueue({
    ...NONE,
    reviewStatus: "In Progress",
    factFindStatus: "1",
    roboJourneyType: "investment",
    roboJourneyStatus: "enabled",
  });

  it("shows the items that are not dismissed, in the queue's order", () => {
    expect(shownNotifications(queue, HOME).map((item) => item.type)).toEqual([
      "review",
      "factFind",
      "automatedPersonalAdvice",
    ]);
  });

  it("shows none until the client's data is loaded, except on the documents and messages page", () => {
    expect(shownNotifications(queue, { ...HOME, dataLoaded: false })).toEqual([]);
    expect(
      shownNotifications(queue, {
        ...HOME,
        dataLoaded: false,
        isMessagesPage: true,
        currentPath: "/clients/documents-and-messages",
      }),
    ).toHaveLength(3);
  });

  it("shows none while something is fetching", () => {
    expect(shownNotifications(queue, { ...HOME, fetching: true })).toEqual([]);
  });

  it("does not show an item on its own redirect page", () => {
    expect(shownNotifications(queue, { ...HOME, currentPath: "/core/review/" }).map((item) => item.type)).toEqual([
      "factFind",
      "automatedPersonalAdvice",
    ]);
  });

  it("does not show an item without a redirect URL", () => {
    expect(shownNotifications([{ ...queue[0]!, redirectUrl: "" }], HOME)).toEqual([]);
  });
});

describe("what the buttons change (spec 002 §4 Notification flow, Review flow)", () => {
  it("Close dismisses and closes; a robo journey is also declined", () => {
    expect(effectOf("close", "review", NONE)).toEqual({
      change: null,
      emailTemplateId: null,
      mark: { dismissed: true, closed: true },
      goTo: null,
      confirmation: false,
    });
    expect(effectOf("close", "factFind", NONE).change).toBeNull();
    expect(effectOf("close", "automatedPersonalAdvice", NONE).change).toEqual({ robo_journey_status: "declined" });
    expect(effectOf("close", "roboAdvice", NONE).change).toEqual({ robo_journey_status: "declined" });
  });

  it("the primary button dismisses and goes to the redirect URL; a robo journey's status becomes none", () => {
    for (const type of ["review", "factFind"] as const) {
      expect(effectOf("open", type, NONE)).toEqual({
        change: null,
        emailTemplateId: null,
        mark: { dismissed: true, closed: false },
        goTo: REDIRECT_URLS[type],
        confirmation: false,
      });
    }
    expect(effectOf("open", "automatedPersonalAdvice", NONE)).toMatchObject({
      change: { robo_journey_status: "none" },
      goTo: "/core/apa",
    });
    expect(effectOf("open", "roboAdvice", NONE)).toMatchObject({
      change: { robo_journey_status: "none" },
      goTo: "/core/robo",
    });
  });

  it("'Speak to adviser' sets Follow Up Required, '0' with the template email, or follow_up_requested, and confirms", () => {
    expect(effectOf("speak", "review", NONE)).toEqual({
      change: { xpt_review_status: "Follow Up Required" },
      emailTemplateId: null,
      mark: { dismissed: true, closed: false },
      goTo: null,
      confirmation: true,
    });
    expect(effectOf("speak", "factFind", NONE)).toMatchObject({
      change: { fact_find_status: "0" },
      emailTemplateId: 7,
      confirmation: true,
    });
    expect(effectOf("speak", "factFind", { emailTemplateId: null }).emailTemplateId).toBeNull();
    expect(effectOf("speak", "automatedPersonalAdvice", NONE)).toMatchObject({
      change: { robo_journey_status: "follow_up_requested" },
      emailTemplateId: null,
    });
    expect(effectOf("speak", "roboAdvice", NONE)).toMatchObject({
      change: { robo_journey_status: "follow_up_requested" },
    });
  });

  it("marks each type once", () => {
    const once = withMarks(NO_MARKS, "review", { dismissed: true });
    expect(withMarks(once, "review", { dismissed: true, updated: true })).toEqual({
      dismissed: ["review"],
      closed: [],
      updated: ["review"],
    });
    expect(NO_MARKS).toEqual({ dismissed: [], closed: [], updated: [] });
  });

  it("knows its types", () => {
    expect(isNotificationType("roboAdvice")).toBe(true);
    expect(isNotificationType("robo")).toBe(false);
    expect(isNotificationType(undefined)).toBe(false);
  });
});

describe("modal paging (spec 002 §4: n / total, wrapping around)", () => {
  it("labels the page from 1", () => {
    expect(pageLabel(0, 3)).toEqual({ n: 1, total: 3 });
    expect(pageLabel(2, 3)).toEqual({ n: 3, total: 3 });
    expect(pageLabel(5, 2)).toEqual({ n: 2, total: 2 });
  });

  it("wraps Next from the last to the first and Previous from the first to the last", () => {
    expect(nextIndex(0, 2)).toBe(1);
    expect(nextIndex(1, 2)).toBe(0);
    expect(previousIndex(0, 2)).toBe(1);
    expect(previousIndex(1, 3)).toBe(0);
    expect(nextIndex(0, 0)).toBe(0);
  });

  it("uses the modal for two or more items only", () => {
    expect(usesModal(0)).toBe(false);
    expect(usesModal(1)).toBe(false);
    expect(usesModal(2)).toBe(true);
  });
});

describe("postponement notices (spec 002 §4 Postponement panel, §6)", () => {
  const config = { ...NONE, reviewStatus: "In Progress", factFindStatus: "1" };
  const CLIENT = { isClient: true, currentPath: "/clients/home", notificationsToggle: true };

  it("with the notifications toggle on, shows a journey that awaits the client once its notification is dismissed", () => {
    expect(postponedItems(notificationQueue(config), CLIENT)).toEqual([]);
    const closed = notificationQueue(config, withMarks(NO_MARKS, "review", { dismissed: true, closed: true }));
    expect(postponedItems(closed, CLIENT).map((item) => item.type)).toEqual(["review"]);
  });

  it("with the toggle off, shows every journey that awaits the client", () => {
    expect(
      postponedItems(notificationQueue(config), { ...CLIENT, notificationsToggle: false }).map((item) => item.type),
    ).toEqual(["review", "factFind"]);
  });

  it("shows none for a journey that does not await the client, or once updated", () => {
    const marks = withMarks(withMarks(NO_MARKS, "review", { dismissed: true, updated: true }), "factFind", {
      dismissed: true,
    });
    expect(postponedItems(notificationQueue({ ...config, factFindStatus: "0" }, marks), CLIENT)).toEqual([]);
  });

  it("shows none on the item's target page", () => {
    const marks = withMarks(NO_MARKS, "review", { dismissed: true });
    expect(postponedItems(notificationQueue(config, marks), { ...CLIENT, currentPath: "/core/review" })).toEqual([]);
  });

  it("shows none to an adviser with a client in context", () => {
    const marks = withMarks(NO_MARKS, "review", { dismissed: true });
    expect(postponedItems(notificationQueue(config, marks), { ...CLIENT, isClient: false })).toEqual([]);
  });
});
