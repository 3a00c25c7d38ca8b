// spec 002 "Valuation report page", §4 "Report run" (docs/platform-api.md "Valuation reports"): the
// valuation report as a real PDF (pdfkit): the firm and its colour, the client, the date or the
// period, each account's holdings (units, price, currency, value) with its total, the grand total,
// the performance over a period, an allocation chart by asset class (vector bars) with its legend
// in text, the basis of valuation and page numbers. Tagged (headings, paragraphs, tables, a figure
// with its alternative text; page furniture as artifacts), with real text in the standard fonts.
import PDFDocument from "pdfkit";
import { numberFormat } from "../lib/number-format";
import { pdfBytes } from "./pdf-bytes";
import { keepTogether, tableLayout, tableStartHeight } from "./pdf-layout";
import { longDate } from "./calendar";

export type ReportHolding = {
  name: string;
  units: number;
  /** The price used, in the holding's currency. */
  price: number;
  currency: string;
  /** In the report currency, rounded to cents (as the position call answers it). */
  value: number;
};

export type ReportAccount = {
  name: string;
  /** The account's number as the client knows it (external id), else its id. */
  number: string;
  holdings: ReportHolding[];
  /** The sum of the holdings' (rounded) values. */
  total: number;
};

export type ReportPerformance = {
  valueFrom: number;
  netFlows: number;
  movement: number;
  valueTo: number;
  /** Time-weighted return over the period and a year (when the period is over a year), as fractions; null when none. */
  twrPeriod: number | null;
  twrAnnualised: number | null;
  /** When the accounts began inside the period: the date the returns are measured from (decision 109). */
  since: string | null;
  sinceInception: boolean;
};

export type ValuationReportInput = {
  firmName: string;
  /** The firm's colour (#rrggbb) and the chart's palette. */
  brandColour: string;
  palette: string[];
  title: string;
  clientName: string;
  period: { kind: "asAt"; date: string } | { kind: "range"; from: string; to: string };
  currency: string;
  accounts: ReportAccount[];
  /** The sum of the accounts' totals. */
  grandTotal: number;
  performance: ReportPerformance | null;
  allocation: Array<{ name: string; value: number; weight: number }>;
  basis: { title: string; paragraphs: string[] } | null;
  /** When the report was asked for: the document's dates (the same run gives the same file). */
  createdAt: string;
  locale: string;
};

/** £1,234.56: the way the report prints an amount of a currency (en-GB). */
export function formatMoney(amount: number, currency: string): string {
  return numberFormat("en-GB", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Math.round(amount * 100) / 100 + 0);
}

const number = (value: number, min: number, max: number) =>
  numberFormat("en-GB", { minimumFractionDigits: min, maximumFractionDigits: max }).format(value);
const percent = (fraction: number) => `${number(fraction * 100, 2, 2)}%`;

/** spec 001 §9: 2 decimals for money, 4 for volumes (the investments tab's rule, decision 110). */
const MONEY_DECIMALS = 2;
const VOLUME_DECIMALS = 4;

/**
 * A holding's units as the investments tab shows them: up to 4 decimals, none when whole
 * ('1,500', '7,075.3', '25,303.4512').
 */
export function formatUnits(units: number): string {
  return number(units, 0, VOLUME_DECIMALS);
}

/**
 * A price as the investments tab shows it (in the holding's own currency, 'Original currency'):
 * its currency's symbol (every dollar a bare '$', spec 000 §9), 2 decimals, 4 for a price under 10
 * ('$167.59', '£7.4760').
 */
