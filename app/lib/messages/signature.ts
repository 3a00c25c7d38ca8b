// spec 002 §4 "Digital-signature status", "Badge", "Signatory label", "Who can sign", "Signing
// journey", §8 "Digital signature": the rules of the signature view. Pure: unit tested.

/** Where the signature pages and their documents are. */
export const SIGNATURES_PATH = "/clients/documents-and-messages/signatures";
export const SIGNATURE_DOCUMENTS_PATH = "/clients/documents-and-messages/signature-documents";

/** spec 002 §4: partSigned=0, signed=1, declined=2, pending=3, awaitingSignature=4. */
export const STATUS = { partSigned: 0, signed: 1, declined: 2, pending: 3, awaitingSignature: 4 } as const;

export type BadgeTone = "warning" | "danger" | "success" | "info";
export type Badge = { key: "pending" | "declined" | "signed" | "awaiting"; tone: BadgeTone };

/** spec 002 §4 "Badge": Pending (warning), Declined (danger), Signed (success), otherwise 'Awaiting signature' (info). */
export function badgeOf(status: number): Badge {
  if (status === STATUS.pending) return { key: "pending", tone: "warning" };
  if (status === STATUS.declined) return { key: "declined", tone: "danger" };
  if (status === STATUS.signed) return { key: "signed", tone: "success" };
  return { key: "awaiting", tone: "info" };
}

/** spec 002 §4: only items that are neither pending nor signed, and that have a due date, await action. */
export function awaitsAction(item: { status: number; duedate: string | null }): boolean {
  return item.status !== STATUS.pending && item.status !== STATUS.signed && Boolean(item.duedate);
}

/**
 * The To be signed folder (spec 002 "Folders", §4 "Badge"): every item the client is a signatory of,
 * those awaiting action first (in the platform's order, newest notified first), then the signed,
 * declined and pending ones with their badge, so a document signed or declined stays findable with
 * its signed copy (decision 118).
 */
export function folderOrder<T extends { status: number; duedate: string | null }>(items: readonly T[]): T[] {
  return [...items.filter(awaitsAction), ...items.filter((item) => !awaitsAction(item))];
}

export type SignatoryState = { signed_at: string | null; declined_at: string | null };

/** spec 002 §4 "Signatory label": 'Signed by', 'Declined by' or 'Awaiting signature by', with the date of a signature. */
export function signatoryLabelOf(s: SignatoryState): {
  key: "signedBy" | "declinedBy" | "awaitingBy";
  at: string | null;
} {
  if (s.signed_at) return { key: "signedBy", at: s.signed_at };
  if (s.declined_at) return { key: "declinedBy", at: s.declined_at };
  return { key: "awaitingBy", at: null };
}

/** When a signed or declined item was finished: the last signature, or the decline; null while open or pending. */
export function finishedAt(item: {
  status: number;
  signatories: readonly SignatoryState[];
}): { key: "signedOn" | "declinedOn"; at: string } | null {
  const latest = (dates: Array<string | null>) =>
    dates
      .filter((d): d is string => Boolean(d))
      .sort()
      .at(-1) ?? null;
  const at =
    item.status === STATUS.signed
      ? latest(item.signatories.map((s) => s.signed_at))
      : item.status === STATUS.declined
        ? latest(item.signatories.map((s) => s.declined_at))
        : null;
  if (!at) return null;
  return { key: item.status === STATUS.signed ? "signedOn" : "declinedOn", at };
}

/** The calendar day (YYYY-MM-DD) of a moment in a time zone (the user's, else UTC). */
export function dayIn(at: string, timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone: timeZone ?? "UTC",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date(at));
  } catch {
    return at.slice(0, 10);
  }
}

/** What the client's own signatory did (signed or declined) and when; null while they have not acted. */
export function ownOutcome<T extends SignatoryState & { entityid: number }>(
  signatories: readonly T[],
  entityId: number,
): { key: "signed" | "declined"; at: string; signatory: T } | null {
  const own = signatories.find((s) => s.entityid === entityId && (s.signed_at || s.declined_at));
  if (!own) return null;
  return own.signed_at
    ? { key: "signed", at: own.signed_at, signatory: own }
    : { key: "declined", at: own.declined_at!, signatory: own };
}

/** spec 002 §3: a signatory's name is shown as 'Last, First'. */
export function signatoryName(s: {
  entity_first_name: string | null;
  entity_last_name: string | null;
  entity_name: string | null;
}): string {
  const first = s.entity_first_name?.trim();
  const last = s.entity_last_name?.trim();
  if (first && last) return `${last}, ${first}`;
  return last || first || s.entity_name?.trim() || "";
}

/**
 * spec 002 §4 "Who can sign": the status is awaitingSignature, or partSigned and the user's own
 * signatory can sign. Only a client signs: an adviser in context reads.
 */
export function ownSignatory<T extends { can_sign: boolean }>(
  item: { status: number },
  signatories: readonly T[],
  isClient: boolean,
): T | null {
  if (!isClient) return null;
  if (item.status !== STATUS.awaitingSignature && item.status !== STATUS.partSigned) return null;
  return signatories.find((s) => s.can_sign) ?? null;
}

/** spec 002 "Signing journey" step 1: a registered phone without '+' cannot receive the code. */
export function hasValidPhone(phone: string | null | undefined): boolean {
  return typeof phone === "string" && phone.includes("+");
}

export type CodeError = "mismatch" | "tooMany" | "expired";

/** spec 002 §8: the platform's three code refusals, matched by their message; anything else is shown as it is. */
export function codeErrorOf(apiMessage: string | null | undefined): CodeError | null {
  const text = (apiMessage ?? "").toLowerCase();
  if (text.includes("otp does not match")) return "mismatch";
  if (text.includes("too many incorrect otp attempts")) return "tooMany";
  if (text.includes("otp code has expired")) return "expired";
  return null;
}

/** The journey's steps as the URL names them (spec 002 "Signing journey"). */
export const JOURNEY_STEPS = ["terms", "code", "expired", "invalid-phone", "decline"] as const;
export type JourneyStep = (typeof JOURNEY_STEPS)[number];

export function readJourneyStep(value: string | null): JourneyStep | null {
  return JOURNEY_STEPS.find((s) => s === value) ?? null;
}

/** A one-time code as typed: digits only, at most 6. */
export function cleanCode(value: unknown): string {
  return typeof value === "string" ? value.replace(/\D/g, "").slice(0, 6) : "";
}
