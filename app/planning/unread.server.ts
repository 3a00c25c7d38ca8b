import { logger } from "~/runtime/logger.server";
import { createPlanningClient } from "./client.server";
import { CLIENT_INITIATED, fetchUnreadCount, UNREAD_PAGE_SIZE } from "./docnote.server";
import { MESSAGES_PATH } from "~/lib/messages/query";

// spec 000 §2 "Unread badge" and 002 §9: the navigation's unread count, one call that the
// platform answers with a count (issue 38); any failure shows no badge rather than failing the page.

/** The message being opened by this request (its first read is recorded by the page's loader). */
export function messageBeingOpened(url: URL): number | null {
  if (url.pathname.replace(/\/+$/, "") !== MESSAGES_PATH) return null;
  const value = url.searchParams.get("message") ?? "";
  return /^[1-9]\d{0,11}$/.test(value) ? Number(value) : null;
}

/**
 * The received messages the client has not read, up to 21 ('20+'). The page's loader and this one
 * run side by side, so a message being opened by this very request is counted as read already: the
 * platform leaves it out of the count.
 */
export async function unreadCount(token: string, url: URL): Promise<number | null> {
  const opening = messageBeingOpened(url);
  try {
    const count = await fetchUnreadCount(createPlanningClient({ token }), {
      docsubtypeExclude: CLIENT_INITIATED,
      excludeIds: opening === null ? undefined : [opening],
    });
    return Math.min(count, UNREAD_PAGE_SIZE);
  } catch (error) {
    logger.error("unread count unavailable", { error: String(error) });
    return null;
  }
}
