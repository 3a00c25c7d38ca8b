// spec 001 §2.3 the investments and allocation tabs. Every control is a link or a GET form (a plain
// GET without JavaScript; the per-account currency dropdown, decision 205); with JavaScript the row
// toggles open and close in place and keep the URL in step
// (docs/decisions/094-investments-and-allocation.md).
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";
import { ChartFigure } from "~/components/charts/chart-figure";
import { ChartPatterns } from "~/components/charts/chart-patterns";
import { useModalDialog } from "~/components/modal-dialog";
import { isRowOpen, toggleRow } from "~/lib/analysis/investments";
import { analysisHref, type AnalysisQuery, convertFormFields, readAnalysisQuery } from "~/lib/analysis/query";
import type {
  AllocationPanel,
  AllocationView,
  CellTexts,
  ConvertChoice,
  InvestmentHeader,
  InvestmentsView,
  TotalCell,
  TotalView,
} from "./investments.server";
import { TableRegion } from "~/components/table-region";

const GLOSSARY = [
  "bookCost",
  "unitPrice",
  "marketValue",
  "amount",
  "unrealisedGain",
  "annualIncome",
  "yield",
  "grossAnnualIncome",
  "grossYield",
] as const;
const MULTI_CURRENCY_NOTES = ["conversion", "notAvailable", "sorting"] as const;

function GlossaryEntries() {
  const { t } = useTranslation("clients");
  return (
    <>
      <dl className="glossary">
        {GLOSSARY.map((key) => (
          <div key={key} className="glossary__entry">
            <dt>{t(`analysis.investments.glossary.${key}.term`)}</dt>
            <dd>{t(`analysis.investments.glossary.${key}.text`)}</dd>
          </div>
        ))}
      </dl>
      <h3 className="glossary__heading">{t("analysis.investments.glossary.multiCurrency")}</h3>
      <ul className="glossary__notes">
        {MULTI_CURRENCY_NOTES.map((key) => (
          <li key={key}>{t(`analysis.investments.glossary.notes.${key}`)}</li>
        ))}
      </ul>
    </>
  );
}

/** spec 001 §2.3 'What does this mean?': a dialog with JavaScript, a section that opens without it; hidden at 640px or narrower. */
function Glossary() {
  const { t } = useTranslation("clients");
  const hydrated = useHydrated();
  const dialog = useModalDialog();
  if (!hydrated)
    return (
      <details className="glossary-section">
        <summary>{t("analysis.investments.glossary.open")}</summary>
        <h3 className="visually-hidden">{t("analysis.investments.glossary.title")}</h3>
        <GlossaryEntries />
      </details>
    );
  return (
    <div className="glossary-section">
      <button type="button" className="button button--link" aria-haspopup="dialog" onClick={dialog.show}>
        {t("analysis.investments.glossary.open")}
      </button>
      {dialog.open ? (
        <dialog
          ref={dialog.ref}
          className="glossary-dialog"
          aria-labelledby="glossary-dialog-heading"
          onClose={dialog.closed}
        >
          <h2 id="glossary-dialog-heading">{t("analysis.investments.glossary.title")}</h2>
          <GlossaryEntries />
          <div className="form-actions">
            <button type="button" className="button button--secondary" onClick={dialog.close}>
              {t("analysis.investments.glossary.close")}
            </button>
          </div>
        </dialog>
      ) : null}
    </div>
  );
}

function Cells({ cells, view }: { cells: CellTexts; view: Extract<InvestmentsView, { state: "ok" }> }) {
  return (
    <>
      <td className="numeric investments__cost">{cells.cost}</td>
      <td className="numeric">{cells.weight}</td>
      <td className="numeric investments__value">{cells.value}</td>
      {view.columns.gain ? (
        <td className={cells.gainNegative ? "numeric figure--negative" : "numeric"}>
          {cells.gain}
          {cells.gainPercent ? <span className="investments__sub">{cells.gainPercent}</span> : null}
        </td>
      ) : null}
      {view.columns.income ? (
        <td className="numeric">
          {cells.income}
          {cells.yield ? <span className="investments__sub">{cells.yield}</span> : null}
        </td>
      ) : null}
    </>
  );
}

