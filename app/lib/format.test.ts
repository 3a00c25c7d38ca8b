import { describe, expect, it } from "vitest";
import { formatMoney, moneyFormatter, parseShortDate, shortDatePattern } from "./format";
import { formatDate, formatLastLogin } from "./format-date.server";

// Intl separates French groups and the trailing symbol with narrow/no-break spaces: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney (spec 000 §9)", () => {
  it("shows each currency with its symbol in en-GB", () => {
    expect(formatMoney(1234.5, "GBP", "en-GB")).toBe("£1,234.50");
    expect(formatMoney(1234.5, "EUR", "en-GB")).toBe("€1,234.50");
    expect(formatMoney(1234.5, "USD", "en-GB")).toBe("$1,234.50");
    expect(formatMoney(1234.5, "AUD", "en-GB")).toBe("$1,234.50");
    expect(formatMoney(1234.5, "CAD", "en-GB")).toBe("$1,234.50");
  });

  it("shows GBX as pence with a 'p' suffix", () => {
    expect(formatMoney(123.456, "GBX", "en-GB")).toBe("123.46p");
    expect(formatMoney(1234, "GBX", "en-GB")).toBe("1,234.00p");
    expect(formatMoney(-5, "gbx", "en-GB")).toBe("-5.00p");
  });

  it("uses a bare '$' for every dollar in every locale", () => {
    expect(formatMoney(10, "USD", "en-CA")).toBe("$10.00");
    expect(formatMoney(10, "CAD", "en-CA")).toBe("$10.00");
    expect(formatMoney(10, "AUD", "en-AU")).toBe("$10.00");
    expect(formatMoney(10, "USD", "en-AU")).toBe("$10.00");
    expect(plain(formatMoney(10, "CAD", "fr-CA"))).toBe("10,00 $");
    expect(plain(formatMoney(10, "USD", "fr-CA"))).toBe("10,00 $");
  });

  it("follows the locale's separators", () => {
    expect(formatMoney(1234567.891, "GBP", "en-AU")).toBe("£1,234,567.89");
    expect(plain(formatMoney(1234567.891, "EUR", "fr-CA"))).toBe("1 234 567,89 €");
    expect(plain(formatMoney(1234.5, "GBP", "fr-CA"))).toBe("1 234,50 £");
  });

  it("rounds half away from zero to two decimals by default", () => {
    expect(formatMoney(0.005, "GBP", "en-GB")).toBe("£0.01");
    expect(formatMoney(2.345, "GBP", "en-GB")).toBe("£2.35");
    expect(formatMoney(1.994, "GBP", "en-GB")).toBe("£1.99");
    expect(formatMoney(999.999, "GBP", "en-GB")).toBe("£1,000.00");
  });

  it("accepts other numbers of decimals", () => {
    expect(formatMoney(1234.5678, "GBP", "en-GB", { decimals: 0 })).toBe("£1,235");
    expect(formatMoney(1.23456, "USD", "en-GB", { decimals: 4 })).toBe("$1.2346");
  });

  it("shows negative amounts with a minus sign", () => {
    expect(formatMoney(-1234.5, "GBP", "en-GB")).toBe("-£1,234.50");
    expect(formatMoney(-0.5, "EUR", "en-GB")).toBe("-€0.50");
    expect(plain(formatMoney(-1234.5, "CAD", "fr-CA"))).toBe("-1 234,50 $");
  });

  it("never shows a negative zero", () => {
    expect(formatMoney(-0.001, "GBP", "en-GB")).toBe("£0.00");
    expect(formatMoney(-0, "GBP", "en-GB")).toBe("£0.00");
  });

  it("defaults to GBP and en-GB, and copes with odd input", () => {
    expect(formatMoney(5)).toBe("£5.00");
    expect(formatMoney(5, null, "en-GB")).toBe("£5.00");
    expect(formatMoney(5, "GBP", "de-DE")).toBe("£5.00");
    expect(formatMoney(Number.NaN, "GBP", "en-GB")).toBe("");
    expect(plain(formatMoney(5, "ZAR", "en-GB"))).toMatch(/^R ?5\.00$/);
    expect(formatMoney(5, "XY1", "en-GB")).toBe("5.00 XY1");
  });
});