export function formatPrice(price: number, currency: string): string {
  const decimals = price < 10 ? VOLUME_DECIMALS : MONEY_DECIMALS;
  const rounded = Math.round(price * 10 ** decimals) / 10 ** decimals;
  if (currency.toUpperCase() === "GBX") return `${number(rounded, decimals, decimals)}p`;
  try {
    return numberFormat("en-GB", {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(rounded + 0);
  } catch {
    return `${number(rounded, decimals, decimals)} ${currency}`;
  }
}

/** The line under the title: "Valuation as at 14 March 2025" or "Valuation for 1 January 2024 to 14 March 2025". */
export function periodLine(period: ValuationReportInput["period"]): string {
  return period.kind === "asAt"
    ? `Valuation as at ${longDate(period.date)}`
    : `Valuation for ${longDate(period.from)} to ${longDate(period.to)}`;
}

export const NO_ACCOUNTS = "No investment accounts to value";
/** spec 001 §5: an invalid or empty security name is shown as 'INVALID DATA' (as on the page). */
export const INVALID_DATA = "INVALID DATA";

/** A holding's name as the page shows it: 'INVALID DATA' when empty or only punctuation (the page's rule). */
export function securityName(name: string | null | undefined): string {
  const trimmed = (name ?? "").trim();
  return trimmed && !/^[\s\-_.?]+$/.test(trimmed) ? trimmed : INVALID_DATA;
}

const INK = "#1f2933";
const MUTED = "#52606d";
const RULE = "#cbd2d9";
const MARGIN = 50;

type Column = { header: string; width: number; align: "left" | "right" };
const HOLDING_COLUMNS: Column[] = [
  { header: "Security", width: 185, align: "left" },
  { header: "Units", width: 75, align: "right" },
  { header: "Price", width: 75, align: "right" },
  { header: "Currency", width: 55, align: "left" },
  { header: "Value", width: 105, align: "right" },
];
const CELL_PAD = 4;

/** Yields to the event loop: the report is made in steps so that the platform keeps answering. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

type Row = { cells: string[]; bold?: boolean };
/** What the layout needs to know of a table: its header's and rows' heights, and its totals (the bold rows at its end). */
type TableSizes = { header: number; heights: number[]; totals: number };

const HEADING_GAP = 0.2;
const PARAGRAPH_GAP = 1.5;

/**
 * The report's pages as they are drawn: the running head on each page, headings and paragraphs
 * kept with what follows them, and tables broken where `tableLayout` says (decision 110). Every
 * block is tagged under the document's structure; decoration is marked as an artifact.
 */
class ReportLayout {
  readonly left = MARGIN;
  readonly width: number;
  readonly root: PDFKit.PDFStructureElement;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly firm: { firmName: string; brandColour: string },
  ) {
    this.width = doc.page.width - MARGIN * 2;
    this.root = doc.struct("Document");
    doc.addStructure(this.root);
  }

  /** Where content ends on a page (above the page number). */
  bottom(): number {
    return this.doc.page.height - MARGIN - 24;
  }

  /** The room a fresh page has for content. */
  pageRoom(): number {
    return this.bottom() - MARGIN;
  }

  /** Decoration (rules, swatches, the running head): marked as an artifact, outside the structure. */
  artifact(draw: () => void, type: "Layout" | "Pagination" = "Layout"): void {
    this.doc.markContent("Artifact", { type });
    draw();
    this.doc.endMarkedContent();
  }

  /** The firm's name and a rule in its colour at the top of a page. */
  runningHead(): void {
    const { doc, left, width } = this;
    this.artifact(() => {
      doc
        .font("Helvetica-Bold")
        .fontSize(9)
        .fillColor(this.firm.brandColour)
        .text(this.firm.firmName, left, MARGIN - 26, { width, lineBreak: false });
      doc
        .moveTo(left, MARGIN - 12)
        .lineTo(left + width, MARGIN - 12)
        .lineWidth(1.5)
        .strokeColor(this.firm.brandColour)
        .stroke();
    }, "Pagination");
  }

  newPage(): void {
    this.doc.addPage();
    this.runningHead();
    this.doc.x = this.left;
    this.doc.y = MARGIN;
  }

  /** A fresh page unless `height` fits in the room left (or would not fit on a fresh page either). */
  ensure(height: number): void {
    if (keepTogether(height, this.bottom() - this.doc.y, this.pageRoom())) this.newPage();
  }

  block(type: string, draw: () => void): void {
    this.root.add(this.doc.struct(type, {}, draw));
  }

  headingHeight(text: string, size: number): number {
    this.doc.font("Helvetica-Bold").fontSize(size);
    return this.doc.heightOfString(text, { width: this.width });
  }

  /** A heading; `keepWith` is the height of what must follow it on the same page. */
  heading(type: "H1" | "H2" | "H3", text: string, size: number, colour = INK, keepWith = size * 2): void {
    this.ensure(this.headingHeight(text, size) + keepWith);
    this.block(type, () => {
      this.doc.font("Helvetica-Bold").fontSize(size).fillColor(colour).text(text, this.left, this.doc.y, {
        width: this.width,
      });
    });
  }

  paragraphHeight(text: string, size: number): number {
    this.doc.font("Helvetica").fontSize(size);
    return this.doc.heightOfString(text, { width: this.width, lineGap: PARAGRAPH_GAP });
  }

  paragraph(text: string, size = 10, colour = INK): void {
    this.ensure(this.paragraphHeight(text, size));
    this.block("P", () => {
      this.doc
        .font("Helvetica")
        .fontSize(size)
        .fillColor(colour)
        .text(text, this.left, this.doc.y, { width: this.width, lineGap: PARAGRAPH_GAP });
    });
  }

  /** The height of `lines` of moveDown at a font size. */
  gap(lines: number, size: number): number {
    this.doc.font("Helvetica").fontSize(size);
    return this.doc.currentLineHeight(true) * lines;
  }

  private rowHeight(columns: Column[], cells: string[], bold: boolean): number {
    this.doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    const heights = cells.map((c, i) =>
      this.doc.heightOfString(c || " ", { width: (columns[i] as Column).width - CELL_PAD * 2 }),
    );
    return Math.max(...heights) + CELL_PAD * 2;
  }

  measure(columns: Column[], rows: Row[]): TableSizes {
    let totals = 0;
    while (totals < rows.length && rows[rows.length - 1 - totals]?.bold) totals++;
    return {
      header: this.rowHeight(
        columns,
        columns.map((c) => c.header),
        true,
      ),
      heights: rows.map((row) => this.rowHeight(columns, row.cells, row.bold ?? false)),
      totals,
    };
  }

  /** The height a table needs to start on a page (its header and first rows, or all of a short one). */
  tableStart(columns: Column[], rows: Row[]): number {
    return tableStartHeight(this.measure(columns, rows));
  }

  /**
   * A table: a header row (repeated, as an artifact, on a page the table runs onto), body rows and
   * bold rows (totals, kept with the last body rows). Columns' widths add up to the text width. It
   * breaks where `tableLayout` says (decision 110).
   */
  table(columns: Column[], rows: Row[]): void {
    const sizes = this.measure(columns, rows);
    const layout = tableLayout({ ...sizes, room: this.bottom() - this.doc.y, page: this.pageRoom() });
    if (layout.newPage) this.newPage();
    const breaks = new Set(layout.breaks);
    const table = this.doc.struct("Table");
    this.root.add(table);
    this.headerRow(table, columns, sizes.header, true);
    rows.forEach((row, index) => {
      const height = sizes.heights[index] as number;
      if (breaks.has(index)) {
        this.newPage();
        this.headerRow(table, columns, sizes.header, false);
      }
      const y = this.doc.y;
      this.taggedRow(table, "TD", columns, row.cells, y, row.bold ?? false);
      this.rule(y + height, row.bold ? 1 : 0.5);
      this.doc.y = y + height;
    });
    table.end();
    this.doc.x = this.left;
    this.doc.moveDown(1);
  }

  /** The header row on its shaded band: tagged the first time, an artifact when repeated on a later page. */
  private headerRow(table: PDFKit.PDFStructureElement, columns: Column[], height: number, tagged: boolean): void {
    const { doc, left, width } = this;
    const y = doc.y;
    this.artifact(() => doc.rect(left, y, width, height).fillColor("#f0f4f8").fill());
    const headers = columns.map((c) => c.header);
    if (tagged) this.taggedRow(table, "TH", columns, headers, y, true);
    else this.artifact(() => this.drawCells(columns, headers, y));
    doc.y = y + height;
  }

  /** A row of the table's structure: each cell a TH or TD holding its text. */
  private taggedRow(
    table: PDFKit.PDFStructureElement,
    cellType: "TH" | "TD",
    columns: Column[],
    cells: string[],
    y: number,
    bold: boolean,
  ): void {
    const tr = this.doc.struct("TR");
    table.add(tr);
    let x = this.left;
    cells.forEach((cell, i) => {
      const column = columns[i] as Column;
      const at = x;
      tr.add(
        this.doc.struct(cellType, {}, () => {
          this.doc
            .font(bold ? "Helvetica-Bold" : "Helvetica")
            .fontSize(9)
            .fillColor(INK)
            .text(cell, at + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
        }),
      );
      x += column.width;
    });
    tr.end();
  }

  /** A repeated header's cells (bold), drawn without structure. */
  private drawCells(columns: Column[], cells: string[], y: number): void {
    let x = this.left;
    this.doc.font("Helvetica-Bold").fontSize(9).fillColor(INK);
    cells.forEach((cell, i) => {
      const column = columns[i] as Column;
      this.doc.text(cell, x + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
      x += column.width;
    });
  }

  /** The rule under a row: heavier under a total. */
  private rule(y: number, weight: number): void {
    const { doc, left, width } = this;
    this.artifact(() =>
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(weight)
        .strokeColor(RULE)
        .stroke(),
    );
  }

  /** "Page 1 of 3" at the foot of every page, as pagination artifacts. */
  pageNumbers(): void {
    const { doc, left, width } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const keep = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      this.artifact(() => {
        doc
          .font("Helvetica")
          .fontSize(8)
          .fillColor(MUTED)
          .text(`Page ${i - range.start + 1} of ${range.count}`, left, doc.page.height - MARGIN + 10, {
            width,
            align: "right",
            lineBreak: false,
          });
      }, "Pagination");
      doc.page.margins.bottom = keep;
    }
  }
}

/** The document: A4, tagged, in the client's language, its metadata dated when the report was asked for. */
function reportDocument(input: ValuationReportInput): PDFKit.PDFDocument {
  const created = new Date(input.createdAt);
  return new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    tagged: true,
    lang: input.locale,
    displayTitle: true,
    pdfVersion: "1.7",
    info: {
      Title: `${input.title}: ${input.clientName}`,
      Author: input.firmName,
      Subject: periodLine(input.period),
      Keywords: "valuation report",
      CreationDate: created,
      ModDate: created,
    },
  });
}

