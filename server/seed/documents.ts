// The demo documents and messages (docs/platform-api.md "Documents and messages"): about two years
// of valuations, contract notes, letters and secure messages for the Hartleys, a few for Priya Shah
// (demo.messages), with attachments, read and unread ones and two adviser-only notes. Dates are
// relative to the clock's today. Its own seeded random, so nothing drawn here moves earlier data.
import type { Db } from "../db/connection";
import { longDate, shiftInstant } from "../domain/calendar";
import {
  documentAttachments,
  documentCategories,
  documentCategoryLinks,
  documentEntities,
  documentFirstReads,
  documents,
  documentTypes,
  emailTemplates,
} from "../db/schema";
import { between, type Random, seededRandom } from "../lib/random";
import { docmFile, pdfFile, pngFile, xlsxFile } from "./files";
import { IMPORTANT_CATEGORY_ID, NOTIFICATION_TEMPLATE_ID, TAX_CATEGORY_ID } from "./settings";

const SEED = 20250601;

export type DocumentPeople = {
  client: number;
  partner: number;
  messages: number;
  clientUserId: number;
  messagesUserId: number;
  adviserUserId: number;
  adviserName: string;
};

export const DOCUMENT_TYPES = [
  { code: "SecureMessage", name: "Secure Message" },
  { code: "Valuation", name: "Valuation" },
  { code: "ContractNote", name: "Contract note" },
  { code: "TermsAndConditions", name: "Terms and Conditions" },
  { code: "AnnualReview", name: "Annual review" },
  { code: "Letter", name: "Letter" },
] as const;

type Doctype = (typeof DOCUMENT_TYPES)[number]["code"];
type Who = "client" | "partner" | "messages";
type FileKind = "pdf" | "png" | "docm" | "xlsx";

type DocSeed = {
  subject: string;
  doctype: Doctype;
  daysAgo: number;
  hour: number;
  owners: Who[];
  body: string;
  referenceDaysAgo?: number;
  from?: "adviser" | "client" | "messages";
  categories?: number[];
  files?: Array<{ kind: FileKind; name: string; text?: string }>;
  adviserOnly?: boolean;
  pending?: boolean;
  /** Who has read it (a first read an hour or more after it arrived). */
  readBy?: Who[];
};

const LOGO = '<p><img src="/resourceful/docnote/images/logo.png" alt="Northbridge Wealth" width="120" height="30"></p>';
const SIGN_OFF = (adviser: string) =>
  `<p>Kind regards,</p><p><strong>${adviser}</strong><br>Chartered Financial Planner, Northbridge Wealth</p>`;

const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  png: "image/png",
  docm: "application/vnd.ms-word.document.macroEnabled.12",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

function fileBytes(kind: FileKind, name: string, text: string): Buffer {
  switch (kind) {
    case "pdf":
      return pdfFile(name.replace(/\.pdf$/i, ""), [text, "Northbridge Wealth, 41 Moorgate Place, London EC2R 6EA"]);
    case "png":
      return pngFile(48, 32, [0, 133, 124], [255, 255, 255]);
    case "docm":
      return docmFile(text);
    case "xlsx":
      return xlsxFile([
        ["Year", "Income", "Spending", "Surplus"],
        ["2025/26", "96,000", "71,500", "24,500"],
        ["2026/27", "98,400", "73,300", "25,100"],
        ["2027/28", "100,900", "75,100", "25,800"],
      ]);
  }
}

/** The Hartleys' documents: Ellie's (client), James's (partner) and shared ones. */
function hartleyDocuments(adviser: string, now: Date): DocSeed[] {
  return [
    ...quarterlyValuations(adviser, now),
    ...contractNotes(now),
    ...recentAdviserMessages(adviser),
    ...olderAdviserMessages(adviser),
    ...jamesMessages(adviser),
    ...FILE_NOTES,
    ...ELLIES_SENT_MESSAGES,
  ];
}

