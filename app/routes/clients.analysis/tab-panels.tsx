// spec 001 §2.3: the transactions, investment instructions and payment information tabs.
import { Link, useLocation } from "@remix-run/react";
import { Fragment, useEffect } from "react";
import { useTranslation } from "~/components/translation";
import type { InstructionsView, PaymentView, TransactionRow, TransactionsView } from "./analysis.server";
import { TableRegion } from "~/components/table-region";

/** A signed amount and, for screen readers, which way it went (a minus sign alone is easily missed or not read). */
function Amount({ value, spoken }: { value: string; spoken: string | null }) {
  return (
    <>
      {value}
      {spoken ? <span className="visually-hidden"> {spoken}</span> : null}
    </>
  );
}

function Fields({ row }: { row: TransactionRow }) {
  const { t } = useTranslation("clients");
  return (
    <dl className="transaction-fields">
      <div className="transaction-fields__item">
        <dt>{t("analysis.transactions.fields.type")}</dt>
        <dd>{row.type}</dd>
      </div>
      {row.fields.map((field) => (
        <div key={field.label} className="transaction-fields__item">
          <dt>{field.label}</dt>
          <dd className={field.spoken ? "transaction-fields__amount" : undefined} lang={field.lang}>
            <Amount value={field.value} spoken={field.spoken} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

type ListedTransactions = Extract<TransactionsView, { rows: unknown }>;

/** Wide screens: a table, each row a link to its details. */
function TransactionsTable({ rows }: { rows: TransactionRow[] }) {
  const { t } = useTranslation("clients");
  return (
    <TableRegion captionId="transactions-caption" className="transactions__table">
      <table>
        <caption id="transactions-caption">{t("analysis.transactions.caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("analysis.transactions.columns.tradeDate")}</th>
            <th scope="col">{t("analysis.transactions.columns.type")}</th>
            <th scope="col">{t("analysis.transactions.columns.security")}</th>
            <th scope="col">{t("analysis.transactions.columns.account")}</th>
            <th scope="col" className="numeric">
              {t("analysis.transactions.columns.value")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              className={row.selected ? "transactions__row transactions__row--selected" : "transactions__row"}
            >
              <td>{row.tradeDate}</td>
              <td>{row.type}</td>
              <th scope="row" id={row.anchor} tabIndex={-1}>
                <Link
                  to={row.href}
                  preventScrollReset
                  aria-current={row.selected ? "true" : undefined}
                  lang={row.securityLang ?? undefined}
                >
                  {row.security}
                </Link>
              </th>
              <td>{row.account}</td>
              <td className="numeric">
                <Amount value={row.value} spoken={row.valueSpoken} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** Phones: rows that open on their details. */
function PhoneRows({ rows }: { rows: TransactionRow[] }) {
  return (
    <ul className="transactions__list">
      {rows.map((row) => (
        <li key={row.id}>
          <details className="transactions__item">
            <summary id={row.phoneAnchor}>
              <span className="transactions__item-date">{row.tradeDate}</span>{" "}
              <span className="transactions__item-type">{row.type}</span>{" "}
              <span className="transactions__item-security" lang={row.securityLang ?? undefined}>
                {row.security}
              </span>{" "}
              <span className="transactions__item-value">
                <Amount value={row.value} spoken={row.valueSpoken} />
              </span>
            </summary>
            <Fields row={row} />
          </details>
        </li>
      ))}
    </ul>
  );
}

/** 'Load more' (one link per layout), the cap reached, or a disabled 'All Loaded' at the end. */
function LoadMore({ view }: { view: ListedTransactions }) {
  const { t } = useTranslation("clients");
  return (
    <p className="transactions__more">
      {view.capped ? (
        <span className="page__meta">{t("analysis.transactions.capped", { count: view.rows.length })}</span>
      ) : view.moreHref && view.morePhoneHref ? (
        <>
          {/* one per layout (the other is display: none), each to the first new row of what shows */}
          <Link to={view.moreHref} className="button button--secondary transactions__more-wide" preventScrollReset>
            {t("analysis.transactions.loadMore")}
          </Link>
          <Link
            to={view.morePhoneHref}
            className="button button--secondary transactions__more-phone"
            preventScrollReset
          >
            {t("analysis.transactions.loadMore")}
          </Link>
        </>
      ) : (
        <button type="button" className="button button--secondary" disabled>
          {t("analysis.transactions.allLoaded")}
        </button>
      )}
    </p>
  );
}

/**
 * The transactions: on wide screens a table and a 'Details' panel for the selected row (a link per
 * row; the first by default), on phones rows that open on their details. 'Load more' asks for the
 * next page; at the end it is a disabled 'All Loaded'.
 */
export function TransactionsPanel({ view }: { view: TransactionsView }) {
  const { t } = useTranslation("clients");
  const location = useLocation();
  // 'Load more' links to the first new row (#tx-51, #tx-item-51 on phones): without JavaScript the
  // browser opens the page there; with it the row also takes the focus, so keyboard and
  // screen-reader users go on from there (as on the adviser's client list).
  useEffect(() => {
    if (!/^#tx-(item-)?\d+$/.test(location.hash)) return;
    document.getElementById(location.hash.slice(1))?.focus();
  }, [location.key, location.hash]);
  if (view.state === "error") return <p className="alert alert--warning">{t("analysis.transactions.error")}</p>;
  if (view.state === "empty") return <p className="alert alert--info">{t("analysis.transactions.empty")}</p>;
  return (
    <>
      <p className="transactions__toolbar">
        <a href={view.csv} className="button button--secondary" download>
          {t("analysis.download.csv")}
        </a>
      </p>
      <div className="transactions">
        <TransactionsTable rows={view.rows} />
        <section className="transactions__details card" aria-labelledby="transaction-details-heading">
          <h3 id="transaction-details-heading">{t("analysis.transactions.details")}</h3>
          <p className="transactions__details-title">
            <span lang={view.selected.securityLang ?? undefined}>{view.selected.security}</span>,{" "}
            {view.selected.tradeDate}
          </p>
          <Fields row={view.selected} />
        </section>
        <PhoneRows rows={view.rows} />
      </div>
      <LoadMore view={view} />
      {/* always in the panel, so that what it says after 'Load more' is heard (WCAG 4.1.3) */}
      <p role="status" className="visually-hidden">
        {view.arrived
          ? t("analysis.transactions.arrived", { count: view.arrived.count, shown: view.arrived.shown })
          : ""}
      </p>
    </>
  );
}

export function InstructionsPanel({ view }: { view: InstructionsView }) {
  const { t } = useTranslation("clients");
  if (view.state === "error") return <p className="alert alert--warning">{t("analysis.instructions.error")}</p>;
  if (view.state === "empty") return <p className="alert alert--info">{t("analysis.instructions.empty")}</p>;
  return (
    <>
      <h3>{view.description}</h3>
      <p>{t("analysis.instructions.intro")}</p>
      <TableRegion captionId="instructions-caption">
        <table>
          <caption id="instructions-caption">{t("analysis.instructions.caption", { name: view.description })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("analysis.instructions.columns.security")}</th>
              <th scope="col">{t("analysis.instructions.columns.code")}</th>
              <th scope="col" className="numeric">
                {t("analysis.instructions.columns.weight")}
              </th>
            </tr>
          </thead>
          <tbody>
            {view.securities.map((s) => (
              <tr key={s.code}>
                <th scope="row">{s.name}</th>
                <td>{s.code}</td>
                <td className="numeric">{s.weight}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

export function PaymentPanel({ view }: { view: PaymentView }) {
  const { t } = useTranslation("clients");
  if (view.state === "error") return <p className="alert alert--warning">{t("analysis.payment.error")}</p>;
  return (
    <>
      <h3>{t("analysis.payment.heading")}</h3>
      {view.state === "empty" ? (
        <p className="alert alert--info">{t("analysis.payment.empty")}</p>
      ) : (
        <>
          <p>{t("analysis.payment.reference")}</p>
          <ul className="payment-cards">
            {view.bpays.map((b) => (
              <li key={`bpay-${b.id}`} className="payment-card card">
                <h4 className="payment-card__title">{t("analysis.payment.bpay")}</h4>
                <dl>
                  <dt>{t("analysis.payment.billerCode")}</dt>
                  <dd>{b.billerCode}</dd>
                  <dt>{t("analysis.payment.referenceNumber")}</dt>
                  <dd>{b.reference}</dd>
                </dl>
                <p className="payment-card__note">{t("analysis.payment.bpayNote")}</p>
              </li>
            ))}
            {view.banks.map((b) => (
              <li key={`bank-${b.id}`} className="payment-card card">
                <h4 className="payment-card__title">{t("analysis.payment.bankTransfer")}</h4>
                <dl>
                  <dt>{t("analysis.payment.bank")}</dt>
                  <dd>{b.bank}</dd>
                  <dt>{t("analysis.payment.accountName")}</dt>
                  <dd>{b.accountName}</dd>
                  {b.codes.map((code) => (
                    <Fragment key={code.label}>
                      <dt>{t(`analysis.payment.${code.label}`)}</dt>
                      <dd>{code.value}</dd>
                    </Fragment>
                  ))}
                  <dt>{t("analysis.payment.accountNumber")}</dt>
                  <dd>{b.accountNumber}</dd>
                </dl>
                <p className="payment-card__note">{t("analysis.payment.bankNote")}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
