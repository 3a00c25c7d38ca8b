// spec 002 §4 "Notification flow" and "Annual Review page": 'Speak to adviser' asks the client's
// adviser to get in touch. A client with no adviser has no one to ask (issue 25 item 12,
// docs/decisions/119): the button is not offered, and the page says whom to contact instead, the
// site's general contact (spec 002 "Contact-us"), when it has one.

export type LinkValue = { text: string; href: string };

/** The site's general contact as the line shows it; null when the site has none. */
export type ContactInstead = { name: string | null; phone: LinkValue | null; email: LinkValue | null };

export type SpeakToAdviser = { offered: true } | { offered: false; contact: ContactInstead | null };

/** The offer from the number of the client's advisers and the site's general contact. */
export function speakToAdviserOf(adviserCount: number, general: ContactInstead | null): SpeakToAdviser {
  if (adviserCount > 0) return { offered: true };
  const reachable = general && (general.phone || general.email) ? general : null;
  return { offered: false, contact: reachable };
}
