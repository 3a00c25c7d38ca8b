/** Lower case without accents, for case- and accent-insensitive search (spec 002 §5 client search). */
export function foldText(value: string): string {
  return value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** The search text held for a client: every name it can be found by. */
export function searchTextOf(names: Array<string | null | undefined>): string {
  return foldText(names.filter(Boolean).join(" "));
}

/** Upper case without spaces: postcodes match ignoring case and spaces. */
export function postcodeKey(postcode: string): string {
  return postcode.replace(/\s+/g, "").toUpperCase();
}

export type Quicksearch = { dobs: string[]; words: string[] };

/**
 * spec 002 §5: a word of 8 digits is a date of birth (YYYYMMDD, as the client list sends it);
 * any other word must appear in a name.
 */
export function parseQuicksearch(input: string): Quicksearch {
  const dobs: string[] = [];
  const words: string[] = [];
  for (const word of input.split(/\s+/).filter(Boolean)) {
    if (/^\d{8}$/.test(word)) dobs.push(`${word.slice(0, 4)}-${word.slice(4, 6)}-${word.slice(6, 8)}`);
    else words.push(foldText(word));
  }
  return { dobs, words };
}

/** Whether a client's search text and dob satisfy a quicksearch (the SQL does the same). */
export function matchesQuicksearch(q: Quicksearch, client: { searchText: string; dob: string | null }): boolean {
  return q.dobs.every((d) => client.dob === d) && q.words.every((w) => client.searchText.includes(w));
}

/** Escapes a value for SQL LIKE with ESCAPE '\'. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
