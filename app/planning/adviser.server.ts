import { z } from "zod/v4";
import { type Address, addressLines, hasAddress, mapSearchUrl, regionOfLocale } from "~/lib/address";
import { formatPhoneNumber, telHref } from "~/lib/phone";
import { type LinkValue, type SpeakToAdviser, speakToAdviserOf } from "~/lib/speak-to-adviser";
import type { PlanningClient } from "./client.server";
import { AddressAnswer } from "./entity.server";
import { keptAnswers } from "./kept-answers.server";

// spec 002 "Contact-us / Adviser Details", §3 adviser contact and general contact, §7 session
// adviser calls and contact-us (docs/platform-api.md, Adviser and contact details).

export const AdviserAnswer = z.object({
  id: z.number(),
  adviser_name: z.string(),
  client_adviser: z.boolean().nullish(),
  role: z.string().nullish(),
  photo: z.string().nullish(),
});
export type AdviserAnswer = z.output<typeof AdviserAnswer>;
const AdviserAnswers = z.array(AdviserAnswer);

export const AdviserContactAnswer = z.object({
  workEmail: z.string().nullish(),
  workPhone: z.array(z.string()).nullish(),
});
export type AdviserContactAnswer = z.output<typeof AdviserContactAnswer>;
/** An adviser's address: null when the platform has none. */
const AdviserAddressAnswer = AddressAnswer.nullable();

export const GeneralContactAnswer = z.object({
  contactName: z.string().nullish(),
  contactDescription: z.string().nullish(),
  telephoneNumber: z.string().nullish(),
  emailAddress: z.string().nullish(),
  openingHours: z.string().nullish(),
  address: z.string().nullish(),
  hideAvatars: z.boolean().nullish(),
});
export type GeneralContactAnswer = z.output<typeof GeneralContactAnswer>;

export const ContactUsAnswer = z.object({
  contact_type: z.enum(["adviser", "general", "both"]).catch("adviser"),
  introduction: z.string().nullish(),
  general: GeneralContactAnswer.nullish(),
});
export type ContactUsAnswer = z.output<typeof ContactUsAnswer>;

export type AdviserWithContact = {
  adviser: AdviserAnswer;
  contact: AdviserContactAnswer | null;
  address: Address | null;
};

/**
 * The session's advisers (the client's, or the client in context's) and the site's contact-us
 * settings in parallel, then every adviser's contact and address in one batch.
 */
export async function fetchContactUs(
  planning: PlanningClient,
  input: { locale: string; role: string; clientId: number },
): Promise<{ advisers: AdviserWithContact[]; contactUs: ContactUsAnswer }> {
  const [advisers, contactUs] = await Promise.all([
    planning.get("resourceful/session/user/adviser", AdviserAnswers),
    planning.get("resourceful/site/contact_us", ContactUsAnswer, {
      query: { locale: input.locale, role: input.role, client_id: input.clientId },
    }),
  ]);
  if (contactUs.contact_type === "general" || advisers.length === 0) {
    return { advisers: advisers.map((adviser) => ({ adviser, contact: null, address: null })), contactUs };
  }
  // The batch endpoint takes at most 100 items, two per adviser.
  const listed = advisers.slice(0, 50);
  const items = Object.fromEntries(
    listed.flatMap((a) => [
      [`contact-${a.id}`, { url: `session/user/adviser/${a.id}/contact`, schema: AdviserContactAnswer }],
      [`address-${a.id}`, { url: `session/user/adviser/${a.id}/address`, schema: AdviserAddressAnswer }],
    ]),
  ) as Record<string, { url: string; schema: z.ZodType }>;
  const answers = (await planning.batch(items)) as Record<string, unknown>;
  return {
    advisers: listed.map((adviser) => ({
      adviser,
      contact: (answers[`contact-${adviser.id}`] as AdviserContactAnswer | undefined) ?? null,
      address: (answers[`address-${adviser.id}`] as Address | null | undefined) ?? null,
    })),
    contactUs,
  };
}

/**
 * A session's 'Speak to adviser' for five minutes (issue 38): its client's advisers and the site's
 * contact settings change only on the platform, never by anything the portal writes.
 */
export const SPEAK_TO_ADVISER_KEPT_MS = 5 * 60_000;
const keptSpeakToAdviser = keptAnswers<SpeakToAdviser>({ ttlMs: SPEAK_TO_ADVISER_KEPT_MS, max: 5_000 });

/**
 * Whether 'Speak to adviser' is offered (app/lib/speak-to-adviser.ts): the client's advisers, and
 * only for a client without one the site's general contact, to say whom to contact instead. Kept
 * for the session a few minutes.
 */
export function fetchSpeakToAdviser(
  planning: PlanningClient,
  input: { locale: string; role: string; clientId: number },
): Promise<SpeakToAdviser> {
  const key = `${planning.keys.session} ${input.locale} ${input.role} ${input.clientId}`;
  return keptSpeakToAdviser.get(key, () => askSpeakToAdviser(planning, input));
}

