import { z } from "zod/v4";
import { WholeNumber } from "~/lib/whole-number.server";
import { MFA_METHODS, strongestFirst } from "~/lib/security";
import type { PlanningClient } from "./client.server";
import { isToggleOn, readFeatureToggles } from "./feature-toggles.server";

// Account security, clients only (spec 002 change password, security questions, preferences;
// spec 000 §4 additional verification). docs/platform-api.md "Account security".

// ── change password ──────────────────────────────────────────────────────────────────────────
const ChangedAnswer = z.object({ password_changed: z.literal(true) });

export async function changePassword(
  planning: PlanningClient,
  input: { currentPassword: string; newPassword: string },
) {
  await planning.put("resourceful/session/password", ChangedAnswer, {
    body: { current_password: input.currentPassword, new_password: input.newPassword },
    retry: false,
  });
}

// ── security questions ───────────────────────────────────────────────────────────────────────
const QuestionsAnswer = z.object({
  questions: z.array(z.object({ position: z.number(), question: z.string() })),
  default_questions: z.array(z.string()).prefault([]),
  answer_min_length: WholeNumber.min(0).nullish(),
});
export type SecurityQuestionsAnswer = z.infer<typeof QuestionsAnswer>;

export function fetchSecurityQuestions(planning: PlanningClient) {
  return planning.get("resourceful/session/security_questions", QuestionsAnswer);
}

const SavedQuestions = z.object({ questions: z.array(z.object({ position: z.number(), question: z.string() })) });

/** Saves the questions, with the user's current password (decision 179). */
export async function saveSecurityQuestions(
  planning: PlanningClient,
  questions: Array<{ question: string; answer: string }>,
  currentPassword: string,
) {
  await planning.put("resourceful/session/security_questions", SavedQuestions, {
    body: { current_password: currentPassword, questions },
    retry: false,
  });
}

// ── preferences ──────────────────────────────────────────────────────────────────────────────
const Flag = z.enum(["1", "0"]).catch("0");
const PreferencesAnswer = z.object({ comm_pref_email: Flag, comm_pref_mail: Flag, comm_pref_sms: Flag });

export function fetchPreferences(planning: PlanningClient, entityId: number) {
  return planning.get(`resourceful/entity/client-v3/${entityId}`, PreferencesAnswer);
}

export async function savePreferences(
  planning: PlanningClient,
  entityId: number,
  body: { comm_pref_email: "1" | "0"; comm_pref_mail: "1" | "0"; comm_pref_sms: "1" | "0" },
) {
  await planning.patch(`resourceful/entity/client-v3/${entityId}`, PreferencesAnswer, { body });
}

// ── additional verification ──────────────────────────────────────────────────────────────────
const Method = z.enum(MFA_METHODS);
const DetailsAnswer = z.object({
  mfaMethod: Method.nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  softwareToken: z.boolean(),
});
const MethodsAnswer = z.object({ methods: z.array(z.object({ method: Method, destination: z.string().nullable() })) });
const DeviceAnswer = z.object({
  status: z.literal("validate"),
  device: z.object({ id: z.string().min(1), name: z.string(), method: Method, destination: z.string().nullable() }),
  token_secret: z.string().nullish(),
  otpauth_uri: z.string().nullish(),
});
const ValidatedAnswer = z.object({ status: z.literal("changed"), mfaMethod: Method });

export async function fetchAdditionalVerification(planning: PlanningClient) {
  const { details, methods } = await planning.batch({
    details: { url: "session/mfa", schema: DetailsAnswer },
    methods: { url: "session/mfa/methods", schema: MethodsAnswer },
  });
  return { details, methods: strongestFirst(methods.methods) };
}

/**
 * spec 000 §4 "Additional verification flow" step 2: 'Contact your adviser' is offered unless
 * one-way messaging is enabled (the same feature toggle the messages pages read).
 */
export async function fetchOneWayMessaging(planning: PlanningClient): Promise<boolean> {
  return isToggleOn(await readFeatureToggles(planning), "one_way_messaging");
}

export type PendingDevice = {
  deviceId: string;
  method: z.infer<typeof Method>;
  name: string;
  destination: string | null;
  tokenSecret: string | null;
  otpauthUri: string | null;
};

function toPending(answer: z.infer<typeof DeviceAnswer>): PendingDevice {
  return {
    deviceId: answer.device.id,
    method: answer.device.method,
    name: answer.device.name,
    destination: answer.device.destination,
    tokenSecret: answer.token_secret ?? null,
    otpauthUri: answer.otpauth_uri ?? null,
  };
}

export async function requestMethodChange(planning: PlanningClient, input: { method: string; password: string }) {
  const answer = await planning.put("resourceful/session/mfa/method", DeviceAnswer, {
    body: { mfaMethod: input.method, password: input.password },
    retry: false,
  });
  return toPending(answer);
}

export function validateDevice(planning: PlanningClient, input: { method: string; code: string; deviceId: string }) {
  return planning.post("resourceful/session/mfa/validate", ValidatedAnswer, {
    body: { mfaMethod: input.method, mfaCode: input.code, deviceId: input.deviceId },
  });
}

export async function resendDeviceCode(planning: PlanningClient, deviceId: string) {
  return toPending(await planning.post("resourceful/session/mfa/resend", DeviceAnswer, { body: { deviceId } }));
}
