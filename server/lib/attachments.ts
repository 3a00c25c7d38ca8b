import { fileTypeFromBuffer } from "file-type";
import { inspectPackage } from "./office-package";

// The file types a client may attach to a message (docs/platform-api.md "Documents and messages",
// docs/decisions/111-upload-limits-and-attachment-types.md): an allow-list by extension, each with
// the one Content-Type the file is stored and served with, and the format its bytes must hold
// (file-type's `ext`; null for a text format, which must hold no binary format at all). The
// portal keeps its own copy of the rule (app/lib/attachments.ts): the platform trusts no client.

type AttachmentType = { contentType: string; sniffed: readonly string[] | null; package?: true; message?: true };

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
  // decision 205: scans saved as TIFF (its magic bytes, 'II*' or 'MM*'), and e-mails saved from a
  // mail program: text holding a message's header fields, only ever served to be saved
  tif: { contentType: "image/tiff", sniffed: ["tif"] },
  tiff: { contentType: "image/tiff", sniffed: ["tif"] },
  eml: { contentType: "message/rfc822", sniffed: null, message: true },
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
  if (type.sniffed === null)
    return found === undefined && (!type.message || isPlausibleMessage(bytes)) ? null : "mismatch";
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

/** How much of a saved e-mail is read for its header fields. */
const MESSAGE_HEADER_LIMIT = 64 * 1024;
/** RFC 5322 §2.2: a field name is printable ASCII but the colon; its value follows the colon. */
const HEADER_FIELD = /^[!-9;-~]+:/;

/**
 * decision 205: whether the bytes read as a saved e-mail (RFC 5322): its first lines (after a
 * mailbox's 'From ' line, as some mail programs save one) are header fields or their folded
 * continuations, at least two of them with a From, up to the empty line before the body (or the
 * end), with no NUL. A text that merely has an .eml name is not one.
 */
export function isPlausibleMessage(bytes: Uint8Array): boolean {
  const text = new TextDecoder("latin1").decode(bytes.subarray(0, MESSAGE_HEADER_LIMIT));
  const lines = text.split(/\r?\n/);
  if (lines[0]?.startsWith("From ")) lines.shift();
  const names: string[] = [];
  let ended = false;
  for (const [i, line] of lines.entries()) {
    if (line === "") {
      ended = true;
      break;
    }
    if (line.includes("\0")) return false;
    if (/^[ \t]/.test(line) && i > 0 && names.length) continue;
    if (!HEADER_FIELD.test(line)) return false;
    names.push(line.slice(0, line.indexOf(":")).toLowerCase());
  }
  // a header block cut by the limit is not judged a message
  if (!ended && bytes.length > MESSAGE_HEADER_LIMIT) return false;
  return names.length >= 2 && names.includes("from");
}
