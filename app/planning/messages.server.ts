import { logger } from "~/runtime/logger.server";
import { type FeatureToggles, isToggleOn } from "./feature-toggles.server";
import type { Site } from "./site.server";

// The documents and messages area as the platform configures it (docs/platform-api.md "Documents
// and messages", docs/decisions/080): the site's settings and the feature toggles, read once here
// for the messages page, the attachment download and the home's important panel.

export type MessagesSettings = {
  heading: string | null;
  inboxName: string | null;
  customFolders: Array<{ name: string; codes: string[] }>;
  importantCategoryId: number | null;
  attachmentsDownloadable: boolean;
};

function settingText(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** The page's site settings (docs/platform-api.md "Documents and messages"), with their defaults. */
export function messagesSettings(site: Site): MessagesSettings {
  const s = site.settings;
  let customFolders: MessagesSettings["customFolders"] = [];
  const raw = s.messageFolders;
  if (typeof raw === "string" && raw.trim()) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) {
        customFolders = parsed.flatMap((f: unknown) => {
          if (!f || typeof f !== "object") return [];
          const { name, documentNoteTypes } = f as { name?: unknown; documentNoteTypes?: unknown };
          const codes = Array.isArray(documentNoteTypes) ? documentNoteTypes.filter((c): c is string => typeof c === "string" && c !== "") : [];
          return typeof name === "string" && name.trim() && codes.length ? [{ name: name.trim(), codes }] : [];
        });
      }
    } catch {
      logger.error("site setting messageFolders is not JSON; no custom folders");
    }
  }
  const important = Number(s.importantCategoryId);
  return {
    heading: settingText(s.messagesHeading),
    inboxName: settingText(s.inboxName),
    customFolders: customFolders.slice(0, 20),
    importantCategoryId: s.importantCategoryId !== null && s.importantCategoryId !== "" && Number.isInteger(important) && important > 0 ? important : null,
    attachmentsDownloadable: !(s.attachmentsDownloadable === false || s.attachmentsDownloadable === "false"),
  };
}

export type MessagesToggles = { digitalSignatures: boolean; relatedEntities: boolean; oneWay: boolean; documentTypeFilter: boolean };

export function messagesToggles(toggles: FeatureToggles): MessagesToggles {
  const on = (name: string) => isToggleOn(toggles, name);
  return {
    digitalSignatures: on("digital_signatures"),
    relatedEntities: on("related_entities"),
    oneWay: on("one_way_messaging"),
    documentTypeFilter: on("document_type_filter"),
  };
}

/** spec 002 §4: 'Attachments can be downloaded via Xplan' when the site says they cannot be. */
export function attachmentsDownloadable(site: Site): boolean {
  return messagesSettings(site).attachmentsDownloadable;
}
