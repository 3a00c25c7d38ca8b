import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, json } from "@remix-run/node";
import { z } from "zod/v4";
import { env } from "~/runtime/env.server";
import { resolveLocale } from "~/session/i18next.server";
import { logger } from "~/runtime/logger.server";
import { requestIdHeader } from "~/runtime/request-id.server";
import { callerKeyHeaders, type PlanningClient, PlanningError } from "~/planning/client.server";
import { orFail, settle } from "~/session/failures.server";
import { isToggleOn, readFeatureToggles } from "~/planning/feature-toggles.server";
import { getSite } from "~/planning/site.server";
import { contentProblemOf } from "~/lib/attachment-content.server";
import { scanForViruses } from "~/lib/virus-scan.server";
import { type ContentProblem, contentTypeOf, normaliseFilename } from "~/lib/attachments";
import { messageWithValues } from "~/lib/client-search";
import { sanitiseStoredMessage } from "~/lib/sanitise.server";
import { validateCsrf } from "~/session/csrf.server";
import {
  cappedStream,
  declaredLength,
  isBodyTooLarge,
  notAFormResponse,
  parseForm,
  readFormBody,
  tooLargeResponse,
} from "~/session/form-body.server";
import { notFound, refuseAccess, requireClientContext } from "~/session/guards.server";
import { getPortalSession } from "~/session/session.server";
import { redirectWithToast } from "~/session/toast.server";
import {
  attachmentErrors,
  attachmentProblem,
  COMPOSE_ERRORS,
  cleanBodyText,
  type ComposeActionData,
  isAllowedType,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  replySubject,
} from "./compose";
import { ComposeSchema } from "./compose-schemas";

// spec 002 §4 "Sending", §5 "Compose", §6 (one-way messaging), §8 messages. The send flow: create
// the message, mark it first-read, upload the attachments one by one, then notify the adviser by
// template. docs/decisions/078-compose-and-reply.md.

/** Where the user lands after sending: the Sent folder of the messages page. */
export const SENT_FOLDER_URL = "/clients/documents-and-messages?folder=sent";

/** Five files of 10,000,000 bytes, the text fields and the multipart framing: past it, 413. */
export const MAX_REQUEST_BYTES = 55_000_000;
/** The text fields (subject, body, tokens) together; the body alone may be 100,000 characters. */
const MAX_TEXT_BYTES = 1_000_000;
/** An upload of up to 10 MB may take longer than an ordinary call. */
const UPLOAD_TIMEOUT_MS = 120_000;

export const COMPOSE_TEXTS = {
  sent: "compose:toast.sent",
  sendFailed: "compose:errors.sendFailed",
  attachmentsFailed: "compose:toast.attachmentsFailed",
  notNotified: "compose:toast.notNotified",
} as const;

/**
 * A file as received by the action, under its normalised name and with the allow-list's
 * Content-Type: its bytes are kept only when it may be sent, and then its content was checked.
 */
export type ReceivedFile = {
  name: string;
  size: number;
  contentType: string;
  bytes: Uint8Array | null;
  contentProblem?: ContentProblem | null;
  /** Set by scanReceivedFiles when the virus scanner did not pass the file (docs/decisions/192). */
  scan?: "infected" | "unavailable";
};

/**
 * Reads the posted form: text fields into FormData, files aside. The whole request is refused
 * (413) past MAX_REQUEST_BYTES, by its declared length or as soon as more has arrived, and the
 * text fields past MAX_TEXT_BYTES. A file over 10,000,000 bytes, of a type not allowed, or beyond
 * the fifth is kept only as its name and size, so it becomes a field error, not an exception.
 *
 * The body is parsed by Node's own Request (parseForm), as the platform's is: Remix's
 * unstable_parseMultipartFormData cuts a part's header at the first '=' and threw on a file named
 * 'statement=2026.pdf' (docs/decisions/111).
 */
