// The demo digital signatures (docs/platform-api.md "Digital signatures"; spec 002 §3, §4): documents
// the Hartleys are asked to sign, each carried by a message from their adviser. Seeded last of all,
// with its own random sequence (only for the secure data), so no earlier row, id or draw moves.
import type { Db } from "../db/connection";
import {
  digitalSignatures,
  digitalSignatureSignatories,
  documentEntities,
  documentFirstReads,
  documents,
} from "../db/schema";
import { seededRandom } from "../lib/random";
import type { DOCUMENT_TYPES } from "./documents";
import { shiftInstant } from "../domain/calendar";

const SEED = 20250714;
const HOUR = 3_600_000;

/** spec 002 §4: partSigned=0, signed=1, declined=2, pending=3, awaitingSignature=4. */
const STATUS = { signed: 1, declined: 2, pending: 3, awaitingSignature: 4 } as const;

export type SignaturePeople = { client: number; partner: number; adviserUserId: number; adviserName: string };

type Who = "client" | "partner";
type SignatureSeed = {
  title: string;
  /** The message's subject, when not "{title}: please sign". */
  subject?: string;
  doctype: (typeof DOCUMENT_TYPES)[number]["code"];
  notifiedDaysAgo: number;
  hour: number;
  dueInDays: number | null;
  status: number;
  signatories: Who[];
  /** When the client signed or declined it (days ago, at 18:40 or 20:05). */
  signedDaysAgo?: number;
  declinedDaysAgo?: number;
  message: string;
  bodyText: string;
};

const SIGN_OFF = (adviser: string) =>
  `<p>Kind regards,</p><p><strong>${adviser}</strong><br>Chartered Financial Planner, Northbridge Wealth</p>`;
const HOW_TO_SIGN =
  "<p>You can read and sign it in Client Online, under <strong>To be signed</strong> in your messages and documents. We will send a security code to your registered mobile phone to confirm your signature.</p>";

/** The demo signature items, in every status a signature can have. */
const SIGNATURE_SEEDS: readonly SignatureSeed[] = [
  {
    title: "Letter of authority",
    doctype: "Letter",
    notifiedDaysAgo: 1,
    hour: 9,
    dueInDays: 14,
    status: STATUS.awaitingSignature,
    signatories: ["client"],
    message:
      "<p>Dear Ellie,</p><p>To transfer your old workplace pension we need your authority to ask its provider for information about it. Please read and sign the attached letter of authority.</p>",
    bodyText: [
      "I authorise Northbridge Wealth and my adviser to ask the providers of my pensions, investments and protection policies for any information about them that my adviser needs to give me advice, and I ask those providers to give that information to Northbridge Wealth.",
      "This authority covers the policy details, the current values, the charges, the fund choices, any guarantees or special features, and the transfer values of each plan.",
      "This letter of authority stays in force for twelve months from the date it is signed, unless I withdraw it sooner in writing. A copy of it is as valid as the original.",
    ].join("\n\n"),
  },
  {
    title: "Joint account application",
    doctype: "Letter",
    notifiedDaysAgo: 3,
    hour: 11,
    dueInDays: 10,
    status: STATUS.awaitingSignature,
    signatories: ["client", "partner"],
    message:
      "<p>Dear Ellie and James,</p><p>As we agreed, here is the application to open your joint General Investment Account. It needs both your signatures before we can open the account.</p>",
    bodyText: [
      "We apply to open a joint General Investment Account with Northbridge Wealth, held in both our names, managed on the discretionary service at the balanced risk level we agreed with our adviser.",
      "We understand that either of us may give instructions on the account, that we are both responsible for it, and that on the death of one of us the account passes to the other.",
      "We confirm that the information we have given in this application is true and complete, and that we have read the key features and the terms of business.",
    ].join("\n\n"),
  },
  {
    title: "Suitability report acknowledgement",
    doctype: "Letter",
    notifiedDaysAgo: 25,
    hour: 10,
    dueInDays: -11,
    status: STATUS.signed,
    signatories: ["client"],
    signedDaysAgo: 20,
    message:
      "<p>Dear Ellie,</p><p>Thank you for reading your suitability report. Please sign to acknowledge that you have received it and that we have discussed it.</p>",
    bodyText: [
      "I acknowledge that I have received and read the suitability report prepared for me by my adviser, which sets out the recommendations made to me and the reasons for them.",
      "My adviser has explained the risks of the recommended investments, the charges that apply, and that the value of investments can fall as well as rise.",
    ].join("\n\n"),
  },
  {
    title: "Fee agreement 2025",
    doctype: "TermsAndConditions",
    notifiedDaysAgo: 48,
    hour: 14,
    dueInDays: -34,
    status: STATUS.declined,
    signatories: ["client"],
    declinedDaysAgo: 40,
    message:
      "<p>Dear Ellie,</p><p>Our fees for 2025 are set out in the attached agreement. Please read it and sign it, or let me know if you have any questions.</p>",
    bodyText: [
      "This agreement sets out the fees for the ongoing advice and discretionary management service from 1 January 2025: an annual fee of 0.75% of the value of the portfolio, taken monthly from the portfolio.",
      "Initial advice on new investments is charged at 1% of the amount invested. Ad hoc advice outside the ongoing service is charged at an hourly rate agreed with you in advance.",
      "Either party may end this agreement at any time by giving notice in writing. Fees are charged up to the date the agreement ends.",
    ].join("\n\n"),
  },
  {
    title: "Annual review pack",
    subject: "Your annual review pack",
    doctype: "AnnualReview",
    notifiedDaysAgo: 5,
    hour: 16,
    dueInDays: null,
    status: STATUS.pending,
    signatories: ["client"],
    message:
      "<p>Dear Ellie,</p><p>Your annual review pack is being prepared. I will let you know when it is ready for you to sign.</p>",
    bodyText: [
      "This pack records the annual review of your financial plan: your circumstances and objectives, your attitude to risk and capacity for loss, and how your portfolios have performed over the year.",
      "By signing you confirm that the information in this pack about your circumstances is correct and complete.",
    ].join("\n\n"),
  },
];