/** Quarterly valuations of the joint portfolio, the latest not yet read. */
function quarterlyValuations(adviser: string, now: Date): DocSeed[] {
  const seeds: DocSeed[] = [];
  for (let q = 0; q < 8; q++) {
    const daysAgo = 12 + q * 91;
    const reference = shiftInstant(now, -(daysAgo + 11));
    seeds.push({
      subject: `Quarterly valuation to ${longDate(reference)}`,
      doctype: "Valuation",
      daysAgo,
      hour: 7,
      referenceDaysAgo: daysAgo + 11,
      owners: ["client", "partner"],
      body: `${LOGO}<p>Dear Ellie and James,</p><p>Please find attached your quarterly valuation to ${longDate(reference)}. It shows the value of each of your accounts, the transactions in the quarter and how your portfolios performed.</p>${SIGN_OFF(adviser)}`,
      files:
        q < 3
          ? [{ kind: "pdf", name: `Valuation ${longDate(reference)}.pdf`, text: `Valuation to ${longDate(reference)}` }]
          : [],
      readBy: q === 0 ? ["partner"] : ["client", "partner"],
    });
  }
  return seeds;
}

/** Contract notes: what was traded, days ago and whose. */
const TRADES: Array<[what: string, daysAgo: number, who: Who]> = [
  ["purchase of 1,200 iShares Core FTSE 100 UCITS ETF", 40, "client"],
  ["sale of 300 Unilever plc", 118, "client"],
  ["purchase of 150 Microsoft Corporation", 205, "client"],
  ["purchase of 500 Vanguard UK Gilt UCITS ETF", 330, "client"],
  ["purchase of 40 ASML Holding N.V.", 262, "client"],
  ["sale of 1,000 Land Securities Group plc", 440, "client"],
  ["purchase of 60 Apple Inc.", 520, "client"],
  ["purchase of 250 iShares 7-10 Year Treasury Bond ETF", 650, "client"],
  ["sale of 80 AstraZeneca plc", 150, "partner"],
  ["purchase of 2,000 HSBC Holdings plc", 420, "partner"],
];

/** Ellie's trades, and two of James's (his only, seen by Ellie through partner viewing). */
function contractNotes(now: Date): DocSeed[] {
  return TRADES.map(([what, daysAgo, who]) => ({
    subject: `Contract note: ${what}`,
    doctype: "ContractNote",
    daysAgo,
    hour: 16,
    referenceDaysAgo: daysAgo + 2,
    owners: [who],
    body: `<p>This contract note confirms the ${what} in your ${who === "client" ? "Stocks and Shares ISA" : "General Investment Account"}.</p><ul><li>Trade date: ${longDate(shiftInstant(now, -(daysAgo + 2)))}</li><li>Settlement: two business days after the trade</li><li>Commission: none (discretionary service)</li></ul>`,
    readBy: who === "client" ? ["client"] : ["partner"],
  }));
}

