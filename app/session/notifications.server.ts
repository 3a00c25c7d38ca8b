import { z } from "zod";
import {
  isNotificationType,
  NO_MARKS,
  type NotificationMarks,
  notificationQueue,
  type NotificationPanelItem,
  type NotificationPanelsData,
  postponedItems,
  shownNotifications,
} from "~/lib/notifications";
import type { SpeakToAdviser } from "~/lib/speak-to-adviser";
import { fetchSpeakToAdviser } from "~/planning/adviser.server";
import { PlanningError, isLostSession } from "~/planning/client.server";
import { isToggleOn, readFeatureToggles } from "~/planning/feature-toggles.server";
import { fetchNotificationConfig } from "~/planning/notifications.server";
import { env } from "~/runtime/env.server";
import { logger } from "~/runtime/logger.server";
import type { ClientContext } from "./guards.server";
import { resolveLocale } from "./i18next.server";
import { cookieName } from "./cookie-name.server";
import { createSealedCookie } from "./sealed-cookie.server";

// spec 002 "Notification and postponement panels", §4 "Notification flow", "Postponement panel"
// (docs/decisions/097): the panels' data for the clients home and the documents and messages page,
// and this browser session's marks (dismissed, closed, updated) in a small sealed cookie, where the
// original kept them in the browser's storage.

// Sealed, as it names the user (docs/decisions/113).
const marksCookie = createSealedCookie(
  cookieName("__notifications"),
  // no Max-Age or Expires: the marks last as long as the browser session
  { path: "/", httpOnly: true, sameSite: "lax", secure: env.cookieSecure },
  "notifications",
);

const TypeList = z
  .array(z.unknown())
  .max(20)
  .catch([])
  .transform((list) => [...new Set(list.filter(isNotificationType))]);
/** The cookie's content, checked when read back: whose marks they are, and the three lists. */
const StoredMarks = z.object({ user: z.number().int(), dismissed: TypeList, closed: TypeList, updated: TypeList });

/** This session's marks for the signed-in user (another user's, or anything unreadable, count as none). */
export async function readMarks(request: Request, userId: number): Promise<NotificationMarks> {
  try {
    const stored: unknown = await marksCookie.parse(request.headers.get("Cookie"));
    // No cookie (most pages): no marks, without a failed parse's issues made each time.
    if (stored === null) return NO_MARKS;
    const parsed = StoredMarks.safeParse(stored);
    if (!parsed.success || parsed.data.user !== userId) return NO_MARKS;
    const { dismissed, closed, updated } = parsed.data;
    return { dismissed, closed, updated };
  } catch {
    return NO_MARKS;
  }
}

/** The Set-Cookie that keeps the marks. */
export function marksSetCookie(userId: number, marks: NotificationMarks): Promise<string> {
  return marksCookie.serialize({ user: userId, ...marks });
}

/**
 * The panels of a page, for its loader's Promise.all. Clients only: an adviser with a client in
 * context sees none (spec 002 §6; the platform refuses their status changes). A failed call leaves
 * the page without panels (logged); a lost session is left to the page's other calls.
 */
export async function loadNotificationPanels(
  request: Request,
  context: ClientContext,
  page: { isMessagesPage: boolean },
): Promise<NotificationPanelsData | null> {
  if (context.isAdviser || context.user.role !== "ClientUser") return null;
  const url = new URL(request.url);
  try {
    const [config, toggles, marks] = await Promise.all([
      fetchNotificationConfig(context.planning, context.entityId),
      readFeatureToggles(context.planning),
      readMarks(request, context.user.id),
    ]);
    const queue = notificationQueue(config, marks);
    const item = ({ type, redirectUrl, inProgress }: NotificationPanelItem) => ({ type, redirectUrl, inProgress });
    // the loader has what the page needs before it renders: nothing is fetching then
    const notifications = shownNotifications(queue, {
      currentPath: url.pathname,
      dataLoaded: true,
      isMessagesPage: page.isMessagesPage,
      fetching: false,
    }).map(item);
    // 'Speak to adviser' only for a client who has one (issue 25 item 12); asked only when a
    // notification shows, so that the pages without one make no call for it (decision 129)
    const speakToAdviser: SpeakToAdviser = notifications.length
      ? await fetchSpeakToAdviser(context.planning, {
          locale: await resolveLocale(request),
          role: context.user.role,
          clientId: context.entityId,
        })
      : { offered: true };
    return {
      notifications,
      speakToAdviser,
      postponed: postponedItems(queue, {
        isClient: true,
        currentPath: url.pathname,
        notificationsToggle: isToggleOn(toggles, "notifications_v2"),
      }).map(item),
    };
  } catch (error) {
    if (!isLostSession(error)) {
      logger.error("notification panels unavailable", {
        status: error instanceof PlanningError ? error.status : null,
        error: String(error),
      });
    }
    return null;
  }
}

/** The home shows the notifications only once the client's data and accounts are loaded (spec 002 §4). */
export function withoutNotifications(data: NotificationPanelsData | null): NotificationPanelsData | null {
  return data ? { ...data, notifications: [] } : null;
}
