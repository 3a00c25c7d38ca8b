// The home page's account summary (spec 001 §2.1): tiles or a table, rows that open onto their
// accounts. Opening a row is a GET form's button: a page load without JavaScript, a client
// navigation with it (click, Enter or Space, as any button).
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { radialGeometry, type RadialKind } from "~/lib/dashboard";
import { FigureText, PerformanceText } from "~/components/figures";
import type { SummaryRow } from "./dashboard.server";

export function Radial({ kind, percent, label }: { kind: RadialKind; percent: number; label: string }) {
  const g = radialGeometry(kind, percent);
  return (
    <svg
      className={`radial radial--${kind}`}
      width={g.size}
      height={g.size}
      viewBox={`0 0 ${g.size} ${g.size}`}
      aria-hidden="true"
      focusable="false"
    >
      <circle className="radial__track" cx={g.centre} cy={g.centre} r={g.radius} strokeWidth={g.stroke} fill="none" />
      <circle
        className="radial__value"
        cx={g.centre}
        cy={g.centre}
        r={g.radius}
        strokeWidth={g.stroke}
        fill="none"
        strokeDasharray={g.circumference}
        strokeDashoffset={g.dashOffset}
        transform={`rotate(-90 ${g.centre} ${g.centre})`}
      />
      <text className="radial__label" x="50%" y="50%" dominantBaseline="central" textAnchor="middle">
        {label}
      </text>
    </svg>
  );
}

function RowName({ row }: { row: SummaryRow }) {
  const { t } = useTranslation("clients");
  return (
    <>
      {row.analysisHref ? <Link to={row.analysisHref}>{row.name}</Link> : row.name}
      {row.accountCount !== null ? (
        <span className="summary__count"> {t("home.summary.accountCount", { count: row.accountCount })}</span>
      ) : null}
    </>
  );
}

function ToggleButton({ row }: { row: SummaryRow }) {
  const { t } = useTranslation("clients");
  return (
    <button
      type="submit"
      name="expand"
      value={row.toggle}
      className="button button--link summary__toggle"
      aria-expanded={row.expanded}
      aria-controls={row.expanded ? `${row.key}-accounts` : undefined}
    >
      {t(row.expanded ? "home.summary.hideAccounts" : "home.summary.showAccounts", { name: row.name })}
    </button>
  );
}

function AccountsMessage({ row }: { row: SummaryRow }) {
  const { t } = useTranslation("clients");
  if (row.accountsError) return <p className="alert alert--error">{t("home.errors.portfolio")}</p>;
  if (row.accountsEmpty) return <p className="summary__empty">{t("home.errors.noAccounts")}</p>;
  return null;
}

function Tile({ row, kind, level }: { row: SummaryRow; kind: RadialKind; level: 3 | 4 | 5 }) {
  const { t } = useTranslation("clients");
  const Heading = `h${level}` as "h3" | "h4" | "h5";
  return (
    <li className={`summary-tile summary-tile--${kind}`}>
      <div className="summary-tile__head">
        {row.percent !== null && row.percentLabel !== null ? (
          <Radial kind={kind} percent={row.percent} label={row.percentLabel} />
        ) : null}
        <Heading className="summary-tile__name">
          <RowName row={row} />
        </Heading>
        {row.percentLabel !== null ? (
          <span className="visually-hidden">{t("home.summary.share", { share: row.percentLabel })}</span>
        ) : null}
      </div>
      <dl className="summary-tile__figures">
        <div>
          <dt>{t("home.summary.value")}</dt>
          <dd className="summary-tile__value">{row.value}</dd>
        </div>
        {row.performance !== undefined ? (
          <div>
            <dt>{t("home.summary.performance")}</dt>
            <dd>
              <PerformanceText performance={row.performance} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t("home.summary.movement")}</dt>
          <dd>
            <FigureText figure={row.movement} />
          </dd>
        </div>
      </dl>
      {row.expandable ? <ToggleButton row={row} /> : null}
      {row.expanded ? (
        <div id={`${row.key}-accounts`} className="summary-tile__accounts">
          <AccountsMessage row={row} />
          {row.accounts?.length ? (
            <ul className="summary-tiles summary-tiles--accounts">
              {row.accounts.map((account) => (
                <Tile key={account.key} row={account} kind="account" level={level === 3 ? 4 : 5} />
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function TableRow({ row, child = false }: { row: SummaryRow; child?: boolean }) {
  const { t } = useTranslation("clients");
  return (
    <tr className={child ? "summary-table__child" : undefined}>
      <th scope="row">
        <RowName row={row} />
        {row.percentLabel !== null ? (
          <span className="summary-table__share"> ({t("home.summary.share", { share: row.percentLabel })})</span>
        ) : null}
        {row.expandable ? (
          <>
            <br />
            <ToggleButton row={row} />
          </>
        ) : null}
      </th>
      <td className="number">{row.value}</td>
      {row.performance !== undefined ? (
        <td className="number">
          <PerformanceText performance={row.performance} />
        </td>
      ) : null}
      <td className="number">
        <FigureText figure={row.movement} />
      </td>
    </tr>
  );
}

export type SummaryProps = {
  layout: "tiles" | "table";
  collection: "portfolio" | "group" | "account";
  rows: SummaryRow[];
  caption: string;
  /** The level of the tiles' headings: 3 under the section's heading, 4 under 'Linked accounts'. */
  headingLevel?: 3 | 4;
};

export function SummaryRows({ layout, collection, rows, caption, headingLevel = 3 }: SummaryProps) {
  const { t } = useTranslation("clients");
  const kind: RadialKind = collection === "account" ? "account" : "group";
  if (layout === "tiles") {
    return (
      <ul className="summary-tiles">
        {rows.map((row) => (
          <Tile key={row.key} row={row} kind={kind} level={headingLevel} />
        ))}
      </ul>
    );
  }
  // spec 001 §2.1: no performance column when the site shows no performance (rows carry none)
  const withPerformance = rows.some((row) => row.performance !== undefined);
  return (
    <div className="table-scroll">
      <table className="summary-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t(`home.summary.collection.${collection}`)}</th>
            <th scope="col" className="number">
              {t("home.summary.currentValue")}
            </th>
            {withPerformance ? (
              <th scope="col" className="number">
                {t("home.summary.performance")}
              </th>
            ) : null}
            <th scope="col" className="number">
              {t("home.summary.movement")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.flatMap((row) => [
            <TableRow key={row.key} row={row} />,
            ...(row.expanded && (row.accountsError || row.accountsEmpty)
              ? [
                  <tr key={`${row.key}-message`} className="summary-table__child">
                    <td colSpan={withPerformance ? 4 : 3}>
                      <AccountsMessage row={row} />
                    </td>
                  </tr>,
                ]
              : []),
            ...(row.expanded && row.accounts
              ? row.accounts.map((account) => <TableRow key={account.key} row={account} child />)
              : []),
          ])}
        </tbody>
      </table>
    </div>
  );
}

/** The GET form the toggles submit: it carries the page's other query values. */
export function SummaryForm({ hidden, children }: { hidden: Record<string, string>; children: React.ReactNode }) {
  return (
    <Form method="get" preventScrollReset className="summary-form">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}
