import type { SubmissionResult } from "@conform-to/react";
import { attachmentTypeOf, type ContentProblem } from "~/lib/attachments";

// spec 002 §5 "Compose" and §9 "Attachments": the rules of the compose and reply form, shared by the
// action (compose.server.ts) and the browser (compose-form.tsx); the schemas are in
// compose-schemas.ts, which the browser loads only after the page (issue 16).
// docs/decisions/078-compose-and-reply.md; the file types are an allow-list (app/lib/attachments.ts,
// docs/decisions/111-upload-limits-and-attachment-types.md).

/** spec 002 §5: 'under 256 characters'. */
export const SUBJECT_MAX_LENGTH = 255;
/** The platform's limit on a message body (docs/platform-api.md "Documents and messages"). */
export const BODY_MAX_LENGTH = 100_000;
/** spec 002 §9: at most 5 attachments. */
export const MAX_ATTACHMENTS = 5;
/** spec 002 §9: each file at most 10,000,000 bytes. */
export const MAX_ATTACHMENT_BYTES = 10_000_000;

export const COMPOSE_ERRORS = {
  subjectRequired: "compose:errors.subjectRequired",
  subjectTooLong: "compose:errors.subjectTooLong",
  bodyTooLong: "compose:errors.bodyTooLong",
  tooManyFiles: "compose:errors.tooManyFiles",
  fileTooLarge: "compose:errors.fileTooLarge",
  fileTypeNotAllowed: "compose:errors.fileTypeNotAllowed",
  fileTypeAndSize: "compose:errors.fileTypeAndSize",
  fileContentMismatch: "compose:errors.fileContentMismatch",
  fileActiveContent: "compose:errors.fileActiveContent",
  fileExternalContent: "compose:errors.fileExternalContent",
  fileUnpackedTooLarge: "compose:errors.fileUnpackedTooLarge",
  dailyLimit: "compose:errors.dailyLimit",
  fileVirus: "compose:errors.fileVirus",
} as const;

/** Each problem of a file's content, as its text (issue 24; issue 39, docs/decisions/165). */
const CONTENT_ERRORS: Record<ContentProblem, string> = {
  mismatch: COMPOSE_ERRORS.fileContentMismatch,
  "active-content": COMPOSE_ERRORS.fileActiveContent,
  external: COMPOSE_ERRORS.fileExternalContent,
  "unpacked-too-large": COMPOSE_ERRORS.fileUnpackedTooLarge,
};

/**
 * What the rules need to know of a chosen file: a browser File or a file received by the action,
 * which also knows what is wrong with its content, if anything (the browser does not look).
 */
export type AttachmentFacts = {
  name: string;
  size: number;
  contentProblem?: ContentProblem | null;
  /** ASVS V12.4.2 (docs/decisions/192): what the virus scanner said, when it did not pass the file. */
  scan?: "infected" | "unavailable";
};

/**
 * spec 002 §5 with issue 24's allow-list (docs/decisions/111): a type clients may not send takes the
 * spec's 'File type not allowed' texts; content that is not what its name says has its own text.
 */
export function isAllowedType(filename: string): boolean {
  return attachmentTypeOf(filename) !== null;
}

/** spec 002 §5: one file's problem (as an i18n key), or null when it may be sent. */
export function attachmentProblem(file: AttachmentFacts): string | null {
  const excluded = !isAllowedType(file.name);
  const tooLarge = file.size > MAX_ATTACHMENT_BYTES;
  if (excluded && tooLarge) return COMPOSE_ERRORS.fileTypeAndSize;
  if (excluded) return COMPOSE_ERRORS.fileTypeNotAllowed;
  if (tooLarge) return COMPOSE_ERRORS.fileTooLarge;
  if (file.contentProblem) return CONTENT_ERRORS[file.contentProblem];
  if (file.scan === "infected") return COMPOSE_ERRORS.fileVirus;
  return null;
}

/**
 * The errors of the attachments field: the count rule, then each distinct file problem once (the
 * files themselves are listed beside the field with their own problem).
 */
export function attachmentErrors(files: readonly AttachmentFacts[]): string[] {
  const errors: string[] = [];
  if (files.length > MAX_ATTACHMENTS) errors.push(COMPOSE_ERRORS.tooManyFiles);
  for (const file of files) {
    const problem = attachmentProblem(file);
    if (problem && !errors.includes(problem)) errors.push(problem);
  }
  return errors;
}

/** spec 002 §5: characters outside Latin-1 (above U+00FF) are removed. */
export function stripNonLatin1(text: string): string {
  let out = "";
  for (const char of text) if (char.codePointAt(0)! <= 0xff) out += char;
  return out;
}

/** spec 002 §5: the body's text is stripped of non-Latin-1 characters and trimmed. */
export function cleanBodyText(text: string): string {
  return stripNonLatin1(text).trim();
}

const REPLY_PREFIX = /^(\s*re:\s*)+/i;

/**
 * spec 002 §5: a reply's subject is 'RE:' plus the original subject, cut to 255 characters. Written
 * 'RE: ' with one space, as mail programs do; an original that already starts with RE: keeps one.
 */
export function replySubject(original: string): string {
  const rest = original.trim().replace(REPLY_PREFIX, "").trim();
  return `RE: ${rest}`.slice(0, SUBJECT_MAX_LENGTH).trim();
}

/** A value of the attachments field as a browser gives it: a File (an empty one when none is chosen). */
function isChosenFile(value: unknown): value is AttachmentFacts {
  if (typeof value !== "object" || value === null) return false;
  const file = value as { name?: unknown; size?: unknown };
  return typeof file.name === "string" && typeof file.size === "number" && (file.name !== "" || file.size > 0);
}

export function chosenFiles(value: unknown): AttachmentFacts[] {
  return (Array.isArray(value) ? value : [value]).filter(isChosenFile);
}

/** One file the user posted, with its problem, shown beside the attachments field after a refusal. */
export type PostedFile = { name: string; problem: string | null };

/** What the compose action answers when it keeps the user on the form. */
export type ComposeActionData = {
  result: SubmissionResult<string[]>;
  /** An i18n key shown above the form (the platform refused or failed to create the message). */
  messageKey?: string;
  /** The files that were posted: a browser cannot keep them, so the user chooses them again. */
  postedFiles: PostedFile[];
};