/** The adviser's letters and messages to Ellie, and to Ellie and James, of the last few months. */
function recentAdviserMessages(adviser: string): DocSeed[] {
  return [
    {
      subject: "Your portfolio after the Budget",
      doctype: "SecureMessage",
      daysAgo: 2,
      hour: 10,
      owners: ["client"],
      categories: [IMPORTANT_CATEGORY_ID, TAX_CATEGORY_ID],
      body: `${LOGO}<p>Dear Ellie,</p><p>Following this week's Budget I have looked again at your plans. The main points for you are:</p><ul><li>your <strong>ISA allowance</strong> is unchanged at &pound;20,000;</li><li>the dividend allowance falls again, so holding income funds inside the ISA matters more;</li><li>nothing changes for your pension contributions.</li></ul><p>You can read the government's summary on <a href="https://www.gov.uk/government/topical-events/budget">GOV.UK</a>. I would suggest we move the remaining income funds into your ISA before the tax year ends.</p>${SIGN_OFF(adviser)}`,
      files: [{ kind: "xlsx", name: "Cash flow forecast 2025.xlsx" }],
    },
    {
      subject: "Documents for your pension transfer",
      doctype: "SecureMessage",
      daysAgo: 6,
      hour: 14,
      owners: ["client"],
      categories: [IMPORTANT_CATEGORY_ID],
      body: `<p>Dear Ellie,</p><p>The transfer of your old workplace pension is under way. Please check the attached <strong>fact find update</strong> and let me know if anything has changed. The form uses macros to fill in your details; if your computer warns you about them you can print it instead.</p><p>I have also attached a photo of the signed discharge form for your records.</p>${SIGN_OFF(adviser)}`,
      files: [
        { kind: "docm", name: "Fact find update.docm", text: "Fact find update for Eleanor Hartley" },
        { kind: "png", name: "Signed discharge form.png" },
      ],
    },
    {
      subject: "Discretionary management agreement: please sign",
      doctype: "TermsAndConditions",
      daysAgo: 9,
      hour: 9,
      owners: ["client"],
      categories: [IMPORTANT_CATEGORY_ID],
      pending: true,
      body: `<p>Dear Ellie,</p><p>Our discretionary management agreement has been updated. Please read it and sign it electronically. Until it is signed we will keep managing your portfolio under the current agreement.</p>${SIGN_OFF(adviser)}`,
      files: [
        {
          kind: "pdf",
          name: "Discretionary management agreement.pdf",
          text: "Discretionary management agreement, version 2025.1",
        },
      ],
    },
    {
      subject: "Welcome to the new Client Online",
      doctype: "SecureMessage",
      daysAgo: 25,
      hour: 11,
      owners: ["client", "partner"],
      body: `${LOGO}<p>Dear Ellie and James,</p><p>Client Online now shows your <strong>messages and documents</strong> in one place. You can:</p><ul><li>read and reply to messages from us;</li><li>download valuations and contract notes;</li><li>send us documents securely.</li></ul><p>If you need help, <a href="https://www.northbridgewealth.example/help">our help pages</a> explain each step.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client", "partner"],
    },
    {
      subject: "Tax year end planning",
      doctype: "Letter",
      daysAgo: 55,
      hour: 9,
      owners: ["client", "partner"],
      categories: [TAX_CATEGORY_ID],
      body: `<p>Dear Ellie and James,</p><p>The tax year ends on 5 April. Before then you may wish to use your <strong>ISA allowances</strong>, your pension annual allowance and the capital gains tax exemption. I will call you both next week to go through the figures.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
    {
      subject: "Formatting test from our old system",
      doctype: "SecureMessage",
      daysAgo: 70,
      hour: 15,
      owners: ["client"],
      body: `<p>Dear Ellie,</p><p>This message was copied across from our previous messaging system, so some of its formatting may look different.</p><script>document.title = "copied";</script><p><img src="/resourceful/docnote/images/missing.png" alt="Old letterhead" onerror="this.src='/resourceful/docnote/images/logo.png'"></p><p>The old system's <a href="javascript:alert('copied')">print link</a> no longer works; please use your browser to print instead.</p><p onclick="window.location='https://example.com'">If anything looks wrong, let me know.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
  ];
}

/** The adviser's older letters and messages (three months and more ago). */
function olderAdviserMessages(adviser: string): DocSeed[] {
  return [
    {
      subject: "Your annual review 2024",
      doctype: "AnnualReview",
      daysAgo: 95,
      hour: 10,
      referenceDaysAgo: 100,
      owners: ["client", "partner"],
      categories: [IMPORTANT_CATEGORY_ID],
      body: `${LOGO}<p>Dear Ellie and James,</p><p>Thank you for meeting me for your annual review. This letter sets out what we discussed and what we agreed:</p><ul><li>your attitude to risk stays <strong>balanced</strong>;</li><li>we keep twelve months of spending in cash;</li><li>James will increase his pension contributions from April.</li></ul>${SIGN_OFF(adviser)}`,
      files: [{ kind: "pdf", name: "Annual review 2024.pdf", text: "Annual review report 2024" }],
      readBy: ["client", "partner"],
    },
    {
      subject: "Updated terms of business",
      doctype: "TermsAndConditions",
      daysAgo: 140,
      hour: 12,
      owners: ["client", "partner"],
      body: `<p>Dear Ellie and James,</p><p>Our terms of business have changed. The main change is how we charge for ad hoc advice. Nothing changes for your ongoing service.</p>${SIGN_OFF(adviser)}`,
      files: [{ kind: "pdf", name: "Terms of business 2024.pdf", text: "Terms of business, effective 1 October 2024" }],
      readBy: ["client", "partner"],
    },
    {
      subject: "ISA allowance reminder",
      doctype: "Letter",
      daysAgo: 250,
      hour: 9,
      owners: ["client"],
      categories: [TAX_CATEGORY_ID],
      body: `<p>Dear Ellie,</p><p>A reminder that you have <strong>&pound;8,000</strong> of this year's ISA allowance left.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
    {
      subject: "Market update: interest rates",
      doctype: "SecureMessage",
      daysAgo: 300,
      hour: 13,
      owners: ["client", "partner"],
      body: `<p>Dear Ellie and James,</p><p>The Bank of England held interest rates this month. Your portfolios hold <em>short-dated gilts</em>, which should benefit when rates start to fall.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
    {
      subject: "Your annual review 2023",
      doctype: "AnnualReview",
      daysAgo: 460,
      hour: 10,
      referenceDaysAgo: 465,
      owners: ["client", "partner"],
      body: `<p>Dear Ellie and James,</p><p>Thank you for meeting me for your annual review. We agreed to keep your current investment strategy.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client", "partner"],
    },
    {
      subject: "New year, new allowances",
      doctype: "SecureMessage",
      daysAgo: 600,
      hour: 9,
      owners: ["client"],
      body: `<p>Dear Ellie,</p><p>The new tax year has started and your ISA allowance is available again.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
    {
      subject: "Your attitude to risk questionnaire",
      doctype: "SecureMessage",
      daysAgo: 690,
      hour: 11,
      owners: ["client"],
      body: `<p>Dear Ellie,</p><p>Thank you for completing the questionnaire. Your answers suggest a <strong>balanced</strong> attitude to risk.</p>${SIGN_OFF(adviser)}`,
      readBy: ["client"],
    },
  ];
}

/** James's own messages: Ellie sees them through partner viewing (related entity). */
function jamesMessages(adviser: string): DocSeed[] {
  return [
    {
      subject: "Your pension transfer: next steps",
      doctype: "SecureMessage",
      daysAgo: 20,
      hour: 10,
      owners: ["partner"],
      body: `<p>Dear James,</p><p>Your old employer's scheme has agreed the transfer value. I will send the forms next week.</p>${SIGN_OFF(adviser)}`,
    },
    {
      subject: "Workplace pension valuation",
      doctype: "Valuation",
      daysAgo: 180,
      hour: 8,
      referenceDaysAgo: 185,
      owners: ["partner"],
      body: `<p>Dear James,</p><p>Your workplace pension's annual statement is attached.</p>${SIGN_OFF(adviser)}`,
      files: [
        { kind: "pdf", name: "Workplace pension statement.pdf", text: "Workplace pension statement for James Hartley" },
      ],
      readBy: ["partner"],
    },
  ];
}

/** Adviser-only file notes: never sent to a client. */
const FILE_NOTES: DocSeed[] = [
  {
    subject: "File note: annual review meeting preparation",
    doctype: "Letter",
    daysAgo: 100,
    hour: 17,
    owners: ["client", "partner"],
    adviserOnly: true,
    body: "<p>Internal: check the Hartleys' capacity for loss before the review; James's pension transfer value still to confirm.</p>",
  },
  {
    subject: "File note: telephone call about the ISA transfer",
    doctype: "SecureMessage",
    daysAgo: 33,
    hour: 16,
    owners: ["client"],
    adviserOnly: true,
    body: "<p>Internal: Ellie called about her ISA transfer. Chased the ceding provider; expect completion within ten business days.</p>",
  },
];

/** Ellie's own messages (her Sent folder). */
const ELLIES_SENT_MESSAGES: DocSeed[] = [
  {
    subject: "Question about my ISA transfer",
    doctype: "SecureMessage",
    daysAgo: 34,
    hour: 9,
    owners: ["client"],
    from: "client",
    body: "<p>Hello Sarah,</p><p>Could you let me know how the transfer of my old cash ISA is going?</p><p>Thanks, Ellie</p>",
    readBy: ["client"],
  },
  {
    subject: "Change of address for James's pension",
    doctype: "SecureMessage",
    daysAgo: 48,
    hour: 19,
    owners: ["client"],
    from: "client",
    body: "<p>Hello Sarah,</p><p>James's pension provider still has our old Guildford address. I have attached a photo of the letter.</p><p>Ellie</p>",
    files: [{ kind: "png", name: "Pension letter.png" }],
    readBy: ["client"],
  },
  {
    subject: "RE: Your annual review 2024",
    doctype: "SecureMessage",
    daysAgo: 90,
    hour: 20,
    owners: ["client"],
    from: "client",
    body: "<p>Thank you, Sarah. Everything in the letter is right.</p><p>Ellie</p>",
    readBy: ["client"],
  },
  {
    subject: "Pension contribution query",
    doctype: "SecureMessage",
    daysAgo: 380,
    hour: 8,
    owners: ["client"],
    from: "client",
    body: "<p>Hello Sarah,</p><p>Can I still add to my pension this tax year?</p><p>Ellie</p>",
    readBy: ["client"],
  },
];

/** Priya Shah's (demo.messages) documents: a Messages-level client, two unread, one with a PDF. */
function priyaDocuments(adviser: string): DocSeed[] {
  const mine = (s: Omit<DocSeed, "owners">): DocSeed => ({ ...s, owners: ["messages"] });
  return [
    mine({
      subject: "Your ISA statement",
      doctype: "Valuation",
      daysAgo: 4,
      hour: 8,
      referenceDaysAgo: 8,
      body: `<p>Dear Priya,</p><p>Your ISA statement is attached.</p>${SIGN_OFF(adviser)}`,
      files: [{ kind: "pdf", name: "ISA statement.pdf", text: "ISA statement for Priya Shah" }],
    }),
    mine({
      subject: "Your protection review",
      doctype: "SecureMessage",
      daysAgo: 8,
      hour: 11,
      categories: [IMPORTANT_CATEGORY_ID],
      body: `<p>Dear Priya,</p><p>It is time to review your <strong>life cover</strong>. Could you let me know some times that suit you?</p>${SIGN_OFF(adviser)}`,
    }),
    mine({
      subject: "Welcome to Northbridge Wealth",
      doctype: "SecureMessage",
      daysAgo: 60,
      hour: 9,
      body: `${LOGO}<p>Dear Priya,</p><p>Welcome. You can now send us messages and documents securely.</p>${SIGN_OFF(adviser)}`,
      readBy: ["messages"],
    }),
    mine({
      subject: "Terms of business",
      doctype: "TermsAndConditions",
      daysAgo: 61,
      hour: 9,
      body: `<p>Dear Priya,</p><p>Our terms of business are attached for your records.</p>${SIGN_OFF(adviser)}`,
      readBy: ["messages"],
    }),
    mine({
      subject: "Question about my mortgage",
      doctype: "SecureMessage",
      daysAgo: 40,
      hour: 18,
      from: "messages",
      body: "<p>Hello Sarah,</p><p>My fixed rate ends in the summer. Can we talk about it?</p><p>Priya</p>",
      readBy: ["messages"],
    }),
    mine({
      subject: "Mortgage options",
      doctype: "Letter",
      daysAgo: 36,
      hour: 10,
      body: `<p>Dear Priya,</p><p>Here are three options for when your fixed rate ends.</p>${SIGN_OFF(adviser)}`,
      readBy: ["messages"],
    }),
    mine({
      subject: "Year end tax reminder",
      doctype: "Letter",
      daysAgo: 120,
      hour: 10,
      categories: [TAX_CATEGORY_ID],
      body: `<p>Dear Priya,</p><p>The tax year ends on 5 April: remember your ISA allowance.</p>${SIGN_OFF(adviser)}`,
      readBy: ["messages"],
    }),
    mine({
      subject: "Your ISA statement last year",
      doctype: "Valuation",
      daysAgo: 370,
      hour: 8,
      referenceDaysAgo: 374,
      body: `<p>Dear Priya,</p><p>Your ISA statement for last year.</p>${SIGN_OFF(adviser)}`,
      readBy: ["messages"],
    }),
  ];
}

/** Seeds document types, categories, the notification template and the demo documents. */
export function seedDocuments(db: Db, now: Date, people: DocumentPeople): void {
  const random = seededRandom(SEED);
  seedDocumentSettings(db);
  const seeds = [...hartleyDocuments(people.adviserName, now), ...priyaDocuments(people.adviserName)];
  // oldest first, so ids grow with time like a real system's
  seeds.sort((a, b) => b.daysAgo - a.daysAgo || a.hour - b.hour);
  for (const seed of seeds) insertDocument(db, seed, { now, random, people });
}

function seedDocumentSettings(db: Db): void {
  db.insert(documentTypes)
    .values([...DOCUMENT_TYPES])
    .run();
  db.insert(documentCategories)
    .values([
      { id: IMPORTANT_CATEGORY_ID, name: "Important" },
      { id: TAX_CATEGORY_ID, name: "Tax" },
      { id: 3, name: "Valuations" },
    ])
    .run();
  db.insert(emailTemplates)
    .values({
      id: NOTIFICATION_TEMPLATE_ID,
      name: "New secure message",
      subject: "New secure message from {client_name}",
      body: "You have a new secure message from {client_name}: {subject}",
    })
    .run();
}

/** One document: its row (created at its hour, to a drawn minute and second), owners, categories, files and first reads. */
function insertDocument(
  db: Db,
  seed: DocSeed,
  { now, random, people }: { now: Date; random: Random; people: DocumentPeople },
): void {
  const entityOf: Record<Who, number> = { client: people.client, partner: people.partner, messages: people.messages };
  const creators = {
    adviser: { id: people.adviserUserId, name: people.adviserName },
    client: { id: people.clientUserId, name: "Ellie Hartley" },
    messages: { id: people.messagesUserId, name: "Priya Shah" },
  };
  const created = shiftInstant(now, -seed.daysAgo);
  created.setUTCHours(seed.hour, between(random, 0, 59), between(random, 0, 59), 0);
  const creator = creators[seed.from ?? "adviser"];
  const clientInitiated = seed.from === "client" || seed.from === "messages";
  const id = db
    .insert(documents)
    .values({
      subject: seed.subject,
      body: seed.body,
      doctype: seed.doctype,
      docsubtype: clientInitiated ? "Client Initiated" : null,
      createdAt: created.toISOString(),
      referenceDate:
        seed.referenceDaysAgo === undefined
          ? null
          : shiftInstant(now, -seed.referenceDaysAgo).toISOString().slice(0, 10),
      isClientAccessAccessible: !seed.adviserOnly,
      editPrivilege: clientInitiated ? 8 : 0,
      permission: seed.adviserOnly ? "Private" : "Shared With Client Groups",
      digitalSignatureStatus: seed.pending ? "Pending" : null,
      notifTemplateId: clientInitiated ? NOTIFICATION_TEMPLATE_ID : null,
      creatorUserId: creator.id,
      creatorName: creator.name,
    })
    .returning({ id: documents.id })
    .get().id;
  for (const who of seed.owners) db.insert(documentEntities).values({ documentId: id, entityId: entityOf[who] }).run();
  for (const categoryId of seed.categories ?? [])
    db.insert(documentCategoryLinks).values({ documentId: id, categoryId }).run();
  for (const file of seed.files ?? []) {
    const content = fileBytes(file.kind, file.name, file.text ?? seed.subject);
    db.insert(documentAttachments)
      .values({
        documentId: id,
        filename: file.name,
        contentType: CONTENT_TYPES[file.kind],
        size: content.length,
        content,
        createdAt: created.toISOString(),
      })
      .run();
  }
  for (const who of seed.readBy ?? []) {
    const readAt = new Date(created.getTime() + between(random, 1, 48) * 3_600_000);
    db.insert(documentFirstReads)
      .values({ documentId: id, entityId: entityOf[who], readAt: readAt.toISOString() })
      .run();
  }
}
