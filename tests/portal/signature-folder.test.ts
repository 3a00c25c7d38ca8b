import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal } from "./portal-harness";

// issue 25 item 11, spec 002 "Folders", §4 "Badge": a document signed or declined stays findable
// with its signed copy: in the To be signed folder with its badge, and from its message.

type Item = {
  id: number;
  subject: string;
  date: string;
  href: string;
  awaitingSignature: boolean;
  badge?: { text: string; tone: string } | null;
};
type View = {
  folders: Array<{ key: string; unread: string | null }>;
  list: { items: Item[] };
  pane: null | { state: "notFound" } | { state: "ok"; id: number; subject: string; signatureHref?: string | null };
};
type Loader = (args: LoaderFunctionArgs) => Promise<Response>;

let portal: Portal;
let client: string;
let page: { loader: Loader };
let items: Array<{ id: number; title: string; docnote_id: number }>;

async function view(path: string): Promise<View> {
  const response = await page.loader({
    request: new Request(`http://portal.test${path}`, { headers: { Cookie: client } }),
    params: {},
    context: {},
  });
  const data = (await response.json()) as { kind: string; view: View };
  if (data.kind !== "messages") throw new Error(`expected the messages view, got ${data.kind}`);
  return data.view;
}

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.documents-and-messages/route");
  client = await portal.signIn("demo.client");
  const list = await portal.platform.call("/resourceful/digital_signature?page_size=100", {
    token: await portal.platform.session("demo.client"),
  });
  items = list.body as unknown as typeof items;
}, 60_000);
afterAll(() => portal?.close());

const idOf = (title: string) => items.find((i) => i.title === title)!.id;

describe("the To be signed folder (issue 25 item 11)", () => {
  it("lists what awaits action first, then the signed, declined and pending documents with their badges", async () => {
    const v = await view("/clients/documents-and-messages?toBeSigned=true");
    expect(v.list.items.map((i) => [i.subject, i.badge?.text])).toEqual([
      ["Letter of authority", "Awaiting signature"],
      ["Joint account application", "Awaiting signature"],
      ["Fee agreement 2025", "Declined"],
      ["Annual review pack", "Pending"],
      ["Suitability report acknowledgement", "Signed"],
    ]);
    const signed = v.list.items.find((i) => i.subject === "Suitability report acknowledgement")!;
    expect(signed).toMatchObject({
      awaitingSignature: false,
      href: `/clients/documents-and-messages/signatures/${idOf("Suitability report acknowledgement")}`,
    });
    expect(signed.date).toMatch(/^Signed \d/);
    expect(v.list.items.find((i) => i.subject === "Fee agreement 2025")!.date).toMatch(/^Declined \d/);
    // the folder's count is still what the client can sign
    expect(v.folders.find((f) => f.key === "signature")!.unread).toBe("(2)");
  });

  it("links a signature's message to its document and signatures", async () => {
    const suitability = items.find((i) => i.title === "Suitability report acknowledgement")!;
    const v = await view(`/clients/documents-and-messages?message=${suitability.docnote_id}`);
    if (v.pane?.state !== "ok") throw new Error("pane expected");
    expect(v.pane.signatureHref).toBe(`/clients/documents-and-messages/signatures/${suitability.id}`);
    const other = await view("/clients/documents-and-messages");
    const plain = other.list.items.find((i) => !items.some((s) => s.docnote_id === i.id))!;
    const opened = await view(`/clients/documents-and-messages?message=${plain.id}`);
    if (opened.pane?.state !== "ok") throw new Error("pane expected");
    expect(opened.pane.signatureHref ?? null).toBeNull();
  });
});
