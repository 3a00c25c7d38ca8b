import { Transform, type TransformCallback } from "node:stream";

// A page's body as React writes it, in one piece per flush (docs/decisions/132). React's server
// renderer writes a page in views of 2 KiB and, once it has written all it has ready, calls the
// destination's `flush()` (the convention of zlib's streams). Each write is carried on its own
// through Remix's web stream, Express's answer, the compression middleware and zlib, which pays
// for every piece: a 13 KiB sign-in page was 9 writes and the client list's three pages some 60.
// This stream holds the writes until React flushes and passes them on as one, so the answer
// streams exactly as before (one piece when the shell is ready, one per Suspense boundary after
// it), with one write per flush instead of one per 2 KiB.

export class PageBodyStream extends Transform {
  #held: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#held.push(chunk);
    done();
  }

  /** React's signal that it has written all it has for now: pass it on as one piece. */
  flush(): void {
    if (this.#held.length === 0) return;
    const held = this.#held;
    this.#held = [];
    this.push(held.length === 1 ? held[0] : Buffer.concat(held));
  }

  override _flush(done: TransformCallback): void {
    this.flush();
    done();
  }
}