describe("moneyFormatter (spec 000 §9's symbols with any number options)", () => {
  const twoDecimals = { minimumFractionDigits: 2, maximumFractionDigits: 2 };

  it("formats as formatMoney does for the same decimals", () => {
    for (const [code, locale] of [
      ["GBP", "en-GB"],
      ["GBX", "en-GB"],
      ["usd", "en-AU"],
      ["CAD", "fr-CA"],
      ["XY1", "en-GB"],
    ] as const) {
      expect(moneyFormatter(locale, code, twoDecimals)(-1234.5)).toBe(formatMoney(-1234.5, code, locale));
    }
  });

  it("takes compact notation, with the same symbols", () => {
    const compact = { notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 } as const;
    expect(moneyFormatter("en-GB", "GBP", compact)(1_150_000)).toBe("£1.2m");
    expect(moneyFormatter("en-GB", "USD", compact)(900_000)).toBe("$900k");
    expect(moneyFormatter("en-GB", "gbx", compact)(25_000)).toBe("25kp");
    expect(moneyFormatter("en-GB", "XY1", compact)(25_000)).toBe("25k XY1");
  });
});

describe("formatDate", () => {
  it("long form is 'Do MMMM YYYY' in en-GB (spec 000 §9)", () => {
    expect(formatDate("2024-05-01", "en-GB", "long")).toBe("1st May 2024");
    expect(formatDate("2024-05-02", "en-GB")).toBe("2nd May 2024");
    expect(formatDate("2024-05-03", "en-GB")).toBe("3rd May 2024");
    expect(formatDate("2024-05-11", "en-GB")).toBe("11th May 2024");
    expect(formatDate("2024-05-22", "en-GB")).toBe("22nd May 2024");
    expect(formatDate("2025-11-28", "en-GB")).toBe("28th November 2025");
  });

  // issue 40, decision 211: not the British ordinal in Australia and Canada
  it("long form in Australian English is day, month, year without an ordinal", () => {
    expect(formatDate("2024-12-31", "en-AU")).toBe("31 December 2024");
    expect(formatDate("2025-11-28", "en-AU")).toBe("28 November 2025");
    expect(formatDate("2024-05-01", "en-AU")).toBe("1 May 2024");
  });

  it("long form in Canadian English is month, day, year", () => {
    expect(formatDate("2024-05-01", "en-CA")).toBe("May 1, 2024");
    expect(formatDate("2025-11-28", "en-CA")).toBe("November 28, 2025");
    expect(formatDate("2024-12-31", "en-CA")).toBe("December 31, 2024");
  });

  it("a date-time's day is its own in every locale, whatever the server's zone", () => {
    for (const [locale, text] of [
      ["en-AU", "1 May 2024"],
      ["en-CA", "May 1, 2024"],
      ["fr-CA", "1er mai 2024"],
    ] as const)
      expect(formatDate("2024-05-01T23:30:00-08:00", locale)).toBe(text);
  });

  it("long form in Canadian French", () => {
    expect(formatDate("2024-05-01", "fr-CA")).toBe("1er mai 2024");
    expect(formatDate("2024-08-15", "fr-CA")).toBe("15 août 2024");
  });

  it("short form follows the locale", () => {
    expect(formatDate("2024-05-01", "en-GB", "short")).toBe("01/05/2024");
    expect(formatDate("2024-05-01", "en-AU", "short")).toBe("01/05/2024");
    expect(formatDate("2024-05-01", "en-CA", "short")).toBe("2024-05-01");
    expect(formatDate("2024-05-01", "fr-CA", "short")).toBe("2024-05-01");
  });

  it("reads the date part of a date-time without shifting the day", () => {
    expect(formatDate("2024-05-01T23:30:00-08:00", "en-GB")).toBe("1st May 2024");
  });

  it("answers '' for a missing or impossible date", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate("")).toBe("");
    expect(formatDate("not a date")).toBe("");
    expect(formatDate("2023-02-29")).toBe("");
  });
});

