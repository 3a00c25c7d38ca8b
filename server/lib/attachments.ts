import { fileTypeFromBuffer } from "file-type";
import { inspectPackage } from "./office-package";

// The file types a client may attach to a message (docs/platform-api.md "Documents and messages",
// docs/decisions/111-upload-limits-and-attachment-types.md): an allow-list by extension, each with
// the one Content-Type the file is stored and served with, and the format its bytes must hold
// (file-type's `ext`; null for a text format, which must hold no binary format at all). The
// portal keeps its own copy of the rule (app/lib/attachments.ts): the platform trusts no client.

type AttachmentType = { contentType: string; sniffed: readonly string[] | null; package?: true };

export const ATTACHMENT_TYPES: Readonly<Record<string, AttachmentType>> = {
  pdf: { contentType: "application/pdf", sniffed: ["pdf"] },
  docx: {
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    sniffed: ["docx"],
    package: true,
  },
  xlsx: {
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    sniffed: ["xlsx"],
    package: true,
  },
  odt: { contentType: "application/vnd.oasis.opendocument.text", sniffed: ["odt"], package: true },
  ods: { contentType: "application/vnd.oasis.opendocument.spreadsheet", sniffed: ["ods"], package: true },
  rtf: { contentType: "application/rtf", sniffed: ["rtf"] },
  csv: { contentType: "text/csv; charset=utf-8", sniffed: null },
  txt: { contentType: "text/plain; charset=utf-8", sniffed: null },
  jpg: { contentType: "image/jpeg", sniffed: ["jpg"] },
  jpeg: { contentType: "image/jpeg", sniffed: ["jpg"] },
  png: { contentType: "image/png", sniffed: ["png"] },
  gif: { contentType: "image/gif", sniffed: ["gif"] },
  heic: { contentType: "image/heic", sniffed: ["heic"] },
  heif: { contentType: "image/heif", sniffed: ["heic"] },
};

const MAX_FILENAME_LENGTH = 255;

/**
 * The name a file is judged, stored and served by: look-alikes folded (NFKC), control and
 * invisible formatting characters removed, the last part of a path only, characters a desktop
 * cannot save replaced by '_', trailing dots and spaces dropped, at most 255 characters keeping
 * the extension.
 */
export function normaliseFilename(name: string): string {
  let cleaned = name
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .split(/[\\/]/)
    .pop()!
    .replace(/[<>:"|?*]/g, "_")
    .replace(/[\s.]+$/u, "")
    .trim();
  const chars = [...cleaned];
  if (chars.length > MAX_FILENAME_LENGTH) {
    const dot = cleaned.lastIndexOf(".");
    const extension = dot > 0 && cleaned.length - dot <= 16 ? [...cleaned.slice(dot)] : [];
    cleaned = chars.slice(0, MAX_FILENAME_LENGTH - extension.length).join("") + extension.join("");
  }
  return cleaned;
}

function typeOf(normalisedName: string): AttachmentType | null {
  const dot = normalisedName.lastIndexOf(".");
  const extension = dot >= 0 ? normalisedName.slice(dot + 1).toLowerCase() : "";
  return Object.hasOwn(ATTACHMENT_TYPES, extension) ? ATTACHMENT_TYPES[extension]! : null;
}

/** Whether a client may attach a file of this (normalised) name. */
export function isAllowedAttachment(normalisedName: string): boolean {
  return typeOf(normalisedName) !== null;
}

/** The Content-Type a stored file is served with: the allow-list's, else bytes to save. */
export function attachmentContentType(name: string): string {
  return typeOf(normaliseFilename(name))?.contentType ?? "application/octet-stream";
}

/** Why a file's content may not be stored (each has its own message), as the portal's ContentProblem. */
export type ContentProblem = "mismatch" | "active-content" | "external" | "unpacked-too-large";

/** What file-type calls the Office Open XML and OpenDocument formats, macro-enabled ones included. */
const OFFICE_PACKAGE = /^((doc|dot|xls|xlt|ppt|pot)[xm]|o[dt][tsgp])$/;

/**
 * What is wrong with a file's bytes for its (normalised, allowed) name, or null: the format its
 * name says must be found in them, and an Office Open XML or OpenDocument package is read through
 * (office-package.ts, docs/decisions/165).
 */
export async function contentProblemOf(normalisedName: string, bytes: Uint8Array): Promise<ContentProblem | null> {
  const type = typeOf(normalisedName);
  if (!type) return "mismatch";
  const found = await fileTypeFromBuffer(bytes);
  if (type.sniffed === null) return found === undefined ? null : "mismatch";
  if (found === undefined) return "mismatch";
  // a package is read through first: a macro-enabled twin renamed (a docm sent as .docx) is
  // refused for its macros, not only for its name
  if (type.package && OFFICE_PACKAGE.test(found.ext)) {
    const verdict = await inspectPackage(bytes);
    if (verdict === "too-large") return "unpacked-too-large";
    if (verdict !== "ok") return verdict === "unreadable" ? "mismatch" : verdict;
  }
  return type.sniffed.includes(found.ext) ? null : "mismatch";
}
