import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, json, type UploadHandlerPart, unstable_parseMultipartFormData } from "@remix-run/node";
import sanitizeHtml from "sanitize-html";
import { z } from "zod";
import { env } from "~/runtime/env.server";
import { resolveLocale } from "~/session/i18next.server";
import { logger } from "~/runtime/logger.server";
import { type PlanningClient, PlanningError } from "~/planning/client.server";
import { orFail, settle } from "~/session/failures.server";
import { isToggleOn, readFeatureToggles } from "~/planning/feature-toggles.server";
import { getSite } from "~/planning/site.server";
import { validateCsrf } from "~/session/csrf.server";
import { accessDenied, notFound, requireClientContext } from "~/session/guards.server";
import { getPortalSession } from "~/session/session.server";
import { redirectWithToast } from "~/session/toast.server";
import {
  attachmentErrors,
  attachmentProblem,
  cleanBodyText,
  type ComposeActionData,
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

/** Five files of 10,000,000 bytes, the text fields and the multipart framing. */
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

/** A file as received by the action: its bytes are kept only when it may be sent. */
export type ReceivedFile = { name: string; size: number; contentType: string; bytes: Uint8Array[] | null };

class RequestTooLarge extends Error {}

/**
 * Reads the posted form: text fields into FormData, files aside. A file is stored only while it is
 * within the limits; past 10,000,000 bytes (or beyond the fifth file) it is drained and only its
 * name and size are kept, so an oversized file is a field error, not an exception. The whole
 * request is capped at MAX_REQUEST_BYTES.
 */
export async function readComposeForm(request: Request): Promise<{ fields: FormData; files: ReceivedFile[] }> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_REQUEST_BYTES) throw new RequestTooLarge();
  if (!contentType.startsWith("multipart/form-data")) return { fields: await request.formData(), files: [] };

  const files: ReceivedFile[] = [];
  let total = 0;
  let textBytes = 0;
  const count = (chunk: Uint8Array) => {
    total += chunk.byteLength;
    if (total > MAX_REQUEST_BYTES) throw new RequestTooLarge();
  };

  async function handler(part: UploadHandlerPart): Promise<string | undefined> {
    if (part.filename === undefined) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of part.data) {
        count(chunk);
        textBytes += chunk.byteLength;
        if (textBytes > MAX_TEXT_BYTES) throw new RequestTooLarge();
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString("utf8");
    }
    if (part.name !== "attachments") {
      for await (const chunk of part.data) count(chunk);
      return undefined;
    }
    const keep = files.length < MAX_ATTACHMENTS;
    let size = 0;
    let bytes: Uint8Array[] | null = keep ? [] : null;
    for await (const chunk of part.data) {
      count(chunk);
      size += chunk.byteLength;
      if (size > MAX_ATTACHMENT_BYTES) bytes = null;
      else bytes?.push(chunk);
    }
    // a browser sends an empty, nameless part when no file was chosen
    if (!part.filename && size === 0) return undefined;
    files.push({ name: part.filename ?? "", size, contentType: part.contentType || "application/octet-stream", bytes });
    return undefined;
  }

  const fields = await unstable_parseMultipartFormData(request, handler);
  return { fields, files };
}

/**
 * spec 002 §5: the body is sanitised with an allow-list, non-Latin-1 characters are stripped, and
 * it is trimmed. The form's message is plain text: it is escaped and its paragraphs and line breaks
 * become <p> and <br>, then the allow-list is applied to what is stored, whatever reached it.
 */
export function composeBodyHtml(text: string): string {
  const cleaned = cleanBodyText(text.replace(/\r\n?/g, "\n"));
  if (!cleaned) return "";
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html = cleaned
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split("\n").map(escape).join("<br>")}</p>`)
    .join("");
  return sanitiseBody(html);
}

/** The allow-list of a stored message body. */
export function sanitiseBody(html: string): string {
  return cleanBodyText(
    sanitizeHtml(html, {
      allowedTags: ["p", "br", "strong", "em", "ul", "ol", "li", "a"],
      allowedAttributes: { a: ["href"] },
      allowedSchemes: ["http", "https", "mailto"],
      allowedSchemesAppliedToAttributes: ["href"],
      allowProtocolRelative: false,
      disallowedTagsMode: "discard",
    }),
  );
}

const Created = z.object({ id: z.number() });
const Original = z.object({ id: z.number(), subject: z.string() });
const Template = z.object({ id: z.number() }).passthrough();

/** spec 002 §6: a client may compose and reply unless one-way messaging is enabled. */
async function oneWayMessaging(planning: PlanningClient): Promise<boolean> {
  return isToggleOn(await readFeatureToggles(planning), "one_way_messaging");
}

/** The site setting notificationTemplateId, when the site notifies advisers of new messages. */
function templateIdOf(value: string | number | boolean | null | undefined): number | null {
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Uploads one attachment (multipart: the file in `content`, its name in `filename`), with the
 * planning client's headers and session cookie. One attempt: a POST is never repeated.
 */
export async function uploadAttachment(token: string, documentId: number, file: ReceivedFile): Promise<void> {
  const body = new FormData();
  body.append("filename", file.name);
  body.append("content", new Blob((file.bytes ?? []) as BlobPart[], { type: file.contentType }), file.name);
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
    await planning.send("POST", `resourceful/docnote-v2/${documentId}/firstread`);
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
      await planning.send("POST", "resourceful/email/email", {
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
  if (context.isAdviser) throw accessDenied();
  const { planning } = context;
  // When the toggles cannot be read they are all off (spec 000 §1); the platform still refuses a
  // one-way site's message itself.
  if (await orFail(request, oneWayMessaging(planning))) throw accessDenied();

  let form: Awaited<ReturnType<typeof readComposeForm>>;
  try {
    form = await readComposeForm(request);
  } catch (error) {
    if (error instanceof RequestTooLarge) throw json({ tooLarge: true }, { status: 413 });
    throw error;
  }
  const { fields, files } = form;
  await validateCsrf(fields, request);

  const submission = parseWithZod(fields, { schema: ComposeSchema });
  const postedFiles = files.map((f) => ({ name: f.name, problem: attachmentProblem(f) }));
  const stay = (status: number, options: Parameters<typeof submission.reply>[0] = {}, messageKey?: string) =>
    json<ComposeActionData>({ result: submission.reply(options), postedFiles, ...(messageKey ? { messageKey } : {}) }, { status });

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

  const fileErrors = attachmentErrors(files);
  if (submission.status !== "success" || fileErrors.length) {
    return stay(400, fileErrors.length ? { fieldErrors: { attachments: fileErrors } } : {});
  }
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
  if (!created.ok && created.failure.status === 403) throw accessDenied();
  if (!created.ok) return stay(created.failure.status >= 400 ? created.failure.status : 500, {}, COMPOSE_TEXTS.sendFailed);

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
  if (outcome.notNotified) return redirectWithToast(SENT_FOLDER_URL, { type: "error", title: COMPOSE_TEXTS.notNotified });
  return redirectWithToast(SENT_FOLDER_URL, { type: "success", title: COMPOSE_TEXTS.sent });
}
