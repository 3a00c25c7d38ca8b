import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClientInContext, type Portal, startPortal, thrown } from "./portal-harness";

// The signature page's loader and action (spec 002 "Signature view", "Signing journey", §8) against a
// real platform: who may see and sign, the code's refusals as the spec's texts, and a code that
// never travels further than the platform.

type Route = {
  loader: (args: LoaderFunctionArgs) => Promise<Response>;
  action: (args: ActionFunctionArgs) => Promise<Response>;
};
type View = {
  canSign: boolean;
  readOnly: boolean;
  step: string | null;
  signatories: Array<{ text: string }>;
  badge: { text: string };
  outcome: { text: string; signed: boolean } | null;
  terms: { title: string; lang: string };
};
type Answer = { step: string | null; errors: Array<{ fieldId: string; message: string }>; alert: string | null };

let portal: Portal;
let route: Route;
let client: string;
let clientUser: string;
let adviser: string;
let items: Array<{ id: number; title: string }>;

const PATH = "/clients/documents-and-messages/signatures";
const itemId = (title: string) => items.find((i) => i.title === title)!.id;

async function page(id: number, cookie: string, search = ""): Promise<View> {
  const response = await route.loader({
    request: new Request(`http://portal.test${PATH}/${id}${search}`, { headers: { Cookie: cookie } }),
    params: { id: String(id) },
    context: {},
  });
  return ((await response.json()) as { view: View }).view;
}

