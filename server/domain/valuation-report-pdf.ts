// spec 002 "Valuation report page", §4 "Report run" (docs/platform-api.md "Valuation reports"): the
// valuation report as a real PDF (pdfkit): the firm and its colour, the client, the date or the
// period, each account's holdings (units, price, currency, value) with its total, the grand total,
// the performance over a period, an allocation chart by asset class (vector bars) with its legend
// in text, the basis of valuation and page numbers. Tagged (headings, paragraphs, tables, a figure
// with its alternative text; page furniture as artifacts), with real text in the standard fonts.
import PDFDocument from "pdfkit";
import { keepTogether, tableLayout, tableStartHeight } from "./pdf-layout";
import { longDate } from "./signature-pdf";

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
  return new Intl.NumberFormat("en-GB", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Math.round(amount * 100) / 100 + 0);
}

const number = (value: number, min: number, max: number) =>
  new Intl.NumberFormat("en-GB", { minimumFractionDigits: min, maximumFractionDigits: max }).format(value);
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
    return new Intl.NumberFormat("en-GB", {
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

export async function renderValuationReportPdf(input: ValuationReportInput): Promise<Buffer> {
  const created = new Date(input.createdAt);
  const subject = periodLine(input.period);
  const doc = new PDFDocument({
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
      Subject: subject,
      Keywords: "valuation report",
      CreationDate: created,
      ModDate: created,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;
  const bottom = () => doc.page.height - MARGIN - 24;
  const root = doc.struct("Document");
  doc.addStructure(root);

  /** Decoration (rules, swatches, the running head): marked as an artifact, outside the structure. */
  const artifact = (draw: () => void, type: "Layout" | "Pagination" = "Layout") => {
    doc.markContent("Artifact", { type });
    draw();
    doc.endMarkedContent();
  };
  const runningHead = () =>
    artifact(() => {
      doc
        .font("Helvetica-Bold")
        .fontSize(9)
        .fillColor(input.brandColour)
        .text(input.firmName, left, MARGIN - 26, { width, lineBreak: false });
      doc
        .moveTo(left, MARGIN - 12)
        .lineTo(left + width, MARGIN - 12)
        .lineWidth(1.5)
        .strokeColor(input.brandColour)
        .stroke();
    }, "Pagination");
  const newPage = () => {
    doc.addPage();
    runningHead();
    doc.x = left;
    doc.y = MARGIN;
  };
  /** The room a fresh page has for content. */
  const pageRoom = () => bottom() - MARGIN;
  const ensure = (height: number) => {
    if (keepTogether(height, bottom() - doc.y, pageRoom())) newPage();
  };
  const block = (type: string, draw: () => void) => root.add(doc.struct(type, {}, draw));
  const HEADING_GAP = 0.2;
  const headingHeight = (text: string, size: number) => {
    doc.font("Helvetica-Bold").fontSize(size);
    return doc.heightOfString(text, { width });
  };
  /** A heading; `keepWith` is the height of what must follow it on the same page. */
  const heading = (type: "H1" | "H2" | "H3", text: string, size: number, colour = INK, keepWith = size * 2) => {
    ensure(headingHeight(text, size) + keepWith);
    block(type, () => {
      doc.font("Helvetica-Bold").fontSize(size).fillColor(colour).text(text, left, doc.y, { width });
    });
  };
  const PARAGRAPH_GAP = 1.5;
  const paragraphHeight = (text: string, size: number) => {
    doc.font("Helvetica").fontSize(size);
    return doc.heightOfString(text, { width, lineGap: PARAGRAPH_GAP });
  };
  const paragraph = (text: string, size = 10, colour = INK) => {
    ensure(paragraphHeight(text, size));
    block("P", () => {
      doc.font("Helvetica").fontSize(size).fillColor(colour).text(text, left, doc.y, { width, lineGap: PARAGRAPH_GAP });
    });
  };
  /** The height of `lines` of moveDown at a font size. */
  const gap = (lines: number, size: number) => {
    doc.font("Helvetica").fontSize(size);
    return doc.currentLineHeight(true) * lines;
  };

  /** The basis of valuation's height: its heading and paragraphs (0 without one). */
  const basisHeight = () =>
    input.basis
      ? headingHeight(input.basis.title, 12) + input.basis.paragraphs.reduce((sum, t) => sum + paragraphHeight(t, 9), 0)
      : 0;

  type Row = { cells: string[]; bold?: boolean };
  const rowHeight = (columns: Column[], cells: string[], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    return (
      Math.max(
        ...cells.map((c, i) => doc.heightOfString(c || " ", { width: (columns[i] as Column).width - CELL_PAD * 2 })),
      ) +
      CELL_PAD * 2
    );
  };
  /** What the layout needs to know of a table: its header's and rows' heights, and its totals (the bold rows at its end). */
  const measure = (columns: Column[], rows: Row[]) => {
    let totals = 0;
    while (totals < rows.length && rows[rows.length - 1 - totals]?.bold) totals++;
    return {
      header: rowHeight(
        columns,
        columns.map((c) => c.header),
        true,
      ),
      heights: rows.map((row) => rowHeight(columns, row.cells, row.bold ?? false)),
      totals,
    };
  };
  /** The height a table needs to start on a page (its header and first rows, or all of a short one). */
  const tableStart = (columns: Column[], rows: Row[]) => tableStartHeight(measure(columns, rows));

  /**
   * A table: a header row (repeated, as an artifact, on a page the table runs onto), body rows and
   * bold rows (totals, kept with the last body rows). Columns' widths add up to the text width. It
   * breaks where `tableLayout` says (decision 110).
   */
  const table = (columns: Column[], rows: Row[]) => {
    const sizes = measure(columns, rows);
    const layout = tableLayout({ ...sizes, room: bottom() - doc.y, page: pageRoom() });
    if (layout.newPage) newPage();
    const breaks = new Set(layout.breaks);
    const tableStruct = doc.struct("Table");
    root.add(tableStruct);
    const drawCells = (cells: string[], y: number, bold: boolean, colour: string) => {
      let x = left;
      doc
        .font(bold ? "Helvetica-Bold" : "Helvetica")
        .fontSize(9)
        .fillColor(colour);
      cells.forEach((cell, i) => {
        const column = columns[i] as Column;
        doc.text(cell, x + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
        x += column.width;
      });
    };
    const rule = (y: number, weight = 0.5) =>
      artifact(() =>
        doc
          .moveTo(left, y)
          .lineTo(left + width, y)
          .lineWidth(weight)
          .strokeColor(RULE)
          .stroke(),
      );
    const headers = columns.map((c) => c.header);
    const headerRow = (tagged: boolean) => {
      const y = doc.y;
      const height = sizes.header;
      artifact(() => doc.rect(left, y, width, height).fillColor("#f0f4f8").fill());
      if (tagged) {
        const tr = doc.struct("TR");
        tableStruct.add(tr);
        let x = left;
        columns.forEach((column) => {
          const at = x;
          tr.add(
            doc.struct("TH", {}, () => {
              doc
                .font("Helvetica-Bold")
                .fontSize(9)
                .fillColor(INK)
                .text(column.header, at + CELL_PAD, y + CELL_PAD, {
                  width: column.width - CELL_PAD * 2,
                  align: column.align,
                });
            }),
          );
          x += column.width;
        });
        tr.end();
      } else {
        artifact(() => drawCells(headers, y, true, INK));
      }
      doc.y = y + height;
    };
    headerRow(true);
    rows.forEach((row, index) => {
      const height = sizes.heights[index] as number;
      if (breaks.has(index)) {
        newPage();
        headerRow(false);
      }
      const y = doc.y;
      const tr = doc.struct("TR");
      tableStruct.add(tr);
      let x = left;
      row.cells.forEach((cell, i) => {
        const column = columns[i] as Column;
        const at = x;
        tr.add(
          doc.struct("TD", {}, () => {
            doc
              .font(row.bold ? "Helvetica-Bold" : "Helvetica")
              .fontSize(9)
              .fillColor(INK)
              .text(cell, at + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
          }),
        );
        x += column.width;
      });
      tr.end();
      rule(y + height, row.bold ? 1 : 0.5);
      doc.y = y + height;
    });
    tableStruct.end();
    doc.x = left;
    doc.moveDown(1);
  };

  // ── the first page: firm, title, client, date
  runningHead();
  doc.y = MARGIN + 10;
  heading("H1", input.title, 20);
  doc.moveDown(HEADING_GAP);
  paragraph(input.clientName, 13);
  paragraph(subject, 11, MUTED);
  paragraph(`Values in ${input.currency}. Prepared by ${input.firmName} on ${longDate(input.createdAt)}.`, 9, MUTED);
  doc.moveDown(1);

  if (input.accounts.length === 0) {
    paragraph(NO_ACCOUNTS, 12);
  } else {
    // ── each account: its holdings and total
    for (const account of input.accounts) {
      await breathe();
      doc.moveDown(0.5);
      const rows: Row[] = [
        ...account.holdings.map((h) => ({
          cells: [
            securityName(h.name),
            formatUnits(h.units),
            formatPrice(h.price, h.currency),
            h.currency,
            formatMoney(h.value, input.currency),
          ],
        })),
        { cells: [`Total of ${account.name}`, "", "", "", formatMoney(account.total, input.currency)], bold: true },
      ];
      const numberLine = `Account number ${account.number}`;
      // the heading, the account's number and the table's start (its header and first rows, or all
      // of a short one) together
      heading(
        "H2",
        account.name,
        13,
        INK,
        paragraphHeight(numberLine, 9) + gap(0.3, 9) + tableStart(HOLDING_COLUMNS, rows),
      );
      paragraph(numberLine, 9, MUTED);
      doc.moveDown(0.3);
      table(HOLDING_COLUMNS, rows);
    }
    await breathe();
    const totalColumns: Column[] = [
      { header: "Accounts", width: width - 160, align: "left" },
      { header: `Value (${input.currency})`, width: 160, align: "right" },
    ];
    const totalRows: Row[] = [
      {
        cells: [
          `Grand total of ${input.accounts.length} account${input.accounts.length === 1 ? "" : "s"}`,
          formatMoney(input.grandTotal, input.currency),
        ],
        bold: true,
      },
    ];
    heading("H2", "Total value", 13, INK, tableStart(totalColumns, totalRows));
    table(totalColumns, totalRows);
  }

  // ── performance over the period
  if (input.performance) {
    await breathe();
    const p = input.performance;
    if (input.period.kind === "range") {
      const rows: Row[] = [
        { cells: [`Value on ${longDate(input.period.from)}`, formatMoney(p.valueFrom, input.currency)] },
        { cells: ["Net contributions (paid in less taken out)", formatMoney(p.netFlows, input.currency)] },
        { cells: ["Gain or loss", formatMoney(p.movement, input.currency)] },
        { cells: [`Value on ${longDate(input.period.to)}`, formatMoney(p.valueTo, input.currency)], bold: true },
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
      const columns: Column[] = [
        { header: "Measure", width: width - 160, align: "left" },
        { header: "Amount", width: 160, align: "right" },
      ];
      heading(
        "H2",
        p.sinceInception ? "Performance since inception" : "Performance over the period",
        13,
        INK,
        tableStart(columns, rows),
      );
      table(columns, rows);
    }
  }

  // ── allocation by asset class: bars (a figure) and the legend as a table
  if (input.allocation.length > 0) {
    await breathe();
    const barHeight = 12;
    const barGap = 6;
    const labelWidth = 130;
    const barMax = width - labelWidth - 70;
    const columns: Column[] = [
      { header: "Asset class", width: width - 230, align: "left" },
      { header: "Share", width: 80, align: "right" },
      { header: `Value (${input.currency})`, width: 150, align: "right" },
    ];
    const rows: Row[] = input.allocation.map((a) => ({
      cells: [a.name, `${number(a.weight, 2, 2)}%`, formatMoney(a.value, input.currency)],
    }));
    const figureHeight = input.allocation.length * (barHeight + barGap) + 10;
    const title = "Allocation by asset class";
    // the end of the document is never a page of its own few lines: when the basis of valuation
    // would stand alone on a last page, this section goes over with it
    const sizes = measure(columns, rows);
    const whole =
      headingHeight(title, 13) + gap(0.3, 13) + figureHeight + sizes.header + sizes.heights.reduce((a, b) => a + b, 0);
    const withBasis = whole + gap(1, 9) + basisHeight();
    // (measured to a few points: the drawing's line heights round differently, so in doubt it goes over)
    const room = bottom() - doc.y;
    if (whole <= room && withBasis + 6 > room && withBasis <= pageRoom()) newPage();
    // the heading, the bars and the start of the legend's table on one page
    heading("H2", title, 13, INK, gap(0.3, 13) + figureHeight + tableStart(columns, rows));
    doc.moveDown(0.3);
    const top = doc.y;
    const colourOf = (i: number) => input.palette[i % input.palette.length] ?? input.brandColour;
    const alt = `Bar chart of the allocation by asset class: ${input.allocation.map((a) => `${a.name} ${number(a.weight, 1, 1)}%`).join(", ")}.`;
    root.add(
      doc.struct("Figure", { alt }, () => {
        input.allocation.forEach((a, i) => {
          const y = top + i * (barHeight + barGap);
          doc
            .rect(left, y + 2, 8, 8)
            .fillColor(colourOf(i))
            .fill();
          doc
            .font("Helvetica")
            .fontSize(9)
            .fillColor(INK)
            .text(a.name, left + 14, y + 2, { width: labelWidth - 18, lineBreak: false });
          const length = Math.max(1, (barMax * Math.max(0, a.weight)) / 100);
          doc
            .rect(left + labelWidth, y, length, barHeight)
            .fillColor(colourOf(i))
            .fill();
          doc
            .font("Helvetica")
            .fontSize(9)
            .fillColor(INK)
            .text(`${number(a.weight, 1, 1)}%`, left + labelWidth + length + 6, y + 2, { width: 60, lineBreak: false });
        });
      }),
    );
    doc.x = left;
    doc.y = top + figureHeight;
    table(columns, rows);
  }

  // ── basis of valuation: the end of the document, its heading and paragraphs kept together
  if (input.basis) {
    await breathe();
    heading("H2", input.basis.title, 12, INK, basisHeight() - headingHeight(input.basis.title, 12));
    for (const t of input.basis.paragraphs) paragraph(t, 9, MUTED);
  }

  // ── page numbers on every page, as pagination artifacts
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    artifact(() => {
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
  root.end();
  doc.end();
  return done;
}