export async function readComposeForm(request: Request): Promise<{ fields: FormData; files: ReceivedFile[] }> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    return { fields: await readFormBody(request, MAX_TEXT_BYTES), files: [] };
  const declared = declaredLength(request);
  if (declared !== null && declared > MAX_REQUEST_BYTES) throw tooLargeResponse(request, MAX_REQUEST_BYTES);

  let form: FormData;
  try {
    form = await parseForm(
      request.url,
      contentType,
      request.body ? cappedStream(request.body, MAX_REQUEST_BYTES) : null,
    );
  } catch (error) {
    if (isBodyTooLarge(error)) throw tooLargeResponse(request, MAX_REQUEST_BYTES);
    throw notAFormResponse(request);
  }

  const fields = new FormData();
  const files: ReceivedFile[] = [];
  let textBytes = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") {
      textBytes += Buffer.byteLength(value);
      if (textBytes > MAX_TEXT_BYTES) throw tooLargeResponse(request, MAX_TEXT_BYTES);
      fields.append(name, value);
      continue;
    }
    // a browser sends an empty, nameless part when no file was chosen
    if (name !== "attachments" || (!value.name && value.size === 0)) continue;
    const filename = normaliseFilename(value.name);
    const keep = files.length < MAX_ATTACHMENTS && value.size <= MAX_ATTACHMENT_BYTES && isAllowedType(filename);
    const bytes = keep ? new Uint8Array(await value.arrayBuffer()) : null;
    files.push({
      name: filename,
      size: value.size,
      contentType: contentTypeOf(filename),
      bytes,
      ...(bytes ? { contentProblem: await contentProblemOf(filename, bytes) } : {}),
    });
  }
  return { fields, files };
}

/**
 * ASVS V12.4.2 (docs/decisions/192): each file that may be sent is scanned by clamd (CLAMD_ADDRESS)
 * before anything is sent, so that a virus is named by the field with what was written kept. A file
 * already refused is not scanned. Without a scanner configured (development, or `off`) files pass.
 * A file clamd could not judge is never sent unscanned: the action sends nothing, keeps what was
 * written and shows the spec's text for a message that could not be sent.
 */
async function scanReceivedFiles(files: ReceivedFile[]): Promise<ReceivedFile[]> {
  const address = env.clamd;
  if (!address) return files;
  const scanned: ReceivedFile[] = [];
  for (const file of files) {
    if (!file.bytes || file.contentProblem) {
      scanned.push(file);
      continue;
    }
    const result = await scanForViruses(address, file.bytes);
    if (result.verdict === "clean") scanned.push(file);
    else if (result.verdict === "infected") {
      logger.warn("attachment refused: the virus scanner found something", { signatures: result.signatures });
      scanned.push({ ...file, bytes: null, scan: "infected" });
    } else {
      logger.error("attachment refused: the virus scanner did not answer", { reason: result.reason });
      scanned.push({ ...file, bytes: null, scan: "unavailable" });
    }
  }
  return scanned;
}

/** The posted form once its anti-forgery token is checked, and its files scanned. */
async function readCheckedComposeForm(request: Request): Promise<{ fields: FormData; files: ReceivedFile[] }> {
  const { fields, files } = await readComposeForm(request);
  await validateCsrf(fields, request);
  return { fields, files: await scanReceivedFiles(files) };
}

/**
 * spec 002 §5: the body is sanitised with an allow-list, non-Latin-1 characters are stripped, and
 * it is trimmed. The form's message is plain text: it is escaped and its paragraphs and line breaks
 * become <p> and <br>, then the allow-list is applied to what is stored, whatever reached it.
 */
