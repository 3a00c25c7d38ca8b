// spec 000 §8 "Global handling" and §5: the global error catalogue and server-message cleaning.

export const LOST_SESSION_MESSAGES = [
  "This feature is not available without a valid session",
  "Either existing session or username required",
] as const;

export type FailureKind = "lost-session" | "network" | "not-found" | "forbidden" | "api" | "generic";

/** What the portal shows for a failed platform call. Texts are i18n keys in the `errors` namespace. */
export type Failure = {
  kind: FailureKind;
  status: number;
  /** The platform's cleaned message, shown between the title and the advice; null when none. */
  detail: string | null;
};

/**
 * spec 000 §5: server messages are dropped if they mention corba, start with xplan or mention
 * internal server error; otherwise a trailing full stop is ensured and 'Permission Error: ' removed.
 */
export function cleanServerMessage(message: string | null | undefined): string | null {
  if (!message) return null;
  const trimmed = message.trim();
  if (!trimmed) return null;
  const lower = trimmed.toLowerCase();
  if (lower.includes("corba") || lower.startsWith("xplan") || lower.includes("internal server error")) {
    return null;
  }
  let cleaned = trimmed.replace(/^Permission Error: /, "");
  if (!/[.!?]$/.test(cleaned)) cleaned = `${cleaned}.`;
  return cleaned;
}

export function isLostSessionMessage(apiMessage: string | null | undefined): boolean {
  return LOST_SESSION_MESSAGES.some((m) => m === apiMessage);
}

/** Maps a platform answer (status and api_message) to the catalogue. Status 0 means no answer. */
export function toFailure(status: number, apiMessage: string | null | undefined): Failure {
  if (isLostSessionMessage(apiMessage)) return { kind: "lost-session", status: 401, detail: null };
  if (status === 0) return { kind: "network", status: 503, detail: null };
  if (status === 404) return { kind: "not-found", status, detail: cleanServerMessage(apiMessage) };
  if (status === 403) return { kind: "forbidden", status, detail: cleanServerMessage(apiMessage) };
  const detail = cleanServerMessage(apiMessage);
  return { kind: detail ? "api" : "generic", status: status >= 400 ? status : 500, detail };
}
