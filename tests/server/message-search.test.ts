import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import PlainDatabase from "better-sqlite3";
import Database from "better-sqlite3-multiple-ciphers";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ftsQuery, matchParts } from "../../server/api/docnote/search";
import { closeDatabase, openDatabase } from "../../server/db/connection";
import { bodyText, MATCH_END, MATCH_START, registerSearchFunctions } from "../../server/db/message-search";
import { SAMPLES } from "../sample-files";
import { CALLER, type ErrorAnswer, type Platform, withPlatform } from "./harness";

// Search in messages (docs/decisions/209-message-search.md): the words of the subject, the body and
// the attachments' names, through the platform's FTS5 index, only among the caller's own messages.

type Part = { text: string; match: boolean };
type Match = { field: "subject" | "body" | "attachment"; parts: Part[] };
type Doc = { id: number; subject: string; search_matches?: Match[] };

const harness = withPlatform();
let ellie: string;
let adviser: string;
let priya: string;

async function search(p: Platform, token: string, text: string, extra = "") {
  return p.call<Doc[] & ErrorAnswer>(`/resourceful/docnote-v2?page_size=100&text=${encodeURIComponent(text)}${extra}`, {
    token,
  });
}
const subjects = (docs: Doc[]) => docs.map((d) => d.subject);
/** What a match reads as, its matching parts in brackets. */
const shown = (m: Match) => m.parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join("");

beforeAll(async () => {
  [ellie, adviser, priya] = await Promise.all([
    harness.platform.session("demo.client"),
    harness.platform.session("demo.adviser", "adviser"),
    harness.platform.session("demo.messages"),
  ]);
});

describe("the search's query (unit)", () => {
  it("makes every word a quoted prefix, all of them needed, and a quoted phrase a phrase", () => {
    expect(ftsQuery("dividend")).toBe('"dividend"*');
    expect(ftsQuery("  tax   year ")).toBe('"tax"* AND "year"*');
    expect(ftsQuery('"annual review" 2024')).toBe('"annual review" AND "2024"*');
  });

  it("leaves nothing of FTS5's syntax to what is typed", () => {
    expect(ftsQuery("AND")).toBe('"AND"*');
    expect(ftsQuery("tax OR NOT isa")).toBe('"tax"* AND "OR"* AND "NOT"* AND "isa"*');
    expect(ftsQuery("NEAR(tax isa)")).toBe('"NEAR(tax"* AND "isa)"*');
    expect(ftsQuery("-tax")).toBe('"-tax"*');
    expect(ftsQuery("subject:tax")).toBe('"subject:tax"*');
    expect(ftsQuery("^tax* {body}")).toBe('"^tax*"* AND "{body}"*');
    // an unpaired quote separates; a pair with nothing inside finds nothing of its own
    expect(ftsQuery('tax"year')).toBe('"tax"* AND "year"*');
    expect(ftsQuery('say "hi')).toBe('"say"* AND "hi"*');
    expect(ftsQuery('""')).toBeNull();
    expect(ftsQuery('a"b"c')).toBe('"a"* AND "b" AND "c"*');
  });

  it("finds nothing to look for in quotes, stars, dashes and spaces alone", () => {
    for (const input of ['"', "*", "-", " ", "- * \" ' ( ) :", "\uE000\uE001"])
      expect(ftsQuery(input), input).toBeNull();
  });

  it("keeps at most twelve words", () => {
    expect(ftsQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))!.split(" AND ")).toHaveLength(12);
  });

  it("splits the index's marked text into parts, the matches flagged, and has none without a match", () => {
    expect(matchParts(`Your ${MATCH_START}ISA${MATCH_END} allowance ${MATCH_START}rem${MATCH_END}inder`)).toEqual([
      { text: "Your ", match: false },
      { text: "ISA", match: true },
      { text: " allowance ", match: false },
      { text: "rem", match: true },
      { text: "inder", match: false },
    ]);
    expect(matchParts("no match here")).toBeNull();
    expect(matchParts(null)).toBeNull();
  });

  it("indexes a body's words as a reader sees them, never its markup or scripts", () => {
    expect(
      bodyText(
        `<p>Dear Ellie,</p><p>You have <strong>&pound;8,000</strong> left.</p><script>document.title = "copied";</script>` +
          `<ul><li>one</li><li>two</li></ul><p onclick="steal()">Bye<br>now</p><style>p { color: red }</style>`,
      ),
    ).toBe("Dear Ellie, You have £8,000 left. one two Bye now");
    // a marker in a body cannot pass for one of the index's
    expect(bodyText(`<p>a${MATCH_START}b${MATCH_END}c</p>`)).toBe("abc");
  });
});

