import type Database from "better-sqlite3";
import { Parser } from "htmlparser2";

// The messages' full-text index (docs/decisions/209-message-search.md): SQLite's FTS5 table
// document_search (migration 0019) holds each document's subject, the words of its body as a reader
// sees them, and its attachments' names, kept in step by triggers that call the two functions
// below. They are registered on every connection before it is migrated (server/db/connection.ts):
// a connection without them (the sqlite3 tool) can read the database, but not write a document.

/** Where a match starts and ends in what snippet() and highlight() answer: private-use characters, taken out of the indexed text. */
export const MATCH_START = "\uE000";
export const MATCH_END = "\uE001";
const MARKERS = /[\uE000\uE001]/g;

/** Elements whose content a reader never sees. */
const UNSEEN = new Set(["script", "style", "template", "noscript", "head", "title", "iframe", "object"]);
/** Elements that end a line: their words are not run into the next ones'. */
const BREAKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "tr",
  "ul",
]);

/** A text as it is indexed: no match markers, no control characters, single spaces. */
export function searchableText(text: string | null | undefined): string {
  return (text ?? "")
    .replace(MARKERS, "")
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, " ")
    .trim();
}

/**
 * The words of a message body (HTML) as a reader sees them: tags left out, character references
 * decoded (`&pound;8,000` is `£8,000`), scripts, styles and the like left out whole, each block on
 * its own, so that `<p>tax</p><p>year</p>` is not the word `taxyear`.
 */
export function bodyText(html: string | null | undefined): string {
  const parts: string[] = [];
  let unseen = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (UNSEEN.has(name)) unseen++;
        if (BREAKS.has(name)) parts.push(" ");
      },
      onclosetag(name) {
        if (UNSEEN.has(name) && unseen > 0) unseen--;
        if (BREAKS.has(name)) parts.push(" ");
      },
      ontext(text) {
        if (unseen === 0) parts.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html ?? "");
  parser.end();
  return searchableText(parts.join(""));
}

/**
 * The attachments' names as one indexed column: a name a line, so that highlight() answers each
 * name with its own matches (a name never holds a line break once searchable).
 */
export function attachmentNames(names: string | null | undefined): string {
  return (names ?? "").split("\n").map(searchableText).filter(Boolean).join("\n");
}

/**
 * The functions the index's triggers call, on a connection: deterministic, so SQLite may call
 * them as often as it likes; not direct-only, since triggers call them.
 */
export function registerSearchFunctions(sqlite: Database.Database): void {
  sqlite.function("search_body_text", { deterministic: true }, (html: unknown) =>
    bodyText(typeof html === "string" ? html : null),
  );
  sqlite.function("search_text", { deterministic: true }, (text: unknown) =>
    searchableText(typeof text === "string" ? text : null),
  );
  sqlite.function("search_attachment_names", { deterministic: true }, (names: unknown) =>
    attachmentNames(typeof names === "string" ? names : null),
  );
}
