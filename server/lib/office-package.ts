import { Parser } from "htmlparser2";
import yauzl from "yauzl";

// Issue 39 finding 4: an Office Open XML (docx, xlsx) or OpenDocument (odt, ods) file is a zip of
// parts; its first bytes say nothing of what the parts do. The package is read with yauzl (its
// central directory, each entry inflated as a stream and held to the size its directory states)
// and refused when it holds macros or other active content, relationships to anything outside it
// but web and mail links, or more entries, more unpacked bytes or a higher compression ratio than
// the limits below; reading stops at the first entry past a limit, so nothing beyond it is ever
// inflated. docs/decisions/165-office-packages-and-daily-attachment-limits.md. The portal keeps the
// same rule (app/lib/office-package.server.ts, to answer by the field at once); the platform trusts
// no client. tests/contract/attachment-rules.test.ts holds the two equal.

/** What a package is refused for, or "ok". */
export type PackageVerdict = "ok" | "active-content" | "external" | "too-large" | "unreadable";

export type PackageLimits = {
  /** Entries in the zip's central directory (a docx has about 15, a large workbook a few hundred). */
  entries: number;
  /** Bytes of all entries unpacked, embedded packages' included. */
  unpackedBytes: number;
  /** Unpacked bytes for each compressed byte, for an entry past `ratioFromBytes` unpacked. */
  ratio: number;
  ratioFromBytes: number;
  /** An embedded package (a chart's workbook in a docx) is read whole to be judged; at most this. */
  embeddedBytes: number;
};

export const PACKAGE_LIMITS: Readonly<PackageLimits> = {
  entries: 1_000,
  unpackedBytes: 100 * 1024 * 1024,
  ratio: 100,
  ratioFromBytes: 100 * 1024,
  embeddedBytes: 20 * 1024 * 1024,
};

/** Parts that are macros, or that run or embed code (VBA, Excel 4 macro sheets, ActiveX, OLE objects). */
const ACTIVE_NAME =
  /(^|\/)(vbaProject\.bin|vbaProjectSignature[^/]*\.bin|vbaData\.xml)$|(^|\/)(macrosheets|activeX)\/|\.(docm|dotm|xlsm|xltm|xlam|xlsb|pptm|potm|ppam|ppsm|sldm)$/i;
/** OpenDocument's macro libraries and scripts. */
const ODF_SCRIPTS = /^(Basic|Scripts|Dialogs)\//i;
/** Content types and relationship types of the same. */
const ACTIVE_TYPE =
  /macroEnabled|vbaProject|vbaData|macrosheet|activeX|oleObject|keyMapCustomizations|attachedToolbars/i;
const ACTIVE_RELATIONSHIP =
  /vbaProject|vbaData|macrosheet|activeX|oleObject|keyMapCustomizations|attachedToolbars|externalLink/i;
/** The only binary (.bin) parts of an ordinary document: its printer settings. */
const PRINTER_SETTINGS = /printerSettings$/i;
/** The one external target a person must follow themselves: a web or mail link. */
const HYPERLINK = /\/hyperlink$/i;
const LINK_TARGET = /^(https?:|mailto:)/i;

class Refused extends Error {
  constructor(readonly verdict: Exclude<PackageVerdict, "ok">) {
    super(verdict);
  }
}

/** What the parts told, judged once every entry has been read. */
type Facts = {
  names: string[];
  defaults: Map<string, string>;
  overrides: Map<string, string>;
  relationships: Array<{ type: string; target: string; external: boolean }>;
  eventListeners: number;
};

const localName = (name: string) => name.slice(name.lastIndexOf(":") + 1).toLowerCase();
const attribute = (attribs: Record<string, string>, wanted: string) => {
  for (const [key, value] of Object.entries(attribs)) if (localName(key) === wanted) return value;
  return undefined;
};

/** An XML part parsed as it streams in: UTF-8, or UTF-16 by its byte order mark. */
class XmlPart {
  private head: Buffer[] = [];
  private decoder: TextDecoder | null = null;
  private readonly parser: Parser;

