import { describe, expect, it } from "vitest";
import { documentCountUrl, documentListQuery } from "./docnote.server";

describe('document list query (docs/platform-api.md "Documents and messages")', () => {
  it("asks the platform for created_date.start_date and end_date (docs/platform-api.md)", () => {
    expect(documentListQuery({ createdFrom: "2026-01-01", createdTo: "2026-03-31" }, 21)).toMatchObject({
      "created_date.start_date": "2026-01-01",
      "created_date.end_date": "2026-03-31",
    });
    expect(documentCountUrl({ createdFrom: "2026-01-01" })).toBe("docnote-v2/count?created_date.start_date=2026-01-01");
    const bare = documentListQuery({}, 21);
    expect(bare["created_date.start_date"]).toBeUndefined();
    expect(bare["created_date.end_date"]).toBeUndefined();
  });

  it("names the documents left out as id_exclude.N, and nothing without them", () => {
    expect(documentCountUrl({ unreadOnly: true, excludeIds: [42], sort: "created_date.desc" })).toBe(
      "docnote-v2/count?firstread.include_read_notes=false&id_exclude.0=42",
    );
    expect(documentListQuery({ excludeIds: [] }, 21).id_exclude).toBeUndefined();
  });

  it("asks for the words of a search as text, and no text without one (decision 209)", () => {
    expect(documentListQuery({ text: 'tax "year end"' }, 21)).toMatchObject({ text: 'tax "year end"' });
    expect(documentCountUrl({ text: "a&b=c" })).toBe("docnote-v2/count?text=a%26b%3Dc");
    expect(documentListQuery({ text: "" }, 21).text).toBeUndefined();
    expect(documentListQuery({}, 21).text).toBeUndefined();
  });
});
