// spec 002 §5 "Client search" and the list's row choice: the zod schemas (the rules and the list's
// URL state in client-search.ts). The browser imports this module only dynamically (issue 16).

import { z } from "zod";
import { type DateRules, messageWithValues, NAME_MAX_LENGTH, PORTAL_VIEWS, POSTCODE_MAX_LENGTH } from "./client-search";

/** NFC, trimmed, typographic apostrophes as plain ones; empty means absent. */
function normaliseText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value
    .normalize("NFC")
    .replace(/[\u2018\u2019]/g, "'")
    .trim();
  return text === "" ? undefined : text;
}

/** An optional text field: normalised, then checked when present. */
const optionalText = (check: (value: string) => boolean, message: string) =>
  z.string().optional().transform(normaliseText).pipe(z.string().refine(check, message).optional());

// Letters (accented too, precomposed or combining), digits, space, underscore, apostrophe, dot, hyphen.
const NAME_PATTERN = /^[\p{L}\p{M}\d _'.-]+$/u;
const POSTCODE_PATTERN = /^[A-Za-z\d _]+$/;

const length = (s: string) => [...s].length;

/** spec 002 §5 "Client search": one schema for the loader (URL) and the browser. */
export function createClientSearchSchema(dates: DateRules) {
  const nameMessage = "advisers:clientList.errors.name";
  const dobMessage = messageWithValues("advisers:clientList.errors.dob", { format: dates.pattern });
  const postcodeMessage = "advisers:clientList.errors.postcode";
  return z.object({
    name: optionalText((s) => length(s) >= 2 && length(s) <= NAME_MAX_LENGTH && NAME_PATTERN.test(s), nameMessage),
    dob: optionalText((s) => dates.parse(s) !== null, dobMessage),
    postcode: optionalText(
      (s) => length(s) >= 2 && length(s) <= POSTCODE_MAX_LENGTH && POSTCODE_PATTERN.test(s),
      postcodeMessage,
    ),
  });
}

/** The posted choice of a row: a client, the view chosen and the client's own level. */
export const OpenClientSchema = z.object({
  clientId: z.coerce.number().int().positive(),
  view: z.enum(PORTAL_VIEWS, {
    errorMap: () => ({ message: "advisers:clientList.errors.view" }),
  }),
  own: z.enum(["NotAssigned", "Portfolio", "Assets", "Messages"]).catch("NotAssigned"),
});
