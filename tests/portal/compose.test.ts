import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ComposeActionData } from "~/routes/clients.documents-and-messages/compose";
import { craftedWordDocument, SAMPLES, wordDocument, zipBomb } from "../sample-files";
import { openClientInContext, type Portal, setFeatureToggle, startPortal, thrown } from "./portal-harness";
import { EICAR, startClamd } from "../../scripts/clamd.mjs";

// spec 002 §4 "Sending", §5 "Compose", §6 one-way messaging, §8 messages: the compose action with a
// real platform for sessions, site settings and toggles, and a fake of the platform's document and
// email calls (docs/platform-api.md "Documents and messages"), which lets each failure be chosen.

type Compose = typeof import("~/routes/clients.documents-and-messages/compose.server");
type Toasts = typeof import("~/session/toast.server");

let portal: Portal;
let compose: Compose;
let toasts: Toasts;
let client: string;

type StoredDocument = {
  id: number;
  subject: string;
  body: string;
  notificationTemplateId: number | null;
  firstRead: boolean;
  attachments: Array<{ filename: string; size: number; contentType: string }>;
};
type Failing = "create" | "attachment" | "template" | "email";

/** The platform's document and email calls, in memory (docs/platform-api.md "Documents and messages"). */
class FakeDocnotes {
  documents = new Map<number, StoredDocument>();
  outbox: Array<{ template_id: number; subject: string; document_id: number }> = [];
  calls: string[] = [];
  failing = new Set<Failing>();
  /** What GET attachment-allowance answers (docs/decisions/165); null: the platform cannot say. */
  allowance: { files_per_day: number; bytes_per_day: number; files_left: number; bytes_left: number } | null = {
    files_per_day: 50,
    bytes_per_day: 100_000_000,
    files_left: 50,
    bytes_left: 100_000_000,
  };
  private nextId = 100;

  /** A message the client can see (as if sent by their adviser). */
  receive(subject: string): number {
    const id = this.nextId++;
    this.documents.set(id, {
      id,
      subject,
      body: "<p>From your adviser</p>",
      notificationTemplateId: null,
      firstRead: true,
      attachments: [],
    });
    return id;
  }

  sent(subject: string): StoredDocument {
    const found = [...this.documents.values()].find((d) => d.subject === subject);
    if (!found) throw new Error(`no message '${subject}'`);
    return found;
  }

  async answer(method: string, url: URL, init: RequestInit | undefined): Promise<Response | null> {
    const path = url.pathname;
    const headers = new Headers(init?.headers);
    const json = (status: number, body?: unknown) =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    const error = (status: number, message: string) => json(status, { api_message: message, user_message: message });
    let match: RegExpExecArray | null;
    if (!/^\/resourceful\/(docnote-v2|email)\b/.test(path)) return null;
    this.calls.push(`${method} ${path}${url.search}`);
    if (!headers.get("Cookie")?.startsWith("XPLANID=") || !headers.get("X-Xplan-App-Id"))
      return error(401, "This feature is not available without a valid session");
    if (method === "GET" && path === "/resourceful/docnote-v2/attachment-allowance")
      return this.allowance ? json(200, this.allowance) : error(500, "Internal server error");
    if (method === "POST" && path === "/resourceful/docnote-v2") {
      if (this.failing.has("create")) return error(500, "Internal server error");
      const body = JSON.parse(String(init?.body)) as {
        subject: string;
        body: string;
        notification_template_id?: number;
      };
      if (!body.subject.trim() || body.subject.trim().length > 255) return error(400, "Invalid body: subject");
      const id = this.nextId++;
      this.documents.set(id, {
        id,
        subject: body.subject,
        body: body.body,
        notificationTemplateId: body.notification_template_id ?? null,
        firstRead: false,
        attachments: [],
      });
      return json(201, { id });
    }
    if ((match = /^\/resourceful\/docnote-v2\/(\d+)$/.exec(path)) && method === "GET") {
      const document = this.documents.get(Number(match[1]));
      return document
        ? json(200, { id: document.id, subject: document.subject, attachments: [] })
        : error(404, "Document not found");
    }
    if ((match = /^\/resourceful\/docnote-v2\/(\d+)\/firstread$/.exec(path)) && method === "POST") {
      const document = this.documents.get(Number(match[1]));
      if (!document) return error(404, "Document not found");
      document.firstRead = true;
      return new Response(null, { status: 204 });
    }
    if ((match = /^\/resourceful\/docnote-v2\/(\d+)\/attachment-v3$/.exec(path)) && method === "POST") {
      if (this.failing.has("attachment")) return error(500, "Disk full");
      const document = this.documents.get(Number(match[1]));
      if (!document) return error(404, "Document not found");
      const form = await new Request(url, { method: "POST", body: init?.body as FormData }).formData();
      const content = form.get("content");
      const filename = form.get("filename");
      if (!(content instanceof File) || typeof filename !== "string" || !filename)
        return error(400, "Invalid body: content");
      if (document.attachments.length >= 5) return error(400, "You can upload a maximum of 5 attachments.");
      if (content.size > 10_000_000) return error(400, "File is too large, please remove.");
      document.attachments.push({ filename, size: content.size, contentType: content.type });
      return json(201, { docpartid: document.attachments.length, filename, size: content.size });
    }
    if ((match = /^\/resourceful\/email\/template\/(\d+)$/.exec(path)) && method === "GET") {
      if (this.failing.has("template") || match[1] !== "1") return error(404, "Template not found");
      return json(200, {
        id: 1,
        name: "New secure message",
        subject: "New secure message from {client_name}",
        body: "{subject}",
      });
    }
    if (path === "/resourceful/email/email" && method === "POST" && url.searchParams.get("_method") === "send") {
      if (this.failing.has("email")) return error(422, "No adviser to notify");
      this.outbox.push(JSON.parse(String(init?.body)) as { template_id: number; subject: string; document_id: number });
      return new Response(null, { status: 204 });
    }
    return error(404, "Not found");
  }
}

