import { json } from "@remix-run/node";
import type { Failure } from "~/lib/error-catalogue";
import { formatLastLogin } from "~/lib/format-date.server";
import { PAGE_PATHS } from "~/lib/navigation";
import { devicePasskeys, passkeyNameFor, registrationRefusalKey } from "~/lib/passkeys";
import { currentPasswordRefusal } from "~/lib/security";
import { PasskeyNameSchema } from "~/lib/passkeys-schemas";
import type { SessionUser } from "~/lib/user";
import type { PlanningClient } from "~/planning/client.server";
import { listPasskeys, type Passkey, registerPasskey, removePasskey, renamePasskey } from "~/planning/passkeys.server";
import { logger } from "~/runtime/logger.server";
import { attempt } from "~/session/failures.server";
import { readDevicePasskeys, writeDevicePasskeys } from "~/session/passkey-device.server";
import { updateSessionUser } from "~/session/session.server";
import { redirectWithToast } from "~/session/toast.server";

// The biometric permission page's posts (docs/decisions/101). Each is a plain form post; only the
// grant needs the browser's passkey answer, which the page's script adds. Also the page's list of
// passkeys, whose dates are formatted here so that the page's script does not load the formats.

const PAGE = PAGE_PATHS.biometricPermission;

export type ActionData = {
  intent: "save" | "rename" | "remove";
  /** The checkbox as posted (save). */
  granted?: boolean;
  /** The passkey a rename or removal was for, and the name as typed. */
  id?: number;
  name?: string;
  /** A field's message (`security` key): the checkbox's, or the rename's name. */
  fieldError?: string;
  /** A message above the form (`security` key). */
  problem?: string;
  /** The current password's message (a full `security:` key), asked again (decision 179). */
  passwordError?: string;
  /** The platform failed: the spec's save failure text. */
  failure?: Failure;
};

/** The client's passkeys as the page lists them: dates in the user's time zone, this device's marked. */
export function passkeyRows(passkeys: Passkey[], mine: number[], timeZone: string | null, locale: string) {
  const when = (iso: string) => formatLastLogin(iso, timeZone, locale);
  return passkeys.map((p) => ({
    id: p.id,
    name: p.name,
    created: when(p.createdAt),
    lastUsed: p.lastUsedAt ? when(p.lastUsedAt) : null,
    thisDevice: mine.includes(p.id),
  }));
}

type Post = { request: Request; formData: FormData; planning: PlanningClient; user: SessionUser };

const answer = (data: ActionData, status: number) => json<ActionData>(data, { status });

/** The Set-Cookies after a change: the device's passkeys, and the session's menu flag when it moved. */
async function changed(request: Request, user: SessionUser, deviceIds: number[], remaining: number | null) {
  const headers = new Headers();
  headers.append("Set-Cookie", await writeDevicePasskeys(deviceIds));
  if (remaining !== null && Boolean(user.hasPasskey) !== remaining > 0) {
    headers.append("Set-Cookie", await updateSessionUser(request, { ...user, hasPasskey: remaining > 0 }));
  }
  return headers;
}

/**
 * The current password of a post that removes a passkey (decision 179), or the answer that refuses
 * the post: missing, or (`refused`) what the platform's refusal of it means.
 */
function currentPasswordOf(formData: FormData): string | null {
  const value = formData.get("currentPassword");
  return typeof value === "string" && value !== "" ? value : null;
}

function passwordRefused(data: ActionData, status: number, apiMessage: string | null): Response | null {
  const refusal = currentPasswordRefusal(status, apiMessage);
  if (!refusal) return null;
  if ("fieldError" in refusal) return answer({ ...data, passwordError: refusal.fieldError }, 400);
  return answer({ ...data, problem: refusal.messageKey }, 403);
}

const PASSWORD_MISSING = "security:changePassword.errors.current";