describe("shortDatePattern and parseShortDate (spec 000 §5)", () => {
  it("shows the pattern of each locale", () => {
    expect(shortDatePattern("en-GB")).toBe("DD/MM/YYYY");
    expect(shortDatePattern("en-AU")).toBe("DD/MM/YYYY");
    expect(shortDatePattern("en-CA")).toBe("YYYY-MM-DD");
    expect(shortDatePattern("fr-CA")).toBe("YYYY-MM-DD");
  });

  it("parses dates in the locale's format", () => {
    expect(parseShortDate("01/05/1980", "en-GB")).toBe("1980-05-01");
    expect(parseShortDate(" 31/12/1999 ", "en-AU")).toBe("1999-12-31");
    expect(parseShortDate("1980-05-01", "en-CA")).toBe("1980-05-01");
    expect(parseShortDate("1980-05-01", "fr-CA")).toBe("1980-05-01");
  });

  it("accepts 29 February only in a leap year", () => {
    expect(parseShortDate("29/02/2020", "en-GB")).toBe("2020-02-29");
    expect(parseShortDate("29/02/2021", "en-GB")).toBeNull();
    expect(parseShortDate("29/02/1900", "en-GB")).toBeNull();
    expect(parseShortDate("2000-02-29", "en-CA")).toBe("2000-02-29");
  });

  it("refuses dates that do not exist", () => {
    expect(parseShortDate("31/02/2020", "en-GB")).toBeNull();
    expect(parseShortDate("31/04/2020", "en-GB")).toBeNull();
    expect(parseShortDate("00/01/2020", "en-GB")).toBeNull();
    expect(parseShortDate("01/13/2020", "en-GB")).toBeNull();
    expect(parseShortDate("2020-13-01", "en-CA")).toBeNull();
    expect(parseShortDate("2020-02-30", "fr-CA")).toBeNull();
  });

  it("refuses the other locale's format", () => {
    expect(parseShortDate("1980-05-01", "en-GB")).toBeNull();
    expect(parseShortDate("01/05/1980", "en-CA")).toBeNull();
  });

  it("requires two-digit day and month and a four-digit year", () => {
    expect(parseShortDate("1/2/2020", "en-GB")).toBeNull();
    expect(parseShortDate("01/2/2020", "en-GB")).toBeNull();
    expect(parseShortDate("01/02/20", "en-GB")).toBeNull();
    expect(parseShortDate("01/02/02020", "en-GB")).toBeNull();
    expect(parseShortDate("0999-01-01", "en-CA")).toBeNull();
    expect(parseShortDate("2020-1-01", "en-CA")).toBeNull();
  });

  it("refuses anything else", () => {
    expect(parseShortDate("", "en-GB")).toBeNull();
    expect(parseShortDate(null, "en-GB")).toBeNull();
    expect(parseShortDate("01-05-1980", "en-GB")).toBeNull();
    expect(parseShortDate("01/05/1980x", "en-GB")).toBeNull();
    expect(parseShortDate("aa/bb/cccc", "en-GB")).toBeNull();
    expect(parseShortDate("01.05.1980", "en-GB")).toBeNull();
  });
});

