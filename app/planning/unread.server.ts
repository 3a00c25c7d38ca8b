import { logger } from "~/runtime/logger.server";
import { createPlanningClient } from "./client.server";
import { CLIENT_INITIATED, fetchUnreadIds, UNREAD_PAGE_SIZE } from "./docnote.server";
import { MESSAGES_PATH } from "~/lib/messages/query";

// spec 000 §2 "Unread badge" and 002 §9: the navigation's unread count, one call of 21 rows for
// the root loader; any failure shows no badge rather than failing the page.

/** The message being opened by this request (its first read is recorded by the page's loader). */
export function messageBeingOpened(url: URL): number | null {
  if (url.pathname.replace(/\/+$/, "") !== MESSAGES_PATH) return null;
  const value = url.searchParams.get("message") ?? "";
  return /^[1-9]\d{0,11}$/.test(value) ? Number(value) : null;
}

/**
 * The received messages the client has not read. The page's loader and this one run side by
 * side, so a message being opened by this very request is counted as read already: one row more
 * is asked for then, so that the cap of 20 stays exact.
 */
export async function unreadCount(token: string, url: URL): Promise<number | null> {
  const opening = messageBeingOpened(url);
  const pageSize = UNREAD_PAGE_SIZE + (opening === null ? 0 : 1);
  try {
    const ids = await fetchUnreadIds(
      createPlanningClient({ token }),
      { docsubtypeExclude: CLIENT_INITIATED },
      pageSize,
    );
    const count = ids.filter((id) => id !== opening).length;
    return Math.min(count, UNREAD_PAGE_SIZE);
  } catch (error) {
    logger.error("unread count unavailable", { error: String(error) });
    return null;
  }
}
