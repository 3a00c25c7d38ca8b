// docs/platform-api.md "Digital signatures" (spec 002 §3, §4 "Signing journey", §7, §8): the list,
// who sees what, the document, the one-time code, sign, decline, the confirmation and the dev copy.
import { beforeAll, describe, expect, it } from "vitest";
import { CALLER, type ErrorAnswer, START, type Typed, withPlatform } from "./harness";

type Signatory = {
  id: number;
  entityid: number;
  entity_first_name: string;
  entity_last_name: string;
  entity_name: string;
  entity_phone: string | null;
  signing_method: number;
  signed_at: Typed | null;
  declined_at: Typed | null;
  can_sign: boolean;
};
type Item = {
  id: number;
  docnote_id: number;
  filename: string;
  title: string;
  duedate: Typed | null;
  status: number;
  status_name: string;
  signing_method: number;
  last_notified_at: Typed;
  terms_and_conds: string;
  secure_data: string | null;
  signatories: Signatory[];
};
type Doc = { id: number; subject: string; digital_signature_status: string | null; entity_ids: number[] };

const ELLIE = 1;
const JAMES = 2;
const DAY = 86_400_000;
const TITLES = [
  "Letter of authority",
  "Joint account application",
  "Annual review pack",
  "Suitability report acknowledgement",
  "Fee agreement 2025",
];

const harness = withPlatform();
let ellie: string;
let james: string;
let assets: string;
let adviser: string;

const base = "/resourceful/digital_signature";

async function items(token: string, query = "page_size=100&page_sort=-last_notified_at") {
  return harness.platform.call<Item[] & ErrorAnswer>(`${base}${query ? `?${query}` : ""}`, { token });
}

async function byTitle(token: string, title: string): Promise<Item> {
  const found = (await items(token)).body.find((i) => i.title === title);
  if (!found) throw new Error(`no item ${title}`);
  return found;
}

const own = (item: Item) => {
  const s = item.signatories.find((x) => x.can_sign);
  if (!s) throw new Error(`nothing to sign on ${item.title}`);
  return s;
};

async function generate(token: string, item: Item, signatoryId: number) {
  return harness.platform.call<{ sent: boolean; expires_at: Typed } & ErrorAnswer>(
    `${base}/${item.id}/signatories/${signatoryId}/generate_code`,
    {
      method: "POST",
      token,
      body: { digSigId: item.id, signatoryId },
    },
  );
}

async function sign(token: string, item: Item, signatoryId: number, otp: string, secure = item.secure_data) {
  return harness.platform.call<Item & ErrorAnswer>(`${base}/${item.id}/signatories/${signatoryId}/sign`, {
    method: "POST",
    token,
    body: { signing_method: 1, secure_data: secure, otp },
  });
}

async function decline(token: string, item: Item, signatoryId: number, secure = item.secure_data) {
  return harness.platform.call<Item & ErrorAnswer>(`${base}/${item.id}/signatories/${signatoryId}/decline`, {
    method: "POST",
    token,
    body: { secure_data: secure },
  });
}

async function docnote(token: string, id: number) {
  return (await harness.platform.call<Doc>(`/resourceful/docnote-v2/${id}`, { token })).body;
}

/** A copy of demo.client with its own signature items, signed in. */
async function copyOfEllie(username: string) {
  const copy = await harness.platform.call<{ username: string; user_id: number; signature_ids: number[] }>(
    "/dev/users/demo.client/copy",
    {
      method: "POST",
      body: { username, signatures: true },
    },
  );
  expect(copy.status).toBe(201);
  const token = await harness.platform.session(username);
  const user = await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token });
  return { username, token, entityId: user.body.entity_id, signatureIds: copy.body.signature_ids };
}

