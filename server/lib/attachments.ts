import { fileTypeFromBuffer } from "file-type";

// The file types a client may attach to a message (docs/platform-api.md "Documents and messages",
// docs/decisions/111-upload-limits-and-attachment-types.md): an allow-list by extension, each with
// the one Content-Type the file is stored and served with, and the format its bytes must hold
// (file-type's `ext`; null for a text format, which must hold no binary format at all). The
// portal keeps its own copy of the rule (app/lib/attachments.ts): the platform trusts no client.

type AttachmentType = { contentType: string; sniffed: readonly string[] | null };

export const ATTACHMENT_TYPES: Readonly<Record<string, AttachmentType>> = {
  pdf: { contentType: "application/pdf", sniffed: ["pdf"] },
  doc: { contentType: "application/msword", sniffed: ["cfb"] },
  docx: { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", sniffed: ["docx"] },
  xls: { contentType: "application/vnd.ms-excel", sniffed: ["cfb"] },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", sniffed: ["xlsx"] },
  odt: { contentType: "application/vnd.oasis.opendocument.text", sniffed: ["odt"] },
  ods: { contentType: "application/vnd.oasis.opendocument.spreadsheet", sniffed: ["ods"] },
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

/** Whether a file's bytes hold the format its (normalised, allowed) name says. */
export async function contentMatchesName(normalisedName: string, bytes: Uint8Array): Promise<boolean> {
  const type = typeOf(normalisedName);
  if (!type) return false;
  const found = await fileTypeFromBuffer(bytes);
  if (type.sniffed === null) return found === undefined;
  return found !== undefined && type.sniffed.includes(found.ext);
}