  constructor(facts: Facts, contentTypes: boolean, relationships: boolean) {
    this.parser = new Parser(
      {
        onopentag(name, attribs) {
          const local = localName(name);
          if (local === "event-listener") facts.eventListeners += 1;
          if (contentTypes && local === "default") {
            const extension = attribute(attribs, "extension");
            if (extension !== undefined)
              facts.defaults.set(extension.toLowerCase(), attribute(attribs, "contenttype") ?? "");
          }
          if (contentTypes && local === "override") {
            const part = attribute(attribs, "partname");
            if (part !== undefined)
              facts.overrides.set(part.replace(/^\//, "").toLowerCase(), attribute(attribs, "contenttype") ?? "");
          }
          if (relationships && local === "relationship") {
            const mode = attribute(attribs, "targetmode");
            facts.relationships.push({
              type: attribute(attribs, "type") ?? "",
              target: (attribute(attribs, "target") ?? "").trim(),
              // anything but the default, Internal, counts as outside the package
              external: mode !== undefined && mode.trim().toLowerCase() !== "internal",
            });
          }
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
  }

  write(chunk: Buffer): void {
    if (!this.decoder) {
      this.head.push(chunk);
      const head = Buffer.concat(this.head);
      if (head.length < 4) return;
      this.head = [];
      this.start(head);
      return;
    }
    this.parser.write(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    if (!this.decoder) this.start(Buffer.concat(this.head));
    this.parser.write(this.decoder!.decode());
    this.parser.end();
  }

  private start(head: Buffer): void {
    const encoding =
      head[0] === 0xff && head[1] === 0xfe ? "utf-16le" : head[0] === 0xfe && head[1] === 0xff ? "utf-16be" : "utf-8";
    this.decoder = new TextDecoder(encoding);
    this.parser.write(this.decoder.decode(head, { stream: true }));
  }
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Reads one entry to its end: XML parsed on the way, an embedded package kept to be judged too
 * (one level deep, and no larger than the limit).
 */
async function readEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  name: string,
  facts: Facts,
  mayEmbed: boolean,
): Promise<Buffer | null> {
  const isXml = /\.(xml|rels)$/i.test(name);
  const contentTypes = name.toLowerCase() === "[content_types].xml";
  const relationships = /\.rels$/i.test(name);
  // Office Open XML says what its parts are in these two; OpenDocument's scripts may be bound in any
  // part (an event listener), so all of an OpenDocument's XML is read (it starts with its mimetype)
  const parsed = contentTypes || relationships || (isXml && facts.names[0] === "mimetype");
  const xml = parsed ? new XmlPart(facts, contentTypes, relationships) : null;
  const stream = await zip.openReadStreamPromise(entry);
  let first: Buffer | null = null;
  let kept: Buffer[] | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      xml?.write(chunk);
      if (!isXml && first === null) {
        first = chunk;
        if (chunk.length >= 4 && chunk.subarray(0, 4).equals(ZIP_SIGNATURE)) {
          if (!mayEmbed) throw new Refused("too-large");
          kept = [];
        }
      }
      kept?.push(chunk);
    }
  } catch (error) {
    // yauzl stops an entry at the first byte past the size its directory states: a bomb
    if (error instanceof Error && /too many bytes/i.test(error.message)) throw new Refused("too-large");
    throw error;
  }
  xml?.end();
  return kept ? Buffer.concat(kept) : null;
}

/** Reads a package within the budget of unpacked bytes left, gathering what its parts say. */
async function read(bytes: Buffer, budget: { left: number }, nested: boolean, limits: PackageLimits): Promise<Facts> {
  const facts: Facts = { names: [], defaults: new Map(), overrides: new Map(), relationships: [], eventListeners: 0 };
  const zip = await yauzl.fromBufferPromise(bytes, { validateEntrySizes: true, decodeStrings: true });
  if (zip.entryCount > limits.entries) {
    zip.close();
    throw new Refused("too-large");
  }
  for await (const entry of zip.eachEntry()) {
    const name = entry.fileName.replace(/\\/g, "/").replace(/^\/+/, "");
    facts.names.push(name);
    // refused on their name alone: nothing more to read
    if (ACTIVE_NAME.test(name) || ODF_SCRIPTS.test(name)) throw new Refused("active-content");
    if (name.endsWith("/")) continue;
    // the directory's sizes, which yauzl holds the inflated stream to, are judged before inflating
    const size = entry.uncompressedSize;
    if (size > budget.left) throw new Refused("too-large");
    if (size > limits.ratioFromBytes && size > limits.ratio * Math.max(entry.compressedSize, 1))
      throw new Refused("too-large");
    budget.left -= size;
    // an embedded package is judged by the same rule; one inside it is refused
    const embedded = await readEntry(zip, entry, name, facts, !nested && size <= limits.embeddedBytes);
    if (embedded) judge(await read(embedded, budget, true, limits));
  }
  return facts;
}

/** The rule over what the parts said: active content first, then what lies outside the package. */
function judge(facts: Facts): void {
  const types = [...facts.defaults.values(), ...facts.overrides.values()];
  if (types.some((type) => ACTIVE_TYPE.test(type))) throw new Refused("active-content");
  for (const name of facts.names) {
    if (!/\.bin$/i.test(name)) continue;
    const type = facts.overrides.get(name.toLowerCase()) ?? facts.defaults.get("bin") ?? "";
    if (!PRINTER_SETTINGS.test(type)) throw new Refused("active-content");
  }
  if (facts.eventListeners > 0) throw new Refused("active-content");
  if (facts.relationships.some((r) => ACTIVE_RELATIONSHIP.test(r.type))) throw new Refused("active-content");
  const outside = facts.relationships.filter((r) => r.external);
  if (outside.some((r) => !HYPERLINK.test(r.type) || !LINK_TARGET.test(r.target))) throw new Refused("external");
}

/**
 * Whether an Office Open XML or OpenDocument package may be sent: "ok", or what it is refused for.
 * A zip that cannot be read (damaged, encrypted, an unknown compression) is "unreadable".
 */
export async function inspectPackage(
  bytes: Uint8Array,
  limits: PackageLimits = PACKAGE_LIMITS,
): Promise<PackageVerdict> {
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    judge(await read(buffer, { left: limits.unpackedBytes }, false, limits));
    return "ok";
  } catch (error) {
    return error instanceof Refused ? error.verdict : "unreadable";
  }
}
