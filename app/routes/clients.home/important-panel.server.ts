import { logger } from "~/runtime/logger.server";
import { type PlanningClient, isLostSession, type Settled } from "~/planning/client.server";
import { CategoryAnswers, documentCountItem, UNREAD_PAGE_SIZE } from "~/planning/docnote.server";
import { readFeatureToggles } from "~/planning/feature-toggles.server";
import type { Site } from "~/planning/site.server";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { MESSAGES_PATH } from "~/lib/messages/query";
import { unreadLabel } from "~/lib/navigation";
import { messagesSettings, messagesToggles } from "~/planning/messages.server";
import { type SignatureItem, signatureItemsItem } from "~/planning/signature.server";
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
    // the unread important count and (spec 002 §4) the documents awaiting the client's own
    // signature, in one round trip (decision 175)
    const answers = await planning.batchSettled({
      ...(categoryId !== null ? { important: documentCountItem({ categories: [categoryId], unreadOnly: true }) } : {}),
      ...(messagesToggles(toggles).digitalSignatures ? { signatures: signatureItemsItem } : {}),
    });
    const important = answers.important as Settled<{ count: number }> | undefined;
    const signatures = answers.signatures as Settled<SignatureItem[]> | undefined;
    if (signatures && !signatures.ok) throw signatures.error;
    const toBeSigned = signatures
      ? signatures.value.filter((s) => awaitsAction(s) && s.signatories.some((x) => x.can_sign)).length
      : null;
    return importantPanelOf({
      important: important?.ok ? Math.min(important.value.count, UNREAD_PAGE_SIZE) : null,
      toBeSigned,
    });
  } catch (error) {
    if (!isLostSession(error)) {
      logger.error("important-messages panel unavailable", { error: String(error) });
    }
    return null;
  }
}