/** The first page's head: the title, the client, the date or period, and who prepared it. */
function titleBlock(layout: ReportLayout, input: ValuationReportInput): void {
  layout.runningHead();
  layout.doc.y = MARGIN + 10;
  layout.heading("H1", input.title, 20);
  layout.doc.moveDown(HEADING_GAP);
  layout.paragraph(input.clientName, 13);
  layout.paragraph(periodLine(input.period), 11, MUTED);
  layout.paragraph(
    `Values in ${input.currency}. Prepared by ${input.firmName} on ${longDate(input.createdAt)}.`,
    9,
    MUTED,
  );
  layout.doc.moveDown(1);
}

/** An account's holdings as the investments tab prints them, and its total in bold. */
function holdingRows(account: ReportAccount, currency: string): Row[] {
  return [
    ...account.holdings.map((h) => ({
      cells: [
        securityName(h.name),
        formatUnits(h.units),
        formatPrice(h.price, h.currency),
        h.currency,
        formatMoney(h.value, currency),
      ],
    })),
    { cells: [`Total of ${account.name}`, "", "", "", formatMoney(account.total, currency)], bold: true },
  ];
}

/** An account: its name, its number and its holdings' table. */
function accountSection(layout: ReportLayout, account: ReportAccount, currency: string): void {
  layout.doc.moveDown(0.5);
  const rows = holdingRows(account, currency);
  const numberLine = `Account number ${account.number}`;
  // the heading, the account's number and the table's start (its header and first rows, or all
  // of a short one) together
  const keepWith =
    layout.paragraphHeight(numberLine, 9) + layout.gap(0.3, 9) + layout.tableStart(HOLDING_COLUMNS, rows);
  layout.heading("H2", account.name, 13, INK, keepWith);
  layout.paragraph(numberLine, 9, MUTED);
  layout.doc.moveDown(0.3);
  layout.table(HOLDING_COLUMNS, rows);
}

