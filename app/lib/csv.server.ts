// CSV downloads (RFC 4180) with csv-stringify, the csv project's maintained writer
// (docs/decisions/094-investments-and-allocation.md): UTF-8 with a byte-order mark so that
// spreadsheets read the accents and currency symbols, CRLF line ends, and text cells that a
// spreadsheet would run as a formula neutralised.
import { stringify } from "csv-stringify/sync";
import { contentDisposition } from "~/lib/messages/files";

export type CsvCell = string | number | null;

/**
 * A text cell that starts with =, +, -, @ (or a tab or carriage return, which some spreadsheets
 * skip before reading a formula) is prefixed with an apostrophe, so it is shown, never run.
 * Numbers are written as numbers: a negative amount is not a formula.
 */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** The file's text: a header row, then the rows; a null cell is empty. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  const text = (cell: CsvCell) =>
    cell === null ? "" : typeof cell === "number" ? String(cell) : neutraliseFormula(cell);
  return stringify([header.map((h) => text(h)), ...rows.map((row) => row.map(text))], {
    bom: true,
    record_delimiter: "windows",
    quoted_match: /^\s|\s$/,
  });
}

/** A file-name part: letters, digits and dashes only, lower case. */
export function fileNamePart(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "client"
  );
}

/** A CSV download: the file as an attachment by its name, never kept by a cache (it holds the client's figures). */
export function csvResponse(
  filename: string,
  header: readonly string[],
  rows: ReadonlyArray<readonly CsvCell[]>,
): Response {
  return new Response(toCsv(header, rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(filename),
      "Cache-Control": "private, no-store",
    },
  });
}