describe("searching messages", () => {
  it("finds a word of the body alone, and shows the body's words around it", async () => {
    const { status, body } = await search(harness.platform, ellie, "dividend");
    expect(status).toBe(200);
    expect(subjects(body)).toEqual(["Your portfolio after the Budget"]);
    const matches = body[0]!.search_matches!;
    expect(matches.map((m) => m.field)).toEqual(["body"]);
    expect(shown(matches[0]!)).toContain("the [dividend] allowance falls again");
    // what is shown is text: no tag or character reference of the stored HTML
    expect(shown(matches[0]!)).not.toMatch(/<|&pound;/);
  });

  it("finds the name of an attachment", async () => {
    const { body } = await search(harness.platform, ellie, "forecast");
    expect(subjects(body)).toEqual(["Your portfolio after the Budget"]);
    expect(body[0]!.search_matches!.map((m) => [m.field, shown(m)])).toEqual([
      ["attachment", "Cash flow [forecast] 2025.xlsx"],
    ]);
  });

  it("finds a word of the subject, from its start, in any case and without its accents", async () => {
    const { body } = await search(harness.platform, ellie, "QUESTIONNAIR");
    expect(subjects(body)).toEqual(["Your attitude to risk questionnaire"]);
    expect(body[0]!.search_matches![0]).toEqual({
      field: "subject",
      parts: [
        { text: "Your attitude to risk ", match: false },
        { text: "questionnaire", match: true },
      ],
    });
    expect(subjects((await search(harness.platform, ellie, "quéstionnaire")).body)).toEqual([
      "Your attitude to risk questionnaire",
    ]);
  });

  it("needs every word, in any field, and a quoted phrase as written", async () => {
    const both = (await search(harness.platform, ellie, "dividend forecast")).body;
    expect(subjects(both)).toEqual(["Your portfolio after the Budget"]);
    expect(both[0]!.search_matches!.map((m) => m.field)).toEqual(["body", "attachment"]);
    expect((await search(harness.platform, ellie, "dividend questionnaire")).body).toEqual([]);
    expect(subjects((await search(harness.platform, ellie, '"attitude to risk"')).body)).toContain(
      "Your attitude to risk questionnaire",
    );
    expect((await search(harness.platform, ellie, '"risk attitude"')).body).toEqual([]);
  });

  it("keeps the folder's filters and order, and counts what it finds", async () => {
    const all = (await search(harness.platform, ellie, "isa")).body;
    expect(all.length).toBeGreaterThan(3);
    const oldest = (await search(harness.platform, ellie, "isa", "&page_sort=created_date")).body;
    expect(oldest.map((d) => d.id)).toEqual([...all].reverse().map((d) => d.id));
    const sent = (await search(harness.platform, ellie, "isa", "&docsubtype=Client%20Initiated")).body;
    expect(subjects(sent)).toEqual(["Question about my ISA transfer"]);
    const count = await harness.platform.call<{ count: number }>(`/resourceful/docnote-v2/count?text=isa`, {
      token: ellie,
    });
    expect(count.body.count).toBe(all.length);
  });

  it("never finds another client's messages, nor an adviser-only note for a client", async () => {
    // Priya's mortgage messages: found by her, never by Ellie
    expect(subjects((await search(harness.platform, priya, "mortgage")).body).length).toBeGreaterThan(0);
    expect((await search(harness.platform, ellie, "mortgage")).body).toEqual([]);
    expect(
      (await harness.platform.call<{ count: number }>(`/resourceful/docnote-v2/count?text=mortgage`, { token: ellie }))
        .body.count,
    ).toBe(0);
    // the file note's words: not for Ellie, but for her adviser with her in context
    expect((await search(harness.platform, ellie, "capacity for loss")).body).toEqual([]);
    await harness.platform.call(`/resourceful/session/client_in_context`, {
      method: "PUT",
      token: adviser,
      body: { client_id: 1, client_access_level: 1 },
    });
    expect(subjects((await search(harness.platform, adviser, "capacity for loss")).body)).toEqual([
      "File note: annual review meeting preparation",
    ]);
  });

  it("answers awkward input without an error, finding nothing where there is no word", async () => {
    for (const input of [
      '"',
      "*",
      "AND",
      "-",
      "OR",
      "NOT",
      "NEAR",
      '"unclosed',
      "(",
      ")",
      ":",
      "^",
      "{",
      "'",
      "a*b*",
      "--",
    ]) {
      const { status, body } = await search(harness.platform, ellie, input);
      expect(status, input).toBe(200);
      expect(Array.isArray(body), input).toBe(true);
    }
    expect((await search(harness.platform, ellie, '"')).body).toEqual([]);
    expect((await search(harness.platform, ellie, "*")).body).toEqual([]);
    // operators are words: 'AND' is looked for ('Dear Ellie and James'), not applied
    const valuations = subjects((await search(harness.platform, ellie, "valuation AND")).body);
    expect(valuations.length).toBeGreaterThan(2);
    expect(valuations.filter((subject) => subject.startsWith("Quarterly valuation"))).toHaveLength(8);
    expect((await search(harness.platform, ellie, "dividend AND")).body).toEqual([]);
    expect((await search(harness.platform, ellie, "dividend OR questionnaire")).body).toEqual([]);
    expect((await search(harness.platform, ellie, "x".repeat(256))).status).toBe(400);
  });
});