/** Two columns: a label and an amount on the right. */
const measureColumns = (width: number, label: string, amount: string): Column[] => [
  { header: label, width: width - 160, align: "left" },
  { header: amount, width: 160, align: "right" },
];

/** The grand total of the accounts. */
function totalSection(layout: ReportLayout, input: ValuationReportInput): void {
  const columns = measureColumns(layout.width, "Accounts", `Value (${input.currency})`);
  const count = input.accounts.length;
  const rows: Row[] = [
    {
      cells: [
        `Grand total of ${count} account${count === 1 ? "" : "s"}`,
        formatMoney(input.grandTotal, input.currency),
      ],
      bold: true,
    },
  ];
  layout.heading("H2", "Total value", 13, INK, layout.tableStart(columns, rows));
  layout.table(columns, rows);
}

/** The performance measures over a period: values, flows, the gain and the time-weighted returns. */
function performanceRows(p: ReportPerformance, period: { from: string; to: string }, currency: string): Row[] {
  const rows: Row[] = [
    { cells: [`Value on ${longDate(period.from)}`, formatMoney(p.valueFrom, currency)] },
    { cells: ["Net contributions (paid in less taken out)", formatMoney(p.netFlows, currency)] },
    { cells: ["Gain or loss", formatMoney(p.movement, currency)] },
    { cells: [`Value on ${longDate(period.to)}`, formatMoney(p.valueTo, currency)], bold: true },
    {
      cells: [
        p.since ? `Time-weighted return since ${longDate(p.since)}` : "Time-weighted return over the period",
        p.twrPeriod === null ? "Not available" : percent(p.twrPeriod),
      ],
    },
  ];
  // annualised only over more than a year, and over the period the return covers (GIPS, decision 109)
  if (p.twrAnnualised !== null) {
    const label = p.since
      ? `Time-weighted return a year since ${longDate(p.since)} (annualised)`
      : "Time-weighted return a year (annualised)";
    rows.push({ cells: [label, percent(p.twrAnnualised)] });
  }
  return rows;
}

