// The text of a PDF, page by page (pdfjs-dist's legacy build, which runs in Node without a
// canvas or a worker): for the platform's tests and the journeys that download a report.
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export type PdfText = {
  /** Each page's text: its items joined, a line break where pdf.js ends a line. */
  pages: string[];
  /** The pages' text joined with blank lines. */
  text: string;
  /** The document's Title and Author, when set. */
  title: string | null;
  author: string | null;
};

/** Reads a PDF's text; `data` is the file's bytes. */
export async function pdfText(data: Uint8Array | ArrayBuffer): Promise<PdfText> {
  // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy
  const bytes = new Uint8Array(data instanceof ArrayBuffer ? data.slice(0) : data.slice());
  const task = getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false, verbosity: 0 });
  const document = await task.promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str;
        if (item.hasEOL) text += "\n";
      }
      pages.push(text);
    }
    const info = (await document.getMetadata()).info as Record<string, unknown> | undefined;
    const field = (name: string) => (typeof info?.[name] === "string" ? (info[name] as string) : null);
    return { pages, text: pages.join("\n\n"), title: field("Title"), author: field("Author") };
  } finally {
    await task.destroy();
  }
}
