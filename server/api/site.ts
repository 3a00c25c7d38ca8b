import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { prepared } from "../db/prepared";
import { z } from "zod";
import { featureToggles, firms, generalContacts, siteContent, siteSettings } from "../db/schema";
import { platformVersion } from "../env";
import { assertCanSeeClient } from "./access";
import { validate } from "./http";
import { json, open, type Route, signedIn } from "./router";

export const LOCALES = ["en-GB", "en-CA", "en-AU", "fr-CA"] as const;
export type Locale = (typeof LOCALES)[number];

/** A locale as the portal sends it (en-gb, en-GB, fr_CA, a list), falling back to en-GB. */
export function siteLocale(value: string | undefined): Locale {
  const first = (value ?? "").split(",")[0]?.trim().replace("_", "-").toLowerCase() ?? "";
  return LOCALES.find((l) => l.toLowerCase() === first) ?? "en-GB";
}

/** A text page of the site in a locale, falling back to en-GB. */
export function sitePage(db: Db, segment: string, locale: string): { title: string; html: string } | null {
  const rows = db
    .select()
    .from(siteContent)
    .where(and(eq(siteContent.segment, segment), sql`${siteContent.locale} in ('en-GB', ${locale})`))
    .all();
  const page = rows.find((r) => r.locale === locale) ?? rows[0];
  return page ? { title: page.title, html: page.html } : null;
}

const SiteQuery = z.object({
  site_locales: z.string().max(100).optional(),
  version: z.enum(["true", "false"]).optional(),
});

const ToggleQuery = z.object({ firm: z.string().max(100).optional() }).passthrough();

const ContactUsQuery = z.object({
  locale: z.string().max(20).optional(),
  role: z.string().max(40).optional(),
  client_id: z.coerce.number().int().positive().optional(),
});

// the statements of calls every page makes, prepared once per database (decision 131)
const allToggles = (db: Db) => db.select().from(featureToggles).orderBy(featureToggles.name).prepare();
const generalContactIn = (db: Db) =>
  db
    .select()
    .from(generalContacts)
    .where(eq(generalContacts.locale, sql.placeholder("locale")))
    .prepare();

export const siteRoutes: Route[] = [
  // spec 000 §3 site settings and the text pages, before sign-in
  open("GET", "/resourceful/site", (request, { db, env }) => {
    const query = validate(SiteQuery, request.query, "query");
    const locale = siteLocale(query.site_locales);
    const settings = Object.fromEntries(
      db
        .select()
        .from(siteSettings)
        .orderBy(siteSettings.key)
        .all()
        .map((s) => [s.key, JSON.parse(s.valueJson) as unknown]),
    );
    const pages: Record<string, { title: string; html: string }> = {};
    // en-GB first, then the asked locale over it: a page missing in a locale falls back to en-GB
    const rows = db
      .select()
      .from(siteContent)
      .where(sql`${siteContent.locale} in ('en-GB', ${locale})`)
      .orderBy(sql`${siteContent.locale} = ${locale}`)
      .all();
    for (const row of rows) pages[row.segment] = { title: row.title, html: row.html };
    const firm = db.select().from(firms).orderBy(firms.id).get();
    return json({
      ...(query.version === "true" ? { version: platformVersion(env) } : {}),
      settings,
      content: { pages, firmName: firm?.name ?? null },
    });
  }),

  // spec 000 §1: toggles per firm; this reference platform holds one firm, so the code is not checked
  open("GET", "/resourceful/feature_toggle/toggle_condition", (request, { db }) => {
    validate(ToggleQuery, request.query, "query");
    return json(prepared(db, allToggles).all());
  }),

  // spec 002 §2 contact us: adviser details, general contact or both
  signedIn("GET", "/resourceful/site/contact_us", (request, { db, caller }) => {
    const query = validate(ContactUsQuery, request.query, "query");
    if (query.client_id !== undefined) assertCanSeeClient(db, caller, query.client_id);
    const locale = siteLocale(query.locale ?? caller.user.locale);
    const row =
      prepared(db, generalContactIn).get({ locale }) ?? prepared(db, generalContactIn).get({ locale: "en-GB" });
    if (!row) return json({ contact_type: "adviser", introduction: null, general: null });
    return json({
      contact_type: row.contactType,
      introduction: row.introduction,
      general:
        row.contactType === "adviser"
          ? null
          : {
              contactName: row.contactName,
              contactDescription: row.contactDescription,
              telephoneNumber: row.telephoneNumber,
              emailAddress: row.emailAddress,
              openingHours: row.openingHours,
              address: row.address,
              hideAvatars: row.hideAvatars,
            },
    });
  }),
];
