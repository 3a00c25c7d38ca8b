import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capabilities } from "../../server/db/schema";
import { START } from "../server/harness";
import { type Portal, openClientInContext, setFeatureToggle, startPortal, thrown } from "./portal-harness";

// The documents-and-messages page (spec 002 "Documents and messages page", §4, §6) against a real
// platform on a fresh seeded database: the list, the reading pane and its first read, the unread
// badge, the adviser's view, the download confirmation and the download itself.

let portal: Portal;
let client: string;
let adviserWithClient: string;

type Args = LoaderFunctionArgs;
type Loader = (args: Args) => Promise<Response>;
const request = (path: string, cookie: string, init: RequestInit = {}) =>
  new Request(`http://portal.test${path}`, { ...init, headers: { Cookie: cookie, ...(init.headers ?? {}) } });

type Item = {
  id: number;
  subject: string;
  unread: boolean;
  adviserOnly: boolean;
  relatedEntity: boolean;
  awaitingSignature: boolean;
  attachmentCount: number;
  href: string;
  found?: {
    subject: Array<{ text: string; match: boolean }> | null;
    body: Array<{ text: string; match: boolean }> | null;
    attachments: Array<Array<{ text: string; match: boolean }>>;
  } | null;
};
type View = {
  heading: string;
  folders: Array<{ key: string; name: string; current: boolean; unread: string | null; href: string }>;
  folder: { key: string };
  entityFilter: { options: Array<{ id: number; name: string }>; selected: number } | null;
  typeFilter: { options: Array<{ code: string; name: string }>; selected: string | null } | null;
  list: { items: Item[]; hasMore: boolean; moreHref: string | null; empty: string | null };
  dateFilter: { from: string; to: string; errors: { from: string | null; to: string | null } };
  pane:
    | null
    | { state: "notFound" }
    | {
        state: "ok";
        id: number;
        subject: string;
        bodyHtml: string;
        attachments: Array<{
          docpartid: number;
          filename: string;
          href: string;
          fileHref: string | null;
          risky: boolean;
        }>;
        replyHref: string | null;
        nextHref: string | null;
        previousHref: string | null;
      };
};
type PageData =
  { kind: "messages"; heading: string; view: View } | { kind: "invalid"; heading: string } | { kind: "compose" };

let page: { loader: Loader; meta?: (args: never) => unknown };
let root: { loader: Loader };
let confirmation: { loader: Loader };
let files: { loader: Loader; action: (args: Args) => Promise<Response> };
let images: { loader: Loader };

async function load(path: string, cookie: string): Promise<{ status: number; data: PageData }> {
  const response = await page.loader({ request: request(path, cookie), params: {}, context: {} });
  return { status: response.status, data: (await response.json()) as PageData };
}
async function view(path: string, cookie: string): Promise<View> {
  const { data } = await load(path, cookie);
  if (data.kind !== "messages") throw new Error(`expected the messages view, got ${data.kind}`);
  return data.view;
}
async function badge(path: string, cookie: string): Promise<number | null> {
  const response = await root.loader({ request: request(path, cookie), params: {}, context: {} });
  return ((await response.json()) as { unreadCount: number | null }).unreadCount;
}

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.documents-and-messages/route");
  root = await import("~/root");
  confirmation = await import("~/routes/clients.documents-and-messages_.attachments.$documentId.$docpartid/route");
  files = await import("~/routes/clients.documents-and-messages_.files.$documentId.$docpartid/route");
  images = await import("~/routes/clients.documents-and-messages_.images.$/route");
  client = await portal.signIn("demo.client");
  const adviser = await portal.signIn("demo.adviser", "adviser");
  adviserWithClient = await openClientInContext(portal, adviser, "Hartley", "Hartley, Eleanor");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

