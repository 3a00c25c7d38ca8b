import { installGlobals } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { BodyTooLarge, MAX_FORM_BYTES, readCappedBytes, readFormBody } from "./form-body.server";

// with the fetch globals the portal's server installs (scripts/portal-server.mjs): Node's own
installGlobals({ nativeFetch: true });

// Issue 24 finding 1: a form body is refused past a small limit before it is read in full, whether
// it declares its length or arrives chunked (no Content-Length).

/** A body that never ends (an attacker's chunked post), counting what the reader pulled. */
function endless(chunkBytes = 16 * 1024) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
    },
  });
  return { stream, pulled };
}

function post(body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request("http://portal.test/login", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    duplex: "half",
  } as RequestInit);
}

async function refusal(work: Promise<unknown>): Promise<Response> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("readFormBody", () => {
  it("reads an ordinary form", async () => {
    const form = await readFormBody(post("username=demo.client&csrf=abc&note=a%3Db"));
    expect(form.get("username")).toBe("demo.client");
    expect(form.get("note")).toBe("a=b");
  });

  it("reads a multipart form within the limit", async () => {
    const body = new FormData();
    body.append("csrf", "abc");
    body.append("intent", "save");
    const form = await readFormBody(new Request("http://portal.test/x", { method: "POST", body }));
    expect(form.get("intent")).toBe("save");
  });

  it("reads a multipart form whose file name holds '=' (issue 24 finding 3)", async () => {
    const body = [
      "--formboundary0123456789abcdefghij",
      'Content-Disposition: form-data; name="csrf"',
      "",
      "abc",
      "--formboundary0123456789abcdefghij",
      'Content-Disposition: form-data; name="attachments"; filename="statement=2026.pdf"',
      "Content-Type: application/pdf",
      "",
      "%PDF-1.4",
      "--formboundary0123456789abcdefghij--",
      "",
    ].join("\r\n");
    const form = await readFormBody(
      new Request("http://portal.test/x", {
        method: "POST",
        body,
        headers: { "Content-Type": "multipart/form-data; boundary=formboundary0123456789abcdefghij" },
      }),
    );
    expect(form.get("csrf")).toBe("abc");
    const file = form.get("attachments") as File;
    expect(file.name).toBe("statement=2026.pdf");
    expect(await file.text()).toBe("%PDF-1.4");
  });

  it("reads the largest real form: the annual review's two 4,000-character answers, every character three bytes", async () => {
    const answer = "€".repeat(4_000);
    const body = new URLSearchParams({ clientText: answer, partnerText: answer, intent: "next" }).toString();
    expect(body.length).toBeGreaterThan(64 * 1024);
    const form = await readFormBody(post(body));
    expect(form.get("partnerText")).toBe(answer);
  });

  it("accepts a body of exactly the limit", async () => {
    const value = "a".repeat(MAX_FORM_BYTES - "note=".length);
    const form = await readFormBody(post(`note=${value}`));
    expect(String(form.get("note"))).toHaveLength(value.length);
  });

  it("refuses with 413 a declared length over the limit without reading the body", async () => {
    const { stream, pulled } = endless();
    const response = await refusal(readFormBody(post(stream, { "Content-Length": String(100 * 1024 * 1024) })));
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("The form sent is too large.");
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuses with 413 a chunked body as soon as it passes the limit", async () => {
    const { stream, pulled } = endless();
    const response = await refusal(readFormBody(post(stream)));
    expect(response.status).toBe(413);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    // the limit and at most the chunks the stream had queued: never the whole body
    expect(pulled.bytes).toBeLessThan(MAX_FORM_BYTES + 4 * 16 * 1024);
  });

  it("refuses a body that lies about its length (shorter declared than sent)", async () => {
    const { stream } = endless();
    const response = await refusal(readFormBody(post(stream, { "Content-Length": "10" })));
    expect(response.status).toBe(413);
  });

  it("answers 400, not 500, for a body that is not a form", async () => {
    const response = await refusal(
      readFormBody(
        new Request("http://portal.test/x", {
          method: "POST",
          body: "--x\r\nbroken",
          headers: { "Content-Type": "multipart/form-data; boundary=zzz" },
        }),
      ),
    );
    expect(response.status).toBe(400);
  });
});

describe("readCappedBytes", () => {
  it("returns the bytes of a body within the limit", async () => {
    const bytes = await readCappedBytes(post("abc"), 3);
    expect(new TextDecoder().decode(bytes)).toBe("abc");
  });

  it("throws BodyTooLarge one byte past the limit", async () => {
    await expect(readCappedBytes(post("abcd"), 3)).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it("reads nothing of an empty body", async () => {
    const bytes = await readCappedBytes(new Request("http://portal.test/x", { method: "POST" }), 10);
    expect(bytes.byteLength).toBe(0);
  });
});