describe("the index kept in step", () => {
  it("indexes a message when it is sent, an attachment when it is added, and forgets what is changed or deleted", async () => {
    const sent = await harness.platform.call<{ id: number } & ErrorAnswer>("/resourceful/docnote-v2", {
      method: "POST",
      token: ellie,
      body: { subject: "Zebra crossing", body: "<p>About the <em>okapi</em> fund</p>" },
    });
    expect(sent.status).toBe(201);
    const id = sent.body.id;
    expect(subjects((await search(harness.platform, ellie, "okapi")).body)).toEqual(["Zebra crossing"]);
    const form = new FormData();
    form.set(
      "content",
      new Blob([SAMPLES.pdf() as Uint8Array<ArrayBuffer>], { type: "application/pdf" }),
      "Giraffe.pdf",
    );
    form.set("filename", "Giraffe.pdf");
    const uploaded = await fetch(`${harness.platform.baseUrl}/resourceful/docnote-v2/${id}/attachment-v3`, {
      method: "POST",
      headers: {
        ...CALLER,
        Cookie: `XPLANID=${ellie}`,
        "X-Xplan-Auth-Failure-Action": "error",
        Accept: "application/json",
      },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    expect(subjects((await search(harness.platform, ellie, "giraffe")).body)).toEqual(["Zebra crossing"]);
    const sqlite = harness.platform.db.$client;
    sqlite.prepare("UPDATE documents SET subject = 'Lion crossing', body = '<p>No more</p>' WHERE id = ?").run(id);
    expect((await search(harness.platform, ellie, "zebra")).body).toEqual([]);
    expect((await search(harness.platform, ellie, "okapi")).body).toEqual([]);
    expect(subjects((await search(harness.platform, ellie, "lion")).body)).toEqual(["Lion crossing"]);
    // the attachment's name survived the subject's change; its deletion takes it out, and counts afresh
    expect(subjects((await search(harness.platform, ellie, "giraffe")).body)).toEqual(["Lion crossing"]);
    const count = async () =>
      (await harness.platform.call<{ count: number }>(`/resourceful/docnote-v2/count?text=giraffe`, { token: ellie }))
        .body.count;
    expect(await count()).toBe(1);
    sqlite.prepare("DELETE FROM document_attachments WHERE document_id = ?").run(id);
    expect((await search(harness.platform, ellie, "giraffe")).body).toEqual([]);
    expect(await count()).toBe(0);
    for (const table of ["document_entities", "document_first_reads", "document_category_links"])
      sqlite.prepare(`DELETE FROM ${table} WHERE document_id = ?`).run(id);
    sqlite.prepare("DELETE FROM documents WHERE id = ?").run(id);
    expect(sqlite.prepare("SELECT count(*) AS n FROM document_search WHERE rowid = ?").get(id)).toEqual({ n: 0 });
    // every document has its row, and no row is without its document
    const rows = sqlite
      .prepare(
        "SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM document_search) AS indexed, " +
          "(SELECT count(*) FROM document_search WHERE rowid NOT IN (SELECT id FROM documents)) AS stray",
      )
      .get();
    expect(rows).toMatchObject({ stray: 0 });
    expect((rows as { documents: number; indexed: number }).indexed).toBe((rows as { documents: number }).documents);
  });
});

describe("the migration and the database's builds", () => {
  const dir = mkdtempSync(join(tmpdir(), "message-search-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const MIGRATIONS = fileURLToPath(new URL("../../server/db/migrations", import.meta.url));

  it("indexes the documents that were there before it", () => {
    // the migrations up to the one before the index's
    const before = join(dir, "before");
    mkdirSync(join(before, "meta"), { recursive: true });
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ tag: string }>;
    };
    const upTo = journal.entries.findIndex((e) => e.tag.startsWith("0019_"));
    expect(upTo).toBeGreaterThan(0);
    writeFileSync(
      join(before, "meta/_journal.json"),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }),
    );
    for (const entry of journal.entries.slice(0, upTo))
      copyFileSync(join(MIGRATIONS, `${entry.tag}.sql`), join(before, `${entry.tag}.sql`));
    expect(readdirSync(before).some((f) => f.startsWith("0019_"))).toBe(false);
    const file = join(dir, "old.sqlite");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: before });
    old.exec(`INSERT INTO document_types (code, name) VALUES ('Letter', 'Letter');
      INSERT INTO documents (id, subject, body, doctype, created_at, creator_name) VALUES
        (7, 'Old letter', '<p>About the <b>pangolin</b> &amp; co</p>', 'Letter', '2024-01-01T00:00:00.000Z', 'Adviser');
      INSERT INTO document_attachments (document_id, filename, content_type, size, content, created_at) VALUES
        (7, 'Armadillo.pdf', 'application/pdf', 1, x'00', '2024-01-01T00:00:00.000Z')`);
    old.close();
    const db = openDatabase(file);
    try {
      const find = (word: string) =>
        db.$client.prepare("SELECT rowid AS id FROM document_search WHERE document_search MATCH ?").all(`"${word}"*`);
      expect(find("pangolin")).toEqual([{ id: 7 }]);
      expect(find("armadillo")).toEqual([{ id: 7 }]);
      expect(find("old")).toEqual([{ id: 7 }]);
      // the body's markup is not indexed
      expect(find("b")).toEqual([]);
    } finally {
      closeDatabase(db);
    }
  });

  it("has FTS5 in both SQLite builds, and keeps the index encrypted with the database (decision 188)", () => {
    for (const build of [new PlainDatabase(":memory:"), new Database(":memory:")] as PlainDatabase.Database[]) {
      expect(build.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5') AS fts5").get()).toEqual({ fts5: 1 });
      registerSearchFunctions(build);
      expect(build.prepare("SELECT search_body_text('<p>a&amp;b</p>') AS t").get()).toEqual({ t: "a&b" });
      build.close();
    }
    const file = join(dir, "encrypted.sqlite");
    const key = "message-search-test-key-0123456789abcdef";
    const db = openDatabase(file, [key]);
    try {
      db.$client.exec(`INSERT INTO document_types (code, name) VALUES ('Letter', 'Letter');
        INSERT INTO documents (id, subject, body, doctype, created_at, creator_name) VALUES
          (1, 'Quokka', '<p>The wombat fund</p>', 'Letter', '2024-01-01T00:00:00.000Z', 'Adviser')`);
      expect(
        db.$client.prepare("SELECT rowid AS id FROM document_search WHERE document_search MATCH ?").all('"wombat"*'),
      ).toEqual([{ id: 1 }]);
      db.$client.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      closeDatabase(db);
    }
    expect(readFileSync(file).includes("wombat")).toBe(false);
    expect(readFileSync(file).includes("Quokka")).toBe(false);
  });
});
