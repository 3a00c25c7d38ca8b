import { constants as zlibConstants, crc32, deflateRawSync } from "node:zlib";
import { strToU8, unzipSync, zipSync } from "fflate";

// Small files of the types clients send (and a few they must not), real enough for content
// sniffing (file-type): the first bytes of each format, and Office files as zips with their parts.

/** A zip of stored (uncompressed) entries: enough for an Office Open XML or OpenDocument file. */
export function zip(entries: Record<string, string>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, "utf8");
    const data = Buffer.from(text, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const contentTypes = (main: string, part: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="${part}" ContentType="${main}"/></Types>`;

/** A Word document (docx), or its macro-enabled twin (docm). */
export function wordDocument(macros = false): Uint8Array {
  const type = macros
    ? "application/vnd.ms-word.document.macroEnabled.main+xml"
    : "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";
  return zip({
    "[Content_Types].xml": contentTypes(type, "/word/document.xml"),
    "word/document.xml": `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`,
  });
}

/** An Excel workbook (xlsx). */
export function workbook(): Uint8Array {
  return zip({
    "[Content_Types].xml": contentTypes(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
      "/xl/workbook.xml",
    ),
    "xl/workbook.xml": `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`,
  });
}

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p)))));

export const SAMPLES = {
  pdf: () => bytes("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"),
  png: () =>
    bytes(
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d],
      "IHDR",
      [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89],
    ),
  jpeg: () => bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], "JFIF", [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
  gif: () => bytes("GIF89a", [1, 0, 1, 0, 0, 0, 0, 0x3b]),
  heic: () => bytes([0, 0, 0, 0x18], "ftypheic", [0, 0, 0, 0], "mif1heic"),
  /** An old binary Office file (doc, xls): a compound file. */
  compound: () => bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], new Array(504).fill(0)),
  rtf: () => bytes("{\\rtf1\\ansi Hello}"),
  csv: () => bytes("date,amount\n2026-11-01,100.00\n"),
  txt: () => bytes("Notes for my adviser.\n"),
  exe: () => bytes("MZ", [0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff], new Array(50).fill(0)),
  zip: () => zip({ "a.txt": "hello" }),
  html: () => bytes("<!doctype html><script>alert(1)</script>"),
  /** A TIFF as a scanner saves one, little-endian ('II*') and big-endian ('MM*'): one 1×1 image. */
  tiff: () => bytes([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 1, 0, 0, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
  tiffBigEndian: () => bytes([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 1, 0, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]),
  /** An e-mail saved from a mail program (RFC 5322): header fields, one folded, an empty line, the body. */
  eml: () =>
    bytes(
      "From: Ellie Hartley <ellie@example.com>\r\nTo: Adviser <adviser@example.com>\r\n" +
        "Subject: My pension\r\n statement\r\nDate: Mon, 2 Nov 2026 09:30:00 +0000\r\n" +
        "Content-Type: text/html; charset=utf-8\r\n\r\n<p>See the figures.</p><script>alert(1)</script>\r\n",
    ),
};

// ── Office packages as Office writes them (deflated, by fflate), and what they must not hold ──────
// Issue 39 finding 4 (docs/decisions/165): built here, small, never checked in.

const WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="word/document.xml"/></Relationships>`;

/** A zip as Office writes one: every part deflated. */
export function deflatedZip(entries: Record<string, string | Uint8Array>): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(entries).map(([name, data]) => [
        name,
        [typeof data === "string" ? strToU8(data) : data, { level: 6 }],
      ]),
    ),
  );
}

type WordOptions = {
  /** More Default/Override lines of [Content_Types].xml. */
  types?: string;
  /** Relationship elements of word/_rels/document.xml.rels. */
  relationships?: string;
  /** More parts. */
  parts?: Record<string, string | Uint8Array>;
};

/** A Word document (docx) with its relationships and the parts given. */
export function craftedWordDocument(options: WordOptions = {}): Uint8Array {
  return deflatedZip({
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${WORD_MAIN}"/>${options.types ?? ""}</Types>`,
    "_rels/.rels": PACKAGE_RELS,
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Dear Sarah, please find my statement.</w:t></w:r></w:p></w:body></w:document>`,
    "word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${options.relationships ?? ""}</Relationships>`,
    ...options.parts,
  });
}

/** An Excel workbook (xlsx) with the parts given. */
export function craftedWorkbook(options: WordOptions = {}): Uint8Array {
  return deflatedZip({
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${options.types ?? ""}</Types>`,
    "_rels/.rels": PACKAGE_RELS.replace("word/document.xml", "xl/workbook.xml"),
    "xl/workbook.xml": `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>`,
    "xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${options.relationships ?? ""}</Relationships>`,
    ...options.parts,
  });
}

/** An OpenDocument text (odt): the mimetype first and stored, as the format requires. */
export function craftedTextDocument(parts: Record<string, string> = {}, content?: string): Uint8Array {
  return zipSync({
    mimetype: [strToU8("application/vnd.oasis.opendocument.text"), { level: 0 }],
    "META-INF/manifest.xml": [
      strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      ),
      { level: 6 },
    ],
    "content.xml": [
      strToU8(
        content ??
          `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:text><text:p>Notes for my adviser.</text:p></office:text></office:body></office:document-content>`,
      ),
      { level: 6 },
    ],
    ...Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, [strToU8(text), { level: 6 }] as const])),
  });
}

/**
 * A zip bomb: one entry whose deflate stream is `repeats` copies of one MiB of zeros compressed
 * (about a kilobyte each, never the whole inflated), stating `declared` bytes unpacked (the truth,
 * repeats MiB, unless told to lie). Named as a workbook's sheet, after a real workbook's parts.
 */
export function zipBomb(repeats: number, declared = repeats * 1024 * 1024): Uint8Array {
  // a sync-flushed, not final, block of one MiB of zeros; copies of it are one valid stream
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const stream = Buffer.concat([...Array.from({ length: repeats }, () => block), Buffer.from([0x03, 0x00])]);
  const parts = unzipSync(craftedWorkbook());
  const sheet = "xl/worksheets/sheet1.xml";
  const bomb = rawZipEntry(sheet, stream, declared);
  return concatZips(parts, bomb);
}

/** One deflated entry with the sizes given (crc left 0: zip readers that check it are not ours). */
function rawZipEntry(name: string, compressed: Buffer, uncompressed: number) {
  return { name: Buffer.from(name), compressed, uncompressed };
}

/** A zip of the ordinary parts (stored) and one raw deflated entry. */
function concatZips(parts: Record<string, Uint8Array>, raw: ReturnType<typeof rawZipEntry>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const add = (name: Buffer, data: Buffer, method: number, size: number, crc: number) => {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  };
  for (const [name, data] of Object.entries(parts))
    add(Buffer.from(name), Buffer.from(data), 0, data.length, crc32(data));
  add(raw.name, raw.compressed, 8, raw.uncompressed, 0);
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