describe("the messages list (spec 002 'Documents and messages page')", () => {
  it("shows the Inbox first, newest first, with folders and unread counts for a client", async () => {
    const v = await view("/clients/documents-and-messages", client);
    expect(v.heading).toBe("Messages and documents");
    expect(v.folders[0]).toMatchObject({ key: "inbox", current: true });
    expect(v.folders.map((f) => f.key)).toEqual(expect.arrayContaining(["inbox", "important", "sent"]));
    expect(v.list.items.length).toBeGreaterThan(0);
    expect(v.list.items.length).toBeLessThanOrEqual(20);
    expect(v.list.items.some((i) => i.unread)).toBe(true);
    expect(v.folders[0]!.unread).toMatch(/^\((\d+|20\+)\)$/);
    // a client never sees adviser-only notes
    expect(v.list.items.some((i) => i.adviserOnly || i.subject.startsWith("File note"))).toBe(false);
  });

  it("is in the user's language in fr-CA: heading, title and folders, not the site's English (issue 25 item 3)", async () => {
    const { getPortalSession, updateSessionUser } = await import("~/session/session.server");
    const before = (await getPortalSession(request("/", client)))!;
    const french = (await updateSessionUser(request("/", client), { ...before.user, locale: "fr-CA" })).split(";")[0]!;
    const { data } = await load("/clients/documents-and-messages", french);
    expect(data.kind).toBe("messages");
    if (data.kind !== "messages") return;
    expect(data.heading).toBe("Messages et documents");
    expect(data.view.heading).toBe("Messages et documents");
    const meta = page.meta!({ data } as never) as Array<{ title?: string }>;
    expect(meta.find((m) => m.title)?.title).toBe("Messages et documents | Client Online");
    const names = data.view.folders.map((f) => f.name);
    expect(names[0]).toBe("Boîte de réception");
    // the site's custom folders, in French from their fr-CA variant
    expect(names).toEqual(expect.arrayContaining(["Évaluations", "Avis d’exécution"]));
    expect(data.view.folders.every((f) => (f as { lang?: string | null }).lang === null)).toBe(true);
  });

  it("opens Important with importantOnly=true and lists only what matches a search", async () => {
    const important = await view("/clients/documents-and-messages?importantOnly=true", client);
    expect(important.folder.key).toBe("important");
    const none = await view("/clients/documents-and-messages?search=zzzz-nothing-matches", client);
    expect(none.list).toMatchObject({ items: [], empty: "No messages for current selection" });
  });

  it("searches the words of the body and the attachments' names, and says where each message matched (decision 209)", async () => {
    const marked = (parts: Array<{ text: string; match: boolean }> | null | undefined) =>
      (parts ?? []).map((p) => (p.match ? `[${p.text}]` : p.text)).join("");
    const body = await view("/clients/documents-and-messages?search=dividend", client);
    expect(body.list.items.map((i) => i.subject)).toEqual(["Your portfolio after the Budget"]);
    expect(body.list.items[0]!.found!.subject).toBeNull();
    expect(marked(body.list.items[0]!.found!.body)).toContain("the [dividend] allowance");
    const attachment = await view("/clients/documents-and-messages?search=forecast", client);
    expect(attachment.list.items[0]!.found!.attachments.map(marked)).toEqual(["Cash flow [forecast] 2025.xlsx"]);
    const subject = await view(
      `/clients/documents-and-messages?search=${encodeURIComponent('"attitude to risk"')}`,
      client,
    );
    // the questionnaire by its subject, the review letter by its text ('your attitude to risk stays balanced')
    const questionnaire = subject.list.items.find((i) => i.subject === "Your attitude to risk questionnaire")!;
    expect(marked(questionnaire.found!.subject)).toBe("Your [attitude to risk] questionnaire");
    expect(subject.list.items.some((i) => marked(i.found!.body).includes("[attitude to risk] stays"))).toBe(true);
    // without a search, nothing is marked
    expect((await view("/clients/documents-and-messages", client)).list.items.every((i) => !i.found)).toBe(true);
    // awkward input is a search like another, never an error
    for (const search of ['"', "*", "AND", "-", "NEAR(", "a:b"]) {
      const none = await view(`/clients/documents-and-messages?search=${encodeURIComponent(search)}`, client);
      expect(Array.isArray(none.list.items), search).toBe(true);
    }
  });

  it("loads more with pages=2 and Next at the end of the list goes on to the next page", async () => {
    const first = await view("/clients/documents-and-messages", client);
    // the seed gives the client more than one page (37 documents)
    expect(first.list.hasMore).toBe(true);
    expect(first.list.moreHref).toContain("pages=2");
    const last = first.list.items[first.list.items.length - 1]!;
    const opened = await view(`/clients/documents-and-messages?message=${last.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    expect(opened.pane.nextHref).toMatch(/pages=2&message=\d+/);
    const second = await view("/clients/documents-and-messages?pages=2", client);
    expect(second.list.items.length).toBeGreaterThan(first.list.items.length);
  });

  it("filters by the created-date range, both days included, and keeps it on changing folder (spec 002 §5, §9)", async () => {
    const all = await view("/clients/documents-and-messages?type=Valuation", client);
    expect(all.dateFilter).toEqual({ from: "", to: "", errors: { from: null, to: null } });
    // the seed's quarterly valuations arrive at 07:00 UTC 12, 103, 194 … days before the platform's
    // (fixed) clock: one falls in 150 to 50 days ago
    const day = (daysAgo: number) => new Date(Date.parse(START) - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${day(150)}&to=${day(50)}`;
    const some = await view(`/clients/documents-and-messages?type=Valuation&${range}`, client);
    expect(some.dateFilter.errors).toEqual({ from: null, to: null });
    expect(some.list.items.length).toBe(1);
    expect(all.list.items.map((i) => i.id)).toContain(some.list.items[0]!.id);
    expect(some.list.items[0]!.href).toContain(range);
    expect(some.folders.find((f) => f.key === "important")!.href).toContain(range);
    const since = await view(`/clients/documents-and-messages?type=Valuation&from=${day(200)}`, client);
    expect(since.list.items.length).toBeGreaterThan(some.list.items.length);
    expect(since.list.items.length).toBeLessThan(all.list.items.length);
    // both days are included: the same day at both ends lists that day's document
    const oneDay = await view(`/clients/documents-and-messages?type=Valuation&from=${day(12)}&to=${day(12)}`, client);
    expect(oneDay.list.items.map((i) => i.id)).toEqual([all.list.items[0]!.id]);
    const dayAfter = await view(`/clients/documents-and-messages?type=Valuation&from=${day(11)}&to=${day(11)}`, client);
    expect(dayAfter.list.items).toEqual([]);
    // a range before anything was sent lists nothing 'for the current selection'
    const before = await view("/clients/documents-and-messages?from=1926-01-01&to=1926-12-31", client);
    expect(before.list).toMatchObject({ items: [], empty: "No messages for current selection" });
  });

  it("refuses an invalid date or an end before the start, keeps what was typed and lists unfiltered", async () => {
    const all = await view("/clients/documents-and-messages", client);
    const invalid = await view("/clients/documents-and-messages?from=2026-02-30&to=1926-12-31", client);
    expect(invalid.dateFilter).toEqual({
      from: "2026-02-30",
      to: "1926-12-31",
      errors: { from: "messages:dates.invalid", to: null },
    });
    // the other bound still applies
    expect(invalid.list.items).toEqual([]);
    const typed = await view("/clients/documents-and-messages?to=31%2F13%2F2026", client);
    expect(typed.dateFilter).toMatchObject({ to: "31/13/2026", errors: { from: null, to: "messages:dates.invalid" } });
    expect(typed.list.items.map((i) => i.id)).toEqual(all.list.items.map((i) => i.id));
    const reversed = await view("/clients/documents-and-messages?from=2026-06-01&to=1926-01-01", client);
    expect(reversed.dateFilter).toEqual({
      from: "2026-06-01",
      to: "1926-01-01",
      errors: { from: null, to: "messages:dates.endBeforeStart" },
    });
    expect(reversed.list.items.map((i) => i.id)).toEqual(all.list.items.map((i) => i.id));
  });

  it("shows 'Show messages for' only with related entities on, and lists the chosen member's documents (spec 002 page, §6)", async () => {
    const off = await view("/clients/documents-and-messages", client);
    expect(off.entityFilter).toBeNull();
    const setRelated = (enabled: boolean) => setFeatureToggle(portal, "related_entities", enabled);
    setRelated(true);
    // related entities lift the partner-viewing limit: the partner shows without view_partner
    const dropPartnerViewing = portal.platform.db
      .delete(capabilities)
      .where(eq(capabilities.name, "view_partner"))
      .returning()
      .all();
    try {
      const mine = await view("/clients/documents-and-messages", client);
      expect(mine.entityFilter?.options.map((o) => o.name)).toEqual(["Me", "James Hartley"]);
      expect(mine.entityFilter?.selected).toBe(mine.entityFilter?.options[0]!.id);
      const partner = mine.entityFilter!.options[1]!.id;
      const theirs = await view(`/clients/documents-and-messages?entity=${partner}`, client);
      expect(theirs.entityFilter?.selected).toBe(partner);
      expect(theirs.list.items.length).toBeGreaterThan(0);
      expect(theirs.list.items.some((i) => i.relatedEntity)).toBe(true);
      expect(theirs.list.items.every((i) => i.href.includes(`entity=${partner}`))).toBe(true);
      expect(theirs.typeFilter?.options.length).toBeGreaterThan(0);
      // a member outside the choice (not login-accessible, or unknown) falls back to the client
      const unknown = await view("/clients/documents-and-messages?entity=999999", client);
      expect(unknown.entityFilter?.selected).toBe(mine.entityFilter?.options[0]!.id);
      expect(unknown.list.items.map((i) => i.id)).toEqual(mine.list.items.map((i) => i.id));
    } finally {
      setRelated(false);
      for (const row of dropPartnerViewing) portal.platform.db.insert(capabilities).values(row).run();
    }
    expect(
      portal.platform.db
        .select()
        .from(capabilities)
        .where(and(eq(capabilities.name, "view_partner")))
        .all().length,
    ).toBe(dropPartnerViewing.length);
  });

  it("shows the invalid-view text for an unknown view", async () => {
    const { status, data } = await load("/clients/documents-and-messages?view=elsewhere", client);
    expect(status).toBe(404);
    expect(data.kind).toBe("invalid");
  });
});

describe("reading a message (spec 002 §4)", () => {
  it("marks an unread message read on opening, in the list and the badge of the same render", async () => {
    const before = await view("/clients/documents-and-messages", client);
    const unread = before.list.items.find((i) => i.unread)!;
    const countBefore = await badge("/clients/home", client);
    expect(countBefore).toBeGreaterThan(0);
    const path = `/clients/documents-and-messages?message=${unread.id}`;
    const [opened, countWhileOpening] = await Promise.all([view(path, client), badge(path, client)]);
    expect(countWhileOpening).toBe(Math.min(countBefore! - 1, 21));
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    expect(opened.pane.subject).toBe(unread.subject);
    expect(opened.pane.bodyHtml).not.toMatch(/<script/i);
    expect(opened.pane.replyHref).toBe(`/clients/documents-and-messages?reply=${unread.id}`);
    expect(opened.list.items.find((i) => i.id === unread.id)!.unread).toBe(false);
    expect(await badge("/clients/home", client)).toBe(Math.min(countBefore! - 1, 21));
  });

  it("answers 'not found' in the pane for a message the client may not see", async () => {
    const v = await view("/clients/documents-and-messages?message=999999", client);
    expect(v.pane).toMatchObject({ state: "notFound" });
  });
});

describe("an adviser with a client in context (spec 002 §6)", () => {
  it("sees adviser-only notes, no Sent, no To be signed, no Reply, and records no first read", async () => {
    const v = await view("/clients/documents-and-messages?pages=5", adviserWithClient);
    expect(v.folders.map((f) => f.key)).not.toContain("sent");
    // spec 002 §6: the signature folder is for ClientUser only (docs/decisions/197)
    expect(v.folders.map((f) => f.key)).not.toContain("signature");
    expect(v.folders.every((f) => f.unread === null)).toBe(true);
    const note = v.list.items.find((i) => i.adviserOnly);
    expect(note?.subject).toMatch(/^File note/);
    // the seed leaves the client several unread messages
    const unreadForClient = (await view("/clients/documents-and-messages", client)).list.items.find((i) => i.unread);
    if (!unreadForClient) throw new Error("the client has no unread message left");
    const opened = await view(`/clients/documents-and-messages?message=${unreadForClient.id}`, adviserWithClient);
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    expect(opened.pane.replyHref).toBeNull();
    const after = await view("/clients/documents-and-messages", client);
    expect(after.list.items.find((i) => i.id === unreadForClient.id)?.unread).toBe(true);
  });
});

describe("images in a body (spec 002 §5 relative sources)", () => {
  const image = (path: string, cookie: string) =>
    images.loader({
      request: request(`/clients/documents-and-messages/images/${path}`, cookie),
      params: { "*": path },
      context: {},
    });

  it("points a relative source at the portal, which fetches the platform's image with the user's session", async () => {
    const v = await view(`/clients/documents-and-messages?search=${encodeURIComponent("after the Budget")}`, client);
    const opened = await view(`/clients/documents-and-messages?message=${v.list.items[0]!.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    const src = /<img src="([^"]+)"/.exec(opened.pane.bodyHtml)?.[1];
    expect(src).toBe("/clients/documents-and-messages/images/resourceful/docnote/images/logo.png");
    const answer = await image("resourceful/docnote/images/logo.png", client);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^image\/png/);
    expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await answer.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  it("passes nothing but raster images, no way out of the path, and nothing to a stranger", async () => {
    // a platform answer that is not an image (the session's user, as JSON) is a 404
    expect((await thrown(image("resourceful/session/user", client))).status).toBe(404);
    expect((await thrown(image("resourceful/docnote/images/../../session/user", client))).status).toBe(404);
    expect((await thrown(image("resourceful/docnote/images/missing.png", client))).status).toBe(404);
    // the firm's image endpoint only (finding 11): nothing else the platform has, even a real image
    const search = `/clients/documents-and-messages?search=${encodeURIComponent("pension transfer")}`;
    // decision 209: the search finds the words in bodies too; the message is the one of that subject
    const message = (await view(search, client)).list.items.find(
      (i) => i.subject === "Documents for your pension transfer",
    )!;
    const opened = await view(`/clients/documents-and-messages?message=${message.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    const photo = opened.pane.attachments.find((a) => a.filename.endsWith(".png"));
    if (!photo) throw new Error("the demo message has a photo attached");
    const photoPath = `resourceful/docnote/files/${message.id}/${photo.docpartid}/${photo.filename}`;
    expect((await thrown(image(photoPath, client))).status).toBe(404);
    for (const path of [
      "resourceful/docnote/images",
      "resourceful/docnote/images/",
      "resourceful/docnote/images/a/logo.png",
      "docnote/images/logo.png",
      "resourceful//docnote/images/logo.png",
      "resourceful/docnote/images/logo.png/x",
    ]) {
      expect((await thrown(image(path, client))).status, path).toBe(404);
    }
    const stranger = await thrown(image("resourceful/docnote/images/logo.png", ""));
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("attachment download (spec 002 §4)", () => {
  async function someAttachment() {
    const v = await view("/clients/documents-and-messages?pages=5", client);
    for (const item of v.list.items.filter((i) => i.attachmentCount > 0)) {
      const opened = await view(`/clients/documents-and-messages?message=${item.id}`, client);
      if (opened.pane?.state === "ok" && opened.pane.attachments.length)
        return { id: item.id, attachment: opened.pane.attachments[0]! };
    }
    throw new Error("no attachment in the demo data");
  }

  it("confirms with the name and size, then streams the platform's bytes through the portal", async () => {
    const { id, attachment } = await someAttachment();
    // with JavaScript the dialog downloads from the file route directly
    expect(attachment.fileHref).toBe(`/clients/documents-and-messages/files/${id}/${attachment.docpartid}?confirm=1`);
    const params = { documentId: String(id), docpartid: String(attachment.docpartid) };
    const confirm = await confirmation.loader({ request: request(attachment.href, client), params, context: {} });
    const data = (await confirm.json()) as {
      filename: string;
      size: string;
      downloadable: boolean;
      fileHref: string;
      cancelHref: string;
    };
    expect(data).toMatchObject({ filename: attachment.filename, downloadable: true });
    expect(data.size).not.toBe("");
    expect(data.cancelHref).toContain(`message=${id}`);

    const { token, cookie } = await portal.csrf(client);
    const file = await files.action({
      request: request(data.fileHref, `${client}; ${cookie}`, {
        method: "POST",
        body: new URLSearchParams({ csrf: token }),
      }),
      params,
      context: {},
    });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toContain("attachment");
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const bare = await thrown(files.loader({ request: request(data.fileHref, client), params, context: {} }));
    expect(bare.status).toBe(302);
    const confirmed = await files.loader({
      request: request(`${data.fileHref}?confirm=1`, client),
      params,
      context: {},
    });
    expect(confirmed.status).toBe(200);
  });

  it("sends a file named with '=' through the compose action, and downloads it under its name with safe headers (issue 24)", async () => {
    const compose = await import("~/routes/clients.documents-and-messages/compose.server");
    const subject = `Statements ${Date.now()}`;
    const pdf = new TextEncoder().encode("%PDF-1.4\n% a statement\n%%EOF\n");
    const { token, cookie } = await portal.csrf(client);
    const body = new FormData();
    body.append("csrf", token);
    body.append("subject", subject);
    body.append("body", "Here is my statement.");
    // the browser says text/html: the portal and the platform go by the allow-list
    body.append("attachments", new File([pdf], "statement=2026.pdf", { type: "text/html" }));
    const sent = await compose.composeAction({
      request: new Request("http://portal.test/clients/documents-and-messages?compose=true", {
        method: "POST",
        body,
        headers: { Cookie: `${client}; ${cookie}` },
      }),
      params: {},
      context: {},
    });
    expect(sent.status).toBe(302);

    const item = (
      await view(`/clients/documents-and-messages?folder=sent&search=${encodeURIComponent(subject)}`, client)
    ).list.items.find((i) => i.subject === subject)!;
    const opened = await view(`/clients/documents-and-messages?folder=sent&message=${item.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("the sent message does not open");
    const attachment = opened.pane.attachments[0]!;
    expect(attachment.filename).toBe("statement=2026.pdf");
    const params = { documentId: String(item.id), docpartid: String(attachment.docpartid) };
    const file = await files.loader({ request: request(attachment.fileHref!, client), params, context: {} });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(file.headers.get("Content-Disposition")).toBe(
      `attachment; filename="statement=2026.pdf"; filename*=UTF-8''statement%3D2026.pdf`,
    );
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(file.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
  });

  it("sends a TIFF scan and a saved e-mail through the compose action; the e-mail downloads to be saved, never shown (decision 205)", async () => {
    const compose = await import("~/routes/clients.documents-and-messages/compose.server");
    const { SAMPLES } = await import("../sample-files");
    const subject = `Scans ${Date.now()}`;
    const { token, cookie } = await portal.csrf(client);
    const body = new FormData();
    body.append("csrf", token);
    body.append("subject", subject);
    body.append("body", "The letter and the e-mail about it.");
    body.append("attachments", new File([SAMPLES.tiff() as Uint8Array<ArrayBuffer>], "letter.tiff", { type: "" }));
    body.append(
      "attachments",
      new File([SAMPLES.eml() as Uint8Array<ArrayBuffer>], "reply.eml", { type: "text/html" }),
    );
    const sent = await compose.composeAction({
      request: new Request("http://portal.test/clients/documents-and-messages?compose=true", {
        method: "POST",
        body,
        headers: { Cookie: `${client}; ${cookie}` },
      }),
      params: {},
      context: {},
    });
    expect(sent.status).toBe(302);
    const item = (
      await view(`/clients/documents-and-messages?folder=sent&search=${encodeURIComponent(subject)}`, client)
    ).list.items.find((i) => i.subject === subject)!;
    const opened = await view(`/clients/documents-and-messages?folder=sent&message=${item.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("the sent message does not open");
    expect(opened.pane.attachments.map((a) => a.filename)).toEqual(["letter.tiff", "reply.eml"]);
    const eml = opened.pane.attachments[1]!;
    const params = { documentId: String(item.id), docpartid: String(eml.docpartid) };
    const file = await files.loader({ request: request(eml.fileHref!, client), params, context: {} });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("message/rfc822");
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="reply\.eml"/);
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(file.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(SAMPLES.eml());
  });

  it("serves a file of a type outside the allow-list as bytes to save, whatever type the platform gives (issue 24)", async () => {
    const v = await view("/clients/documents-and-messages?search=Documents%20for%20your%20pension%20transfer", client);
    const item = v.list.items.find((i) => i.subject === "Documents for your pension transfer")!;
    const opened = await view(`/clients/documents-and-messages?message=${item.id}`, client);
    if (opened.pane?.state !== "ok") throw new Error("the message does not open");
    const docm = opened.pane.attachments.find((a) => a.filename.endsWith(".docm"))!;
    const params = { documentId: String(opened.pane.id), docpartid: String(docm.docpartid) };
    const file = await files.loader({ request: request(docm.fileHref!, client), params, context: {} });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(file.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="Fact find update.docm"; filename\*=UTF-8''Fact%20find%20update.docm$/,
    );
    expect(file.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  });

  it("answers 404 for an attachment that is not the client's", async () => {
    const response = await thrown(
      confirmation.loader({
        request: request("/clients/documents-and-messages/attachments/999999/1", client),
        params: { documentId: "999999", docpartid: "1" },
        context: {},
      }),
    );
    expect(response.status).toBe(404);
  });
});