export function composeBodyHtml(text: string): string {
  const cleaned = cleanBodyText(text.replace(/\r\n?/g, "\n"));
  if (!cleaned) return "";
  const escape = (s: string) =>
    s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html = cleaned
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split("\n").map(escape).join("<br>")}</p>`)
    .join("");
  return sanitiseBody(html);
}

/** The allow-list of a stored message body. */
export function sanitiseBody(html: string): string {
  return cleanBodyText(sanitiseStoredMessage(html));
}

const Created = z.object({ id: z.number() });
const Allowance = z.object({
  files_per_day: z.number(),
  bytes_per_day: z.number(),
  files_left: z.number(),
  bytes_left: z.number(),
});

const megabytes = (bytes: number) => String(Math.floor(bytes / 1_000_000));

/**
 * ASVS V12.1.3 (docs/decisions/165): the platform stores at most so many attachments, and bytes,
 * for one client in 24 hours. Asked before the message is created, so that files past it are named
 * by the field with what the user wrote kept, not lost after a sent message. When the platform
 * cannot say, the send goes on: the platform refuses each upload past the allowance itself.
 */
async function allowanceError(
  request: Request,
  planning: PlanningClient,
  files: readonly ReceivedFile[],
): Promise<string | null> {
  if (!files.length) return null;
  const allowance = await settle(request, planning.get("resourceful/docnote-v2/attachment-allowance", Allowance));
  if (!allowance.ok) return null;
  const left = allowance.value;
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (files.length <= left.files_left && bytes <= left.bytes_left) return null;
  return messageWithValues(COMPOSE_ERRORS.dailyLimit, {
    files: String(left.files_per_day),
    megabytes: megabytes(left.bytes_per_day),
    filesLeft: String(left.files_left),
    megabytesLeft: megabytes(left.bytes_left),
  });
}
const Original = z.object({ id: z.number(), subject: z.string() });
const Template = z.looseObject({ id: z.number() });

/**
 * The attachments field's errors: each file's problem (spec 002 §5, issues 24 and 39), and when
 * there is none and the rest of the form is valid, the allowance of the day.
 */
async function fileErrorsOf(
  request: Request,
  planning: PlanningClient,
  files: readonly ReceivedFile[],
  formValid: boolean,
): Promise<string[]> {
  const errors = attachmentErrors(files);
  if (errors.length || !formValid) return errors;
  const overAllowance = await allowanceError(request, planning, files);
  return overAllowance ? [overAllowance] : [];
}

/** spec 002 §6: a client may compose and reply unless one-way messaging is enabled. */
async function oneWayMessaging(planning: PlanningClient): Promise<boolean> {
  return isToggleOn(await readFeatureToggles(planning), "one_way_messaging");
}

/** The site setting notificationTemplateId, when the site notifies advisers of new messages. */
function templateIdOf(value: string | number | boolean | null | undefined): number | null {
  const id =
    typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Uploads one attachment (multipart: the file in `content`, its name in `filename`), with the
 * planning client's headers and session cookie. One attempt: a POST is never repeated.
 */
export async function uploadAttachment(token: string, documentId: number, file: ReceivedFile): Promise<void> {
  const body = new FormData();
  body.append("filename", file.name);
  body.append(
    "content",
    new Blob([(file.bytes ?? new Uint8Array(0)) as BlobPart], { type: file.contentType }),
    file.name,
  );
  const url = `${env.planningApiUrl}/resourceful/docnote-v2/${documentId}/attachment-v3`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        Accept: "application/json",
        "X-Xplan-App-Id": env.appId,
        "X-Xplan-Auth-Failure-Action": "error",
        Cookie: `XPLANID=${token}`,
        ...callerKeyHeaders(),
        ...requestIdHeader(),
      },
      body,
      signal: AbortSignal.timeout(Math.max(env.planningTimeoutMs, UPLOAD_TIMEOUT_MS)),
      redirect: "manual",
    });
  } catch (error) {
    logger.error("planning call failed", { method: "POST", path: "attachment-v3", error: String(error) });
    throw new PlanningError(0, null);
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const text = await response.text();
  let apiMessage: string | null = null;
  try {
    const parsed = JSON.parse(text) as { api_message?: unknown };
    apiMessage = typeof parsed.api_message === "string" ? parsed.api_message : null;
  } catch {
    apiMessage = null;
  }
  throw new PlanningError(response.status, apiMessage);
}

/** The sending after the message exists: spec 002 §4 steps 2 to 4 and their outcomes. */
async function completeSending(input: {
  planning: PlanningClient;
  token: string;
  documentId: number;
  subject: string;
  files: ReceivedFile[];
  templateId: number | null;
}): Promise<{ attachmentsFailed: boolean; notNotified: boolean }> {
  const { planning, token, documentId, subject, files, templateId } = input;
  // step 2: the sender has read their own message
  try {
    await planning.exec("POST", `resourceful/docnote-v2/${documentId}/firstread`);
  } catch (error) {
    logger.error("marking a sent message first-read failed", { documentId, error: String(error) });
  }
  // step 3: one by one, in the order chosen; a failed file does not stop the others
  let attachmentsFailed = false;
  for (const file of files) {
    try {
      await uploadAttachment(token, documentId, file);
    } catch (error) {
      attachmentsFailed = true;
      logger.error("an attachment of a sent message failed", { documentId, error: String(error) });
    }
  }
  // step 4: the adviser is told by the site's template (TemplateError, NotificationError)
  let notNotified = false;
  if (templateId !== null) {
    try {
      await planning.get(`resourceful/email/template/${templateId}`, Template);
      await planning.exec("POST", "resourceful/email/email", {
        query: { _method: "send" },
        body: { template_id: templateId, subject, document_id: documentId },
      });
    } catch (error) {
      notNotified = true;
      logger.error("the notification of a sent message failed", { documentId, error: String(error) });
    }
  }
  return { attachmentsFailed, notNotified };
}

/**
 * The compose and reply form's action (the messages page's action calls it). Clients only: an
 * adviser, or a client while one-way messaging is on, gets Access Denied.
 */
export async function composeAction({ request }: ActionFunctionArgs): Promise<Response> {
  const context = await requireClientContext(request);
  if (context.isAdviser) throw refuseAccess(context, "clients only");
  const { planning } = context;
  // When the toggles cannot be read they are all off (spec 000 §1); the platform still refuses a
  // one-way site's message itself.
  if (await orFail(request, oneWayMessaging(planning))) throw refuseAccess(context, "one-way messaging");

  const { fields, files } = await readCheckedComposeForm(request);

  const submission = parseWithZod(fields, { schema: ComposeSchema });
  const postedFiles = files.map((f) => ({ name: f.name, problem: attachmentProblem(f) }));
  const stay = (status: number, options: Parameters<typeof submission.reply>[0] = {}, messageKey?: string) =>
    json<ComposeActionData>(
      { result: submission.reply(options), postedFiles, ...(messageKey ? { messageKey } : {}) },
      { status },
    );

  // A reply's subject comes from the original, never from the browser; a message the client may
  // not see is not found.
  const replyTo = fields.get("replyTo");
  let subject: string | null = null;
  if (typeof replyTo === "string" && replyTo !== "") {
    if (!/^\d{1,15}$/.test(replyTo)) throw notFound();
    const original = await settle(request, planning.get(`resourceful/docnote-v2/${replyTo}`, Original));
    if (!original.ok) {
      if (original.failure.kind === "not-found" || original.failure.status === 404) throw notFound();
      return stay(original.failure.status >= 400 ? original.failure.status : 500, {}, COMPOSE_TEXTS.sendFailed);
    }
    subject = replySubject(original.value.subject);
  }

  const fileErrors = await fileErrorsOf(request, planning, files, submission.status === "success");
  if (submission.status !== "success" || fileErrors.length) {
    return stay(400, fileErrors.length ? { fieldErrors: { attachments: fileErrors } } : {});
  }
  if (files.some((file) => file.scan === "unavailable")) return stay(503, {}, COMPOSE_TEXTS.sendFailed);
  const values = submission.value;
  subject ??= values.subject ?? "";

  const portal = await getPortalSession(request);
  const locale = await resolveLocale(request);
  const site = await getSite(locale);
  const templateId = templateIdOf(site.settings.notificationTemplateId);

  // step 1: create; if it fails, nothing was sent and the user keeps what they typed
  const created = await settle(
    request,
    planning.post("resourceful/docnote-v2", Created, {
      body: {
        subject,
        body: composeBodyHtml(values.body),
        ...(templateId !== null ? { notification_template_id: templateId } : {}),
      },
    }),
  );
  if (!created.ok && created.failure.status === 403) throw refuseAccess(context, "refused by the platform");
  if (!created.ok)
    return stay(created.failure.status >= 400 ? created.failure.status : 500, {}, COMPOSE_TEXTS.sendFailed);

  const outcome = await completeSending({
    planning,
    token: portal?.token ?? "",
    documentId: created.value.id,
    subject,
    files,
    templateId,
  });
  if (outcome.attachmentsFailed) {
    return redirectWithToast(SENT_FOLDER_URL, {
      type: "error",
      title: COMPOSE_TEXTS.attachmentsFailed,
      ...(outcome.notNotified ? { description: COMPOSE_TEXTS.notNotified } : {}),
    });
  }
  if (outcome.notNotified)
    return redirectWithToast(SENT_FOLDER_URL, { type: "error", title: COMPOSE_TEXTS.notNotified });
  return redirectWithToast(SENT_FOLDER_URL, { type: "success", title: COMPOSE_TEXTS.sent });
}