const hex = (random: () => number, bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, "0"),
  ).join("");

/** Seeds the demo signature items, each with its message (linked to its signatories' entities). */
export function seedSignatures(db: Db, now: Date, people: SignaturePeople): void {
  const random = seededRandom(SEED);
  const entityOf: Record<Who, number> = { client: people.client, partner: people.partner };
  const at = (daysAgo: number, hour: number, minute: number) => {
    const d = shiftInstant(now, -daysAgo);
    d.setUTCHours(hour, minute, 0, 0);
    return d.toISOString();
  };
  // oldest first, so ids grow with time like the other documents'
  const ordered = [...SIGNATURE_SEEDS].sort((a, b) => b.notifiedDaysAgo - a.notifiedDaysAgo);
  for (const seed of ordered) {
    const notified = at(seed.notifiedDaysAgo, seed.hour, 15);
    const documentId = db
      .insert(documents)
      .values({
        subject: seed.subject ?? `${seed.title}: please sign`,
        body: `${seed.message}${seed.status === STATUS.pending ? "" : HOW_TO_SIGN}${SIGN_OFF(people.adviserName)}`,
        doctype: seed.doctype,
        docsubtype: null,
        createdAt: notified,
        referenceDate: null,
        isClientAccessAccessible: true,
        editPrivilege: 0,
        permission: "Shared With Client Groups",
        digitalSignatureStatus:
          seed.status === STATUS.signed ? "Signed" : seed.status === STATUS.declined ? "Declined" : "Pending",
        notifTemplateId: null,
        creatorUserId: people.adviserUserId,
        creatorName: people.adviserName,
      })
      .returning({ id: documents.id })
      .get().id;
    for (const who of seed.signatories)
      db.insert(documentEntities).values({ documentId, entityId: entityOf[who] }).run();
    // what the client has signed or declined she has read
    if (seed.signedDaysAgo !== undefined || seed.declinedDaysAgo !== undefined) {
      const readAt = new Date(new Date(notified).getTime() + 2 * HOUR).toISOString();
      db.insert(documentFirstReads).values({ documentId, entityId: people.client, readAt }).run();
    }
    const id = db
      .insert(digitalSignatures)
      .values({
        documentId,
        filename: `${seed.title}.pdf`,
        title: seed.title,
        bodyText: seed.bodyText,
        dueDate: seed.dueInDays === null ? null : shiftInstant(now, seed.dueInDays).toISOString().slice(0, 10),
        status: seed.status,
        secureData: hex(random, 16),
        signingMethod: 1,
        createdAt: notified,
        lastNotifiedAt: notified,
      })
      .returning({ id: digitalSignatures.id })
      .get().id;
    for (const who of seed.signatories) {
      db.insert(digitalSignatureSignatories)
        .values({
          digitalSignatureId: id,
          entityId: entityOf[who],
          signingMethod: 1,
          signedAt: who === "client" && seed.signedDaysAgo !== undefined ? at(seed.signedDaysAgo, 18, 40) : null,
          declinedAt: who === "client" && seed.declinedDaysAgo !== undefined ? at(seed.declinedDaysAgo, 20, 5) : null,
        })
        .run();
    }
  }
}
