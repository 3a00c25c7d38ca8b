// spec 002 "Valuation report page", §4 "Report run" (docs/platform-api.md "Valuation reports"): the
// valuation report as a real PDF (pdfkit): the firm and its colour, the client, the date or the
// period, each account's holdings (units, price, currency, value) with its total, the grand total,
// the performance over a period, an allocation chart by asset class (vector bars) with its legend
// in text, the basis of valuation and page numbers. Tagged (headings, paragraphs, tables, a figure
// with its alternative text; page furniture as artifacts), with real text in the standard fonts.
import PDFDocument from "pdfkit";
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
  return new Intl.NumberFormat("en-GB", { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Math.round(amount * 100) / 100 + 0,
  );
}

const number = (value: number, min: number, max: number) =>
  new Intl.NumberFormat("en-GB", { minimumFractionDigits: min, maximumFractionDigits: max }).format(value);
const percent = (fraction: number) => `${number(fraction * 100, 2, 2)}%`;

/** The line under the title: "Valuation as at 14 March 2025" or "Valuation for 1 January 2024 to 14 March 2025". */
export function periodLine(period: ValuationReportInput["period"]): string {
  return period.kind === "asAt"
    ? `Valuation as at ${longDate(period.date)}`
    : `Valuation for ${longDate(period.from)} to ${longDate(period.to)}`;
}

