import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/i18next.server";
import { type AdviserCard, fetchContactUs, type GeneralContactView, toContactUsView } from "~/planning/adviser.server";
import { orFail } from "~/planning/client.server";
import { requireClientContext } from "~/session/guards.server";

export const handle = { i18n: ["clients"] };

// spec 002 "Contact-us / Adviser Details": the client's advisers (for an adviser, the client in
// context's), the site's general contact details, or both.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const answer = await orFail(
    request,
    fetchContactUs(context.planning, { locale, role: context.user.role, clientId: context.entityId }),
  );
  return json({ title: t("adviserDetails.title"), ...toContactUsView(answer, locale) });
}

function AddressLines({ lines }: { lines: string[] }) {
  return (
    <div className="address">
      {lines.map((line, i) => (
        <span className="address__line" key={`${i}-${line}`}>
          {line}
        </span>
      ))}
    </div>
  );
}

/** A decorative person icon (the name is in the heading beside it). */
function AdviserIcon() {
  return (
    <svg className="contact-card__icon" viewBox="0 0 24 24" width="64" height="64" aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" fill="currentColor" />
      <path d="M4 21c0-4.4 3.6-8 8-8s8 3.6 8 8" fill="currentColor" />
    </svg>
  );
}

function AdviserContact({ adviser, showAvatar }: { adviser: AdviserCard; showAvatar: boolean }) {
  const { t } = useTranslation("clients");
  const headingId = `adviser-${adviser.id}-name`;
  return (
    <section className="card contact-card" aria-labelledby={headingId}>
      {showAvatar ? (
        adviser.photo ? (
          <img className="contact-card__photo" src={adviser.photo} alt="" width={64} height={64} />
        ) : (
          <AdviserIcon />
        )
      ) : null}
      <div className="contact-card__body">
        <h2 id={headingId} className="contact-card__name">
          {adviser.name}
        </h2>
        {adviser.role ? <p className="contact-card__role">{adviser.role}</p> : null}
        {adviser.isClientAdviser ? <p className="contact-card__tag">{t("adviserDetails.yourAdviser")}</p> : null}
        <dl className="details-list">
          {adviser.addressLines.length ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.address")}</dt>
              <dd>
                <AddressLines lines={adviser.addressLines} />
                {adviser.mapUrl ? (
                  <a href={adviser.mapUrl} target="_blank" rel="noopener noreferrer" className="contact-card__map">
                    {t("adviserDetails.showOnMap")}
                    <span className="visually-hidden"> {t("adviserDetails.opensInNewTab")}</span>
                  </a>
                ) : null}
              </dd>
            </div>
          ) : null}
          {adviser.phones.length ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.phone")}</dt>
              {adviser.phones.map((phone) => (
                <dd key={phone.href}>
                  <a href={phone.href}>{phone.text}</a>
                </dd>
              ))}
            </div>
          ) : null}
          {adviser.email ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.email")}</dt>
              <dd>
                <a href={adviser.email.href}>{adviser.email.text}</a>
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
    </section>
  );
}

function GeneralContact({ general }: { general: GeneralContactView }) {
  const { t } = useTranslation("clients");
  return (
    <section className="card contact-card contact-card--general" aria-labelledby="general-contact-heading">
      <div className="contact-card__body">
        <h2 id="general-contact-heading" className="contact-card__name">
          {general.name ?? t("adviserDetails.general.heading")}
        </h2>
        {general.description ? <p className="contact-card__role">{general.description}</p> : null}
        <dl className="details-list">
          {general.phone ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.general.telephone")}</dt>
              <dd>
                <a href={general.phone.href}>{general.phone.text}</a>
              </dd>
            </div>
          ) : null}
          {general.email ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.email")}</dt>
              <dd>
                <a href={general.email.href}>{general.email.text}</a>
              </dd>
            </div>
          ) : null}
          {general.openingHours.length ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.general.openingHours")}</dt>
              {general.openingHours.map((line, i) => (
                <dd key={`${i}-${line}`}>{line}</dd>
              ))}
            </div>
          ) : null}
          {general.addressLines.length ? (
            <div className="details-list__row">
              <dt>{t("adviserDetails.address")}</dt>
              <dd>
                <AddressLines lines={general.addressLines} />
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
    </section>
  );
}

export default function AdviserDetails() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  return (
    <div className="page page--adviser-details">
      <h1>{t("adviserDetails.title")}</h1>
      {data.introduction.map((paragraph, i) => (
        <p key={i} className="page__intro">
          {paragraph}
        </p>
      ))}
      {data.nothingToShow ? (
        <p className="alert alert--info">{t("adviserDetails.notAvailable")}</p>
      ) : (
        <div className="contact-cards">
          {data.advisers.map((adviser) => (
            <AdviserContact key={adviser.id} adviser={adviser} showAvatar={data.showAvatars} />
          ))}
          {data.general ? <GeneralContact general={data.general} /> : null}
        </div>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} | Client Online` : "Client Online" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
