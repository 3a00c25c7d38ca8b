import { parseWithZod } from "@conform-to/zod";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nConfig } from "./i18n";
import { resources } from "~/locales/resources";
import {
  accessLevelToSend,
  ariaSortOf,
  captionOf,
  clientListHref,
  dateRulesFor,
  hasSearched,
  isPreviewChoice,
  nextSort,
  parsePages,
  parseSort,
  platformSortOf,
  portalViewOf,
  toQuicksearch,
} from "./client-search";
import { createClientSearchSchema, OpenClientSchema } from "./client-search-schemas";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ ...i18nConfig, lng: "en-GB", resources });
});

function search(fields: Record<string, string>, locale = "en-GB") {
  const params = new URLSearchParams(fields);
  return parseWithZod(params, { schema: createClientSearchSchema(dateRulesFor(locale)) });
}

/** The translated error of a field (en-GB unless told), or null when it is valid. */
function errorOf(fields: Record<string, string>, field: string, locale = "en-GB"): string | null {
  const submission = search(fields, locale);
  const error = submission.status === "success" ? null : submission.error?.[field]?.[0];
  return error ? i18n.t(error, { lng: locale }) : null;
}

describe("client search: name (spec 002 §5)", () => {
  it("accepts letters, accented letters, digits, space, underscore, apostrophe, dot and hyphen", () => {
    for (const name of [
      "Hartley",
      "Zoë Brontë",
      "Núñez",
      "O'Brien",
      "Gauthier-Müller",
      "St. John",
      "client_2",
      "Ó Briain",
    ]) {
      expect(errorOf({ name }, "name"), name).toBeNull();
    }
  });

  it("accepts decomposed accents and typographic apostrophes", () => {
    expect(errorOf({ name: "Zoe\u0308" }, "name")).toBeNull();
    expect(errorOf({ name: "O\u2019Brien" }, "name")).toBeNull();
    const submission = search({ name: " O\u2019Brien " });
    expect(submission.status === "success" && submission.value.name).toBe("O'Brien");
  });

  it("refuses other characters with 'Please enter a valid name'", () => {
    for (const name of ["Smith!", "a@b", "<script>", "Smith, John", "50%"]) {
      expect(errorOf({ name }, "name"), name).toBe("Please enter a valid name");
    }
  });

  it("needs 2 to 200 characters", () => {
    expect(errorOf({ name: "a" }, "name")).toBe("Please enter a valid name");
    expect(errorOf({ name: "ab" }, "name")).toBeNull();
    expect(errorOf({ name: "é".repeat(200) }, "name")).toBeNull();
    expect(errorOf({ name: "a".repeat(201) }, "name")).toBe("Please enter a valid name");
  });

  it("treats an empty or blank name as no name", () => {
    const submission = search({ name: "   ", dob: "", postcode: "" });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({});
  });
});

describe("client search: date of birth (spec 002 §5)", () => {
  it("parses strictly in the locale's short format", () => {
    expect(errorOf({ dob: "14/03/1972" }, "dob")).toBeNull();
    expect(errorOf({ dob: "1972-03-14" }, "dob", "en-CA")).toBeNull();
    expect(errorOf({ dob: "1972-03-14" }, "dob", "fr-CA")).toBeNull();
    expect(errorOf({ dob: "14/03/1972" }, "dob", "en-AU")).toBeNull();
  });

  it("says 'Please enter a date in a valid format of {format}' with the locale's format", () => {
    expect(errorOf({ dob: "1972-03-14" }, "dob")).toBe("Please enter a date in a valid format of DD/MM/YYYY");
    expect(errorOf({ dob: "31/02/1972" }, "dob")).toBe("Please enter a date in a valid format of DD/MM/YYYY");
    expect(errorOf({ dob: "4/3/1972" }, "dob", "en-AU")).toBe("Please enter a date in a valid format of DD/MM/YYYY");
    expect(errorOf({ dob: "14/03/1972" }, "dob", "en-CA")).toBe("Please enter a date in a valid format of YYYY-MM-DD");
    expect(errorOf({ dob: "14/03/1972" }, "dob", "fr-CA")).toBe(
      "Veuillez entrer une date dans un format valide (YYYY-MM-DD)",
    );
  });
});

describe("client search: postcode (spec 002 §5)", () => {
  it("accepts letters, digits, space and underscore, at least 2", () => {
    for (const postcode of ["EC2R 6EA", "w11", "SW1A_1AA", "M2"])
      expect(errorOf({ postcode }, "postcode"), postcode).toBeNull();
  });

  it("refuses anything else with 'Please only enter a number or a letter'", () => {
    for (const postcode of ["E", "EC2R-6EA", "EC2R.6EA", "É1", "x".repeat(21)]) {
      expect(errorOf({ postcode }, "postcode"), postcode).toBe("Please only enter a number or a letter");
    }
  });

  it("reports every failing field at once", () => {
    const submission = search({ name: "!", dob: "x", postcode: "-" });
    expect(Object.keys(submission.status === "error" ? (submission.error ?? {}) : {}).sort()).toEqual([
      "dob",
      "name",
      "postcode",
    ]);
  });
});

