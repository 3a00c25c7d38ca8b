import { env } from "~/runtime/env.server";
import { logger } from "~/runtime/logger.server";
import type { SessionUser } from "~/lib/user";
import { getPortalSession } from "./session.server";

// spec 000 §1: "An analytics monitor records page views and the signed-in user's id, name, role and
// site access level." Done on the server, as one log record per page (docs/decisions/029): no
// script of a third party in the page, nothing for the browser to run.

const MAX_PATH = 200;
const MAX_QUERY_KEYS = 20;

export type PageView = {
  /** The path only: query values (search names, dates of birth, postcodes) never reach the log. */
  path: string;
  /** The names of the query parameters, sorted, so that a filtered or searched view is still told apart. */
  queryKeys: string[];
  /** The route that rendered the page (for example routes/clients.home). */
  route: string | null;
  status: number;
  userId: number | null;
  role: SessionUser["role"] | null;
  /** The level of the portal being viewed: the client's own, or the one an adviser chose for the client in context. */
  siteAccessLevel: string | null;
};

/** The record of one page view. The user's name is left out on purpose (decision 029). */
export function pageViewOf(url: URL, status: number, route: string | null, user: SessionUser | null): PageView {
  const queryKeys = [...new Set(url.searchParams.keys())].sort().slice(0, MAX_QUERY_KEYS);
  return {
    path: url.pathname.slice(0, MAX_PATH),
    queryKeys,
    route,
    status,
    userId: user?.id ?? null,
    role: user?.role ?? null,
    siteAccessLevel:
      (user?.role === "ClientUser" ? user.siteAccessLevel : user?.clientInContext?.siteAccessLevel) ?? null,
  };
}

/**
 * Called for every page the server renders as a whole document (entry.server's handleRequest),
 * never for loader data or resource routes. Only GET: a page the user opened, not a form post
 * answered with the same page.
 */
export async function recordPageView(
  request: Request,
  page: { status: number; route: string | null },
  enabled: boolean = env.analyticsPageViews,
): Promise<void> {
  if (!enabled || request.method !== "GET") return;
  try {
    const session = await getPortalSession(request);
    logger.info("page view", pageViewOf(new URL(request.url), page.status, page.route, session?.user ?? null));
  } catch (error) {
    // Analytics must never cost the user their page.
    logger.error("page view not recorded", { error: String(error) });
  }
}
