// Search in messages (docs/decisions/209-message-search.md): what a user types made into an FTS5
// query that cannot be read as FTS5's own syntax, and the matching parts of each document found,
// as text and flags (never markup), for the list's answer.
import type { Db } from "../../db/connection";
import { MATCH_END, MATCH_START } from "../../db/message-search";
import { prepared } from "../../db/prepared";

/** The most words one search takes: a longer one is cut (what is typed is at most 255 characters). */
const MAX_TERMS = 12;
/** How many words of the body the snippet shows around its matches. */
const SNIPPET_TOKENS = 16;

/** Whether a word has anything the index's tokenizer (unicode61) keeps: a letter or a digit. */
const hasToken = (term: string) => /[\p{L}\p{N}]/u.test(term);

/** A word or a phrase as an FTS5 string: quoted, its own quotes doubled, so nothing in it is syntax. */
const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * The FTS5 query of what the user typed; null when it has no word to look for. Every word must be
 * found (AND), each as the start of a word (`valuat` finds `valuation`); a phrase in double quotes
 * is found as it is written. Nothing typed is syntax: `AND`, `OR`, `NOT`, `NEAR`, `-`, `*`, `^`,
 * `:`, brackets and a lone quote are words or separators, never operators.
 */
export function ftsQuery(input: string): string | null {
  const text = input.replace(/[\uE000\uE001]/g, " ").normalize("NFC");
  const terms: string[] = [];
  // a pair of quotes is a phrase; an unpaired quote is a separator
  const parts = text.split('"');
  const paired = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  parts.forEach((part, i) => {
    const inPhrase = i % 2 === 1 && i < paired;
    if (inPhrase) {
      const phrase = part.trim().replace(/\s+/g, " ");
      if (hasToken(phrase)) terms.push(quoted(phrase));
      return;
    }
    for (const word of part.split(/\s+/)) if (hasToken(word)) terms.push(`${quoted(word)}*`);
  });
  if (terms.length === 0) return null;
  return terms.slice(0, MAX_TERMS).join(" AND ");
}

/** A piece of a searched field: `match` when it is (part of) what was searched for. */
export type MatchPart = { text: string; match: boolean };
/** Where a document matched: its subject, a snippet of its body, or the name of one of its attachments. */
export type SearchMatch = { field: "subject" | "body" | "attachment"; parts: MatchPart[] };

/** Text with the index's markers as parts; null when nothing in it matched. */
export function matchParts(marked: string | null | undefined): MatchPart[] | null {
  if (!marked || !marked.includes(MATCH_START)) return null;
  const parts: MatchPart[] = [];
  let match = false;
  let text = "";
  const flush = () => {
    if (text) parts.push({ text, match });
    text = "";
  };
  for (const char of marked) {
    if (char === MATCH_START || char === MATCH_END) {
      flush();
      match = char === MATCH_START;
    } else text += char;
  }
  flush();
  return parts;
}

type MarkedRow = { id: number; subject: string | null; body: string | null; attachments: string | null };

const markedDocuments = (db: Db) =>
  db.$client.prepare<[string, string, string, string, string, string, string, string, string], MarkedRow>(
    `SELECT rowid AS id,
       highlight(document_search, 0, ?, ?) AS subject,
       snippet(document_search, 1, ?, ?, ?, ${SNIPPET_TOKENS}) AS body,
       highlight(document_search, 2, ?, ?) AS attachments
     FROM document_search
     WHERE document_search MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
  );

/**
 * Where each of the documents found (by id; the list's page, already limited to what the caller
 * sees) matched the query: the subject, the body's snippet, the attachments' names, in that order.
 */
export function searchMatches(db: Db, query: string, ids: readonly number[]): Map<number, SearchMatch[]> {
  const found = new Map<number, SearchMatch[]>();
  if (ids.length === 0) return found;
  const rows = prepared(db, markedDocuments).all(
    MATCH_START,
    MATCH_END,
    MATCH_START,
    MATCH_END,
    "…",
    MATCH_START,
    MATCH_END,
    query,
    JSON.stringify(ids),
  );
  for (const row of rows) {
    const matches: SearchMatch[] = [];
    const subject = matchParts(row.subject);
    if (subject) matches.push({ field: "subject", parts: subject });
    const body = matchParts(row.body);
    if (body) matches.push({ field: "body", parts: body });
    for (const name of (row.attachments ?? "").split("\n")) {
      const parts = matchParts(name);
      if (parts) matches.push({ field: "attachment", parts });
    }
    found.set(row.id, matches);
  }
  return found;
}
