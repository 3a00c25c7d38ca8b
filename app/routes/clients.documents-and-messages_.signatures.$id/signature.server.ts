// spec 002 "Signature view" and "Signing journey": what the page shows and what each step posts
// (docs/decisions/095-digital-signatures.md). The one-time code travels only in the POST body to
// the platform: never in a cookie, a URL or a log.
import { json, redirect } from "@remix-run/node";
import type { TFunction } from "i18next";
import { formatDate, formatLastLogin } from "~/lib/format-date.server";
import { MESSAGES_PATH } from "~/lib/messages/query";
import {
  badgeOf,
  cleanCode,
  codeErrorOf,
  hasValidPhone,
  type JourneyStep,
  ownOutcome,
  ownSignatory,
  readJourneyStep,
  signatoryLabelOf,
  SIGNATURE_DOCUMENTS_PATH,
  signatoryName,
  SIGNATURES_PATH,
} from "~/lib/messages/signature";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { PlanningError, type PlanningClient, isLostSession } from "~/planning/client.server";
import { readFeatureToggles } from "~/planning/feature-toggles.server";
import { messagesToggles } from "~/planning/messages.server";
import {
  declineDocument,
  fetchSignatureView,
  generateSignatureCode,
  sendSignatureConfirmation,
  signDocument,
  type SignatureItem,
  type Signatory,
} from "~/planning/signature.server";
import { logger } from "~/runtime/logger.server";
import { lostSessionRedirect } from "~/session/failures.server";
import { notFound } from "~/session/guards.server";
import { redirectWithToast } from "~/session/toast.server";

/** What a step's form answers when it cannot go on: the step to show again and its messages (i18n keys or the platform's own text). */
export type JourneyAnswer = {
  step: JourneyStep | null;
  errors: Array<{ fieldId: string; message: string }>;
  /** A message beside the whole step (spec 002 §8), not tied to a field. */
  alert: string | null;
};

export type SignatureView = {
  id: number;
  title: string;
  filename: string;
  badge: { text: string; tone: string };
  due: string | null;
  signatories: Array<{ id: number; text: string }>;
  documentHref: string;
  downloadHref: string;
  viewHref: string;
  backHref: string;
  /** The platform's terms, with the language they are written in (marked on the page: issue 25 item 3). */
  terms: { title: string; html: string; lang: string };
  /** What the client's own signatory did and when, once done ('Signed by Hartley, Eleanor on …'): issue 25 item 11. */
  outcome: { text: string; signed: boolean } | null;
  /** The user's own signatory may sign or decline (spec 002 §4 "Who can sign"). */
  canSign: boolean;
  readOnly: boolean;
  step: JourneyStep | null;
  viewDocument: boolean;
};

export function readId(params: Record<string, string | undefined>): number {
  if (!/^[1-9]\d{0,9}$/.test(params.id ?? "")) throw notFound();
  return Number(params.id);
}

/** The item, its signatories and the terms; a 404 for an item the user may not see, or when digital signatures are off. */
export async function loadSignature(request: Request, planning: PlanningClient, id: number) {
  try {
    const [view, toggles] = await Promise.all([fetchSignatureView(planning, id), readFeatureToggles(planning)]);
    if (!messagesToggles(toggles).digitalSignatures) throw notFound();
    return view;
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    if (error instanceof PlanningError && (error.status === 404 || error.status === 403)) throw notFound();
    throw error;
  }
}

export function signatureView(input: {
  item: SignatureItem;
  signatories: Signatory[];
  terms: { title: string; html: string; lang?: string };
  isClient: boolean;
  /** The session's client (the signatory whose outcome the page confirms). */
  entityId: number;
  url: URL;
  t: TFunction;
  locale: string;
  timeZone: string | null;
}): SignatureView {
  const { item, signatories, t, locale } = input;
  const own = ownSignatory(item, signatories, input.isClient);
  const badge = badgeOf(item.status);
  const when = (at: string) => formatLastLogin(at, input.timeZone, locale);
  const outcome = input.isClient ? ownOutcome(signatories, input.entityId) : null;
  let step = own ? readJourneyStep(input.url.searchParams.get("step")) : null;
  if (step === "invalid-phone" && own && hasValidPhone(own.entity_phone)) step = "terms";
  return {
    id: item.id,
    title: item.title,
    filename: item.filename,
    badge: { text: t(`signature.badge.${badge.key}`), tone: badge.tone },
    due: item.duedate ? formatDate(item.duedate, locale) : null,
    signatories: signatories.map((s) => {
      const label = signatoryLabelOf(s);
      return {
        id: s.id,
        // spec 002 §4: 'Signed by' + 'Last, First' + ' on {date}'
        text: `${t(`signature.${label.key}`)} ${signatoryName(s)}${label.at ? t("signature.on", { date: when(label.at) }) : ""}`,
      };
    }),
    documentHref: `${SIGNATURE_DOCUMENTS_PATH}/${item.id}`,
    downloadHref: `${SIGNATURE_DOCUMENTS_PATH}/${item.id}?download=1`,
    viewHref: `${SIGNATURES_PATH}/${item.id}?view=document`,
    backHref: `${MESSAGES_PATH}?toBeSigned=true`,
    terms: { title: input.terms.title, html: sanitiseTextPage(input.terms.html), lang: input.terms.lang ?? "en" },
    outcome: outcome
      ? {
          text: t(`signature.outcome.${outcome.key}`, {
            name: signatoryName(outcome.signatory),
            date: when(outcome.at),
          }),
          signed: outcome.key === "signed",
        }
      : null,
    canSign: own !== null,
    readOnly: !input.isClient,
    step,
    viewDocument: input.url.searchParams.get("view") === "document",
  };
}