/** The text a PDF shows: the strings of its text operators (pdfkit writes them as hex). */
function pdfText(bytes: Buffer): string {
  const source = bytes.toString("latin1");
  const lines: string[] = [];
  for (const op of source.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    let line = "";
    for (const hex of (op[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g))
      line += Buffer.from(hex[1] ?? "", "hex").toString("latin1");
    lines.push(line);
  }
  return lines.join("\n");
}

const longDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
const dayFromStart = (days: number) => new Date(new Date(START).getTime() + days * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  [ellie, james, assets, adviser] = await Promise.all([
    harness.platform.session("demo.client"),
    harness.platform.session("demo.partner"),
    harness.platform.session("demo.assets"),
    harness.platform.session("demo.adviser", "adviser"),
  ]);
});

describe("the list and who sees what", () => {
  it("lists Eleanor's items, newest notified first, in the item shape", async () => {
    const answer = await items(ellie);
    expect(answer.status).toBe(200);
    expect(answer.body.map((i) => i.title)).toEqual(TITLES);
    const notified = answer.body.map((i) => i.last_notified_at._val);
    expect(notified).toEqual([...notified].sort().reverse());
    const [a, b, e, c, d] = answer.body as unknown as [Item, Item, Item, Item, Item];
    expect(a).toEqual({
      id: expect.any(Number),
      docnote_id: expect.any(Number),
      filename: "Letter of authority.pdf",
      title: "Letter of authority",
      duedate: { _type: "Date", _val: dayFromStart(14) },
      status: 4,
      status_name: "awaitingSignature",
      signing_method: 1,
      last_notified_at: { _type: "DateTime", _val: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      terms_and_conds: "Terms and conditions of electronic signature",
      secure_data: expect.stringMatching(/^[0-9a-f]{32}$/),
      signatories: [
        {
          id: expect.any(Number),
          entityid: ELLIE,
          entity_first_name: "Eleanor",
          entity_last_name: "Hartley",
          entity_name: "Eleanor Hartley",
          entity_phone: "+44 7700 900456",
          signing_method: 1,
          signed_at: null,
          declined_at: null,
          can_sign: true,
        },
      ],
    });
    expect(b).toMatchObject({ status: 4, duedate: { _val: dayFromStart(10) } });
    expect(b.signatories.map((s) => [s.entityid, s.entity_name, s.entity_phone, s.can_sign])).toEqual([
      [ELLIE, "Eleanor Hartley", "+44 7700 900456", true],
      [JAMES, "James Hartley", "07700 900457", false],
    ]);
    expect(e).toMatchObject({ status: 3, status_name: "pending", duedate: null, signatories: [{ can_sign: false }] });
    expect(c).toMatchObject({
      status: 1,
      status_name: "signed",
      signatories: [{ can_sign: false, declined_at: null }],
    });
    expect(c.signatories[0]!.signed_at!._type).toBe("DateTime");
    expect(new Date(c.signatories[0]!.signed_at!._val).getTime()).toBeLessThan(new Date(START).getTime() - 19 * DAY);
    expect(d).toMatchObject({
      status: 2,
      status_name: "declined",
      signatories: [{ can_sign: false, signed_at: null }],
    });
    expect(d.signatories[0]!.declined_at!._type).toBe("DateTime");
    expect(new Set(answer.body.map((i) => i.secure_data)).size).toBe(5);
    // each carried by a message in her documents, its status in step
    const statuses = await Promise.all(
      answer.body.map(async (i) => (await docnote(ellie, i.docnote_id)).digital_signature_status),
    );
    expect(statuses).toEqual(["Pending", "Pending", "Pending", "Signed", "Declined"]);
  });

  it("filters by status, limits the page, and refuses other sorts and sizes", async () => {
    expect((await items(ellie, "page_size=100&page_sort=-last_notified_at&status=4")).body.map((i) => i.title)).toEqual(
      TITLES.slice(0, 2),
    );
    expect((await items(ellie, "status=1")).body.map((i) => i.title)).toEqual(["Suitability report acknowledgement"]);
    expect((await items(ellie, "page_size=2")).body.map((i) => i.title)).toEqual(TITLES.slice(0, 2));
    expect((await items(ellie, "")).body).toHaveLength(5);
    for (const query of [
      "page_size=101",
      "page_size=0",
      "page_sort=last_notified_at",
      "page_sort=title",
      "status=5",
      "status=x",
      "page_bookmark=abc",
    ]) {
      const answer = await items(ellie, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.user_message).toBe("One or more of the arguments are missing or incorrect.");
    }
    expect((await harness.platform.call(base)).status).toBe(401);
  });

  it("answers one item and its signatories as the list does, also in a batch", async () => {
    const list = (await items(ellie)).body;
    const b = list[1]!;
    expect((await harness.platform.call<Item>(`${base}/${b.id}`, { token: ellie })).body).toEqual(b);
    expect((await harness.platform.call<Signatory[]>(`${base}/${b.id}/signatories`, { token: ellie })).body).toEqual(
      b.signatories,
    );
    const batch = await harness.platform.call<Array<{ name: string; code: number; body: string }>>("/resourceful", {
      method: "POST",
      token: ellie,
      body: {
        batch: [
          { name: "item", method: "GET", url: `digital_signature/${b.id}` },
          { name: "signatories", method: "GET", url: `digital_signature/${b.id}/signatories` },
          { name: "terms", method: "GET", url: "digital_signature/terms" },
          { name: "list", method: "GET", url: "digital_signature?page_size=100&page_sort=-last_notified_at&status=4" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.map((r) => r.code)).toEqual([200, 200, 200, 200]);
    expect(JSON.parse(batch.body[0]!.body)).toEqual(b);
    expect(JSON.parse(batch.body[1]!.body)).toEqual(b.signatories);
    expect(JSON.parse(batch.body[2]!.body).title).toBe("Terms and conditions of electronic signature");
    expect(JSON.parse(batch.body[3]!.body)).toHaveLength(2);
  });

  it("shows James only the joint item, where only he can sign; another client sees none", async () => {
    const list = (await items(james)).body;
    expect(list.map((i) => i.title)).toEqual(["Joint account application"]);
    expect(list[0]!.secure_data).toMatch(/^[0-9a-f]{32}$/);
    expect(list[0]!.signatories.map((s) => [s.entityid, s.can_sign])).toEqual([
      [ELLIE, false],
      [JAMES, true],
    ]);
    expect((await items(assets)).body).toEqual([]);
  });

  it("answers 404 for an item the session does not see, on every call", async () => {
    const mine = (await items(ellie)).body;
    const letter = mine[0]!;
    const ellieSignatory = letter.signatories[0]!.id;
    for (const [token, id] of [
      [james, letter.id],
      [assets, letter.id],
      [ellie, 999_999],
    ] as const) {
      const calls: Array<[string, string, unknown?]> = [
        ["GET", `${base}/${id}`],
        ["GET", `${base}/${id}/signatories`],
        ["GET", `${base}/content/${id}/${encodeURIComponent("Letter of authority.pdf")}`],
        ["POST", `${base}/${id}/signatories/${ellieSignatory}/generate_code`, {}],
        [
          "POST",
          `${base}/${id}/signatories/${ellieSignatory}/sign`,
          { signing_method: 1, secure_data: letter.secure_data, otp: "123456" },
        ],
        ["POST", `${base}/${id}/signatories/${ellieSignatory}/decline`, { secure_data: letter.secure_data }],
        ["POST", `${base}/${id}/confirmation`, { outcome: 0 }],
      ];
      for (const [method, path, body] of calls) {
        const answer = await harness.platform.call(path, { method, token, body });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.api_message, path).toBe(`Digital signature ${id} not found`);
      }
    }
    expect((await harness.platform.call(`${base}/abc`, { token: ellie })).status).toBe(400);
  });

  it("answers the terms of electronic signature", async () => {
    const terms = await harness.platform.call<{ title: string; html: string; lang: string }>(`${base}/terms`, {
      token: ellie,
    });
    expect(terms.status).toBe(200);
    expect(terms.body.title).toBe("Terms and conditions of electronic signature");
    // issue 25 item 3: the terms say which language they are written in
    expect(terms.body.lang).toBe("en");
    expect(terms.body.html).toMatch(/^<p>/);
    expect(terms.body.html).toContain("same legal effect");
    expect(terms.body.html).toContain("registered");
    expect((await harness.platform.call(`${base}/terms`)).status).toBe(401);
  });

  it("shows an adviser the client in context's items read-only", async () => {
    const without = await items(adviser);
    expect(without.status).toBe(400);
    expect(without.body.api_message).toBe("I am not a clientUser and no client in context");
    const open = await harness.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: adviser,
      body: { client_id: ELLIE, client_access_level: 1 },
    });
    expect(open.status).toBe(200);
    const list = (await items(adviser)).body;
    const ellies = (await items(ellie)).body;
    expect(list.map((i) => i.id)).toEqual(ellies.map((i) => i.id));
    expect(list.every((i) => i.secure_data === null)).toBe(true);
    expect(list.flatMap((i) => i.signatories).every((s) => !s.can_sign)).toBe(true);
    const letter = ellies[0]!;
    const sid = letter.signatories[0]!.id;
    const code = await generate(adviser, letter, sid);
    expect(code.status).toBe(403);
    expect(code.body.api_message).toBe("Permission Error: You cannot sign this document");
    expect((await sign(adviser, letter, sid, "123456")).status).toBe(403);
    expect((await decline(adviser, letter, sid)).status).toBe(403);
    expect(
      (
        await harness.platform.call(`${base}/${letter.id}/confirmation`, {
          method: "POST",
          token: adviser,
          body: { outcome: 1 },
        })
      ).body.api_message,
    ).toBe("Nothing to confirm");
    // the document itself can be read
    const content = await fetch(
      `${harness.platform.baseUrl}${base}/content/${letter.id}/${encodeURIComponent(letter.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${adviser}` },
      },
    );
    expect(content.status).toBe(200);
    await content.arrayBuffer();
  });
});

