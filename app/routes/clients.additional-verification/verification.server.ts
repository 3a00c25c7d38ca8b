import type { SubmissionResult } from "@conform-to/react";
import { json, redirect } from "@remix-run/node";
import type { Failure } from "~/lib/error-catalogue";
import type { PlanningClient } from "~/planning/client.server";
import {
  fetchAdditionalVerification,
  requestMethodChange,
  resendDeviceCode,
  validateDevice,
} from "~/planning/security.server";
import { attempt } from "~/session/failures.server";
import { createMethodChangeSchema, MfaCodeSchema, parseWithZod } from "~/session/validation.server";
import {
  clearVerificationState,
  commitVerificationState,
  readVerificationState,
  type VerificationState,
} from "./verification-state.server";

// spec 000 §4 "Additional verification flow": the page's posts, one handler per intent
// (docs/decisions/052). Between posts the page's state lives in a sealed cookie.

const PAGE = "/clients/additional-verification";

export type ActionData = { result?: SubmissionResult<string[]>; failure?: Failure; messageKey?: string };

type IntentContext = {
  request: Request;
  planning: PlanningClient;
  formData: FormData;
  state: VerificationState | null;
};

/** The page again, at the step the sealed state now says. */
async function toStep(state: VerificationState): Promise<Response> {
  return redirect(PAGE, { headers: { "Set-Cookie": await commitVerificationState(state) } });
}

/** Cancel: the change is dropped and the page starts again. */
async function cancel(): Promise<Response> {
  return redirect(PAGE, { headers: { "Set-Cookie": await clearVerificationState() } });
}

/** Resend the code to the device being validated; a refusal ends the change. */
async function resend({ request, planning, state }: IntentContext): Promise<Response> {
  if (!state || state.step === "changed")
    return json<ActionData>({ messageKey: "verification.errors.request" }, { status: 400 });
  const resent = await attempt(request, resendDeviceCode(planning, state.device.deviceId));
  if (!resent.ok) {
    return json<ActionData>(
      { messageKey: "verification.errors.request" },
      { status: 400, headers: { "Set-Cookie": await clearVerificationState() } },
    );
  }
  return toStep({ step: "validate", device: resent.value });
}

/** Validate the device with its code: the outcome, a refused code to try again, or why not. */
async function validate({ request, planning, formData, state }: IntentContext): Promise<Response> {
  const submission = parseWithZod(formData, { schema: MfaCodeSchema });
  const reply = () => submission.reply({ hideFields: ["code"] });
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });
  // spec 000 §5: method, code and device id are all needed.
  if (!state || state.step !== "validate") {
    return json<ActionData>({ result: reply(), messageKey: "verification.errors.request" }, { status: 400 });
  }
  const validated = await attempt(
    request,
    validateDevice(planning, {
      method: state.device.method,
      code: submission.value.code,
      deviceId: state.device.deviceId,
    }),
  );
  if (validated.ok) return toStep({ step: "changed", method: validated.value.mfaMethod });
  const { error } = validated;
  if (error.status === 400 && error.apiMessage === "The code is invalid") {
    return toStep({ step: "invalid", device: state.device });
  }
  if (error.status === 403 && error.apiMessage === "Account has been disabled.") {
    return json<ActionData>({ result: reply(), messageKey: "disabled" }, { status: 403 });
  }
  if (error.status === 400) {
    return json<ActionData>(
      { result: reply(), messageKey: "verification.errors.request" },
      { status: 400, headers: { "Set-Cookie": await clearVerificationState() } },
    );
  }
  return json<ActionData>({ result: reply(), failure: error.failure }, { status: error.failure.status });
}

/** The platform's refusals of a method change, by its message, on the field they belong to. */
const CHANGE_FIELD_ERRORS = new Map<string, { field: "method" | "password"; message: string }>([
  ["MFA method required", { field: "method", message: "security:verification.errors.method" }],
  ["MFA method not available", { field: "method", message: "security:verification.errors.method" }],
  [
    "This is already your additional verification method.",
    { field: "method", message: "security:verification.errors.sameMethod" },
  ],
  ["Password is required", { field: "password", message: "security:verification.errors.password" }],
  ["The password is incorrect.", { field: "password", message: "security:verification.errors.passwordIncorrect" }],
]);

/** The choice of method (with the password): a device to validate next, or why not. */
async function change({ request, planning, formData }: IntentContext): Promise<Response> {
  const loaded = await attempt(request, fetchAdditionalVerification(planning));
  if (!loaded.ok) return json<ActionData>({ failure: loaded.error.failure }, { status: loaded.error.failure.status });
  const current = loaded.value.details.mfaMethod;
  const submission = parseWithZod(formData, { schema: createMethodChangeSchema(current) });
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ hideFields: ["password"], ...options });
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });
  const requested = await attempt(request, requestMethodChange(planning, submission.value));
  if (requested.ok) return toStep({ step: "validate", device: requested.value });
  const { error } = requested;
  if (error.status === 422)
    return json<ActionData>({ result: reply(), messageKey: "verification.errors.enrolment" }, { status: 422 });
  if (error.status === 403 && error.apiMessage === "Account has been disabled.") {
    return json<ActionData>({ result: reply(), messageKey: "disabled" }, { status: 403 });
  }
  const refused = error.status === 400 ? CHANGE_FIELD_ERRORS.get(error.apiMessage ?? "") : undefined;
  if (refused) {
    return json<ActionData>(
      { result: reply({ fieldErrors: { [refused.field]: [refused.message] } }) },
      { status: 400 },
    );
  }
  return json<ActionData>({ result: reply(), failure: error.failure }, { status: error.failure.status });
}

/** Each intent and what it does; any other intent is the choice of method. */
const INTENT_HANDLERS = new Map<FormDataEntryValue | null, (ctx: IntentContext) => Promise<Response>>([
  ["cancel", cancel],
  ["resend", resend],
  ["validate", validate],
]);

/** One post of the page, by its intent. */
export async function verificationAction({
  request,
  planning,
  formData,
}: Omit<IntentContext, "state">): Promise<Response> {
  const intent = formData.get("intent");
  const state = await readVerificationState(request);
  const handler = INTENT_HANDLERS.get(intent) ?? change;
  return handler({ request, planning, formData, state });
}
