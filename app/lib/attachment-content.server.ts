import { fileTypeFromBuffer } from "file-type";
import { attachmentTypeOf, type ContentProblem } from "./attachments";
import { inspectPackage } from "./office-package.server";

// Issue 24 finding 2: a file's content must be what its name says, judged by its bytes with
// file-type (a maintained detector of file signatures), not by the type the browser declared:
// a binary format must be found as that format; a text format (csv, txt) must have no binary
// type at all. docs/decisions/111-upload-limits-and-attachment-types.md. Issue 39 finding 4: an
// Office Open XML or OpenDocument file is then read through (office-package.server.ts,
// docs/decisions/165): macros, links outside it and a size unpacked past the limits are refused.

/** What file-type calls the Office Open XML and OpenDocument formats, macro-enabled ones included. */
const OFFICE_PACKAGE = /^((doc|dot|xls|xlt|ppt|pot)[xm]|o[dt][tsgp])$/;

/** What is wrong with the bytes of a file of an allowed type, or null ("mismatch" for a type not allowed). */
export async function contentProblemOf(name: string, bytes: Uint8Array): Promise<ContentProblem | null> {
  const type = attachmentTypeOf(name);
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
