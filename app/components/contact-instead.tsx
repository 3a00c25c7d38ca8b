import { useTranslation } from "~/components/translation";
import type { SpeakToAdviser } from "~/lib/speak-to-adviser";

// issue 25 item 12 (docs/decisions/119): where 'Speak to adviser' would be, a client without an
// adviser reads that no adviser can contact them and whom to contact instead (the site's general
// contact, spec 002 "Contact-us"), with its phone and email as links.

export function ContactInstead({ speak }: { speak: Extract<SpeakToAdviser, { offered: false }> }) {
  const { t } = useTranslation("common");
  const { contact } = speak;
  return (
    <div className="contact-instead">
      <p>
        {t("contactInstead.noAdviser")}
        {contact ? (
          <> {contact.name ? t("contactInstead.contact", { name: contact.name }) : t("contactInstead.contactUs")}</>
        ) : null}
      </p>
      {contact ? (
        <ul className="contact-instead__ways">
          {contact.phone ? (
            <li>
              {t("contactInstead.phone")} <a href={contact.phone.href}>{contact.phone.text}</a>
            </li>
          ) : null}
          {contact.email ? (
            <li>
              {t("contactInstead.email")} <a href={contact.email.href}>{contact.email.text}</a>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