describe("formatLastLogin (spec 000 §9 'D MMM YYYY H:mm' with the zone)", () => {
  it("shows the time in the user's zone with its abbreviation", () => {
    expect(formatLastLogin("2024-05-01T09:05:00Z", "Europe/London", "en-GB")).toBe("1 May 2024 10:05 BST");
    expect(formatLastLogin("2024-01-15T09:05:00Z", "Europe/London", "en-GB")).toBe("15 Jan 2024 9:05 GMT");
  });

  // issue 40, decision 211: each locale's own date and time, and the zone's own name
  it("writes Canadian English month first, with a.m. and p.m., and the zone's name", () => {
    expect(plain(formatLastLogin("2024-05-01T09:05:00Z", "America/Toronto", "en-CA"))).toBe(
      "May 1, 2024, 5:05 a.m. EDT",
    );
    expect(plain(formatLastLogin("2026-11-27T22:05:00Z", "America/Toronto", "en-CA"))).toBe(
      "Nov 27, 2026, 5:05 p.m. EST",
    );
  });

  it("writes Australian English day first, with am and pm, and the zone's name", () => {
    expect(plain(formatLastLogin("2024-05-01T09:05:00Z", "Australia/Sydney", "en-AU"))).toBe(
      "1 May 2024, 7:05 pm AEST",
    );
    expect(plain(formatLastLogin("2026-11-27T10:05:00Z", "Australia/Sydney", "en-AU"))).toBe(
      "27 Nov 2026, 9:05 pm AEDT",
    );
    expect(plain(formatLastLogin("2026-11-27T10:05:00Z", "Australia/Perth", "en-AU"))).toBe(
      "27 Nov 2026, 6:05 pm AWST",
    );
  });

  it("names a zone by its own country's abbreviation where the page's locale has only an offset", () => {
    // Intl writes 'GMT+11' for Sydney in en-GB and 'GMT-5' for Toronto in en-AU
    expect(formatLastLogin("2026-11-27T10:05:00Z", "Australia/Sydney", "en-GB")).toBe("27 Nov 2026 21:05 AEDT");
    expect(formatLastLogin("2026-11-27T10:05:00Z", "America/Toronto", "en-GB")).toBe("27 Nov 2026 5:05 EST");
    expect(plain(formatLastLogin("2026-11-27T10:05:00Z", "America/Toronto", "en-AU"))).toBe("27 Nov 2026, 5:05 am EST");
    expect(plain(formatLastLogin("2026-11-27T10:05:00Z", "Europe/London", "en-CA"))).toBe(
      "Nov 27, 2026, 10:05 a.m. GMT",
    );
    // a zone no English locale names keeps its offset
    expect(formatLastLogin("2026-11-27T10:05:00Z", "Asia/Kathmandu", "en-GB")).toMatch(/^27 Nov 2026 15:50 GMT\+5:45$/);
  });

  it("moves to the next day when the zone is ahead", () => {
    expect(plain(formatLastLogin("2024-05-01T20:30:00Z", "Australia/Sydney", "en-AU"))).toBe(
      "2 May 2024, 6:30 am AEST",
    );
    expect(formatLastLogin("2024-05-01T20:30:00Z", "Australia/Sydney", "en-GB")).toBe("2 May 2024 6:30 AEST");
  });

  it("speaks French in fr-CA", () => {
    expect(formatLastLogin("2024-09-02T13:00:00Z", "America/Toronto", "fr-CA")).toBe("2 sept. 2024 9:00 HAE");
  });

  it("uses midnight as 0:00, not 24:00", () => {
    expect(formatLastLogin("2024-01-15T00:00:00Z", "UTC", "en-GB")).toBe("15 Jan 2024 0:00 UTC");
  });

  it("takes a time without an offset as UTC, and falls back to UTC for an unknown zone", () => {
    expect(formatLastLogin("2024-05-01T09:05:00", "Europe/London", "en-GB")).toBe("1 May 2024 10:05 BST");
    expect(formatLastLogin("2024-05-01T09:05:00Z", null, "en-GB")).toBe("1 May 2024 9:05 UTC");
    expect(formatLastLogin("2024-05-01T09:05:00Z", "Mars/Olympus", "en-GB")).toBe("1 May 2024 9:05 UTC");
  });

  it("answers '' when there is no last login", () => {
    expect(formatLastLogin(null, "Europe/London")).toBe("");
    expect(formatLastLogin("garbage", "Europe/London")).toBe("");
  });
});
