// spec 002 §2 "Signature view": the document to be signed, as a real PDF (pdfkit): the firm, the
// title, what the document says, a signature line for each signatory and the due date. Text is
// real text (selectable, searchable), not an image.
import PDFDocument from "pdfkit";
import { longDate } from "./calendar";
import { pdfBytes } from "./pdf-bytes";

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

/** The document, its metadata dated when the item was made; streams left uncompressed. */
function signatureDocument(input: SignaturePdfInput): PDFKit.PDFDocument {
  const created = new Date(input.createdAt);
  return new PDFDocument({
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
}

/** The firm, the title and where the signing stands. */
function titleBlock(doc: PDFKit.PDFDocument, input: SignaturePdfInput, width: number): void {
  doc.font("Helvetica-Bold").fontSize(11).fillColor(ACCENT).text(input.firmName, { width });
  doc.moveDown(1.5);
  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(input.title, { width });
  doc.moveDown(0.3);
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(standingOf(input), { width });
  doc.moveDown(1.2);
}

/** What the document says, a paragraph at a time. */
function body(doc: PDFKit.PDFDocument, bodyText: string, width: number): void {
  doc.font("Helvetica").fontSize(11).fillColor(INK);
  for (const paragraph of paragraphsOf(bodyText)) {
    doc.text(paragraph, { width, align: "left", lineGap: 2 });
    doc.moveDown(0.8);
  }
}

/** What a signatory's line says under the date: signed, declined, or blank for the date. */
function signatoryState(signatory: SignaturePdfInput["signatories"][number]): string {
  if (signatory.signedAt) return `Signed electronically on ${longDate(signatory.signedAt)}`;
  if (signatory.declinedAt) return `Declined on ${longDate(signatory.declinedAt)}`;
  return "Date";
}

/** A signatory's line: their name under a signature line, and their state under a date line. */
function signatureLine(
  doc: PDFKit.PDFDocument,
  signatory: SignaturePdfInput["signatories"][number],
  width: number,
): void {
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
  doc.fillColor(MUTED).text(signatoryState(signatory), left + 300, lineY + 4, { width: width - 300 });
  doc.x = left;
  doc.moveDown(0.5);
}

/** The note at the foot: how the document is signed. */
function signingNote(doc: PDFKit.PDFDocument, firmName: string, width: number): void {
  doc.moveDown(2);
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `${firmName}. This document is signed electronically with a one-time code sent to the signatory's registered mobile phone.`,
      doc.page.margins.left,
      doc.y,
      { width },
    );
}

/**
 * The PDF's bytes. Streams are left uncompressed (the documents are a page or two), so the text can
 * be found in the file as it is; the metadata dates are the item's, so the output depends only on
 * the item.
 */
export function renderSignaturePdf(input: SignaturePdfInput): Promise<Buffer> {
  const doc = signatureDocument(input);
  const done = pdfBytes(doc);
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  titleBlock(doc, input, width);
  body(doc, input.bodyText, width);
  doc.moveDown(1);
  doc.font("Helvetica-Bold").fontSize(12).fillColor(INK).text("Signatures", { width });
  doc.moveDown(0.6);
  for (const signatory of input.signatories) signatureLine(doc, signatory, width);
  signingNote(doc, input.firmName, width);
  doc.end();
  return done;
}
