// spec 002 §4 "Attachment download": the confirmation shows the file's name and size, and warns
// about file types that may contain macros or other harmful content (docs/decisions/080).
import { numberFormat } from "~/lib/format";

/**
 * Types a reader opens without running anything: plain documents, images and the macro-free
 * Office formats. Every other type, the macro-enabled Office formats (docm, xlsm, pptm, dotm,
 * xlam …), the old binary Office formats (which can carry macros) and anything executable or
 * unknown, gets the warning.
 */
export const SAFE_EXTENSIONS: ReadonlySet<string> = new Set([
  "pdf",
  "txt",
  "csv",
  "rtf",
  "jpg",
  "jpeg",
  "png",
  "gif",
  "bmp",
  "tif",
  "tiff",
  "webp",
  "heic",
  "docx",
  "xlsx",
  "pptx",
  "odt",
  "ods",
  "odp",
]);

export function extensionOf(filename: string): string {
  const match = /\.([a-z0-9]{1,10})$/i.exec(filename.trim());
  return match ? match[1]!.toLowerCase() : "";
}

/** spec 002 §4: risky file types show the warning. */
export function isRiskyFile(filename: string): boolean {
  return !SAFE_EXTENSIONS.has(extensionOf(filename));
}

/** A file size for people: bytes, KB or MB (1 KB = 1,024 bytes), in the locale's digits. */
export function formatFileSize(bytes: number | null | undefined, locale: string): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return "";
  const format = (value: number, unit: "byte" | "kilobyte" | "megabyte", digits: number) =>
    numberFormat(locale, {
      style: "unit",
      unit,
      unitDisplay: unit === "byte" ? "long" : "short",
      maximumFractionDigits: digits,
    }).format(value);
  if (bytes < 1024) return format(bytes, "byte", 0);
  if (bytes < 1024 * 1024) return format(bytes / 1024, "kilobyte", bytes < 10 * 1024 ? 1 : 0);
  return format(bytes / (1024 * 1024), "megabyte", 1);
}

/** A file name safe to put into a URL path segment and a header (no path or control characters). */
export function safeFilename(filename: string): string {
  const cleaned = Array.from(filename)
    .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)
    .join("")
    .replace(/[\\/]/g, "_")
    .trim();
  return cleaned || "attachment";
}

/** The ids of an attachment route; null for anything that is not two positive integers. */
export function attachmentIdsOf(
  params: Record<string, string | undefined>,
): { documentId: number; docpartid: number } | null {
  if (!/^[1-9]\d{0,11}$/.test(params.documentId ?? "") || !/^[1-9]\d{0,11}$/.test(params.docpartid ?? "")) return null;
  return { documentId: Number(params.documentId), docpartid: Number(params.docpartid) };
}

/**
 * An RFC 6266 Content-Disposition for a file name: an ASCII fallback (no quote, backslash or '%',
 * which some browsers decode) and the exact name as UTF-8, percent-encoded beyond RFC 5987's
 * attr-char (encodeURIComponent leaves ' ( ) * alone).
 */
export function contentDisposition(filename: string): string {
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
