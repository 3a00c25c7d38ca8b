import { z } from "zod/v4";
import type { PlanningClient } from "./client.server";
import { AnyAnswer, WireDate, WireDateTime } from "./wire";

// spec 002 §3 "Digital signature item", "Signatory", §7 "Digital signature" (docs/platform-api.md
// "Digital signatures"): the documents a client is asked to sign, their signatories, the document
// itself, the one-time code and the outcome.

export const Signatory = z.object({
  id: z.number(),
  entityid: z.number(),
  entity_first_name: z.string().nullable(),
  entity_last_name: z.string().nullable(),
  entity_name: z.string().nullable(),
  entity_phone: z.string().nullable(),
  signing_method: z.number().nullable(),
  signed_at: WireDateTime.nullable(),
  declined_at: WireDateTime.nullable(),
  can_sign: z.boolean(),
});
export type Signatory = z.output<typeof Signatory>;
const Signatories = z.array(Signatory);

export const SignatureItem = z.object({
  id: z.number(),
  docnote_id: z.number().nullable(),
  filename: z.string(),
  title: z.string(),
  duedate: WireDate.nullable(),
  status: z.number().int().min(0).max(4),
  signing_method: z.number().nullable(),
  last_notified_at: WireDateTime.nullable(),
  terms_and_conds: z.string().nullable(),
  secure_data: z.string().nullable(),
  signatories: Signatories.prefault([]),
});
export type SignatureItem = z.output<typeof SignatureItem>;
const SignatureItems = z.array(SignatureItem);

// the language the platform wrote them in; the platform's content is English when it does not say (issue 25 item 3)
const Terms = z.object({
  title: z.string(),
  html: z.string(),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
    .catch("en")
    .default("en"),
});

/** spec 002 §9: the list's page size, newest notified first. */
export const SIGNATURE_PAGE_SIZE = 100;

/** The signature items, the latest notified first, as a batch item. */
export const signatureItemsItem = {
  url: `digital_signature?page_size=${SIGNATURE_PAGE_SIZE}&page_sort=-last_notified_at`,
  schema: SignatureItems,
};

/** One item, its signatories and the terms, in one round trip. */
export async function fetchSignatureView(planning: PlanningClient, id: number) {
  return planning.batch({
    item: { url: `digital_signature/${id}`, schema: SignatureItem },
    signatories: { url: `digital_signature/${id}/signatories`, schema: Signatories },
    terms: { url: "digital_signature/terms", schema: Terms },
  });
}

export async function fetchSignatureItem(planning: PlanningClient, id: number): Promise<SignatureItem> {
  return planning.get(`resourceful/digital_signature/${id}`, SignatureItem);
}

/** The document's bytes (a PDF), as the platform sends them. */
export async function fetchSignatureDocument(
  planning: PlanningClient,
  item: Pick<SignatureItem, "id" | "filename">,
): Promise<Response> {
  return planning.send("GET", `resourceful/digital_signature/content/${item.id}/${encodeURIComponent(item.filename)}`);
}

/** spec 002 "Signing journey" step 1: the one-time code, by sms to the registered phone. */
export async function generateSignatureCode(
  planning: PlanningClient,
  itemId: number,
  signatoryId: number,
): Promise<void> {
  await planning.post(`resourceful/digital_signature/${itemId}/signatories/${signatoryId}/generate_code`, AnyAnswer, {
    body: { digSigId: itemId, signatoryId },
  });
}

export async function signDocument(
  planning: PlanningClient,
  r: { itemId: number; signatoryId: number; signingMethod: number; secureData: string; otp: string },
): Promise<SignatureItem> {
  return planning.post(`resourceful/digital_signature/${r.itemId}/signatories/${r.signatoryId}/sign`, SignatureItem, {
    body: { signing_method: r.signingMethod, secure_data: r.secureData, otp: r.otp },
  });
}

export async function declineDocument(
  planning: PlanningClient,
  r: { itemId: number; signatoryId: number; secureData: string },
): Promise<SignatureItem> {
  return planning.post(
    `resourceful/digital_signature/${r.itemId}/signatories/${r.signatoryId}/decline`,
    SignatureItem,
    {
      body: { secure_data: r.secureData },
    },
  );
}

/** spec 002 "Signing journey" steps 4 and 7: the confirmation email (outcome signed=0, declined=1). */
export async function sendSignatureConfirmation(
  planning: PlanningClient,
  itemId: number,
  outcome: 0 | 1,
): Promise<void> {
  await planning.post(`resourceful/digital_signature/${itemId}/confirmation`, AnyAnswer, { body: { outcome } });
}
