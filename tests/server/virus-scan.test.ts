import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentAttachments } from "../../server/db/schema";
import { createLogger } from "../../server/lib/logger";
import { EICAR, EICAR_SIGNATURE, startClamd } from "../../scripts/clamd.mjs";
import { SAMPLES } from "../sample-files";
import { CALLER, type ErrorAnswer, type Platform, startPlatform } from "./harness";

// ASVS V12.4.2 (docs/decisions/192): the platform stores an uploaded attachment only after clamd has
// found nothing in it, refuses one it finds something in (400, the field's text), and refuses to
// store any file unscanned while clamd cannot answer (503). A clamd of the test's own, with the
// EICAR test file's signature (scripts/clamd.mjs); a machine without clamd fails here.

let clamd: Awaited<ReturnType<typeof startClamd>>;
let scanning: Platform;
let scannerDown: Platform;
const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});

beforeAll(async () => {
  clamd = await startClamd();
  [scanning, scannerDown] = await Promise.all([
    startPlatform({ clamd: { socket: clamd.socket }, logger: createLogger("warn", destination) }),
    startPlatform({ clamd: { socket: `${clamd.socket}.absent` }, logger: createLogger("warn", destination) }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([scanning?.close(), scannerDown?.close()]);
  clamd?.stop();
});

async function newMessage(p: Platform, token: string) {
  const created = await p.call<{ id: number } & ErrorAnswer>("/resourceful/docnote-v2", {
    method: "POST",
    token,
    body: { subject: "My statements", body: "<p>Attached</p>" },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function upload(p: Platform, token: string, documentId: number, name: string, content: Uint8Array) {
  const form = new FormData();
  form.set("content", new Blob([content as Uint8Array<ArrayBuffer>]), name);
  form.set("filename", name);
  const response = await fetch(`${p.baseUrl}/resourceful/docnote-v2/${documentId}/attachment-v3`, {
    method: "POST",
    headers: {
      ...CALLER,
      Cookie: `XPLANID=${token}`,
      "X-Xplan-Auth-Failure-Action": "error",
      Accept: "application/json",
    },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { docpartid?: number } & ErrorAnswer };
}

const storedNames = (p: Platform, documentId: number) =>
  p.db
    .select({ filename: documentAttachments.filename })
    .from(documentAttachments)
    .where(eq(documentAttachments.documentId, documentId))
    .all()
    .map((row) => row.filename);

describe("uploads scanned for viruses (ASVS V12.4.2)", () => {
  it("stores a clean file and refuses the EICAR test file, alone or inside another, storing nothing of it", async () => {
    const token = await scanning.session("demo.client");
    const id = await newMessage(scanning, token);
    expect((await upload(scanning, token, id, "statement.pdf", SAMPLES.pdf())).status).toBe(201);
    const withinPdf = Buffer.concat([Buffer.from(SAMPLES.pdf()), EICAR, Buffer.from("\n%%EOF\n")]);
    for (const [name, content] of [
      ["notes.txt", EICAR],
      ["statement 2.pdf", withinPdf],
    ] as const) {
      const refused = await upload(scanning, token, id, name, content);
      expect(refused.status, name).toBe(400);
      expect(refused.body.api_message, name).toBe("File contains a virus, please remove.");
    }
    expect(storedNames(scanning, id)).toEqual(["statement.pdf"]);
    // the log names what was found and whose upload it was, never the file's name
    const found = lines.map((l) => JSON.parse(l)).filter((l) => /virus scanner found/.test(l.message));
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ level: "warn", signatures: [EICAR_SIGNATURE] });
    expect(typeof found[0].userId).toBe("number");
    expect(JSON.stringify(found)).not.toContain("notes.txt");
  });

  it("stores nothing while the scanner cannot answer, with 503 and its reason logged", async () => {
    const token = await scannerDown.session("demo.client");
    const id = await newMessage(scannerDown, token);
    const refused = await upload(scannerDown, token, id, "statement.pdf", SAMPLES.pdf());
    expect(refused.status).toBe(503);
    expect(refused.body.api_message).toBe(
      "Files cannot be checked for viruses at the moment: the file was not stored.",
    );
    expect(storedNames(scannerDown, id)).toEqual([]);
    const down = lines.map((l) => JSON.parse(l)).find((l) => /did not answer/.test(l.message));
    expect(down).toMatchObject({ level: "error" });
    expect(down.reason).toMatch(/ENOENT|ECONNREFUSED/);
  });

  it("refuses a file it cannot judge before scanning it (the content rule first)", async () => {
    const token = await scanning.session("demo.client");
    const id = await newMessage(scanning, token);
    const mismatch = await upload(scanning, token, id, "invoice.pdf", EICAR);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.api_message).toBe("File content does not match its type, please remove.");
  });
});