async function post(id: number, cookie: string, fields: Record<string, string>): Promise<Response> {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const request = new Request(`http://portal.test${PATH}/${id}`, {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(route.action({ request, params: { id: String(id) }, context: {} }));
}

const latestCode = async () => (await portal.platform.latestCode(clientUser)) as string;

beforeAll(async () => {
  portal = await startPortal();
  route = (await import("~/routes/clients.documents-and-messages_.signatures.$id/route")) as unknown as Route;
  // a copy of demo.client with its own documents to sign
  clientUser = "signer-portal-test";
  const copied = await portal.platform.call("/dev/users/demo.client/copy", {
    method: "POST",
    body: { username: clientUser, signatures: true },
  });
  expect(copied.status).toBe(201);
  client = await portal.signIn(clientUser);
  const list = await portal.platform.call("/resourceful/digital_signature?page_size=100", {
    token: await portal.platform.session(clientUser),
  });
  items = list.body as unknown as Array<{ id: number; title: string }>;
  adviser = await openClientInContext(
    portal,
    await portal.signIn("demo.adviser", "adviser"),
    "Hartley",
    "Hartley, Eleanor",
  );
}, 60_000);
afterAll(() => portal.close());

describe("the signature page (spec 002 'Signature view')", () => {
  it("offers the journey to the signatory and names who is awaited", async () => {
    const view = await page(itemId("Letter of authority"), client);
    expect(view.canSign).toBe(true);
    expect(view.badge.text).toBe("Awaiting signature");
    expect(view.signatories.map((s) => s.text)).toEqual(["Awaiting signature by Hartley, Eleanor"]);
    expect(view.outcome).toBeNull();
  });

  it("marks the platform's terms with their own language (issue 25 item 3)", async () => {
    const view = await page(itemId("Letter of authority"), client);
    expect(view.terms).toMatchObject({ title: "Terms and conditions of electronic signature", lang: "en" });
  });

  it("says who signed a signed document and when, and who declined a declined one", async () => {
    const signed = await page(itemId("Suitability report acknowledgement"), client);
    expect(signed.outcome?.text).toMatch(
      /^Signed by Hartley, Eleanor on \d.*: the document above is the signed copy\.$/,
    );
    const declined = await page(itemId("Fee agreement 2025"), client);
    expect(declined.outcome?.text).toMatch(/^Declined by Hartley, Eleanor on \d.*\.$/);
  });

  it("is not found for an item of someone else", async () => {
    const eleanors = (
      await portal.platform.call("/resourceful/digital_signature?page_size=100", {
        token: await portal.platform.session("demo.client"),
      })
    ).body as unknown as Array<{ id: number }>;
    const response = await thrown(
      route.loader({
        request: new Request(`http://portal.test${PATH}/${eleanors[0]!.id}`, { headers: { Cookie: client } }),
        params: { id: String(eleanors[0]!.id) },
        context: {},
      }),
    );
    expect(response.status).toBe(404);
  });
});

describe("the signing journey (spec 002 'Signing journey', §8)", () => {
  it("needs the terms accepted before a code is sent", async () => {
    const response = await post(itemId("Letter of authority"), client, { intent: "request-code" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).errors).toEqual([
      { fieldId: "signature-accept", message: "messages:signature.errors.acceptTerms" },
    ]);
  });

  it("maps a wrong code, an expired one and a right one, and never puts the code in the answer", async () => {
    const id = itemId("Letter of authority");
    const sent = await post(id, client, { intent: "request-code", accept: "on" });
    expect(sent.headers.get("Location")).toBe(`${PATH}/${id}?step=code#signature-journey`);
    const code = await latestCode();
    const wrong = code.replace(/.$/, (d) => String((Number(d) + 1) % 10));

    const mismatch = await post(id, client, { intent: "verify", accept: "on", code: wrong });
    expect(mismatch.status).toBe(400);
    const text = await mismatch.text();
    expect(JSON.parse(text)).toMatchObject({
      step: "code",
      errors: [{ fieldId: "signature-code", message: "messages:signature.errors.mismatch" }],
    });
    expect(text).not.toContain(wrong);

    // five minutes later the code has expired: a new one is offered
    portal.platform.clock.advance(6 * 60_000);
    const expired = await post(id, client, { intent: "verify", accept: "on", code });
    expect(await expired.json()).toMatchObject({ step: "expired", alert: "messages:signature.errors.expired" });

    const resent = await post(id, client, { intent: "resend" });
    expect(resent.headers.get("Location")).toBe(`${PATH}/${id}?step=code#signature-journey`);
    const fresh = await latestCode();
    const signed = await post(id, client, { intent: "verify", accept: "on", code: fresh });
    expect(signed.status).toBe(302);
    expect(signed.headers.get("Location")).toBe(`${PATH}/${id}`);
    expect(signed.headers.get("Location")).not.toContain(fresh);
    expect(signed.headers.getSetCookie().join(";")).not.toContain(fresh);
    const after = await page(id, client);
    expect(after.canSign).toBe(false);
    expect(after.signatories[0]!.text).toMatch(/^Signed by Hartley, Eleanor on /);
    // issue 25 item 11: the page confirms who signed and when, not 'nothing for you to sign'
    expect(after.outcome?.text).toMatch(/^Signed by Hartley, Eleanor on \d/);
  });

  it("ends a code after three wrong tries", async () => {
    const id = itemId("Joint account application");
    await post(id, client, { intent: "request-code", accept: "on" });
    const code = await latestCode();
    const wrong = code.replace(/.$/, (d) => String((Number(d) + 1) % 10));
    await post(id, client, { intent: "verify", accept: "on", code: wrong });
    await post(id, client, { intent: "verify", accept: "on", code: wrong });
    const third = await post(id, client, { intent: "verify", accept: "on", code: wrong });
    expect(await third.json()).toMatchObject({ step: "expired", alert: "messages:signature.errors.tooMany" });
  });

  it("refuses an adviser: the signature folder is the client's only (spec 002 §6, decision 197)", async () => {
    const eleanors = (
      await portal.platform.call("/resourceful/digital_signature?page_size=100", {
        token: await portal.platform.session("demo.client"),
      })
    ).body as unknown as Array<{ id: number; title: string }>;
    const letter = eleanors.find((i) => i.title === "Letter of authority")!.id;
    const read = await route
      .loader({
        request: new Request(`http://portal.test${PATH}/${letter}`, { headers: { Cookie: adviser } }),
        params: { id: String(letter) },
        context: {},
      })
      .catch((thrown: unknown) => thrown as Response);
    expect(read.status).toBe(403);
    const refused = await post(letter, adviser, { intent: "request-code", accept: "on" });
    expect(refused.status).toBe(403);
  });
});
