import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import type { Failure } from "~/lib/error-catalogue";
import { effectOf, isNotificationType, REDIRECT_URLS, withMarks } from "~/lib/notifications";
import { safeRedirectPath } from "~/lib/redirect-to";
import type { Toast } from "~/lib/toast";
import { fetchSpeakToAdviser } from "~/planning/adviser.server";
import { fetchNotificationConfig, patchClientStatus, sendTemplateEmail } from "~/planning/notifications.server";
import { logger } from "~/runtime/logger.server";
import { readForm } from "~/session/csrf.server";
import { settle } from "~/session/failures.server";
import { refuseAccess, requireClientContext } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { marksSetCookie, readMarks } from "~/session/notifications.server";
import { redirectWithToast } from "~/session/toast.server";

// spec 002 §4 "Notification flow", "Postponement panel" (docs/decisions/097): the notification and
// postponement panels post here, from the clients home and the documents and messages page, with
// an `intent` (close | open | speak, or continue from a postponement notice), the item's `type` and
// the page to return to. A form's address: typed in the address bar it goes home.

const INTENTS = ["close", "open", "speak", "continue"] as const;
type PostIntent = (typeof INTENTS)[number];
const isIntent = (value: unknown): value is PostIntent =>
  typeof value === "string" && (INTENTS as readonly string[]).includes(value);

const DEFAULT_RETURN = "/clients/home";

export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 002 §6: notifications are the client's own; an adviser in context changes none
  if (context.isAdviser || context.user.role !== "ClientUser") throw refuseAccess(context, "clients only");
  const form = await readForm(request);
  const intent = form.get("intent");
  const type = form.get("type");
  if (!isIntent(intent) || !isNotificationType(type))
    return json({ error: "Unknown notification or intent" }, { status: 400 });
  const returnTo = safeRedirectPath(form.get("returnTo")) ?? DEFAULT_RETURN;
  const userId = context.user.id;
  const marks = await readMarks(request, userId);

  // the postponement notice: marked updated, then its link
  if (intent === "continue") {
    return redirect(REDIRECT_URLS[type], {
      headers: { "Set-Cookie": await marksSetCookie(userId, withMarks(marks, type, { updated: true })) },
    });
  }

  const { planning, entityId } = context;
  const needsConfig = intent === "speak" && type === "factFind";
  // decision 124: the configuration is asked beside the adviser check, not after it
  const configPromise = needsConfig
    ? fetchNotificationConfig(planning, entityId)
    : Promise.resolve({ emailTemplateId: null });
  configPromise.catch(() => undefined);
  if (intent === "speak") {
    // a client with no adviser is not offered it: a post from an old page changes nothing (issue 25 item 12)
    const offer = await settle(
      request,
      fetchSpeakToAdviser(planning, {
        locale: await resolveLocale(request),
        role: context.user.role,
        clientId: entityId,
      }),
    );
    if (!offer.ok) return redirectWithToast(returnTo, await failureToast(request, offer.failure));
    if (!offer.value.offered) return redirect(returnTo);
  }
  const done = await settle(
    request,
    (async () => {
      const config = await configPromise;
      const effect = effectOf(intent, type, config);
      if (effect.change) await patchClientStatus(planning, entityId, effect.change);
      if (effect.emailTemplateId !== null) {
        // the status stands even if the email fails (logged), as the signature's confirmation email
        const t = await getFixedT(request, "notifications");
        await sendTemplateEmail(planning, effect.emailTemplateId, t("factFind.emailSubject")).catch((error: unknown) =>
          logger.error("speak-to-adviser email not sent", { error: String(error) }),
        );
      }
      return effect;
    })(),
  );
  if (!done.ok) return redirectWithToast(returnTo, await failureToast(request, done.failure));

  const effect = done.value;
  const headers = new Headers({ "Set-Cookie": await marksSetCookie(userId, withMarks(marks, type, effect.mark)) });
  if (effect.confirmation) {
    return redirectWithToast(returnTo, { type: "success", title: "notifications:speak.confirmation" }, { headers });
  }
  return redirect(effect.goTo ?? returnTo, { headers });
}

/** spec 000 §8: 'An error has occurred', the platform's cleaned message, then the advice (or the network text). */
async function failureToast(request: Request, failure: Failure): Promise<Toast> {
  if (failure.kind === "network")
    return { type: "error", title: "common:errors.network.title", description: "common:errors.network.text" };
  if (!failure.detail)
    return { type: "error", title: "common:errors.generic.title", description: "common:errors.generic.text" };
  const t = await getFixedT(request, "common");
  return {
    type: "error",
    title: "common:errors.generic.title",
    description: `${failure.detail} ${t("errors.generic.text")}`,
  };
}
