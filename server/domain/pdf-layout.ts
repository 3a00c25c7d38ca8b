// Where a PDF table's rows go (docs/decisions/110-report-text-and-realistic-demo-market.md): a
// table never starts unless its header and first rows fit; a short table is kept whole; a long one
// breaks only where each page keeps at least a few rows, and its last rows go with its totals. Pure
// (heights in points in, page starts out), so any table of a report (holdings, transactions) can
// use it, and it is tested without drawing.

/** The fewest body rows a page of a broken table holds, and that go with the totals. */
export const KEEP_ROWS = 3;

export type TableLayoutInput = {
  /** Each row's height, in order: body rows, then the totals (`totals` of them, at the end). */
  heights: readonly number[];
  /** How many of the last rows are totals (kept with the body rows before them). */
  totals: number;
  /** The header row's height (repeated on every page the table runs onto). */
  header: number;
  /** The room left on the current page, and on a fresh page. */
  room: number;
  page: number;
  /** The fewest body rows per page (and before the totals); default KEEP_ROWS. */
  keep?: number;
};

export type TableLayout = {
  /** The table begins on a fresh page (its start did not fit in the room left). */
  newPage: boolean;
  /** The index of the first row of each later page (rows before the first break on the first page). */
  breaks: number[];
};

const sum = (list: readonly number[], from = 0, to = list.length) => {
  let total = 0;
  for (let i = from; i < to; i++) total += list[i] as number;
  return total;
};

/**
 * The height a table needs to start: the header and the first `keep` body rows, or the whole
 * table when it is short (2 × keep body rows or fewer, totals included), so that a short table is
 * never split and a long one never leaves its header with a row or two.
 */
export function tableStartHeight(input: Omit<TableLayoutInput, "room" | "page">): number {
  const keep = input.keep ?? KEEP_ROWS;
  const body = input.heights.length - input.totals;
  if (body <= keep * 2) return input.header + sum(input.heights);
  return input.header + sum(input.heights, 0, keep);
}

/** The pages of a table: whether it starts on a fresh page, and where it breaks. */
export function tableLayout(input: TableLayoutInput): TableLayout {
  const { heights, header, page } = input;
  const keep = input.keep ?? KEEP_ROWS;
  const n = heights.length;
  const body = n - input.totals;
  const start = tableStartHeight(input);
  // a start taller than a whole page begins where it is, unless the page is already used
  const newPage = start > input.room && (start <= page || input.room < page);
  const breaks: number[] = [];
  let room = (newPage ? page : input.room) - header;
  let first = 0; // the first row of the current page
  let i = 0;
  while (i < n) {
    const height = heights[i] as number;
    if (height <= room || i === first) {
      // a row taller than a whole page still goes somewhere: on a page of its own
      room -= height;
      i++;
      continue;
    }
    // row i does not fit: break before it, unless that leaves the totals with fewer than `keep`
    // body rows (then the break moves up), but never so far up that this page keeps fewer than
    // `keep` rows (a page keeps its rows before the totals get theirs)
    let at = i;
    const tailStart = Math.max(0, body - keep);
    if (at > tailStart) at = Math.max(tailStart, first + Math.min(keep, i - first));
    if (at <= first) at = i;
    breaks.push(at);
    first = at;
    i = at;
    room = page - header;
  }
  return { newPage, breaks };
}

/** The height a block of items needs to be kept together, and whether to start it on a fresh page. */
export function keepTogether(height: number, room: number, page: number): boolean {
  return height > room && height <= page;
}