describe("the document", () => {
  it("is a real PDF with the firm, the title, the text, the signatories and the due date", async () => {
    const b = (await items(ellie)).body[1]!;
    const response = await fetch(
      `${harness.platform.baseUrl}${base}/content/${b.id}/${encodeURIComponent(b.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${ellie}`, "X-Xplan-Auth-Failure-Action": "error" },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="Joint account application.pdf"; filename*=UTF-8''Joint%20account%20application.pdf`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    const text = pdfText(bytes);
    expect(text).toContain("Northbridge Wealth");
    expect(text).toContain("Joint account application");
    expect(text).toContain("Eleanor Hartley");
    expect(text).toContain("James Hartley");
    expect(text).toContain(`Please sign by ${longDate(dayFromStart(10))}`);
    expect(text.replace(/\s+/g, " ")).toContain("We apply to open a joint General Investment Account");
    // the same item gives the same document
    const again = await fetch(`${harness.platform.baseUrl}${base}/content/${b.id}/${encodeURIComponent(b.filename)}`, {
      headers: { ...CALLER, Cookie: `XPLANID=${ellie}` },
    });
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("answers 404 for another file name", async () => {
    const a = (await items(ellie)).body[0]!;
    const wrong = await harness.platform.call(
      `${base}/content/${a.id}/${encodeURIComponent("Joint account application.pdf")}`,
      { token: ellie },
    );
    expect(wrong.status).toBe(404);
    expect(wrong.body.api_message).toBe("File not found");
  });
});

describe("the dev copy with signatures", () => {
  it("gives the copy its own copies of the template's items, in the template's state", async () => {
    const before = (await items(ellie)).body;
    const copy = await copyOfEllie("sig.copy.one");
    const list = (await items(copy.token)).body;
    expect(list.map((i) => i.title)).toEqual(TITLES);
    expect([...copy.signatureIds].sort((x, y) => x - y)).toEqual(list.map((i) => i.id).sort((x, y) => x - y));
    for (const [i, item] of list.entries()) {
      const template = before[i]!;
      expect(item.id).not.toBe(template.id);
      expect(item.docnote_id).not.toBe(template.docnote_id);
      expect(item.secure_data).not.toBe(template.secure_data);
      expect(item.secure_data).toMatch(/^[0-9a-f]{32}$/);
      expect({ ...item, id: 0, docnote_id: 0, secure_data: null, signatories: [] }).toEqual({
        ...template,
        id: 0,
        docnote_id: 0,
        secure_data: null,
        signatories: [],
      });
      expect(item.signatories.map((s) => [s.entityid, s.can_sign, s.signed_at, s.declined_at])).toEqual(
        template.signatories.map((s) => [
          s.entityid === ELLIE ? copy.entityId : s.entityid,
          s.can_sign,
          s.signed_at,
          s.declined_at,
        ]),
      );
      const message = await docnote(copy.token, item.docnote_id);
      expect(message.entity_ids).toEqual([copy.entityId]);
    }
    // the copy's joint item keeps James, who sees it beside Eleanor's
    expect((await items(james)).body.map((i) => i.title)).toEqual([
      "Joint account application",
      "Joint account application",
    ]);
    // Eleanor's are unchanged and hers alone
    expect((await items(ellie)).body).toEqual(before);
    expect((await harness.platform.call(`${base}/${list[0]!.id}`, { token: ellie })).status).toBe(404);
    // without the flag, no items; a template without items, none
    expect(
      (
        await harness.platform.call("/dev/users/demo.client/copy", {
          method: "POST",
          body: { username: "sig.copy.none" },
        })
      ).body,
    ).toEqual({
      username: "sig.copy.none",
      user_id: expect.any(Number),
    });
    expect((await items(await harness.platform.session("sig.copy.none"))).body).toEqual([]);
    const assetsCopy = await harness.platform.call<{ signature_ids: number[] }>("/dev/users/demo.assets/copy", {
      method: "POST",
      body: { username: "sig.copy.assets", signatures: true },
    });
    expect(assetsCopy.body.signature_ids).toEqual([]);
  });
});

describe("signing with a one-time code", () => {
  it("sends a 6-digit code by sms to the outbox, then signs after two wrong codes; the confirmation is emailed", async () => {
    const copy = await copyOfEllie("sig.copy.sign");
    const letter = await byTitle(copy.token, "Letter of authority");
    const sid = own(letter).id;
    const sent = await generate(copy.token, letter, sid);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ sent: true, expires_at: { _type: "DateTime", _val: expect.any(String) } });
    expect(new Date(sent.body.expires_at._val).getTime() - harness.platform.clock.now().getTime()).toBe(5 * 60_000);
    const [sms] = await harness.platform.outbox(copy.username);
    expect(sms).toMatchObject({ channel: "sms", to: "+44 7700 900456", code: expect.stringMatching(/^\d{6}$/) });
    expect(sms!.body).toBe(`Your code to sign Letter of authority is ${sms!.code}. It expires in 5 minutes.`);
    const wrong = sms!.code === "000000" ? "111111" : "000000";

    for (let i = 0; i < 2; i++) {
      const mismatch = await sign(copy.token, letter, sid, wrong);
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.api_message).toBe("OTP does not match");
      expect(mismatch.body.user_message).toBe(
        "The security code that you provided does not match the one that was sent. Please try again.",
      );
    }
    const signed = await sign(copy.token, letter, sid, sms!.code!);
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({
      id: letter.id,
      status: 1,
      status_name: "signed",
      last_notified_at: letter.last_notified_at,
    });
    expect(signed.body.signatories[0]).toMatchObject({ id: sid, can_sign: false, declined_at: null });
    expect(signed.body.signatories[0]!.signed_at!._val).toBe(
      harness.platform.clock
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
    );
    expect((await docnote(copy.token, letter.docnote_id)).digital_signature_status).toBe("Signed");
    // issue 25 item 11: the signed document stays in the list, and its document is the signed copy
    const listed = (await items(copy.token)).body.find((i) => i.id === letter.id);
    expect(listed).toMatchObject({ status: 1, status_name: "signed" });
    const copyPdf = await fetch(
      `${harness.platform.baseUrl}${base}/content/${letter.id}/${encodeURIComponent(letter.filename)}`,
      { headers: { ...CALLER, Cookie: `XPLANID=${copy.token}` } },
    );
    const signedText = pdfText(Buffer.from(await copyPdf.arrayBuffer())).replace(/\s+/g, " ");
    const today = longDate(harness.platform.clock.now().toISOString().slice(0, 10));
    expect(signedText).toContain(`Signed copy: signed by every signatory on ${today}`);
    expect(signedText).toContain(`Signed electronically on ${today}`);
    expect(signedText).not.toContain("Please sign by");
    // done: no second signature, no code, no decline
    expect((await sign(copy.token, letter, sid, sms!.code!)).status).toBe(403);
    expect((await generate(copy.token, letter, sid)).status).toBe(403);
    expect((await decline(copy.token, letter, sid)).status).toBe(403);

    const confirm = await harness.platform.call(`${base}/${letter.id}/confirmation`, {
      method: "POST",
      token: copy.token,
      body: { outcome: 0 },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ sent: true });
    const [email] = await harness.platform.outbox(copy.username);
    expect(email).toMatchObject({
      channel: "email",
      to: "eleanor.hartley@example.com",
      subject: "You signed Letter of authority",
      code: null,
    });
    expect(email!.body).toContain(longDate(harness.platform.clock.now().toISOString().slice(0, 10)));
    const nothing = await harness.platform.call(`${base}/${letter.id}/confirmation`, {
      method: "POST",
      token: copy.token,
      body: { outcome: 1 },
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.api_message).toBe("Nothing to confirm");
    const pending = await byTitle(copy.token, "Annual review pack");
    expect(
      (
        await harness.platform.call(`${base}/${pending.id}/confirmation`, {
          method: "POST",
          token: copy.token,
          body: { outcome: 0 },
        })
      ).body.api_message,
    ).toBe("Nothing to confirm");
    expect(
      (
        await harness.platform.call(`${base}/${letter.id}/confirmation`, {
          method: "POST",
          token: copy.token,
          body: { outcome: 2 },
        })
      ).status,
    ).toBe(400);
  });

  it("spends the code at the third wrong attempt; a later try has expired; a new code works", async () => {
    const copy = await copyOfEllie("sig.copy.attempts");
    const letter = await byTitle(copy.token, "Letter of authority");
    const sid = own(letter).id;
    await generate(copy.token, letter, sid);
    const code = await harness.platform.latestCode(copy.username);
    const wrong = code === "999999" ? "888888" : "999999";
    expect((await sign(copy.token, letter, sid, wrong)).body.api_message).toBe("OTP does not match");
    expect((await sign(copy.token, letter, sid, wrong)).body.api_message).toBe("OTP does not match");
    const third = await sign(copy.token, letter, sid, wrong);
    expect(third.status).toBe(400);
    expect(third.body.api_message).toBe("Too many incorrect OTP attempts");
    expect(third.body.user_message).toBe("Too many invalid code attempts.");
    const later = await sign(copy.token, letter, sid, code);
    expect(later.status).toBe(400);
    expect(later.body.api_message).toBe("OTP code has expired");
    expect((await byTitle(copy.token, "Letter of authority")).status).toBe(4);

    // a new code replaces any earlier one
    await generate(copy.token, letter, sid);
    const first = await harness.platform.latestCode(copy.username);
    await generate(copy.token, letter, sid);
    const second = await harness.platform.latestCode(copy.username);
    if (first !== second)
      expect((await sign(copy.token, letter, sid, first)).body.api_message).toBe("OTP does not match");
    const ok = await sign(copy.token, letter, sid, ` ${second.slice(0, 3)} ${second.slice(3)} `);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe(1);
  });

  it("refuses a code after 5 minutes, or when none was sent", async () => {
    const copy = await copyOfEllie("sig.copy.expiry");
    const letter = await byTitle(copy.token, "Letter of authority");
    const sid = own(letter).id;
    const none = await sign(copy.token, letter, sid, "123456");
    expect(none.status).toBe(400);
    expect(none.body.api_message).toBe("OTP code has expired");
    await generate(copy.token, letter, sid);
    const code = await harness.platform.latestCode(copy.username);
    harness.platform.clock.advance(5 * 60_000 + 1_000);
    const late = await sign(copy.token, letter, sid, code);
    expect(late.status).toBe(400);
    expect(late.body.api_message).toBe("OTP code has expired");
    expect(late.body.user_message).toBe("The security code that we sent has expired.");
  });

  it("sends at most 5 codes a signatory in 15 minutes", async () => {
    const copy = await copyOfEllie("sig.copy.rate");
    const letter = await byTitle(copy.token, "Letter of authority");
    const sid = own(letter).id;
    for (let i = 0; i < 5; i++) expect((await generate(copy.token, letter, sid)).status).toBe(200);
    const sixth = await generate(copy.token, letter, sid);
    expect(sixth.status).toBe(429);
    expect(sixth.body.api_message).toBe("Too many codes requested");
    // another signatory's codes are counted apart
    const joint = await byTitle(copy.token, "Joint account application");
    expect((await generate(copy.token, joint, own(joint).id)).status).toBe(200);
    harness.platform.clock.advance(15 * 60_000 + 1_000);
    expect((await generate(copy.token, letter, sid)).status).toBe(200);
  });

  it("refuses the wrong secure data, a signatory of another, and a pending item", async () => {
    const copy = await copyOfEllie("sig.copy.refusals");
    const letter = await byTitle(copy.token, "Letter of authority");
    const sid = own(letter).id;
    await generate(copy.token, letter, sid);
    const code = await harness.platform.latestCode(copy.username);
    const bad = await sign(copy.token, letter, sid, code, "0".repeat(32));
    expect(bad.status).toBe(400);
    expect(bad.body.api_message).toBe("Invalid secure data");
    expect((await decline(copy.token, letter, sid, "f".repeat(32))).body.api_message).toBe("Invalid secure data");
    const missing = await harness.platform.call(`${base}/${letter.id}/signatories/${sid}/sign`, {
      method: "POST",
      token: copy.token,
      body: { secure_data: letter.secure_data },
    });
    expect(missing.status).toBe(400);
    // the code request's body, when sent, names the path's item and signatory; an empty one will do
    const mismatched = await harness.platform.call(`${base}/${letter.id}/signatories/${sid}/generate_code`, {
      method: "POST",
      token: copy.token,
      body: { digSigId: letter.id + 1, signatoryId: sid },
    });
    expect(mismatched.status).toBe(400);
    const empty = await harness.platform.call(`${base}/${letter.id}/signatories/${sid}/generate_code`, {
      method: "POST",
      token: copy.token,
    });
    expect(empty.status).toBe(200);
    const fresh = await harness.platform.latestCode(copy.username);
    // James's signatory on her joint item, and a signatory of another item
    const joint = await byTitle(copy.token, "Joint account application");
    const jamesSignatory = joint.signatories.find((s) => s.entityid === JAMES)!;
    expect((await generate(copy.token, joint, jamesSignatory.id)).body.api_message).toBe(
      "Permission Error: You cannot sign this document",
    );
    expect((await generate(copy.token, letter, own(joint).id)).status).toBe(403);
    const pending = await byTitle(copy.token, "Annual review pack");
    expect((await generate(copy.token, pending, pending.signatories[0]!.id)).status).toBe(403);
    // still signable with the right data and the latest code
    expect((await sign(copy.token, letter, sid, fresh)).status).toBe(200);
  });

  it("declines: the item and its message are declined and the confirmation says so", async () => {
    const copy = await copyOfEllie("sig.copy.decline");
    const joint = await byTitle(copy.token, "Joint account application");
    const sid = own(joint).id;
    const declined = await decline(copy.token, joint, sid);
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 2, status_name: "declined" });
    const mine = declined.body.signatories.find((s) => s.id === sid)!;
    expect(mine.declined_at!._type).toBe("DateTime");
    expect(mine).toMatchObject({ signed_at: null, can_sign: false });
    expect((await docnote(copy.token, joint.docnote_id)).digital_signature_status).toBe("Declined");
    // issue 25 item 11: the declined document stays listed, and its document says it was declined
    expect((await items(copy.token)).body.find((i) => i.id === joint.id)).toMatchObject({ status: 2 });
    const pdf = await fetch(
      `${harness.platform.baseUrl}${base}/content/${joint.id}/${encodeURIComponent(joint.filename)}`,
      {
        headers: { ...CALLER, Cookie: `XPLANID=${copy.token}` },
      },
    );
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/\s+/g, " ");
    expect(text).toContain(
      `Declined on ${longDate(harness.platform.clock.now().toISOString().slice(0, 10))}: this document was not signed`,
    );
    expect(text).not.toContain("Please sign by");
    // nobody signs a declined item: not her, not James
    expect((await generate(copy.token, joint, sid)).status).toBe(403);
    const jamesView = (await harness.platform.call<Item>(`${base}/${joint.id}`, { token: james })).body;
    expect(jamesView.signatories.every((s) => !s.can_sign)).toBe(true);
    expect((await generate(james, jamesView, jamesView.signatories[1]!.id)).status).toBe(403);
    const confirm = await harness.platform.call(`${base}/${joint.id}/confirmation`, {
      method: "POST",
      token: copy.token,
      body: { outcome: 1 },
    });
    expect(confirm.status).toBe(200);
    const [email] = await harness.platform.outbox(copy.username);
    expect(email).toMatchObject({
      channel: "email",
      to: "eleanor.hartley@example.com",
      subject: "You declined Joint account application",
    });
  });

  it("part-signs the joint item; James cannot get a code: his registered phone has no '+'", async () => {
    const joint = await byTitle(ellie, "Joint account application");
    const sid = own(joint).id;
    await generate(ellie, joint, sid);
    const code = await harness.platform.latestCode("demo.client");
    const signed = await sign(ellie, joint, sid, code);
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: 0, status_name: "partSigned" });
    expect(signed.body.signatories.map((s) => [s.entityid, s.signed_at !== null, s.can_sign])).toEqual([
      [ELLIE, true, false],
      [JAMES, false, false],
    ]);
    expect((await docnote(ellie, joint.docnote_id)).digital_signature_status).toBe("Pending");
    // not awaiting signature any more, but still something to sign for James
    expect((await items(ellie, "status=4")).body.map((i) => i.title)).toEqual(["Letter of authority"]);
    const hisView = (await harness.platform.call<Item>(`${base}/${joint.id}`, { token: james })).body;
    const his = hisView.signatories.find((s) => s.entityid === JAMES)!;
    expect(his).toMatchObject({ can_sign: true, entity_phone: "07700 900457" });
    const invalid = await generate(james, hisView, his.id);
    expect(invalid.status).toBe(400);
    expect(invalid.body.api_message).toBe("Invalid phone number");
    expect(invalid.body.user_message).toBe(
      "We are unable to sign the document as there seems to be a problem with your registered phone number. Please contact your adviser.",
    );
    expect((await harness.platform.outbox("demo.partner")).filter((r) => r.channel === "sms")).toEqual([]);
  });
});
