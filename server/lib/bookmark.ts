import { z } from "zod";

/** The opaque page bookmark: the sort it belongs to, the last row's sort key and its id. */
export type Bookmark = { sort: string; key: string | number | null; id: number };

const BookmarkSchema = z.object({
  s: z.string(),
  k: z.union([z.string(), z.number(), z.null()]),
  i: z.number().int(),
});

export function encodeBookmark(b: Bookmark): string {
  return Buffer.from(JSON.stringify({ s: b.sort, k: b.key, i: b.id }), "utf8").toString("base64url");
}

/** Null when the text is not a bookmark this platform issued. */
export function decodeBookmark(text: string): Bookmark | null {
  try {
    const json: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    const parsed = BookmarkSchema.safeParse(json);
    return parsed.success ? { sort: parsed.data.s, key: parsed.data.k, id: parsed.data.i } : null;
  } catch {
    return null;
  }
}
