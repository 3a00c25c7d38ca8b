import { logger } from "~/runtime/logger.server";

// Issue 24 finding 1: a posted body is read only up to a limit, and refused with 413 as soon as it
// passes it: first by its declared Content-Length, then by counting the bytes as they arrive (a
// chunked body declares none, and a declared length may be a lie). docs/decisions/111.

/**
 * Every page form but the compose form. The largest is the annual review's page answered for a
 * partner too: two 4,000-character boxes, URL-encoded up to 9 bytes a character (72 KB) when every
 * character takes three bytes in UTF-8 (a '€').
 */
export const MAX_FORM_BYTES = 128 * 1024;

/** A body past its limit: nothing more of it is read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/** Whether an error (or what caused it: a parser reading a capped stream wraps it) is BodyTooLarge. */
export function isBodyTooLarge(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof BodyTooLarge) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** The body's declared length, or null when it declares none (chunked) or declares nonsense. */
export function declaredLength(request: Request): number | null {
  const header = request.headers.get("Content-Length");
  return header !== null && /^\d{1,15}$/.test(header.trim()) ? Number(header) : null;
}

/**
 * A stream of the body that errors with BodyTooLarge once more than `limit` bytes passed through
 * it; what is past the limit is never pulled from the request.
 */
export function cappedStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        controller.close();
        return;
      }
      seen += next.value.byteLength;
      if (seen > limit) {
        // stop reading: the request is left unread (cancelling it would close the connection
        // before the 413 is answered)
        reader.releaseLock();
        controller.error(new BodyTooLarge(limit));
        return;
      }
      controller.enqueue(next.value);
    },
  });
}

/** The whole body as bytes, at most `limit` of them; BodyTooLarge before reading more. */
export async function readCappedBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) throw new BodyTooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = cappedStream(request.body, limit).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    chunks.push(next.value);
    total += next.value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The 413 a page post gets: plain words, shown by the page's error boundary. */
export function tooLargeResponse(request: Request, limit: number): Response {
  logger.warn("request body refused: too large", {
    method: request.method,
    path: new URL(request.url).pathname,
    limit,
  });
  return new Response("The form sent is too large.", {
    status: 413,
    // nothing more of this request is read: the connection is not kept for another
    headers: { "Content-Type": "text/plain; charset=utf-8", Connection: "close" },
  });
}

/** The 400 a post gets whose body is not the form it says it is. */
export function notAFormResponse(request: Request): Response {
  logger.warn("request body refused: not a form", { method: request.method, path: new URL(request.url).pathname });
  return new Response("The form sent could not be read.", {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * A body parsed as a form by Node's own Request (undici, installed as the global by the portal's
 * server): it follows the WHATWG multipart rules, so a file named 'statement=2026.pdf' is an
 * ordinary file (the older fetch replacement's parser threw on it, docs/decisions/111), and a
 * boundary is 27 to 70 characters (browsers send 38 or more).
 */
export async function parseForm(
  url: string,
  contentType: string,
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
): Promise<FormData> {
  const init = { method: "POST", headers: { "Content-Type": contentType }, body, duplex: "half" };
  return new Request(url, init as RequestInit).formData();
}

/**
 * A posted form (URL-encoded or multipart), read only up to `limit` bytes: past it a 413 is
 * thrown; a body that is not a form is a 400, not a 500.
 */
export async function readFormBody(request: Request, limit = MAX_FORM_BYTES): Promise<FormData> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readCappedBytes(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw tooLargeResponse(request, limit);
    throw error;
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  try {
    return await parseForm(request.url, contentType, bytes);
  } catch {
    throw notAFormResponse(request);
  }
}