/** The performance over a period (a report as at a date has none). */
function performanceSection(layout: ReportLayout, input: ValuationReportInput, p: ReportPerformance): void {
  if (input.period.kind !== "range") return;
  const rows = performanceRows(p, input.period, input.currency);
  const columns = measureColumns(layout.width, "Measure", "Amount");
  const title = p.sinceInception ? "Performance since inception" : "Performance over the period";
  layout.heading("H2", title, 13, INK, layout.tableStart(columns, rows));
  layout.table(columns, rows);
}

const BAR_HEIGHT = 12;
const BAR_GAP = 6;
const BAR_LABEL_WIDTH = 130;

/** The basis of valuation's height: its heading and paragraphs (0 without one). */
function basisHeight(layout: ReportLayout, basis: ValuationReportInput["basis"]): number {
  return basis
    ? layout.headingHeight(basis.title, 12) + basis.paragraphs.reduce((sum, t) => sum + layout.paragraphHeight(t, 9), 0)
    : 0;
}

/**
 * The end of the document is never a page of its own few lines: when the basis of valuation would
 * stand alone on a last page, the allocation section (`whole` points high) goes over with it.
 */
function keepEndTogether(layout: ReportLayout, input: ValuationReportInput, whole: number): void {
  const withBasis = whole + layout.gap(1, 9) + basisHeight(layout, input.basis);
  // (measured to a few points: the drawing's line heights round differently, so in doubt it goes over)
  const room = layout.bottom() - layout.doc.y;
  if (whole <= room && withBasis + 6 > room && withBasis <= layout.pageRoom()) layout.newPage();
}

