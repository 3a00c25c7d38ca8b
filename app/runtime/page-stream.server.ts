import { Transform, type TransformCallback } from "node:stream";

// A page's body as React writes it, in one piece per flush (docs/decisions/132). React's server
// renderer writes a page in views of 2 KiB and, once it has written all it has ready, calls the
// destination's `flush()` (the convention of zlib's streams). Each write is carried on its own
// through Remix's web stream, Express's answer, the compression middleware and zlib, which pays
// for every piece: a 13 KiB sign-in page was 9 writes and the client list's three pages some 60.
// This stream holds the writes until React flushes and passes them on as one, so the answer
// streams exactly as before (one piece when the shell is ready, one per Suspense boundary after
// it), with one write per flush instead of one per 2 KiB.
//
// It also gives the page's title its 'Error: ' when the page shows errors (GOV.UK's pattern,
// app/components/error-summary.tsx): the server renders the head before the body that holds the
// error summary, so the title is written without it. The shell (head and body but the Suspense
// boundaries still waiting) comes in one piece: when that piece holds an error summary, its
// `<title>` gets the prefix. The summary's markup cannot come from elsewhere: text is escaped, the
// platform's HTML is sanitised without `class`, and the data in the scripts escapes its quotes.

const TITLE = "<title>";
const ERROR_SUMMARY = '<div class="error-summary">';

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export class PageBodyStream extends Transform {
  #held: Buffer[] = [];
  #titlePrefix: string | null;

  /** `titlePrefix`: the text the title starts with ('Error: ') when the page shows an error summary. */
  constructor(titlePrefix: string | null = null) {
    super();
    this.#titlePrefix = titlePrefix;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#held.push(chunk);
    done();
  }

  /** React's signal that it has written all it has for now: pass it on as one piece. */
  flush(): void {
    if (this.#held.length === 0) return;
    const held = this.#held;
    this.#held = [];
    this.push(this.#titled(held.length === 1 ? held[0]! : Buffer.concat(held)));
  }

  /** The shell's piece, its title prefixed if it holds an error summary; the other pieces as they are. */
  #titled(piece: Buffer): Buffer {
    if (this.#titlePrefix === null) return piece;
    const prefix = Buffer.from(escapeText(this.#titlePrefix));
    this.#titlePrefix = null;
    const at = piece.indexOf(TITLE);
    if (at < 0 || !piece.includes(ERROR_SUMMARY)) return piece;
    const end = at + TITLE.length;
    return Buffer.concat([piece.subarray(0, end), prefix, piece.subarray(end)]);
  }

  override _flush(done: TransformCallback): void {
    this.flush();
    done();
  }
}