let docnotes: FakeDocnotes;

beforeAll(async () => {
  portal = await startPortal();
  compose = await import("~/routes/clients.documents-and-messages/compose.server");
  toasts = await import("~/session/toast.server");
  client = await portal.signIn("demo.client");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

beforeEach(() => {
  docnotes = new FakeDocnotes();
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    return (await docnotes.answer(method, url, init)) ?? realFetch(input, init);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

type Entry = string | File;

async function request(cookie: string, entries: Record<string, Entry | Entry[]>, options: { csrf?: boolean } = {}) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const body = new FormData();
  if (options.csrf !== false) body.append("csrf", token);
  for (const [name, value] of Object.entries(entries))
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return new Request("http://portal.test/clients/documents-and-messages?compose=true", {
    method: "POST",
    body,
    headers: { Cookie: `${cookie}; ${csrfCookie}` },
  });
}

async function send(cookie: string, entries: Record<string, Entry | Entry[]>, options: { csrf?: boolean } = {}) {
  return compose.composeAction({ request: await request(cookie, entries, options), params: {}, context: {} });
}

async function toastOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("__toast="))!
    .split(";")[0]!;
  return (await toasts.readToast(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).toast;
}

const pdf = (name: string, text = "%PDF-1.4 statement") => new File([text], name, { type: "application/pdf" });

describe("sending a message (spec 002 §4)", () => {
  it("creates it, marks it first-read, uploads both attachments, notifies the adviser and goes to Sent", async () => {
    const subject = "Question about my ISA";
    const response = await send(client, {
      subject,
      body: "Dear Anna,\n\nCould you call me?\nThanks",
      attachments: [pdf("statement.pdf"), new File(["a,b\n1,2"], "figures.csv", { type: "text/csv" })],
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/clients/documents-and-messages?folder=sent");
    expect(await toastOf(response)).toEqual({ type: "success", title: "compose:toast.sent" });

    const stored = docnotes.sent(subject);
    // the demo site's notificationTemplateId (1) goes with the message and its notification
    expect(stored).toMatchObject({
      body: "<p>Dear Anna,</p><p>Could you call me?<br />Thanks</p>",
      notificationTemplateId: 1,
      firstRead: true,
    });
    expect(stored.attachments).toEqual([
      { filename: "statement.pdf", size: 18, contentType: "application/pdf" },
      { filename: "figures.csv", size: 7, contentType: "text/csv; charset=utf-8" },
    ]);
    expect(docnotes.outbox).toEqual([{ template_id: 1, subject, document_id: stored.id }]);
    // spec 002 §4: in order, the attachments one by one (after the allowance of the day, issue 39)
    expect(docnotes.calls).toEqual([
      "GET /resourceful/docnote-v2/attachment-allowance",
      "POST /resourceful/docnote-v2",
      `POST /resourceful/docnote-v2/${stored.id}/firstread`,
      `POST /resourceful/docnote-v2/${stored.id}/attachment-v3`,
      `POST /resourceful/docnote-v2/${stored.id}/attachment-v3`,
      "GET /resourceful/email/template/1",
      "POST /resourceful/email/email?_method=send",
    ]);
  });

  it("stays on the form with everything typed when the message cannot be created", async () => {
    docnotes.failing.add("create");
    const response = await send(client, {
      subject: "Not created",
      body: "Please keep this text",
      attachments: pdf("a.pdf"),
    });
    expect(response.status).toBe(500);
    const data = (await response.json()) as ComposeActionData;
    expect(data.messageKey).toBe("compose:errors.sendFailed");
    expect(data.result.initialValue).toMatchObject({ subject: "Not created", body: "Please keep this text" });
    expect(data.postedFiles).toEqual([{ name: "a.pdf", problem: null }]);
    expect(docnotes.documents.size).toBe(0);
    expect(docnotes.outbox).toEqual([]);
  });

  it("goes to Sent with the attachments message when an upload fails, still notifying", async () => {
    docnotes.failing.add("attachment");
    const response = await send(client, {
      subject: "Attachment fails",
      body: "See attached",
      attachments: pdf("a.pdf"),
    });
    expect(response.headers.get("Location")).toBe("/clients/documents-and-messages?folder=sent");
    expect(await toastOf(response)).toEqual({ type: "error", title: "compose:toast.attachmentsFailed" });
    expect(docnotes.sent("Attachment fails").attachments).toEqual([]);
    expect(docnotes.outbox).toHaveLength(1);
  });

  it("says no-one was notified when the template cannot be read", async () => {
    docnotes.failing.add("template");
    const response = await send(client, { subject: "Template fails", body: "Hello" });
    expect(response.headers.get("Location")).toBe("/clients/documents-and-messages?folder=sent");
    expect(await toastOf(response)).toEqual({ type: "error", title: "compose:toast.notNotified" });
    expect(docnotes.calls).not.toContain("POST /resourceful/email/email?_method=send");
  });

  it("says no-one was notified when the notification fails", async () => {
    docnotes.failing.add("email");
    const response = await send(client, { subject: "Notification fails", body: "Hello" });
    expect(await toastOf(response)).toEqual({ type: "error", title: "compose:toast.notNotified" });
    expect(docnotes.sent("Notification fails").firstRead).toBe(true);
  });

  it("says both when the attachments and the notification fail", async () => {
    docnotes.failing.add("attachment");
    docnotes.failing.add("email");
    const response = await send(client, { subject: "Both fail", attachments: pdf("a.pdf") });
    expect(await toastOf(response)).toEqual({
      type: "error",
      title: "compose:toast.attachmentsFailed",
      description: "compose:toast.notNotified",
    });
  });

  it("stores a hostile body inert", async () => {
    await send(client, {
      subject: "Hostile",
      body: `<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">click</a> Zoë 😀`,
    });
    const body = docnotes.sent("Hostile").body;
    // no element but paragraphs and line breaks: the rest is text
    expect(body.match(/<\/?[a-z]+/gi)).toEqual(["<p", "</p"]);
    expect(body).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror="alert(2)"&gt;&lt;a href="javascript:alert(3)"&gt;click&lt;/a&gt; Zoë</p>',
    );
  });
});

describe("the compose form's refusals (spec 002 §5)", () => {
  it("makes a too-large file and an .exe field errors, keeping the subject and body", async () => {
    const big = new File([new Uint8Array(10_000_001)], "scan.pdf", { type: "application/pdf" });
    const response = await send(client, {
      subject: "With files",
      body: "Kept",
      attachments: [big, pdf("tool.exe"), pdf("fine.pdf")],
    });
    expect(response.status).toBe(400);
    expect(docnotes.calls).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({
      attachments: ["compose:errors.fileTooLarge", "compose:errors.fileTypeNotAllowed"],
    });
    expect(data.result.initialValue).toMatchObject({ subject: "With files", body: "Kept" });
    expect(data.postedFiles).toEqual([
      { name: "scan.pdf", problem: "compose:errors.fileTooLarge" },
      { name: "tool.exe", problem: "compose:errors.fileTypeNotAllowed" },
      { name: "fine.pdf", problem: null },
    ]);
  });

  it("accepts a file of exactly 10,000,000 bytes", async () => {
    const bytes = new Uint8Array(10_000_000);
    bytes.set(new TextEncoder().encode("%PDF-1.4\n"));
    const response = await send(client, {
      subject: "Exactly ten million",
      attachments: new File([bytes], "limit.pdf"),
    });
    expect(response.status).toBe(302);
    expect(docnotes.sent("Exactly ten million").attachments).toEqual([
      expect.objectContaining({ filename: "limit.pdf", size: 10_000_000 }),
    ]);
  });

  it("refuses a sixth file and a missing subject", async () => {
    const files = Array.from({ length: 6 }, (_, i) => pdf(`f${i}.pdf`));
    const response = await send(client, { subject: "  ", body: "Six", attachments: files });
    expect(response.status).toBe(400);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({
      subject: ["compose:errors.subjectRequired"],
      attachments: ["compose:errors.tooManyFiles"],
    });
  });

  it("refuses a subject of 256 characters", async () => {
    const data = (await (await send(client, { subject: "s".repeat(256) })).json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({ subject: ["compose:errors.subjectTooLong"] });
  });

  it("refuses a post without the CSRF token", async () => {
    const refused = await thrown(send(client, { subject: "No token", body: "x" }, { csrf: false }));
    expect(refused.status).toBe(403);
    expect(docnotes.calls).toEqual([]);
  });
});

describe("the files a client may send (issue 24)", () => {
  const named = (bytes: Uint8Array, name: string, type = "application/octet-stream") =>
    new File([bytes as BlobPart], name, { type });

  it("sends a file whose name holds '=' under its own name", async () => {
    const response = await send(client, { subject: "Equals in a name", attachments: pdf("statement=2026.pdf") });
    expect(response.status).toBe(302);
    expect(docnotes.sent("Equals in a name").attachments).toEqual([
      { filename: "statement=2026.pdf", size: 18, contentType: "application/pdf" },
    ]);
  });

  it("refuses the types outside the allow-list, however the name is dressed", async () => {
    const names = ["evil.exe.", "page.html", "image.svg", "app.hta", "screen.scr", "script.ps1"];
    const response = await send(client, {
      subject: "Hostile files",
      attachments: names.map((name) => named(SAMPLES.html(), name, "text/html")),
    });
    expect(response.status).toBe(400);
    expect(docnotes.calls).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({
      attachments: ["compose:errors.tooManyFiles", "compose:errors.fileTypeNotAllowed"],
    });
    // the list beside the field shows each file's normalised name and its problem
    expect(data.postedFiles.map((f) => f.name)).toEqual([
      "evil.exe",
      "page.html",
      "image.svg",
      "app.hta",
      "screen.scr",
      "script.ps1",
    ]);
    expect(new Set(data.postedFiles.map((f) => f.problem))).toEqual(new Set(["compose:errors.fileTypeNotAllowed"]));
  });

  it("refuses a file whose content is not what its name says", async () => {
    const response = await send(client, {
      subject: "Disguised",
      body: "Kept",
      attachments: [
        named(SAMPLES.exe(), "invoice.pdf", "application/pdf"),
        named(wordDocument(true), "letter.docx"),
        pdf("fine.pdf"),
        // decision 205: a text that is not a saved e-mail, a PNG that is not a TIFF
        named(SAMPLES.txt(), "reply.eml", "message/rfc822"),
        named(SAMPLES.png(), "scan.tif", "image/tiff"),
      ],
    });
    expect(response.status).toBe(400);
    expect(docnotes.calls).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({
      attachments: ["compose:errors.fileContentMismatch", "compose:errors.fileActiveContent"],
    });
    expect(data.postedFiles).toEqual([
      { name: "invoice.pdf", problem: "compose:errors.fileContentMismatch" },
      // a macro-enabled document renamed .docx: refused for its macros (issue 39)
      { name: "letter.docx", problem: "compose:errors.fileActiveContent" },
      { name: "fine.pdf", problem: null },
      { name: "reply.eml", problem: "compose:errors.fileContentMismatch" },
      { name: "scan.tif", problem: "compose:errors.fileContentMismatch" },
    ]);
  });

  it("refuses macros, links to content elsewhere, a zip bomb and the old binary formats (issue 39)", async () => {
    const attachedTemplate = craftedWordDocument({
      relationships: `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/>`,
    });
    const response = await send(client, {
      subject: "Office files",
      body: "Kept",
      attachments: [
        named(craftedWordDocument({ parts: { "word/vbaProject.bin": new Uint8Array(16) } }), "letter.docx"),
        named(attachedTemplate, "form.docx"),
        named(zipBomb(2048), "figures.xlsx"),
        named(SAMPLES.compound(), "old letter.doc"),
      ],
    });
    expect(response.status).toBe(400);
    expect(docnotes.calls).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.initialValue).toMatchObject({ subject: "Office files", body: "Kept" });
    expect(data.postedFiles).toEqual([
      { name: "letter.docx", problem: "compose:errors.fileActiveContent" },
      { name: "form.docx", problem: "compose:errors.fileExternalContent" },
      { name: "figures.xlsx", problem: "compose:errors.fileUnpackedTooLarge" },
      { name: "old letter.doc", problem: "compose:errors.fileTypeNotAllowed" },
    ]);
  });

  it("sends Office files, photographs and text, each with the allow-list's type, never the browser's", async () => {
    const response = await send(client, {
      subject: "Typed by the list",
      attachments: [
        named(wordDocument(), "Letter.DOCX", "text/html"),
        named(SAMPLES.heic(), "photo.heic", ""),
        named(SAMPLES.txt(), "notes.txt", "image/svg+xml"),
        named(SAMPLES.pdf(), "report.pdf. ", "text/html"),
      ],
    });
    expect(response.status).toBe(302);
    expect(
      docnotes.sent("Typed by the list").attachments.map(({ filename, contentType }) => ({ filename, contentType })),
    ).toEqual([
      {
        filename: "Letter.DOCX",
        contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      },
      { filename: "photo.heic", contentType: "image/heic" },
      { filename: "notes.txt", contentType: "text/plain; charset=utf-8" },
      { filename: "report.pdf", contentType: "application/pdf" },
    ]);
  });
});

describe("the attachments of a day (ASVS V12.1.3, issue 39)", () => {
  const dailyLimit = (files: number, megabytes: number, filesLeft: number, megabytesLeft: number) =>
    `$t(compose:errors.dailyLimit, ${JSON.stringify({
      files: String(files),
      megabytes: String(megabytes),
      filesLeft: String(filesLeft),
      megabytesLeft: String(megabytesLeft),
    })})`;

  it("refuses files past what is left of the allowance before creating the message, keeping what was typed", async () => {
    docnotes.allowance = { files_per_day: 50, bytes_per_day: 100_000_000, files_left: 1, bytes_left: 60_000_000 };
    const response = await send(client, {
      subject: "Many files",
      body: "Kept",
      attachments: [pdf("one.pdf"), pdf("two.pdf")],
    });
    expect(response.status).toBe(400);
    // asked, and nothing created
    expect(docnotes.calls).toEqual(["GET /resourceful/docnote-v2/attachment-allowance"]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({ attachments: [dailyLimit(50, 100, 1, 60)] });
    expect(data.result.initialValue).toMatchObject({ subject: "Many files", body: "Kept" });
    expect(data.postedFiles.map((f) => f.name)).toEqual(["one.pdf", "two.pdf"]);
  });

  it("counts the bytes too, and lets through what fits", async () => {
    docnotes.allowance = { files_per_day: 50, bytes_per_day: 100_000_000, files_left: 10, bytes_left: 30 };
    const over = await send(client, { subject: "Big", attachments: [pdf("one.pdf"), pdf("two.pdf")] });
    expect(over.status).toBe(400);
    expect(((await over.json()) as ComposeActionData).result.error).toMatchObject({
      attachments: [dailyLimit(50, 100, 10, 0)],
    });
    docnotes.allowance = { files_per_day: 50, bytes_per_day: 100_000_000, files_left: 2, bytes_left: 36 };
    const fits = await send(client, { subject: "Fits", attachments: [pdf("one.pdf"), pdf("two.pdf")] });
    expect(fits.status).toBe(302);
    expect(docnotes.sent("Fits").attachments).toHaveLength(2);
  });

  it("does not ask for a message without files, and sends when the platform cannot say (it refuses each upload itself)", async () => {
    docnotes.allowance = { files_per_day: 50, bytes_per_day: 100_000_000, files_left: 0, bytes_left: 0 };
    expect((await send(client, { subject: "Words only", body: "No files" })).status).toBe(302);
    expect(docnotes.calls.some((c) => c.includes("attachment-allowance"))).toBe(false);
    docnotes.allowance = null;
    expect((await send(client, { subject: "Unknown allowance", attachments: pdf("one.pdf") })).status).toBe(302);
  });
});

describe("the size of a message (issue 24)", () => {
  /** A chunked multipart body of `total` bytes: one file part that never seems to end. */
  function endlessUpload(total: number) {
    const boundary = "----formboundary0123456789abcdef";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const pulled = { bytes: 0 };
    let first = true;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (first) {
          first = false;
          controller.enqueue(head);
          return;
        }
        if (pulled.bytes >= total) return controller.close();
        pulled.bytes += 1024 * 1024;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    return { stream, pulled, contentType: `multipart/form-data; boundary=${boundary}` };
  }

  it("refuses a declared 100 MB message with 413 before reading it", async () => {
    const { stream, pulled, contentType } = endlessUpload(100 * 1024 * 1024);
    const request = new Request("http://portal.test/clients/documents-and-messages?compose=true", {
      method: "POST",
      body: stream,
      headers: { Cookie: client, "Content-Type": contentType, "Content-Length": String(100 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    const refused = await thrown(compose.composeAction({ request, params: {}, context: {} }));
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe("The form sent is too large.");
    expect(pulled.bytes).toBe(0);
  });

  it("stops reading a chunked message as soon as it passes the whole-message limit", async () => {
    const { stream, pulled, contentType } = endlessUpload(100 * 1024 * 1024);
    const request = new Request("http://portal.test/clients/documents-and-messages?compose=true", {
      method: "POST",
      body: stream,
      headers: { Cookie: client, "Content-Type": contentType },
      duplex: "half",
    } as RequestInit);
    const refused = await thrown(compose.composeAction({ request, params: {}, context: {} }));
    expect(refused.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(compose.MAX_REQUEST_BYTES + 4 * 1024 * 1024);
    expect(docnotes.calls).toEqual([]);
  });
});

describe("replying (spec 002 §5)", () => {
  it("takes the subject from the original, cut to 255, whatever the browser sent", async () => {
    const original = "Your annual review ".repeat(20).slice(0, 255);
    const id = docnotes.receive(original);
    const response = await send(client, { replyTo: String(id), subject: "Forged subject", body: "My reply" });
    expect(response.status).toBe(302);
    const expected = `RE: ${original}`.slice(0, 255).trim();
    expect(docnotes.sent(expected).body).toBe("<p>My reply</p>");
    expect(docnotes.calls[0]).toBe(`GET /resourceful/docnote-v2/${id}`);
    expect(docnotes.outbox[0]!.subject).toBe(expected);
  });

  it("keeps the reply's own errors to the body and files: no subject is needed", async () => {
    const id = docnotes.receive("Fees");
    const data = (await (
      await send(client, { replyTo: String(id), subject: "", attachments: pdf("x.vbs") })
    ).json()) as ComposeActionData;
    expect(data.result.error).toEqual({ attachments: ["compose:errors.fileTypeNotAllowed"] });
  });

  it("answers 404 for a message the client cannot see", async () => {
    const refused = await thrown(send(client, { replyTo: "987654", body: "Hello" }));
    expect(refused.status).toBe(404);
    expect((await thrown(send(client, { replyTo: "12abc", body: "Hello" }))).status).toBe(404);
    expect(docnotes.documents.size).toBe(0);
  });
});

describe("who may send (spec 002 §6)", () => {
  it("refuses an adviser, even with a client in context", async () => {
    const adviser = await openClientInContext(
      portal,
      await portal.signIn("demo.adviser", "adviser"),
      "Hartley",
      "Hartley, Eleanor",
    );
    const refused = await thrown(send(adviser, { subject: "From an adviser" }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ accessDenied: true });
  });

  it("refuses a client while one-way messaging is on", async () => {
    const setOneWay = (enabled: boolean) => setFeatureToggle(portal, "one_way_messaging", enabled);
    setOneWay(true);
    try {
      const refused = await thrown(send(client, { subject: "One way" }));
      expect(refused.status).toBe(403);
    } finally {
      setOneWay(false);
    }
  });
});

describe("the stored body (spec 002 §5 allow-list)", () => {
  it("keeps only the allowed tags and safe links", () => {
    expect(
      compose.sanitiseBody(
        `<p onclick="x()">Hi <strong>there</strong> <em>now</em><script>bad()</script><a href="javascript:alert(1)">x</a> <a href="https://example.com" target="_blank">y</a> <a href="mailto:a@b.c">m</a></p><ul><li>one</li></ul><img src=x onerror=alert(1)><iframe src="https://evil"></iframe>`,
      ),
    ).toBe(
      '<p>Hi <strong>there</strong> <em>now</em><a>x</a> <a href="https://example.com">y</a> <a href="mailto:a@b.c">m</a></p><ul><li>one</li></ul>',
    );
  });
});

describe("files scanned for viruses before anything is sent (ASVS V12.4.2, docs/decisions/192)", () => {
  let clamd: Awaited<ReturnType<typeof startClamd>>;
  let env: (typeof import("~/runtime/env.server"))["env"];
  beforeAll(async () => {
    clamd = await startClamd();
    ({ env } = await import("~/runtime/env.server"));
  }, 90_000);
  afterEach(() => {
    env.clamd = null;
  });
  afterAll(() => clamd?.stop());

  it("names a file with a virus by the field, sends nothing and keeps what was typed", async () => {
    env.clamd = { socket: clamd.socket };
    const response = await send(client, {
      subject: "My statements",
      body: "Kept",
      attachments: [pdf("statement.pdf"), new File([EICAR], "notes.txt", { type: "text/plain" })],
    });
    expect(response.status).toBe(400);
    expect(docnotes.calls).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.result.error).toMatchObject({ attachments: ["compose:errors.fileVirus"] });
    expect(data.result.initialValue).toMatchObject({ subject: "My statements", body: "Kept" });
    expect(data.postedFiles).toEqual([
      { name: "statement.pdf", problem: null },
      { name: "notes.txt", problem: "compose:errors.fileVirus" },
    ]);
  });

  it("sends clean files once scanned", async () => {
    env.clamd = { socket: clamd.socket };
    const response = await send(client, { subject: "Clean", attachments: [pdf("statement.pdf")] });
    expect(response.status).toBe(302);
    expect(docnotes.sent("Clean").attachments.map((a) => a.filename)).toEqual(["statement.pdf"]);
  });

  it("sends nothing while the scanner cannot answer: the spec's text for a message not sent, what was typed kept", async () => {
    env.clamd = { socket: `${clamd.socket}.absent` };
    const response = await send(client, { subject: "Unscanned", body: "Kept", attachments: [pdf("statement.pdf")] });
    expect(response.status).toBe(503);
    expect(docnotes.calls.filter((call) => !call.startsWith("GET"))).toEqual([]);
    const data = (await response.json()) as ComposeActionData;
    expect(data.messageKey).toBe("compose:errors.sendFailed");
    expect(data.result.initialValue).toMatchObject({ subject: "Unscanned", body: "Kept" });
    // a message without files needs no scanner
    expect((await send(client, { subject: "Words only", body: "No files" })).status).toBe(302);
  });

  it("sends files unscanned only when no scanner is configured (development, or CLAMD_ADDRESS=off)", async () => {
    expect(env.clamd).toBeNull();
    const response = await send(client, { subject: "Not scanned", attachments: [new File([EICAR], "notes.txt")] });
    expect(response.status).toBe(302);
  });
});
