import type { SpeakToAdviser } from "./speak-to-adviser";
import { REVIEW_STATUS_TEXT, ReviewStatus, reviewStatusOf } from "./review";

// spec 002 "Notification and postponement panels", §3 "Notification config", "Notification queue
// item", §4 "Notification flow", "Postponement panel", "Robo journey status" (docs/decisions/097):
// the pure rules of the notification queue, its show rules, what each button changes, the modal's
// paging and the postponement notices. Shared by the server and the browser.

export const NOTIFICATION_TYPES = ["review", "factFind", "automatedPersonalAdvice", "roboAdvice"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export function isNotificationType(value: unknown): value is NotificationType {
  return typeof value === "string" && (NOTIFICATION_TYPES as readonly string[]).includes(value);
}

/** Where each journey is completed (the primary button and the postponement link). */
export const REDIRECT_URLS: Record<NotificationType, string> = {
  review: "/core/review",
  factFind: "/core/factfind",
  automatedPersonalAdvice: "/core/apa",
  roboAdvice: "/core/robo",
};

/** The config fields the queue reads (app/planning/notifications.server.ts NotificationConfig). */
export type NotificationStatuses = {
  factFindStatus: string;
  reviewStatus: string;
  roboJourneyType: string;
  roboJourneyStatus: string;
  emailTemplateId: number | null;
};

/**
 * What this browser session did with the items (the original kept it in browser storage; the
 * portal keeps it in a small cookie): dismissed (Close, the primary button, 'Speak to adviser'),
 * closed (Close) and updated (the postponement link followed).
 */
export type NotificationMarks = {
  dismissed: NotificationType[];
  closed: NotificationType[];
  updated: NotificationType[];
};

export const NO_MARKS: NotificationMarks = { dismissed: [], closed: [], updated: [] };

export type QueueItem = {
  type: NotificationType;
  redirectUrl: string;
  /** The journey awaits the client (its status): the postponement notice's condition. */
  awaiting: boolean;
  dismissed: boolean;
  closed: boolean;
  updated: boolean;
  /** A robo journey in progress: the continue texts replace the normal header, message and button. */
  inProgress: boolean;
};

/** spec 002 §4: journey type investment → automatedPersonalAdvice, retirement_health_check → roboAdvice. */
export function roboTypeOf(journeyType: string): NotificationType | null {
  if (journeyType === "investment") return "automatedPersonalAdvice";
  if (journeyType === "retirement_health_check") return "roboAdvice";
  return null;
}

export function isRoboType(type: NotificationType): boolean {
  return type === "automatedPersonalAdvice" || type === "roboAdvice";
}

/** spec 002 §4 "Fact find status": a string defaulting to '0'; none or '0' means no fact find. */
export function factFindAwaits(status: string | null | undefined): boolean {
  const value = (status ?? "").trim().toLowerCase();
  return value !== "" && value !== "0" && value !== "none";
}

/**
 * spec 002 §3, §4 "Notification flow": the queue from the config and this session's marks. A review
 * starts dismissed unless its status is In Progress; a fact find when its status is none or '0'; a
 * robo journey (only of a known type) unless its status is enabled or in_progress. An item already
 * dismissed in this session stays dismissed.
 */
export function notificationQueue(config: NotificationStatuses, marks: NotificationMarks = NO_MARKS): QueueItem[] {
  const item = (type: NotificationType, awaiting: boolean, inProgress = false): QueueItem => ({
    type,
    redirectUrl: REDIRECT_URLS[type],
    awaiting,
    dismissed: !awaiting || marks.dismissed.includes(type),
    closed: marks.closed.includes(type),
    updated: marks.updated.includes(type),
    inProgress,
  });
  const queue = [
    item("review", reviewStatusOf(config.reviewStatus) === ReviewStatus.InProgress),
    item("factFind", factFindAwaits(config.factFindStatus)),
  ];
  const robo = roboTypeOf(config.roboJourneyType);
  if (robo) {
    const status = config.roboJourneyStatus;
    queue.push(item(robo, status === "enabled" || status === "in_progress", status === "in_progress"));
  }
  return queue;
}

export type ShowContext = {
  /** The current page's path (no query). */
  currentPath: string;
  /** The client's data and accounts are loaded. */
  dataLoaded: boolean;
  /** The page is the documents and messages page (it shows them without the client's data). */
  isMessagesPage: boolean;
  /** Something is still being fetched. */
  fetching: boolean;
};

/**
 * spec 002 §4 "Notification flow": an item shows only when it is not dismissed, has a redirect URL,
 * the client's data and accounts are loaded (or the page is messages and documents), nothing is
 * fetching, and the user is not already on the redirect page.
 */
export function shownNotifications(queue: QueueItem[], context: ShowContext): QueueItem[] {
  if (context.fetching || !(context.dataLoaded || context.isMessagesPage)) return [];
  return queue.filter(
    (item) => !item.dismissed && item.redirectUrl !== "" && !samePath(item.redirectUrl, context.currentPath),
  );
}

function samePath(a: string, b: string): boolean {
  const trim = (path: string) => path.replace(/\/+$/, "").toLowerCase() || "/";
  return trim(a) === trim(b);
}

/** spec 002 §7 PATCH entity/client-v4/{id}: the fields a button changes. */
export type StatusChange = {
  xpt_review_status?: string;
  fact_find_status?: string;
  robo_journey_status?: "none" | "declined" | "follow_up_requested";
};

export type Intent = "close" | "open" | "speak";

export type Effect = {
  /** What the platform stores; null when nothing changes there. */
  change: StatusChange | null;
  /** spec 002 §4: 'Speak to adviser' on a fact find emails the adviser by the config's template. */
  emailTemplateId: number | null;
  /** The session's marks to add. */
  mark: { dismissed: boolean; closed: boolean };
  /** Where the browser goes next: the redirect URL (primary), or null (back to the page). */
  goTo: string | null;
  /** The confirmation shown after 'Speak to adviser'. */
  confirmation: boolean;
};

/**
 * spec 002 §4 "Notification flow", "Review flow": Close dismisses and closes (a robo type is also
 * declined); the primary button dismisses and goes to the redirect URL (a robo type's status
 * becomes none); 'Speak to adviser' sets the review to Follow Up Required, the fact find to '0'
 * with the template email, a robo journey to follow_up_requested, dismisses it and confirms.
 */
export function effectOf(
  intent: Intent,
  type: NotificationType,
  config: Pick<NotificationStatuses, "emailTemplateId">,
): Effect {
  const robo = isRoboType(type);
  if (intent === "close") {
    return {
      change: robo ? { robo_journey_status: "declined" } : null,
      emailTemplateId: null,
      mark: { dismissed: true, closed: true },
      goTo: null,
      confirmation: false,
    };
  }
  if (intent === "open") {
    return {
      change: robo ? { robo_journey_status: "none" } : null,
      emailTemplateId: null,
      mark: { dismissed: true, closed: false },
      goTo: REDIRECT_URLS[type],
      confirmation: false,
    };
  }
  const change: StatusChange =
    type === "review"
      ? { xpt_review_status: REVIEW_STATUS_TEXT[ReviewStatus.FollowUpRequired] }
      : type === "factFind"
        ? { fact_find_status: "0" }
        : { robo_journey_status: "follow_up_requested" };
  return {
    change,
    emailTemplateId: type === "factFind" ? config.emailTemplateId : null,
    mark: { dismissed: true, closed: false },
    goTo: null,
    confirmation: true,
  };
}

/** The marks after an effect (or a followed postponement link: `updated`), each type once. */
export function withMarks(
  marks: NotificationMarks,
  type: NotificationType,
  add: { dismissed?: boolean; closed?: boolean; updated?: boolean },
): NotificationMarks {
  const put = (list: NotificationType[], yes: boolean | undefined) =>
    yes && !list.includes(type) ? [...list, type] : list;
  return {
    dismissed: put(marks.dismissed, add.dismissed),
    closed: put(marks.closed, add.closed),
    updated: put(marks.updated, add.updated),
  };
}

/** spec 002 §4: the modal pages 'n / total' and wraps around. */
export function pageLabel(index: number, total: number): { n: number; total: number } {
  return { n: wrap(index, total) + 1, total };
}

export function nextIndex(index: number, total: number): number {
  return wrap(index + 1, total);
}

export function previousIndex(index: number, total: number): number {
  return wrap(index - 1, total);
}

function wrap(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}

/** The modal variant pages through two or more notifications; one shows inline only. */
export function usesModal(shownCount: number): boolean {
  return shownCount >= 2;
}

/** One item as a page shows it (a notification panel or a postponement notice). */
export type NotificationPanelItem = {
  type: NotificationType;
  redirectUrl: string;
  /** A robo journey in progress: the continue texts. */
  inProgress: boolean;
};

/** What a page's loader gives its panels. */
export type NotificationPanelsData = {
  notifications: NotificationPanelItem[];
  postponed: NotificationPanelItem[];
  /** Whether the notifications offer 'Speak to adviser', or whom to contact instead (issue 25 item 12). */
  speakToAdviser: SpeakToAdviser;
};

export type PostponementContext = {
  /** A ClientUser (an adviser with a client in context sees none: spec 002 §6). */
  isClient: boolean;
  currentPath: string;
  /** The `notifications_v2` feature toggle. */
  notificationsToggle: boolean;
};

/**
 * spec 002 §4 "Postponement panel": an item shows only for a client not in adviser context, when
 * the journey awaits the client, it was not updated, and the page is not its target page; with
 * the notifications toggle on, it must also be dismissed.
 */
export function postponedItems(queue: QueueItem[], context: PostponementContext): QueueItem[] {
  if (!context.isClient) return [];
  return queue.filter(
    (item) =>
      item.awaiting &&
      !item.updated &&
      !samePath(item.redirectUrl, context.currentPath) &&
      (!context.notificationsToggle || item.dismissed),
  );
}