function positiveId(value: FormDataEntryValue | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** spec 000 §2 Save: grant (register a passkey on this device) or withdraw (remove this device's). */
export async function save({ request, formData, planning, user }: Post): Promise<Response> {
  const granted = formData.get("granted") === "on";
  const listed = await attempt(request, listPasskeys(planning));
  if (!listed.ok)
    return answer({ intent: "save", granted, failure: listed.error.failure }, listed.error.failure.status);
  const ids = listed.value.map((p) => p.id);
  const deviceIds = await readDevicePasskeys(request);
  const mine = devicePasskeys(deviceIds, ids);
  const done = (headers: Headers) =>
    redirectWithToast(PAGE, { type: "success", title: "security:biometric.saved" }, { headers });

  if (granted && mine.length === 0) {
    const raw = formData.get("response");
    // Without the page's script there is no passkey to register: say what is needed.
    if (typeof raw !== "string" || raw === "")
      return answer({ intent: "save", granted, fieldError: "biometric.errors.needsScript" }, 400);
    let response: unknown;
    try {
      response = JSON.parse(raw);
    } catch {
      return answer({ intent: "save", granted, problem: "biometric.errors.notVerified" }, 400);
    }
    const name = passkeyNameFor(request.headers.get("User-Agent"));
    const registered = await attempt(request, registerPasskey(planning, response, name));
    if (!registered.ok) {
      const key = registrationRefusalKey(registered.error.status, registered.error.apiMessage);
      logger.info("passkey not registered", { status: registered.error.status });
      if (key) return answer({ intent: "save", granted, problem: key }, registered.error.status);
      return answer({ intent: "save", granted, failure: registered.error.failure }, registered.error.failure.status);
    }
    logger.info("passkey registered", { userId: user.id, passkeyId: registered.value.id });
    return done(await changed(request, user, [...deviceIds, registered.value.id], ids.length + 1));
  }

  if (!granted && mine.length > 0) {
    // withdrawing removes passkeys: the current password first (decision 179); a grant's proof is
    // the challenge its options were given for that password
    const currentPassword = currentPasswordOf(formData);
    if (currentPassword === null) return answer({ intent: "save", granted, passwordError: PASSWORD_MISSING }, 400);
    const removed: number[] = [];
    for (const id of mine) {
      const result = await attempt(request, removePasskey(planning, id, currentPassword));
      const refused =
        result.ok || removed.length > 0
          ? null
          : passwordRefused({ intent: "save", granted }, result.error.status, result.error.apiMessage);
      if (refused) return refused;
      // Gone already (removed elsewhere) is as good as removed.
      if (!result.ok && result.error.status !== 404) {
        const headers = await changed(
          request,
          user,
          deviceIds.filter((d) => !removed.includes(d)),
          ids.length - removed.length,
        );
        return json<ActionData>(
          { intent: "save", granted, failure: result.error.failure },
          { status: result.error.failure.status, headers },
        );
      }
      removed.push(id);
    }
    logger.info("passkey permission withdrawn", { userId: user.id, removed: removed.length });
    return done(
      await changed(
        request,
        user,
        deviceIds.filter((d) => !mine.includes(d)),
        ids.length - mine.length,
      ),
    );
  }

  // Nothing to change (a post without JavaScript of the choice as it stands): the choice is set.
  return done(await changed(request, user, mine, ids.length));
}

export async function rename({ request, formData, planning }: Post): Promise<Response> {
  const id = positiveId(formData.get("id"));
  if (id === null) throw new Response("Bad request", { status: 400 });
  const typed = String(formData.get("name") ?? "");
  const name = PasskeyNameSchema.safeParse(typed);
  if (!name.success) {
    const key = name.error.issues[0]?.message ?? "security:biometric.errors.nameRequired";
    return answer({ intent: "rename", id, name: typed, fieldError: key.replace(/^security:/, "") }, 400);
  }
  const renamed = await attempt(request, renamePasskey(planning, id, name.data));
  if (!renamed.ok) {
    if (renamed.error.status === 404)
      return answer({ intent: "rename", id, name: typed, problem: "biometric.errors.notFound" }, 404);
    if (renamed.error.status === 400)
      return answer({ intent: "rename", id, name: typed, fieldError: "biometric.errors.nameRequired" }, 400);
    return answer({ intent: "rename", id, name: typed, failure: renamed.error.failure }, renamed.error.failure.status);
  }
  return redirectWithToast(PAGE, { type: "success", title: "security:biometric.renamed" });
}

export async function remove({ request, formData, planning, user }: Post): Promise<Response> {
  const id = positiveId(formData.get("id"));
  if (id === null) throw new Response("Bad request", { status: 400 });
  // the current password first (decision 179)
  const currentPassword = currentPasswordOf(formData);
  if (currentPassword === null) return answer({ intent: "remove", id, passwordError: PASSWORD_MISSING }, 400);
  const removed = await attempt(request, removePasskey(planning, id, currentPassword));
  if (!removed.ok) {
    if (removed.error.status === 404)
      return answer({ intent: "remove", id, problem: "biometric.errors.notFound" }, 404);
    const refused = passwordRefused({ intent: "remove", id }, removed.error.status, removed.error.apiMessage);
    if (refused) return refused;
    return answer({ intent: "remove", id, failure: removed.error.failure }, removed.error.failure.status);
  }
  logger.info("passkey removed", { userId: user.id, passkeyId: id });
  // The menu's rule needs to know whether any are left; if the list fails the flag stays as it was.
  const left = await attempt(request, listPasskeys(planning));
  const deviceIds = (await readDevicePasskeys(request)).filter((d) => d !== id);
  const headers = await changed(request, user, deviceIds, left.ok ? left.value.length : null);
  return redirectWithToast(PAGE, { type: "success", title: "security:biometric.removed" }, { headers });
}
