import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  attachmentErrors,
  attachmentProblem,
  cleanBodyText,
  COMPOSE_ERRORS,
  replySubject,
  stripNonLatin1,
} from "./compose";
import { ComposeBrowserSchema, ComposeSchema } from "./compose-schemas";

const form = (entries: Record<string, string | File | File[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  }
  return data;
};

const subjectErrors = (subject: string) => {
  const submission = parseWithZod(form({ subject, body: "Hello" }), { schema: ComposeSchema });
  return submission.status === "success" ? [] : (submission.error?.subject ?? []);
};

const file = (name: string, size: number) => ({ name, size });

describe("compose subject (spec 002 §5)", () => {
  it("is required, blank counting as empty", () => {
    expect(subjectErrors("")).toEqual([COMPOSE_ERRORS.subjectRequired]);
    expect(subjectErrors("    ")).toEqual([COMPOSE_ERRORS.subjectRequired]);
  });

  it("accepts 255 characters and refuses 256", () => {
    expect(subjectErrors("a".repeat(255))).toEqual([]);
    expect(subjectErrors("a".repeat(256))).toEqual([COMPOSE_ERRORS.subjectTooLong]);
    // counted after trimming
    expect(subjectErrors(` ${"a".repeat(255)} `)).toEqual([]);
  });

  it("answers the trimmed subject and the body", () => {
    const submission = parseWithZod(form({ subject: "  Pension question ", body: "Hi" }), { schema: ComposeSchema });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      replyTo: null,
      subject: "Pension question",
      body: "Hi",
    });
  });

  it("ignores a subject sent with a reply: the action computes it", () => {
    const submission = parseWithZod(form({ replyTo: "42", subject: "x".repeat(400), body: "Thanks" }), {
      schema: ComposeSchema,
    });
    expect(submission.status === "success" && submission.value).toEqual({ replyTo: 42, subject: null, body: "Thanks" });
  });

  it("limits the body to the platform's 100,000 characters", () => {
    const submission = parseWithZod(form({ subject: "s", body: "b".repeat(100_001) }), { schema: ComposeSchema });
    expect(submission.status === "success" ? [] : submission.error?.body).toEqual([COMPOSE_ERRORS.bodyTooLong]);
  });
});