const stepHref = (id: number, step: JourneyStep | null) =>
  `${SIGNATURES_PATH}/${id}${step ? `?step=${step}` : ""}#signature-journey`;

function answer(step: JourneyStep | null, init: Partial<JourneyAnswer>, status = 400) {
  return json<JourneyAnswer>({ step, errors: init.errors ?? [], alert: init.alert ?? null }, { status });
}

type Signing = {
  request: Request;
  planning: PlanningClient;
  id: number;
  item: Awaited<ReturnType<typeof loadSignature>>["item"];
  own: Awaited<ReturnType<typeof loadSignature>>["signatories"][number];
};

const ACCEPT_TERMS = { fieldId: "signature-accept", message: "messages:signature.errors.acceptTerms" };

/** spec 002 step 1: the one-time code sent to the signatory's phone; a registered phone without '+' cannot receive it. */
async function requestCode(s: Signing, back: JourneyStep): Promise<Response> {
  if (!hasValidPhone(s.own.entity_phone)) return redirect(stepHref(s.id, "invalid-phone"));
  try {
    await generateSignatureCode(s.planning, s.item.id, s.own.id);
    return redirect(stepHref(s.id, "code"));
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(s.request);
    logger.error("signature code not generated", {
      id: s.item.id,
      status: error instanceof PlanningError ? error.status : null,
    });
    return answer(back, { alert: "messages:signature.errors.generate" }, 502);
  }
}

/** The platform's refusal of a code: typed wrong, expired or used up, else its own text (spec 002 §8). */
function refusedCode(error: PlanningError): Response {
  const kind = codeErrorOf(error.apiMessage);
  if (kind === "mismatch")
    return answer("code", {
      errors: [{ fieldId: "signature-code", message: "messages:signature.errors.mismatch" }],
    });
  if (kind) return answer("expired", { alert: `messages:signature.errors.${kind}` });
  return answer("code", {
    alert: error.apiMessage && error.status < 500 ? error.apiMessage : "messages:signature.errors.sign",
  });
}

/** spec 002 step 6: with the terms accepted and a code typed, the document is signed. */
async function verifyAndSign(s: Signing, form: FormData, accepted: boolean): Promise<Response> {
  const { planning, item, own } = s;
  const code = cleanCode(form.get("code"));
  const errors = [
    ...(accepted ? [] : [ACCEPT_TERMS]),
    ...(code ? [] : [{ fieldId: "signature-code", message: "messages:signature.errors.codeRequired" }]),
  ];
  if (errors.length) return answer("code", { errors });
  try {
    await signDocument(planning, {
      itemId: item.id,
      signatoryId: own.id,
      signingMethod: own.signing_method ?? item.signing_method ?? 1,
      secureData: item.secure_data ?? "",
      otp: code,
    });
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(s.request);
    if (!(error instanceof PlanningError)) throw error;
    return refusedCode(error);
  }
  await confirm(planning, item.id, 0);
  return redirectWithToast(`${SIGNATURES_PATH}/${s.id}`, {
    type: "success",
    title: "messages:signature.signed",
    description: item.title,
  });
}

async function confirmDecline(s: Signing): Promise<Response> {
  const { planning, item, own } = s;
  try {
    await declineDocument(planning, { itemId: item.id, signatoryId: own.id, secureData: item.secure_data ?? "" });
  } catch (error) {
    if (isLostSession(error)) throw await lostSessionRedirect(s.request);
    if (!(error instanceof PlanningError)) throw error;
    return answer("decline", { alert: "messages:signature.errors.decline" });
  }
  await confirm(planning, item.id, 1);
  return redirectWithToast(`${SIGNATURES_PATH}/${s.id}`, {
    type: "info",
    title: "messages:signature.declined",
    description: item.title,
  });
}

/** spec 002 "Signing journey": one step per post. */
export async function signatureAction(input: {
  request: Request;
  planning: PlanningClient;
  id: number;
  form: FormData;
  isClient: boolean;
  t: TFunction;
}) {
  const { request, planning, id, form, t } = input;
  const { item, signatories } = await loadSignature(request, planning, id);
  const own = ownSignatory(item, signatories, input.isClient);
  // spec 002 §4 "Who can sign": anyone else (an adviser, a signatory who has acted) posts nothing
  if (!own) throw new Response(null, { status: 403 });
  const signing: Signing = { request, planning, id, item, own };
  const accepted = form.get("accept") === "on";
  switch (String(form.get("intent") ?? "")) {
    case "sign":
      return redirect(stepHref(id, "terms"));
    case "decline":
      return redirect(stepHref(id, "decline"));
    case "request-code":
      return accepted ? requestCode(signing, "terms") : answer("terms", { errors: [ACCEPT_TERMS] });
    case "resend":
      // spec 002 step 6: a new code; the one typed is not kept
      return requestCode(signing, "code");
    case "verify":
      return verifyAndSign(signing, form, accepted);
    case "confirm-decline":
      return confirmDecline(signing);
    default:
      return answer(null, { alert: t("signature.errors.sign") });
  }
}

/** spec 002 steps 4 and 7: the confirmation email; the outcome stands even when the email fails. */
async function confirm(planning: PlanningClient, id: number, outcome: 0 | 1) {
  try {
    await sendSignatureConfirmation(planning, id, outcome);
  } catch (error) {
    logger.error("signature confirmation not sent", {
      id,
      outcome,
      error: error instanceof PlanningError ? error.status : String(error),
    });
  }
}
