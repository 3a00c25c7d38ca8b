import type { ActionFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal, thrown } from "./portal-harness";

// Issue 24 finding 1: a form post is refused with 413 past 128 KiB before it is read in full, on
// anonymous forms (the login page, its passkey call) and signed-in ones alike, whether the body
// declares its length or arrives chunked. docs/decisions/111.

/** The forms' limit (MAX_FORM_BYTES): the portal's modules are imported once the platform is up. */
const FORM_LIMIT = 128 * 1024;

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

type Action = (args: ActionFunctionArgs) => Promise<Response>;

/** A chunked body of `total` bytes ('a's), counting how much of it the portal pulled. */
function chunked(total: number, chunkBytes = 16 * 1024) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) {
        controller.close();
        return;
      }
      pulled.bytes += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
    },
  });
  return { stream, pulled };
}

function post(path: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request(`http://portal.test${path}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    duplex: "half",
  } as RequestInit);
}

const run = (action: Action, request: Request) => thrown(action({ request, params: {}, context: {} }));

describe("the login page's forms", () => {
  it("refuse a 100 MB post by its declared length, reading none of it", async () => {
    const { action } = await import("~/routes/login/route");
    const { stream, pulled } = chunked(100 * 1024 * 1024);
    const response = await run(action, post("/login", stream, { "Content-Length": String(100 * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("The form sent is too large.");
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuse a chunked post as soon as it passes 128 KiB", async () => {
    const { action } = await import("~/routes/login/route");
    const { stream, pulled } = chunked(8 * 1024 * 1024);
    const response = await run(action, post("/login", stream, {}));
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(FORM_LIMIT + 64 * 1024);
  });

  it("still read an ordinary sign-in form with a long field", async () => {
    const { action } = await import("~/routes/login/route");
    const { body, cookie } = await portal.anonymousForm({
      intent: "login",
      username: "demo.client",
      password: "wrong-password",
      padding: "x".repeat(50_000),
    });
    const response = await run(action, post("/login", body, { Cookie: cookie }));
    expect(response.status).not.toBe(413);
    expect(response.status).toBeLessThan(500);
  });

  it("refuse a chunked passkey call past the limit", async () => {
    const { action } = await import("~/routes/login_.passkey/route");
    const { stream, pulled } = chunked(8 * 1024 * 1024);
    const response = await run(action, post("/login/passkey", stream, {}));
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(FORM_LIMIT + 64 * 1024);
  });
});

describe("a signed-in form", () => {
  it("is refused past the limit before its token is checked", async () => {
    const { action } = await import("~/routes/clients.security-questions/route");
    const client = await portal.signIn("demo.client");
    const { stream, pulled } = chunked(8 * 1024 * 1024);
    const response = await run(action, post("/clients/security-questions", stream, { Cookie: client }));
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(FORM_LIMIT + 64 * 1024);
  });
});