describe("quicksearch (docs/platform-api.md: name words and the dob as YYYYMMDD)", () => {
  it("joins the name and the date", () => {
    expect(toQuicksearch("Hartley", "1972-03-14")).toBe("Hartley 19720314");
    expect(toQuicksearch("Eleanor Hartley", null)).toBe("Eleanor Hartley");
    expect(toQuicksearch(undefined, "1972-03-14")).toBe("19720314");
    expect(toQuicksearch(undefined, null)).toBe("");
  });
});

describe("sort (spec 002: by name or date of birth, toggling)", () => {
  it("defaults to the name, ascending, and ignores unknown values", () => {
    expect(parseSort(null)).toBe("name");
    expect(parseSort("email")).toBe("name");
    expect(parseSort("-dob")).toBe("-dob");
  });

  it("maps to the platform's page_sort", () => {
    expect(platformSortOf("name")).toBe("entity_name");
    expect(platformSortOf("-name")).toBe("-entity_name");
    expect(platformSortOf("dob")).toBe("dob");
    expect(platformSortOf("-dob")).toBe("-dob");
  });

  it("toggles the sorted column and starts another column ascending", () => {
    expect(nextSort("name", "name")).toBe("-name");
    expect(nextSort("-name", "name")).toBe("name");
    expect(nextSort("name", "dob")).toBe("dob");
    expect(nextSort("dob", "dob")).toBe("-dob");
    expect(nextSort("-dob", "name")).toBe("name");
  });

  it("tells aria-sort only for the sorted column", () => {
    expect(ariaSortOf("name", "name")).toBe("ascending");
    expect(ariaSortOf("-name", "name")).toBe("descending");
    expect(ariaSortOf("-name", "dob")).toBeUndefined();
  });
});

describe("list URL state", () => {
  it("has searched once any search field is in the URL, even empty", () => {
    expect(hasSearched(new URLSearchParams(""))).toBe(false);
    expect(hasSearched(new URLSearchParams("sort=dob"))).toBe(false);
    expect(hasSearched(new URLSearchParams("name=&dob=&postcode="))).toBe(true);
    expect(hasSearched(new URLSearchParams("postcode=EC2"))).toBe(true);
  });

  it("reads the number of pages, within bounds", () => {
    expect(parsePages(null)).toBe(1);
    expect(parsePages("3")).toBe(3);
    expect(parsePages("0")).toBe(1);
    expect(parsePages("2.5")).toBe(1);
    expect(parsePages("abc")).toBe(1);
    expect(parsePages("100000")).toBe(50);
  });

  it("builds bookmarkable links, leaving defaults out", () => {
    expect(clientListHref({ name: "Hart", sort: "name", pages: 1 })).toBe("/advisers/clients?name=Hart&dob=&postcode=");
    expect(
      clientListHref({ name: "O'Brien", dob: "14/03/1972", postcode: "W11", sort: "-dob", pages: 3 }, "row-41"),
    ).toBe("/advisers/clients?name=O%27Brien&dob=14%2F03%2F1972&postcode=W11&sort=-dob&pages=3#row-41");
  });
});

describe("caption (spec 002)", () => {
  it("says all when nothing more remains, else the first N", () => {
    const all = captionOf(7, false);
    expect(i18n.t(all.key, { count: all.count })).toBe("Showing all clients that match the search criteria.");
    const first = captionOf(40, true);
    expect(i18n.t(first.key, { count: first.count })).toBe(
      "Showing the first 40 clients that match the search criteria.",
    );
  });
});

describe("portal view and preview (spec 000 §3, 002 §4)", () => {
  it("shows NotAssigned as Messages", () => {
    expect(portalViewOf("NotAssigned")).toBe("Messages");
    expect(portalViewOf("Portfolio")).toBe("Portfolio");
    expect(portalViewOf("Assets")).toBe("Assets");
    expect(portalViewOf("Messages")).toBe("Messages");
  });

  it("sends the client's own level when the choice is how it is shown", () => {
    expect(accessLevelToSend("Messages", "NotAssigned")).toBe("NotAssigned");
    expect(accessLevelToSend("Portfolio", "Portfolio")).toBe("Portfolio");
    expect(accessLevelToSend("Assets", "Portfolio")).toBe("Assets");
    expect(accessLevelToSend("Portfolio", "NotAssigned")).toBe("Portfolio");
  });

  it("is a preview without a login or with another view than the client's own", () => {
    expect(isPreviewChoice({ hasLogin: true, own: "Portfolio" }, "Portfolio")).toBe(false);
    expect(isPreviewChoice({ hasLogin: true, own: "NotAssigned" }, "Messages")).toBe(false);
    expect(isPreviewChoice({ hasLogin: true, own: "Portfolio" }, "Assets")).toBe(true);
    expect(isPreviewChoice({ hasLogin: false, own: "Portfolio" }, "Portfolio")).toBe(true);
  });

  it("validates the posted choice", () => {
    expect(OpenClientSchema.safeParse({ clientId: "12", view: "Assets", own: "Portfolio" }).data).toEqual({
      clientId: 12,
      view: "Assets",
      own: "Portfolio",
    });
    const missing = OpenClientSchema.safeParse({ clientId: "12", view: "", own: "Portfolio" });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe("advisers:clientList.errors.view");
    expect(OpenClientSchema.safeParse({ clientId: "x", view: "Assets" }).success).toBe(false);
    expect(OpenClientSchema.safeParse({ clientId: "12", view: "Assets", own: "Admin" }).data?.own).toBe("NotAssigned");
  });
});
