import { logger } from "~/runtime/logger.server";
import { type PlanningClient, isLostSession } from "~/planning/client.server";
import { CategoryAnswers, countDocuments, type DocumentFilter, UNREAD_PAGE_SIZE } from "~/planning/docnote.server";
import { readFeatureToggles } from "~/planning/feature-toggles.server";
import type { Site } from "~/planning/site.server";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { MESSAGES_PATH } from "~/lib/messages/query";
import { unreadLabel } from "~/lib/navigation";
import { messagesSettings, messagesToggles } from "~/planning/messages.server";
import { fetchSignatureItems } from "~/planning/signature.server";
import { awaitsAction } from "~/lib/messages/signature";

// spec 001 §2.1 and 002 "Notification and postponement panels": the home page's important-messages
// panel, linking to the Important folder (?importantOnly=true) and to the documents to be signed
// (?toBeSigned=true). Clients only (spec 002 §6); shown when there is something in either.

export type ImportantPanelData = {
  important: { count: string; href: string } | null;
  toBeSigned: { count: string; href: string } | null;
};

/** The panel from the counts (pure; tested): unread important messages, pending signatures. */
export function importantPanelOf(counts: {
  important: number | null;
  toBeSigned: number | null;
}): ImportantPanelData | null {
  const important = unreadLabel(counts.important);
  const toBeSigned = unreadLabel(counts.toBeSigned);
  if (!important && !toBeSigned) return null;
  const bare = (label: string | null) => (label ? label.slice(1, -1) : null);
  return {
    important: important ? { count: bare(important)!, href: `${MESSAGES_PATH}?importantOnly=true` } : null,
    toBeSigned: toBeSigned ? { count: bare(toBeSigned)!, href: `${MESSAGES_PATH}?toBeSigned=true` } : null,
  };
}

/**
 * The panel's data for the home loader: null for an adviser, when nothing is important or to be
 * signed, or when the platform cannot tell (the home page renders without the panel). A lost
 * session is left to the page's other calls.
 */
export async function loadImportantPanel(
  context: { planning: PlanningClient; isAdviser: boolean },
  site: Site,
): Promise<ImportantPanelData | null> {
  if (context.isAdviser) return null;
  const { planning } = context;
  try {
    // only the important category is read here, the same in every locale
    const settings = messagesSettings(site, DEFAULT_LOCALE);
    const [toggles, categories] = await Promise.all([
      readFeatureToggles(planning),
      settings.importantCategoryId === null
        ? planning.get("resourceful/docnote-v2/category", CategoryAnswers)
        : Promise.resolve([]),
    ]);
    const categoryId =
      settings.importantCategoryId ?? categories.find((c) => c.name.trim().toLowerCase() === "important")?.id ?? null;
    const lists: Record<string, { filter: DocumentFilter; pageSize: number }> = {};
    if (categoryId !== null)
      lists.important = { filter: { categories: [categoryId], unreadOnly: true }, pageSize: UNREAD_PAGE_SIZE };
    // spec 002 §4: the documents awaiting the client's own signature
    const signatures = messagesToggles(toggles).digitalSignatures
      ? fetchSignatureItems(planning)
      : Promise.resolve(null);
    const [counts, items] = await Promise.all([countDocuments(planning, lists), signatures]);
    const toBeSigned = items
      ? items.filter((s) => awaitsAction(s) && s.signatories.some((x) => x.can_sign)).length
      : null;
    return importantPanelOf({ important: counts.important ?? null, toBeSigned });
  } catch (error) {
    if (!isLostSession(error)) {
      logger.error("important-messages panel unavailable", { error: String(error) });
    }
    return null;
  }
}
