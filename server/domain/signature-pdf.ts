// spec 002 §2 "Signature view": the document to be signed, as a real PDF (pdfkit): the firm, the
// title, what the document says, a signature line for each signatory and the due date. Text is
// real text (selectable, searchable), not an image.
import PDFDocument from "pdfkit";

export type SignaturePdfInput = {
  firmName: string;
  title: string;
  /** Paragraphs separated by blank lines. */
  bodyText: string;
  /** YYYY-MM-DD, or null when there is none. */
  dueDate: string | null;
  /** When the item was made: the document's creation date (so the same item gives the same PDF). */
  createdAt: string;
  signatories: Array<{ name: string; signedAt: string | null; declinedAt: string | null }>;
};

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** 14 March 2025, from a date or date-time (UTC). */
export function longDate(value: string): string {
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

/**
 * The line under the title: once every signatory has signed, the document is the signed copy; once
 * one has declined, it says so; before that, when to sign by (issue 25 item 11, decision 118).
 */
export function standingOf(input: Pick<SignaturePdfInput, "dueDate" | "signatories">): string {
  const declined = input.signatories.map((s) => s.declinedAt).filter((d): d is string => Boolean(d));
  if (declined.length) return `Declined on ${longDate(declined.sort().at(-1)!)}: this document was not signed`;
  const signed = input.signatories.map((s) => s.signedAt);
  if (signed.length && signed.every(Boolean))
    return `Signed copy: signed by every signatory on ${longDate((signed as string[]).sort().at(-1)!)}`;
  return input.dueDate ? `Please sign by ${longDate(input.dueDate)}` : "No date has been set for signing";
}

const INK = "#1f2933";
const MUTED = "#52606d";
const ACCENT = "#00857c";

/**
 * The PDF's bytes. Streams are left uncompressed (the documents are a page or two), so the text can
 * be found in the file as it is; the metadata dates are the item's, so the output depends only on
 * the item.
 */
export function renderSignaturePdf(input: SignaturePdfInput): Promise<Buffer> {
  const created = new Date(input.createdAt);
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    compress: false,
    info: {
      Title: input.title,
      Author: input.firmName,
      Subject:
        input.signatories.length && input.signatories.every((s) => s.signedAt)
          ? "Signed copy"
          : "Document to be signed",
      CreationDate: created,
      ModDate: created,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font("Helvetica-Bold").fontSize(11).fillColor(ACCENT).text(input.firmName, { width });
  doc.moveDown(1.5);
  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(input.title, { width });
  doc.moveDown(0.3);
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(standingOf(input), { width });
  doc.moveDown(1.2);

  doc.font("Helvetica").fontSize(11).fillColor(INK);
  for (const paragraph of paragraphsOf(input.bodyText)) {
    doc.text(paragraph, { width, align: "left", lineGap: 2 });
    doc.moveDown(0.8);
  }

  doc.moveDown(1);
  doc.font("Helvetica-Bold").fontSize(12).fillColor(INK).text("Signatures", { width });
  doc.moveDown(0.6);
  for (const signatory of input.signatories) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 90) doc.addPage();
    doc.moveDown(1.6);
    const lineY = doc.y;
    const left = doc.page.margins.left;
    doc
      .moveTo(left, lineY)
      .lineTo(left + 260, lineY)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
    doc
      .moveTo(left + 300, lineY)
      .lineTo(left + width, lineY)
      .stroke();
    doc.y = lineY + 4;
    doc
      .font("Helvetica")
      .fontSize(10)
      .fillColor(INK)
      .text(signatory.name, left, lineY + 4, { width: 260 });
    const state = signatory.signedAt
      ? `Signed electronically on ${longDate(signatory.signedAt)}`
      : signatory.declinedAt
        ? `Declined on ${longDate(signatory.declinedAt)}`
        : "Date";
    doc.fillColor(MUTED).text(state, left + 300, lineY + 4, { width: width - 300 });
    doc.x = left;
    doc.moveDown(0.5);
  }

  doc.moveDown(2);
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `${input.firmName}. This document is signed electronically with a one-time code sent to the signatory's registered mobile phone.`,
      doc.page.margins.left,
      doc.y,
      { width },
    );
  doc.end();
  return done;
}