/** The allocation as a figure: a swatch, the asset class, a bar as long as its share and the share. */
function allocationFigure(layout: ReportLayout, input: ValuationReportInput, top: number): void {
  const { doc, left } = layout;
  const barMax = layout.width - BAR_LABEL_WIDTH - 70;
  const colourOf = (i: number) => input.palette[i % input.palette.length] ?? input.brandColour;
  const shares = input.allocation.map((a) => `${a.name} ${number(a.weight, 1, 1)}%`).join(", ");
  const alt = `Bar chart of the allocation by asset class: ${shares}.`;
  const box = (x: number, y: number, w: number, h: number, colour: string) =>
    doc.rect(x, y, w, h).fillColor(colour).fill();
  const label = (text: string, x: number, y: number, width: number) =>
    doc.font("Helvetica").fontSize(9).fillColor(INK).text(text, x, y, { width, lineBreak: false });
  layout.root.add(
    doc.struct("Figure", { alt }, () => {
      input.allocation.forEach((a, i) => {
        const y = top + i * (BAR_HEIGHT + BAR_GAP);
        box(left, y + 2, 8, 8, colourOf(i));
        label(a.name, left + 14, y + 2, BAR_LABEL_WIDTH - 18);
        const length = Math.max(1, (barMax * Math.max(0, a.weight)) / 100);
        box(left + BAR_LABEL_WIDTH, y, length, BAR_HEIGHT, colourOf(i));
        label(`${number(a.weight, 1, 1)}%`, left + BAR_LABEL_WIDTH + length + 6, y + 2, 60);
      });
    }),
  );
}

/** The allocation by asset class: bars (a figure) and the legend as a table, started on one page. */
function allocationSection(layout: ReportLayout, input: ValuationReportInput): void {
  const { doc } = layout;
  const columns: Column[] = [
    { header: "Asset class", width: layout.width - 230, align: "left" },
    { header: "Share", width: 80, align: "right" },
    { header: `Value (${input.currency})`, width: 150, align: "right" },
  ];
  const rows: Row[] = input.allocation.map((a) => ({
    cells: [a.name, `${number(a.weight, 2, 2)}%`, formatMoney(a.value, input.currency)],
  }));
  const figureHeight = input.allocation.length * (BAR_HEIGHT + BAR_GAP) + 10;
  const title = "Allocation by asset class";
  const sizes = layout.measure(columns, rows);
  const whole =
    layout.headingHeight(title, 13) +
    layout.gap(0.3, 13) +
    figureHeight +
    sizes.header +
    sizes.heights.reduce((a, b) => a + b, 0);
  keepEndTogether(layout, input, whole);
  // the heading, the bars and the start of the legend's table on one page
  layout.heading("H2", title, 13, INK, layout.gap(0.3, 13) + figureHeight + layout.tableStart(columns, rows));
  doc.moveDown(0.3);
  const top = doc.y;
  allocationFigure(layout, input, top);
  doc.x = layout.left;
  doc.y = top + figureHeight;
  layout.table(columns, rows);
}

/** The basis of valuation: the end of the document, its heading and paragraphs kept together. */
function basisSection(layout: ReportLayout, basis: NonNullable<ValuationReportInput["basis"]>): void {
  const keepWith = basisHeight(layout, basis) - layout.headingHeight(basis.title, 12);
  layout.heading("H2", basis.title, 12, INK, keepWith);
  for (const t of basis.paragraphs) layout.paragraph(t, 9, MUTED);
}

export async function renderValuationReportPdf(input: ValuationReportInput): Promise<Buffer> {
  const doc = reportDocument(input);
  const done = pdfBytes(doc);
  const layout = new ReportLayout(doc, input);
  titleBlock(layout, input);
  if (input.accounts.length === 0) {
    layout.paragraph(NO_ACCOUNTS, 12);
  } else {
    for (const account of input.accounts) {
      await breathe();
      accountSection(layout, account, input.currency);
    }
    await breathe();
    totalSection(layout, input);
  }
  if (input.performance) {
    await breathe();
    performanceSection(layout, input, input.performance);
  }
  if (input.allocation.length > 0) {
    await breathe();
    allocationSection(layout, input);
  }
  if (input.basis) {
    await breathe();
    basisSection(layout, input.basis);
  }
  layout.pageNumbers();
  layout.root.end();
  doc.end();
  return done;
}