async function askSpeakToAdviser(
  planning: PlanningClient,
  input: { locale: string; role: string; clientId: number },
): Promise<SpeakToAdviser> {
  // decision 124: both asked at once; the site's contact is read only for a client without an adviser
  const contactUsPromise = planning.get("resourceful/site/contact_us", ContactUsAnswer, {
    query: { locale: input.locale, role: input.role, client_id: input.clientId },
  });
  contactUsPromise.catch(() => undefined);
  const advisers = await planning.get("resourceful/session/user/adviser", AdviserAnswers);
  if (advisers.length) return speakToAdviserOf(advisers.length, null);
  const contactUs = await contactUsPromise;
  const general = contactUs.general ? toGeneralContactView(contactUs.general, input.locale) : null;
  return speakToAdviserOf(0, general ? { name: general.name, phone: general.phone, email: general.email } : null);
}

// ── view model (pure; tests/portal/adviser-details.test.ts) ──────────────────────────────────

export type { LinkValue };

export type AdviserCard = {
  id: number;
  name: string;
  role: string | null;
  isClientAdviser: boolean;
  photo: string | null;
  addressLines: string[];
  mapUrl: string | null;
  phones: LinkValue[];
  email: LinkValue | null;
};

export type GeneralContactView = {
  name: string | null;
  description: string | null;
  phone: LinkValue | null;
  email: LinkValue | null;
  openingHours: string[];
  addressLines: string[];
};

export type ContactUsView = {
  introduction: string[];
  advisers: AdviserCard[];
  general: GeneralContactView | null;
  showAvatars: boolean;
  /** spec 002: 'Your adviser details are not available.' */
  nothingToShow: boolean;
};

const present = (s: string | null | undefined): s is string => Boolean(s && s.trim());
const lines = (s: string | null | undefined) =>
  (s ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** spec 002: an adviser is listed only with a work email, a work phone or an address. */
export function isAdviserContactShown(entry: AdviserWithContact): boolean {
  return (
    present(entry.contact?.workEmail) || (entry.contact?.workPhone ?? []).some(present) || hasAddress(entry.address)
  );
}

/**
 * A photo the page may show: the content security policy allows images from the portal itself
 * and data: URLs only, so anything else falls back to the icon (docs/decisions/033).
 */
export function usablePhoto(photo: string | null | undefined): string | null {
  const value = photo?.trim();
  if (!value) return null;
  if (/^data:image\/(png|jpe?g|gif|webp);base64,/i.test(value)) return value;
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  return null;
}

export function toAdviserCard(entry: AdviserWithContact, locale: string): AdviserCard {
  const region = regionOfLocale(locale);
  const address = hasAddress(entry.address) ? entry.address : null;
  const email = entry.contact?.workEmail?.trim();
  return {
    id: entry.adviser.id,
    name: entry.adviser.adviser_name,
    role: entry.adviser.role?.trim() || null,
    isClientAdviser: Boolean(entry.adviser.client_adviser),
    photo: usablePhoto(entry.adviser.photo),
    addressLines: address ? addressLines(address, { locale }) : [],
    mapUrl: address ? mapSearchUrl(address) : null,
    phones: (entry.contact?.workPhone ?? [])
      .filter(present)
      .map((p) => formatPhoneNumber(p, { region }))
      .filter(Boolean)
      .map((p) => ({ text: p, href: telHref(p) })),
    email: email ? { text: email, href: `mailto:${email}` } : null,
  };
}

export function toGeneralContactView(general: GeneralContactAnswer, locale: string): GeneralContactView | null {
  const region = regionOfLocale(locale);
  const phone = present(general.telephoneNumber) ? formatPhoneNumber(general.telephoneNumber, { region }) : "";
  const email = general.emailAddress?.trim();
  const view: GeneralContactView = {
    name: general.contactName?.trim() || null,
    description: general.contactDescription?.trim() || null,
    phone: phone ? { text: phone, href: telHref(phone) } : null,
    email: email ? { text: email, href: `mailto:${email}` } : null,
    openingHours: lines(general.openingHours),
    addressLines: lines(general.address),
  };
  const empty =
    !view.name &&
    !view.description &&
    !view.phone &&
    !view.email &&
    !view.openingHours.length &&
    !view.addressLines.length;
  return empty ? null : view;
}

/**
 * spec 002 "Contact-us": the contact type chooses adviser contacts, general contact details or
 * both; advisers without a way to reach them are left out; nothing at all → the 'not available' text.
 */
export function toContactUsView(
  input: { advisers: AdviserWithContact[]; contactUs: ContactUsAnswer },
  locale: string,
): ContactUsView {
  const type = input.contactUs.contact_type;
  const advisers =
    type === "general" ? [] : input.advisers.filter(isAdviserContactShown).map((a) => toAdviserCard(a, locale));
  const general =
    type === "adviser" || !input.contactUs.general ? null : toGeneralContactView(input.contactUs.general, locale);
  return {
    introduction: (input.contactUs.introduction ?? "")
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .filter(Boolean),
    advisers,
    general,
    showAvatars: !input.contactUs.general?.hideAvatars,
    nothingToShow: advisers.length === 0 && general === null,
  };
}