export const NO_ACCOUNTS = "No investment accounts to value";
/** A holding whose security has no usable name. */
export const UNNAMED = "Unnamed security";

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
      doc.font("Helvetica-Bold").fontSize(9).fillColor(input.brandColour).text(input.firmName, left, MARGIN - 26, { width, lineBreak: false });
      doc.moveTo(left, MARGIN - 12).lineTo(left + width, MARGIN - 12).lineWidth(1.5).strokeColor(input.brandColour).stroke();
    }, "Pagination");
  const newPage = () => {
    doc.addPage();
    runningHead();
    doc.x = left;
    doc.y = MARGIN;
  };
  const ensure = (height: number) => {
    if (doc.y + height > bottom()) newPage();
  };
  const block = (type: string, draw: () => void) => root.add(doc.struct(type, {}, draw));
  const heading = (type: "H1" | "H2" | "H3", text: string, size: number, colour = INK) => {
    ensure(size * 3);
    block(type, () => {
      doc.font("Helvetica-Bold").fontSize(size).fillColor(colour).text(text, left, doc.y, { width });
    });
  };
  const paragraph = (text: string, size = 10, colour = INK) => {
    doc.font("Helvetica").fontSize(size);
    ensure(doc.heightOfString(text, { width }) + 4);
    block("P", () => {
      doc.font("Helvetica").fontSize(size).fillColor(colour).text(text, left, doc.y, { width, lineGap: 1.5 });
    });
  };

  /**
   * A table: a header row (repeated, as an artifact, on a page the table runs onto), body rows and
   * bold rows (totals). Columns' widths add up to the text width.
   */
  const table = (columns: Column[], rows: Array<{ cells: string[]; bold?: boolean }>) => {
    const tableStruct = doc.struct("Table");
    root.add(tableStruct);
    const heightOf = (cells: string[], bold: boolean) => {
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
      return Math.max(...cells.map((c, i) => doc.heightOfString(c || " ", { width: (columns[i] as Column).width - CELL_PAD * 2 }))) + CELL_PAD * 2;
    };
    const drawCells = (cells: string[], y: number, bold: boolean, colour: string) => {
      let x = left;
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9).fillColor(colour);
      cells.forEach((cell, i) => {
        const column = columns[i] as Column;
        doc.text(cell, x + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
        x += column.width;
      });
    };
    const rule = (y: number, weight = 0.5) => artifact(() => doc.moveTo(left, y).lineTo(left + width, y).lineWidth(weight).strokeColor(RULE).stroke());
    const headers = columns.map((c) => c.header);
    const headerRow = (tagged: boolean) => {
      const y = doc.y;
      const height = heightOf(headers, true);
      artifact(() => doc.rect(left, y, width, height).fillColor("#f0f4f8").fill());
      if (tagged) {
        const tr = doc.struct("TR");
        tableStruct.add(tr);
        let x = left;
        columns.forEach((column) => {
          const at = x;
          tr.add(
            doc.struct("TH", {}, () => {
              doc.font("Helvetica-Bold").fontSize(9).fillColor(INK).text(column.header, at + CELL_PAD, y + CELL_PAD, { width: column.width - CELL_PAD * 2, align: column.align });
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
    ensure(heightOf(headers, true) * 2);
    headerRow(true);
    for (const row of rows) {
      const height = heightOf(row.cells, row.bold ?? false);
      if (doc.y + height > bottom()) {
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
    }
    tableStruct.end();
    doc.x = left;
    doc.moveDown(1);
  };

  // ── the first page: firm, title, client, date
  runningHead();
  doc.y = MARGIN + 10;
  heading("H1", input.title, 20);
  doc.moveDown(0.2);
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
      // the heading, the table's head and a few rows together
      ensure(130);
      heading("H2", account.name, 13);
      paragraph(`Account number ${account.number}`, 9, MUTED);
      doc.moveDown(0.3);
      table(HOLDING_COLUMNS, [
        ...account.holdings.map((h) => ({
          cells: [h.name.trim() || UNNAMED, number(h.units, 0, 6), number(h.price, 2, 4), h.currency, formatMoney(h.value, input.currency)],
        })),
        { cells: [`Total of ${account.name}`, "", "", "", formatMoney(account.total, input.currency)], bold: true },
      ]);
    }
    await breathe();
    ensure(60);
    heading("H2", "Total value", 13);
    table(
      [
        { header: "Accounts", width: width - 160, align: "left" },
        { header: `Value (${input.currency})`, width: 160, align: "right" },
      ],
      [{ cells: [`Grand total of ${input.accounts.length} account${input.accounts.length === 1 ? "" : "s"}`, formatMoney(input.grandTotal, input.currency)], bold: true }],
    );
  }

  // ── performance over the period
  if (input.performance) {
    await breathe();
    const p = input.performance;
    if (input.period.kind === "range") {
      heading("H2", p.sinceInception ? "Performance since inception" : "Performance over the period", 13);
      const rows = [
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
        const label = p.since ? `Time-weighted return a year since ${longDate(p.since)} (annualised)` : "Time-weighted return a year (annualised)";
        rows.push({ cells: [label, percent(p.twrAnnualised)] });
      }
      table(
        [
          { header: "Measure", width: width - 160, align: "left" },
          { header: "Amount", width: 160, align: "right" },
        ],
        rows,
      );
    }
  }

  // ── allocation by asset class: bars (a figure) and the legend as a table
  if (input.allocation.length > 0) {
    await breathe();
    // the heading, the bars and the legend's table on one page
    ensure(60 + input.allocation.length * 18 + (input.allocation.length + 1) * 20);
    heading("H2", "Allocation by asset class", 13);
    doc.moveDown(0.3);
    const barHeight = 12;
    const gap = 6;
    const labelWidth = 130;
    const barMax = width - labelWidth - 70;
    const top = doc.y;
    const colourOf = (i: number) => input.palette[i % input.palette.length] ?? input.brandColour;
    const alt = `Bar chart of the allocation by asset class: ${input.allocation.map((a) => `${a.name} ${number(a.weight, 1, 1)}%`).join(", ")}.`;
    root.add(
      doc.struct("Figure", { alt }, () => {
        input.allocation.forEach((a, i) => {
          const y = top + i * (barHeight + gap);
          doc.rect(left, y + 2, 8, 8).fillColor(colourOf(i)).fill();
          doc.font("Helvetica").fontSize(9).fillColor(INK).text(a.name, left + 14, y + 2, { width: labelWidth - 18, lineBreak: false });
          const length = Math.max(1, (barMax * Math.max(0, a.weight)) / 100);
          doc.rect(left + labelWidth, y, length, barHeight).fillColor(colourOf(i)).fill();
          doc.font("Helvetica").fontSize(9).fillColor(INK).text(`${number(a.weight, 1, 1)}%`, left + labelWidth + length + 6, y + 2, { width: 60, lineBreak: false });
        });
      }),
    );
    doc.x = left;
    doc.y = top + input.allocation.length * (barHeight + gap) + 10;
    table(
      [
        { header: "Asset class", width: width - 230, align: "left" },
        { header: "Share", width: 80, align: "right" },
        { header: `Value (${input.currency})`, width: 150, align: "right" },
      ],
      input.allocation.map((a) => ({ cells: [a.name, `${number(a.weight, 2, 2)}%`, formatMoney(a.value, input.currency)] })),
    );
  }

  // ── basis of valuation
  if (input.basis) {
    await breathe();
    heading("H2", input.basis.title, 12);
    for (const text of input.basis.paragraphs) paragraph(text, 9, MUTED);
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
        .text(`Page ${i - range.start + 1} of ${range.count}`, left, doc.page.height - MARGIN + 10, { width, align: "right", lineBreak: false });
    }, "Pagination");
    doc.page.margins.bottom = keep;
  }
  root.end();
  doc.end();
  return done;
}
