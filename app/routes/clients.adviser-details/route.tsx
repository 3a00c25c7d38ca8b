import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { type AdviserCard, fetchContactUs, type GeneralContactView, toContactUsView } from "~/planning/adviser.server";
import { orFail } from "~/session/failures.server";
import { requireClientContext } from "~/session/guards.server";
import { errorPageTitle } from "~/lib/error-title";

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

/** One term of a details list; nothing at all when it has no values (spec 002: only what exists is shown). */
function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  if (!children) return null;
  return (
    <div className="details-list__row">
      <dt>{label}</dt>
      {children}
    </div>
  );
}

function LinkRow({ label, links }: { label: string; links: Array<{ href: string; text: string }> }) {
  return (
    <DetailRow label={label}>
      {links.length
        ? links.map((link) => (
            <dd key={link.href}>
              <a href={link.href}>{link.text}</a>
            </dd>
          ))
        : null}
    </DetailRow>
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
          <DetailRow label={t("adviserDetails.address")}>
            {adviser.addressLines.length ? (
              <dd>
                <AddressLines lines={adviser.addressLines} />
                {adviser.mapUrl ? (
                  <a href={adviser.mapUrl} target="_blank" rel="noopener noreferrer" className="contact-card__map">
                    {t("adviserDetails.showOnMap")}
                    <span className="visually-hidden"> {t("adviserDetails.opensInNewTab")}</span>
                  </a>
                ) : null}
              </dd>
            ) : null}
          </DetailRow>
          <LinkRow label={t("adviserDetails.phone")} links={adviser.phones} />
          <LinkRow label={t("adviserDetails.email")} links={adviser.email ? [adviser.email] : []} />
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
          <LinkRow label={t("adviserDetails.general.telephone")} links={general.phone ? [general.phone] : []} />
          <LinkRow label={t("adviserDetails.email")} links={general.email ? [general.email] : []} />
          <DetailRow label={t("adviserDetails.general.openingHours")}>
            {general.openingHours.length
              ? general.openingHours.map((line, i) => <dd key={`${i}-${line}`}>{line}</dd>)
              : null}
          </DetailRow>
          <DetailRow label={t("adviserDetails.address")}>
            {general.addressLines.length ? (
              <dd>
                <AddressLines lines={general.addressLines} />
              </dd>
            ) : null}
          </DetailRow>
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

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
