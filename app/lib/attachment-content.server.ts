import { fileTypeFromBuffer } from "file-type";
import { attachmentTypeOf } from "./attachments";

// Issue 24 finding 2: a file's content must be what its name says, judged by its bytes with
// file-type (a maintained detector of file signatures), not by the type the browser declared:
// a binary format must be found as that format; a text format (csv, txt) must have no binary
// type at all. docs/decisions/111-upload-limits-and-attachment-types.md.

/** Whether the bytes of a file of an allowed type hold that type (false for a type not allowed). */
export async function contentMatchesName(name: string, bytes: Uint8Array): Promise<boolean> {
  const type = attachmentTypeOf(name);
  if (!type) return false;
  const found = await fileTypeFromBuffer(bytes);
  if (type.sniffed === null) return found === undefined;
  return found !== undefined && type.sniffed.includes(found.ext);
}
