// Issue 24 finding 2: the files a client may send an adviser are an allow-list, judged on a
// normalised name; each allowed extension has one Content-Type (never the uploader's) and the
// content the file must hold (checked on the server with file-type, attachment-content.server.ts).
// docs/decisions/111-upload-limits-and-attachment-types.md; the legacy binary Office formats (doc,
// xls) left the list and packages are read through in docs/decisions/165. Loaded by the browser too (the compose
// form checks a chosen file at once), so nothing here is server-only.

export type AttachmentType = {
  /** The Content-Type the file is stored and served with. */
  contentType: string;
  /**
   * What file-type must find in its first bytes (its `ext`), or null for a text format, whose
   * content must have no binary type at all.
   */
  sniffed: readonly string[] | null;
  /**
   * A zip of parts (Office Open XML, OpenDocument): what the parts hold is judged too (macros,
   * links outside it, its size unpacked; office-package.server.ts, docs/decisions/165).
   */
  package?: true;
  /** A saved e-mail (RFC 5322): a text format whose first lines must be a message's header fields. */
  message?: true;
};

/** What clients send advisers: documents, spreadsheets, text and photographs. */
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

/**
 * Why a file's content may not be sent, found on the server (attachment-content.server.ts): not the
 * format its name says, or an Office package holding macros, links to content elsewhere, or more
 * than the limits unpacked (docs/decisions/165).
 */
export type ContentProblem = "mismatch" | "active-content" | "external" | "unpacked-too-large";

/** The longest name kept: what desktops save. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * The name a file is judged, stored and saved by: compatibility look-alikes folded (NFKC: a
 * full-width '．ｅｘｅ' is '.exe'), control and invisible formatting characters removed (a
 * right-to-left override can show 'fdp.exe' as 'exe.pdf'), only the last part of a path, the
 * characters a desktop cannot save replaced by '_', trailing dots and spaces dropped (Windows drops
 * them when it saves, so 'evil.exe.' is 'evil.exe'), and at most 255 characters, keeping the
 * extension. '' when nothing is left.
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
  if ([...cleaned].length > MAX_FILENAME_LENGTH) {
    const chars = [...cleaned];
    const dot = cleaned.lastIndexOf(".");
    const extension = dot > 0 && cleaned.length - dot <= 16 ? [...cleaned.slice(dot)] : [];
    cleaned = chars.slice(0, MAX_FILENAME_LENGTH - extension.length).join("") + extension.join("");
  }
  return cleaned;
}

/** The last extension of the normalised name, lower case ('' when it has none). */
export function attachmentExtension(name: string): string {
  const normalised = normaliseFilename(name);
  const dot = normalised.lastIndexOf(".");
  return dot >= 0 ? normalised.slice(dot + 1).toLowerCase() : "";
}

/** The allowed type of a file by its name, or null when clients may not send it. */
export function attachmentTypeOf(name: string): AttachmentType | null {
  const extension = attachmentExtension(name);
  return Object.hasOwn(ATTACHMENT_TYPES, extension) ? ATTACHMENT_TYPES[extension]! : null;
}

/** The Content-Type a stored file is served with: the allow-list's, never the uploader's. */
export function contentTypeOf(name: string): string {
  return attachmentTypeOf(name)?.contentType ?? "application/octet-stream";
}

/** The extensions for a file chooser's `accept`, e.g. '.pdf,.doc,…'. */
export const ACCEPTED_EXTENSIONS = Object.keys(ATTACHMENT_TYPES)
  .map((extension) => `.${extension}`)
  .join(",");