/** A total's figure and, when a note under the table explains it, a link to that note. */
function TotalFigure({ cell }: { cell: TotalCell }) {
  const { t } = useTranslation("clients");
  return (
    <>
      {cell.text}
      {cell.note ? (
        <sup className="investments__note-ref">
          <a href={`#investments-note-${cell.note}`}>
            <span className="visually-hidden">{t("analysis.investments.totals.note")} </span>
            {cell.note}
          </a>
        </sup>
      ) : null}
    </>
  );
}

/** decision 108: a total row (an account's, or all of them): market value always, book cost and gain or 'Not available' with its note. */
function TotalRowCells({ total, view }: { total: TotalView; view: Extract<InvestmentsView, { state: "ok" }> }) {
  return (
    <>
      <th scope="row">{total.label}</th>
      <td className="numeric investments__cost">
        <TotalFigure cell={total.cost} />
      </td>
      <td className="numeric" />
      <td className="numeric investments__value">
        <TotalFigure cell={total.value} />
      </td>
      {view.columns.gain ? (
        <td className={total.gain.negative ? "numeric figure--negative" : "numeric"}>
          <TotalFigure cell={total.gain} />
        </td>
      ) : null}
      {view.columns.income ? <td className="numeric" /> : null}
    </>
  );
}

/** A row's open/close control: a link without JavaScript, a button that toggles in place with it. */
function RowToggle({
  query,
  rowKey,
  open,
  label,
  children,
}: {
  query: AnalysisQuery;
  rowKey: string;
  open: boolean;
  label: string;
  children: React.ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const href = analysisHref(query, { tab: "investments", open: toggleRow(query.open, rowKey) });
  const content = (
    <>
      <span
        className={open ? "row-toggle__chevron row-toggle__chevron--open" : "row-toggle__chevron"}
        aria-hidden="true"
      />
      {children}
      <span className="visually-hidden"> {label}</span>
    </>
  );
  // before the scripts run a plain link (what a Remix Link adds only matters once they have)
  if (!hydrated)
    return (
      <a href={href} className="row-toggle">
        {content}
      </a>
    );
  return (
    <button
      type="button"
      className="row-toggle button--link"
      aria-expanded={open}
      onClick={() => navigate(href, { replace: true, preventScrollReset: true })}
    >
      {content}
    </button>
  );
}

function Header({ header }: { header: InvestmentHeader }) {
  return (
    <th scope="col" className={header.numeric ? "numeric" : undefined} aria-sort={header.ariaSort ?? undefined}>
      {header.href ? (
        <Link to={header.href} preventScrollReset className="sort-link">
          {header.label}
          <span className={`sort-link__icon sort-link__icon--${header.ariaSort ?? "none"}`} aria-hidden="true" />
        </Link>
      ) : (
        header.label
      )}
    </th>
  );
}

type OkView = Extract<InvestmentsView, { state: "ok" }>;
type AccountView = OkView["accounts"][number];
type PositionView = AccountView["positions"][number];

/** spec 001 §2.3 'Show in': original currencies or the preferred one. */
function CurrencySwitch({ view }: { view: OkView }) {
  const { t } = useTranslation("clients");
  const options: Array<{ show: OkView["show"]; text: string }> = [
    { show: "original", text: t("analysis.investments.original") },
    { show: "preferred", text: t("analysis.investments.preferred", { currency: view.preferredCurrency }) },
  ];
  return (
    <nav className="segmented" aria-label={t("analysis.investments.showIn")}>
      <span className="segmented__label" aria-hidden="true">
        {t("analysis.investments.showIn")}
      </span>
      <ul className="segmented__list">
        {options.map(({ show, text }) => (
          <li key={show}>
            <Link
              to={view.links[show]}
              preventScrollReset
              className={view.show === show ? "segmented__option segmented__option--current" : "segmented__option"}
              aria-current={view.show === show ? "true" : undefined}
            >
              {text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The controls above the table: currency, expand and collapse all, glossary, CSV. */
function Toolbar({ view }: { view: OkView }) {
  const { t } = useTranslation("clients");
  return (
    <div className="investments__toolbar">
      {view.currencySwitch ? <CurrencySwitch view={view} /> : null}
      <p className="investments__expand">
        <Link to={view.links.expandAll} preventScrollReset replace>
          {t("analysis.investments.expandAll")}
        </Link>{" "}
        <Link to={view.links.collapseAll} preventScrollReset replace>
          {t("analysis.investments.collapseAll")}
        </Link>
      </p>
      <Glossary />
      <a href={view.links.csv} className="button button--secondary investments__csv" download>
        {t("analysis.download.csv")}
      </a>
    </div>
  );
}

/** A position's name cell: its toggle when it has parcels, its code, currency, quantity and rate. */
function PositionName({
  position,
  view,
  query,
  open,
}: {
  position: PositionView;
  view: OkView;
  query: AnalysisQuery;
  open: boolean;
}) {
  const { t } = useTranslation("clients");
  return (
    <th scope="row">
      {position.parcels.length ? (
        <RowToggle
          query={query}
          rowKey={position.key}
          open={open}
          label={t(open ? "analysis.investments.hideParcels" : "analysis.investments.showParcels")}
        >
          <span className={position.invalid ? "investments__invalid" : undefined} lang={position.nameLang ?? undefined}>
            {position.name}
          </span>
        </RowToggle>
      ) : (
        <span
          className={position.invalid ? "investments__name investments__invalid" : "investments__name"}
          lang={position.nameLang ?? undefined}
        >
          {position.name}
        </span>
      )}
      <span className="investments__sub">
        {position.code}
        {view.show === "original" ? ` · ${position.currency}` : null}
        {position.cash ? <span className="tag">{t("analysis.investments.cash")}</span> : null}
      </span>
      {position.cells.quantity ? <span className="investments__sub">{position.cells.quantity}</span> : null}
      {position.conversion ? <span className="investments__sub investments__rate">{position.conversion}</span> : null}
    </th>
  );
}

/** A position's row and, when it is open, one row per parcel. */
function PositionRows({
  position,
  view,
  query,
  toggled,
}: {
  position: PositionView;
  view: OkView;
  query: AnalysisQuery;
  toggled: Set<string>;
}) {
  const open = position.parcels.length > 0 && isRowOpen(position.key, query.expand, toggled);
  return (
    <>
      <tr className="investments__row investments__row--position">
        <PositionName position={position} view={view} query={query} open={open} />
        <Cells cells={position.cells} view={view} />
      </tr>
      {open
        ? position.parcels.map((parcel) => (
            <tr key={parcel.key} className="investments__row investments__row--parcel">
              <th scope="row">
                {parcel.name}
                {parcel.cells.quantity ? <span className="investments__sub">{parcel.cells.quantity}</span> : null}
              </th>
              <Cells cells={parcel.cells} view={view} />
            </tr>
          ))
        : null}
    </>
  );
}

/**
 * spec 001 §2.3: the per-account currency dropdown. A GET form that keeps the rest of the view;
 * choosing an option changes nothing until its button is pressed (WCAG 3.2.2).
 */
function ConvertForm({
  account,
  convert,
  query,
}: {
  account: AccountView;
  convert: ConvertChoice;
  query: AnalysisQuery;
}) {
  const { t } = useTranslation("clients");
  const id = `investments-convert-${account.key}`;
  const current = convert.converted ? convert.toAccount : convert.toOriginal;
  // the address now: rows opened or closed in place since the page loaded are kept too
  const hidden = useHydrated() ? convertFormFields(query) : convert.hidden;
  return (
    <Form method="get" preventScrollReset className="investments__convert">
      {hidden.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id} className="visually-hidden">
        {t("analysis.investments.convertLabel", { account: account.name })}
      </label>
      <select id={id} name="convert" className="select" defaultValue={current} key={current}>
        <option value={convert.toAccount}>{t("analysis.investments.convertToAccount")}</option>
        <option value={convert.toOriginal}>{t("analysis.investments.convertToOriginal")}</option>
      </select>
      <button type="submit" className="button button--secondary button--small">
        {t("analysis.investments.convertApply")}
        <span className="visually-hidden"> ({account.name})</span>
      </button>
    </Form>
  );
}

/** An account's rows: its own, and when open its positions and its total. */
function AccountRows({
  account,
  view,
  query,
  toggled,
}: {
  account: AccountView;
  view: OkView;
  query: AnalysisQuery;
  toggled: Set<string>;
}) {
  const { t } = useTranslation("clients");
  const accountOpen = isRowOpen(account.key, query.expand, toggled);
  return (
    <tbody className="investments__account">
      <tr className="investments__row investments__row--account">
        <th scope="row">
          <RowToggle
            query={query}
            rowKey={account.key}
            open={accountOpen}
            label={t(accountOpen ? "analysis.investments.hideHoldings" : "analysis.investments.showHoldings")}
          >
            {account.name}
          </RowToggle>
          {account.convert ? <ConvertForm account={account} convert={account.convert} query={query} /> : null}
        </th>
        <Cells cells={account.cells} view={view} />
      </tr>
      {accountOpen
        ? account.positions.map((position) => (
            <PositionRows key={position.key} position={position} view={view} query={query} toggled={toggled} />
          ))
        : null}
      {accountOpen && account.total ? (
        <tr className="investments__row investments__row--total">
          <TotalRowCells total={account.total} view={view} />
        </tr>
      ) : null}
    </tbody>
  );
}

/** decision 108: the notes the totals point to. */
function TotalsNotes({ notes }: { notes: OkView["notes"] }) {
  const { t } = useTranslation("clients");
  return (
    <section className="investments__notes" aria-labelledby="investments-notes-heading">
      <h3 id="investments-notes-heading" className="investments__notes-heading">
        {t("analysis.investments.totals.notesHeading")}
      </h3>
      <ol className="investments__notes-list">
        {notes.map((n) => (
          <li key={n.key} id={`investments-note-${n.number}`}>
            {n.text}
            {n.link ? (
              <>
                {" "}
                <Link to={n.link.href} preventScrollReset>
                  {n.link.label}
                </Link>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function InvestmentsPanel({ view }: { view: InvestmentsView }) {
  const { t } = useTranslation("clients");
  const location = useLocation();
  if (view.state === "error") return <p className="alert alert--warning">{t("analysis.investments.error")}</p>;
  if (view.state === "empty") return <p className="alert alert--info">{t("analysis.investments.empty")}</p>;
  const query = readAnalysisQuery(new URL(`${location.pathname}${location.search}`, "http://portal"));
  const toggled = new Set(query.open);
  return (
    <>
      <Toolbar view={view} />
      {view.multiCurrency ? <p className="page__meta">{t("analysis.investments.multiCurrencyNote")}</p> : null}
      <TableRegion captionId="investments-caption" className="investments">
        <table className="investments__table">
          <caption id="investments-caption">{t("analysis.investments.caption", { date: view.asAt })}</caption>
          <thead>
            <tr>
              {view.headers.map((header) => (
                <Header key={header.key} header={header} />
              ))}
            </tr>
          </thead>
          {view.accounts.map((account) => (
            <AccountRows key={account.key} account={account} view={view} query={query} toggled={toggled} />
          ))}
          <tfoot>
            <tr className="investments__row investments__row--grand-total">
              <TotalRowCells total={view.total} view={view} />
            </tr>
          </tfoot>
        </table>
      </TableRegion>
      {view.notes.length ? <TotalsNotes notes={view.notes} /> : null}
    </>
  );
}

/** The allocation's CSV download (decision 208). */
function AllocationDownload({ href }: { href: string }) {
  const { t } = useTranslation("clients");
  return (
    <p className="allocation__toolbar">
      <a href={href} className="button button--secondary" download>
        {t("analysis.download.csv")}
      </a>
    </p>
  );
}

/** A panel's investments by category, largest first, and its total (decision 207). */
function AllocationInvestments({ panel }: { panel: AllocationPanel }) {
  const { t } = useTranslation("clients");
  return (
    <details className="allocation-panel__investments">
      <summary>{t("analysis.allocation.showInvestments", { type: panel.lower })}</summary>
      <TableRegion captionId={`allocation-${panel.type}-investments-caption`}>
        <table>
          <caption id={`allocation-${panel.type}-investments-caption`}>
            {t("analysis.allocation.tableCaption", { type: panel.lower })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("analysis.allocation.columns.investment")}</th>
              <th scope="col">{t("analysis.allocation.columns.account")}</th>
              <th scope="col" className="numeric">
                {t("analysis.allocation.columns.amount")}
              </th>
            </tr>
          </thead>
          {panel.categories.map((category) => (
            <tbody key={category.key}>
              <tr className="allocation-panel__category">
                <th scope="rowgroup" colSpan={2}>
                  <span lang={category.nameLang ?? undefined}>{category.name}</span> ({category.percent})
                </th>
                <td className="numeric">{category.amount}</td>
              </tr>
              {category.rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row" lang={row.investmentLang ?? undefined}>
                    {row.investment}
                  </th>
                  <td>{row.account}</td>
                  <td className="numeric">{row.amount}</td>
                </tr>
              ))}
            </tbody>
          ))}
          <tfoot>
            <tr className="allocation-panel__total">
              <th scope="row" colSpan={2}>
                {t("analysis.allocation.total")} ({panel.total.percent})
              </th>
              <td className="numeric">{panel.total.amount}</td>
            </tr>
          </tfoot>
        </table>
      </TableRegion>
    </details>
  );
}

export function AllocationPanelList({ view }: { view: AllocationView }) {
  const { t } = useTranslation("clients");
  if (view.state === "error")
    return <p className="alert alert--warning">{view.message ?? t("analysis.allocation.error")}</p>;
  if (view.state === "empty") return <p className="alert alert--info">{t("analysis.allocation.empty")}</p>;
  return (
    <>
      <p className="page__meta">{t("analysis.allocation.asAt", { date: view.asAt })}</p>
      {view.csv ? <AllocationDownload href={view.csv} /> : null}
      {/* the slices' fills under forced colours, once for every panel's charts (decision 215) */}
      <ChartPatterns />
      {/* spec 001 §2.3: one collapsible panel per type; its heading stays outside the summary, so
          that it is a heading and the summary a plain button (decision 117) */}
      {view.panels.map((panel) => (
        <section
          key={panel.type}
          className="allocation-panel card"
          aria-labelledby={`allocation-${panel.type}-heading`}
        >
          <h3 id={`allocation-${panel.type}-heading`} className="allocation-panel__title">
            {panel.title}
          </h3>
          <details className="allocation-panel__body" open={view.collapsed ? undefined : true}>
            <summary className="allocation-panel__summary">
              {t("analysis.allocation.panelSummary", { type: panel.lower })}
            </summary>
            <ChartFigure
              id={`allocation-${panel.type}`}
              caption={panel.caption}
              svg={panel.svg}
              legend={panel.legend}
              legendShape="block"
              table={panel.table}
              tableSummary={t("analysis.chart.showTable")}
            />
            <AllocationInvestments panel={panel} />
            {panel.roundingNote ? <p className="page__meta">{t("analysis.allocation.roundingNote")}</p> : null}
          </details>
        </section>
      ))}
    </>
  );
}