describe("compose attachments (spec 002 §5, §9)", () => {
  it("allows exactly 10,000,000 bytes and refuses 10,000,001", () => {
    expect(attachmentProblem(file("statement.pdf", 10_000_000))).toBeNull();
    expect(attachmentProblem(file("statement.pdf", 10_000_001))).toBe(COMPOSE_ERRORS.fileTooLarge);
  });

  it("allows only what clients send advisers, judged by the last extension of the normalised name (issue 24)", () => {
    // the spec's excluded extensions, zip, and what the review got through
    for (const name of [
      "setup.exe",
      "a.bat",
      "a.com",
      "a.msi",
      "a.js",
      "a.bin",
      "a.vb",
      "a.dll",
      "a.vbs",
      "a.zip",
      "BACKUP.ZIP",
      "archive.tar.zip",
    ]) {
      expect(attachmentProblem(file(name, 10)), name).toBe(COMPOSE_ERRORS.fileTypeNotAllowed);
    }
    for (const name of [
      "evil.exe.",
      "evil.exe .",
      "page.html",
      "image.svg",
      "app.hta",
      "screen.scr",
      "script.ps1",
      "notes.json",
      "README",
      "letter.docm",
    ]) {
      expect(attachmentProblem(file(name, 10)), name).toBe(COMPOSE_ERRORS.fileTypeNotAllowed);
    }
    for (const name of [
      "archive.zip.pdf",
      "Letter.DOCX",
      "C:\\docs\\Sheet.xlsx",
      "photo.HEIC",
      "figures.csv",
      "statement=2026.pdf",
    ]) {
      expect(attachmentProblem(file(name, 10)), name).toBeNull();
    }
  });

  it("names content that is not what its name says, once the server has looked", () => {
    expect(attachmentProblem({ name: "statement.pdf", size: 10, contentProblem: "mismatch" })).toBe(
      COMPOSE_ERRORS.fileContentMismatch,
    );
    expect(attachmentProblem({ name: "statement.pdf", size: 10, contentProblem: null })).toBeNull();
    // a type not allowed keeps the spec's text
    expect(attachmentProblem({ name: "setup.exe", size: 10, contentProblem: "mismatch" })).toBe(
      COMPOSE_ERRORS.fileTypeNotAllowed,
    );
  });

  it("names what an Office package holds, each with its own text (issue 39)", () => {
    const problem = (contentProblem: "active-content" | "external" | "unpacked-too-large") =>
      attachmentProblem({ name: "letter.docx", size: 10, contentProblem });
    expect(problem("active-content")).toBe(COMPOSE_ERRORS.fileActiveContent);
    expect(problem("external")).toBe(COMPOSE_ERRORS.fileExternalContent);
    expect(problem("unpacked-too-large")).toBe(COMPOSE_ERRORS.fileUnpackedTooLarge);
  });

  it("names a file the virus scanner found something in, and only that (ASVS V12.4.2, decision 192)", () => {
    expect(attachmentProblem({ name: "notes.txt", size: 68, scan: "infected" })).toBe(COMPOSE_ERRORS.fileVirus);
    // clamd not answering is the form's failure, not the file's
    expect(attachmentProblem({ name: "notes.txt", size: 68, scan: "unavailable" })).toBeNull();
    // a file refused by the other rules is not scanned: their text stands
    expect(attachmentProblem({ name: "notes.txt", size: 68, contentProblem: "mismatch", scan: "infected" })).toBe(
      COMPOSE_ERRORS.fileContentMismatch,
    );
    expect(
      attachmentErrors([
        { name: "a.txt", size: 1, scan: "infected" },
        { name: "b.txt", size: 1, scan: "infected" },
      ]),
    ).toEqual([COMPOSE_ERRORS.fileVirus]);
  });

  it("says both problems at once", () => {
    expect(attachmentProblem(file("big.exe", 10_000_001))).toBe(COMPOSE_ERRORS.fileTypeAndSize);
  });

  it("allows 5 files and refuses 6", () => {
    const five = Array.from({ length: 5 }, (_, i) => file(`f${i}.pdf`, 100));
    expect(attachmentErrors(five)).toEqual([]);
    expect(attachmentErrors([...five, file("f5.pdf", 100)])).toEqual([COMPOSE_ERRORS.tooManyFiles]);
  });

  it("lists each kind of problem once, the count first", () => {
    const files = [
      file("a.exe", 1),
      file("b.exe", 1),
      file("c.pdf", 10_000_001),
      ...Array.from({ length: 3 }, (_, i) => file(`${i}.txt`, 1)),
    ];
    expect(attachmentErrors(files)).toEqual([
      COMPOSE_ERRORS.tooManyFiles,
      COMPOSE_ERRORS.fileTypeNotAllowed,
      COMPOSE_ERRORS.fileTooLarge,
    ]);
  });

  it("checks the browser's File objects, ignoring the empty part of an unused file input", () => {
    const ok = parseWithZod(form({ subject: "s", attachments: new File([], "") }), { schema: ComposeBrowserSchema });
    expect(ok.status).toBe("success");
    const refused = parseWithZod(
      form({ subject: "s", attachments: [new File(["x"], "run.exe"), new File(["y"], "a.pdf")] }),
      {
        schema: ComposeBrowserSchema,
      },
    );
    expect(refused.status === "success" ? [] : refused.error?.attachments).toEqual([COMPOSE_ERRORS.fileTypeNotAllowed]);
    const noSubject = parseWithZod(form({ subject: "" }), { schema: ComposeBrowserSchema });
    expect(noSubject.status === "success" ? [] : noSubject.error?.subject).toEqual([COMPOSE_ERRORS.subjectRequired]);
  });
});

describe("reply subject (spec 002 §5)", () => {
  it("is 'RE: ' and the original", () => {
    expect(replySubject("Your annual review")).toBe("RE: Your annual review");
  });

  it("never doubles the prefix", () => {
    expect(replySubject("RE: Your annual review")).toBe("RE: Your annual review");
    expect(replySubject("re:Re: RE:  Fees")).toBe("RE: Fees");
  });

  it("is cut to 255 characters", () => {
    const reply = replySubject("x".repeat(255));
    expect(reply).toHaveLength(255);
    expect(reply).toBe(`RE: ${"x".repeat(251)}`);
    expect(replySubject("x".repeat(251))).toHaveLength(255);
  });
});

describe("body text (spec 002 §5)", () => {
  it("strips characters above U+00FF and trims", () => {
    expect(stripNonLatin1("Café £5 € 😀 ÿ")).toBe("Café £5   ÿ");
    expect(cleanBodyText("  Dear Anna — thank you 😀  ")).toBe("Dear Anna  thank you");
  });
});
