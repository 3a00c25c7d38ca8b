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
