import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { z } from "zod";
import { resolveLocale } from "~/session/i18next.server";
import { cleanServerMessage, type Failure } from "~/lib/error-catalogue";
import { logger } from "~/runtime/logger.server";
import { signInRefusalKey } from "~/lib/passkeys";
import { landingPath, safeRedirectPath } from "~/lib/redirect-to";
import type { SiteAccessProblem } from "~/lib/site-access";
import { sanitiseTerms } from "~/lib/sanitise.server";
import {
  type Intent,
  type LoginStep,
  messageKeyOf,
  questionsFieldOf,
  questionsPayload,
  type SignInRole,
  STEP_INTENTS,
} from "~/lib/sign-in-steps";
import {
  ForcedPasswordSchema,
  LinkDeviceSchema,
  MemorableSchema,
  SecurityCodeSchema,
  securityQuestionsSchema,
} from "~/lib/sign-in-steps-schemas";
import { logout } from "~/planning/auth.server";
import { createPlanningClient, PlanningError } from "~/planning/client.server";
import { fetchIdleMinutes, fetchSessionUser, SiteAccessError } from "~/planning/session.server";
import { cancelSignIn, signInCall, signInWithPasskey, type StepOutcome } from "~/planning/sign-in.server";
import { getSite } from "~/planning/site.server";
import { clearLoginState, commitLoginState, type LoginState } from "~/session/login-state.server";
import { signedInOnThisDevice } from "~/session/known-device.server";
import { checkRateLimit, checkUsernameLimit, type SignInCounter } from "~/session/rate-limit.server";
import { createUserSession } from "~/session/session.server";
import { siteNames } from "~/lib/site-words";

// The sign-in steps of the login page (spec 000 §2, §4, §5, §8). Each step is a plain form posting
// to /login with a named intent; the login ticket stays in the sealed login-state cookie.

/** An alert above the form: an `auth` key (with values), or a cleaned platform message. */
export type LoginAlert = {
  kind: "error" | "info";
  key?: string;
  params?: Record<string, string | number>;
  text?: string;
  /** The field it is about (the password of refused credentials): the error summary links to it. */
  field?: "password";
};

export type LoginActionData = {
  /** The step to show now: null is the login form; absent keeps the loader's. */
  step?: LoginStep | null;
  /** The form whose submission `result` answers. */
  formId?: string;
  result?: SubmissionResult<string[]>;
  alert?: LoginAlert;
  failure?: Failure;
};

/** The step as it enters the cookie: terms already sanitised, so what is stored is what is shown and agreed to. */
export function storedStep(step: LoginStep): LoginStep {
  if (step.status !== "SiteTerms" || step.terms.html === null) return step;
  return { ...step, terms: { ...step.terms, html: sanitiseTerms(step.terms.html) } };
}

/** The step to render: terms that did not fit the cookie are read from site content (decision 045). */
export async function stepView(step: LoginStep, request: Request): Promise<LoginStep> {
  if (step.status === "SetSecurityQuestions") {
    // the default questions in the page's language, or marked English (decision 210)
    const locale = await resolveLocale(request);
    const worded = siteNames((await getSite(locale)).settings, "securityQuestions", locale);
    return { ...step, defaultQuestions: step.defaultQuestions.map((q) => (typeof q === "string" ? worded(q) : q)) };
  }
  if (step.status !== "SiteTerms" || step.terms.html !== null) return step;
  const page = (await getSite(await resolveLocale(request))).pages["site-terms"];
  return {
    status: "SiteTerms",
    terms: { title: step.terms.title || page?.title || "", html: sanitiseTerms(page?.html ?? "") },
  };
}

/** The login page for a user type, keeping where the user wanted to go. */
export function loginPath(state: Pick<LoginState, "userType" | "redirectTo"> | null): string {
  const params = new URLSearchParams();
  if (state?.userType === "adviser") params.set("userType", "adviser");
  if (state?.redirectTo) params.set("redirectTo", state.redirectTo);
  const query = params.toString();
  return query ? `/login?${query}` : "/login";
}

function withCookie(setCookie: string, init: ResponseInit = {}): ResponseInit {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", setCookie);
  return { ...init, headers };
}

/** Back to the login form with a message; the sign-in part-way is forgotten. */
function resetWith(status: number, alert: LoginAlert | undefined, failure?: Failure) {
  return json<LoginActionData>({ step: null, alert, failure }, withCookie(clearLoginState(), { status }));
}

/** The spec's 'User session not found. Please log in again.' (spec 000 §8): the ticket is gone. */
export function sessionNotFound() {
  return resetWith(401, { kind: "error", key: "steps.sessionNotFound" });
}

/**
 * spec 000 §4 "Session check and gates" and §8 "Site access errors": a client whose site access
 * level is unknown or could not be had is not let in. The platform session just opened is ended,
 * and the login page says why (`/login?error=…`, docs/decisions/038).
 */
export async function refuseSiteAccess(
  token: string,
  problem: SiteAccessProblem,
  fields: Record<string, unknown> = {},
) {
  logger.error("site access refused, session ended", { problem, ...fields });
  await logout(token);
  return redirect(`/login?${new URLSearchParams({ error: problem })}`, withCookie(clearLoginState()));
}

/** Who is signing in, for the browser's device cookie (decision 173): the username typed, none after a passkey. */
type SigningIn = { request: Request; username: string | null };

/**
 * spec 000 §2: on LoginSuccess a ClientUser goes to the clients section and a User to the advisers
 * section; the browser is known for the user from now on (decision 173).
 */
export async function completeSignIn(token: string, redirectTo: string | null, role: SignInRole, signingIn: SigningIn) {
  const planning = createPlanningClient({ token });
  // For a client the user call is also the site access lookup: its failure is the spec's
  // 'An error occurred getting client access level or choices' (a lapsed session stays a lapsed session).
  const userCall = fetchSessionUser(planning).catch((error: unknown) => {
    if (role === "ClientUser" && error instanceof PlanningError && error.failure.kind !== "lost-session") {
      throw new SiteAccessError("AccessLevelError", undefined, null, error.status);
    }
    throw error;
  });
  try {
    const [user, idleMinutes] = await Promise.all([userCall, fetchIdleMinutes(planning)]);
    const headers = new Headers({ "Set-Cookie": clearLoginState() });
    const device = await signedInOnThisDevice(signingIn.request, { username: signingIn.username, userId: user.id });
    if (device) headers.append("Set-Cookie", device);
    logger.info("auth", {
      outcome: "success",
      step: "signedIn",
      method: signingIn.username === null ? "passkey" : "password",
      userId: user.id,
    });
    return await createUserSession({
      token,
      user,
      idleMinutes,
      redirectTo: landingPath(user, redirectTo),
      headers,
    });
  } catch (error) {
    if (error instanceof SiteAccessError) {
      return refuseSiteAccess(token, error.problem, {
        userId: error.userId,
        clientAccessLevel:
          error.clientAccessLevel === undefined
            ? undefined
            : String(JSON.stringify(error.clientAccessLevel)).slice(0, 40),
        status: error.status,
      });
    }
    if (!(error instanceof PlanningError)) throw error;
    return resetWith(error.failure.status, undefined, error.failure);
  }
}

/** The alert for a refusal: a known message in the user's language, else the cleaned platform message. */
export function alertFor(apiMessage: string | null): LoginAlert | undefined {
  const key = messageKeyOf(apiMessage);
  if (key) return { kind: "error", key };
  const text = cleanServerMessage(apiMessage);
  return text ? { kind: "error", text } : undefined;
}

/**
 * docs/decisions/115: what a password sign-in's answer means for its username's count. A wrong
 * password (or an unknown username) stays counted; a right one, with or without further steps,
 * clears it; any other answer (a locked account, a fault) is taken back.
 */
export function usernameOutcome(outcome: StepOutcome): "failed" | "succeeded" | "neither" {
  if (outcome.kind === "success" || outcome.kind === "step") return "succeeded";
  return outcome.kind === "refused" && outcome.status === 401 ? "failed" : "neither";
}

/** The alert of a refusal by a limit (decision 173): each says what is limited. */
export function limitAlert(counter: SignInCounter | undefined, seconds: number): LoginAlert {
  // the address's posts (decision 046), in seconds; a username's failures, in minutes (a 15-minute window)
  if (counter === undefined) return { kind: "error", key: "steps.rateLimited", params: { seconds } };
  const minutes = Math.ceil(seconds / 60);
  const key = counter.device === null ? "steps.usernameLimited" : "steps.deviceLimited";
  return { kind: "error", key, params: { count: minutes, minutes } };
}

/**
 * The rate limit of sign-in posts (docs/decisions/046): 429 with the form as it was, minus secrets.
 * With a counter (the login form's username, once valid), that username's failed sign-ins instead:
 * from this browser when it is known for the username, else from every unknown browser
 * (docs/decisions/115, 173), each with its own message; the post counts as failed until the
 * platform answers (countSignIn).
 */
export async function rateLimited(address: string | null, reply: () => LoginActionData, counter?: SignInCounter) {
  const seconds =
    counter === undefined ? await checkRateLimit(address, "signIn") : await checkUsernameLimit(address, counter);
  // logged where it is decided (app/session/rate-limit.server.ts, decision 174)
  if (seconds === null) return null;
  return json<LoginActionData>(
    { ...reply(), alert: limitAlert(counter, seconds) },
    { status: 429, headers: { "Retry-After": String(seconds) } },
  );
}

/**
 * Where a platform answer leads from the login form or any step: the user's session, the next
 * step (POST-redirect-GET), or back to the login form. Answers null for the refusals that the
 * step itself shows (the caller maps them onto its fields).
 */
export async function follow(
  outcome: StepOutcome,
  state: Pick<LoginState, "userType" | "redirectTo" | "username">,
  request: Request,
): Promise<Response | null> {
  switch (outcome.kind) {
    case "success":
      return completeSignIn(outcome.token, state.redirectTo, outcome.role, {
        request,
        username: state.username ?? null,
      });
    case "step":
      return redirect(
        loginPath(null),
        withCookie(
          commitLoginState({
            ticket: outcome.ticket,
            role: outcome.role,
            userType: state.userType,
            redirectTo: state.redirectTo,
            step: storedStep(outcome.step),
            ...(state.username === undefined ? {} : { username: state.username }),
          }),
        ),
      );
    case "ended":
      return redirect(loginPath(state), withCookie(clearLoginState()));
    case "retry":
      return null;
    case "refused": {
      const key = messageKeyOf(outcome.apiMessage);
      // The ticket is dead: unknown or expired (401), at another step (409), the account locked
      // meanwhile (403), or too many codes (429). The sign-in starts again.
      if (outcome.status === 401 || outcome.status === 409) return sessionNotFound();
      if (outcome.status === 403)
        return resetWith(403, alertFor(outcome.apiMessage) ?? { kind: "error", key: "login.disabled" });
      if (outcome.status === 429) return resetWith(429, key ? { kind: "error", key } : alertFor(outcome.apiMessage));
      return null;
    }
  }
}

type StepContext = {
  request: Request;
  formData: FormData;
  state: LoginState;
  intent: Intent;
  /** The client's address (clientAddress), for the rate limit. */
  address: string | null;
};

/** The step as it stands (same ticket), re-rendered with an answer. */
function stay(ctx: StepContext, status: number, data: Omit<LoginActionData, "step">, state: LoginState = ctx.state) {
  const init: ResponseInit = { status };
  return json<LoginActionData>(
    { step: state.step, ...data },
    state === ctx.state ? init : withCookie(commitLoginState(state), init),
  );
}

/** A refusal the step shows: a field error where it belongs, else an alert; the network failure from the catalogue. */
function refusedAtStep(
  ctx: StepContext,
  outcome: Extract<StepOutcome, { kind: "refused" }>,
  form?: { id: string; reply: (fieldErrors?: Record<string, string[]>) => SubmissionResult<string[]> },
  fieldOf?: (key: string) => string | null,
) {
  const key = messageKeyOf(outcome.apiMessage);
  const field = key && fieldOf ? fieldOf(key) : null;
  const answered = (fieldErrors?: Record<string, string[]>) =>
    form ? { formId: form.id, result: form.reply(fieldErrors) } : {};
  if (key && field) return stay(ctx, outcome.status, answered({ [field]: [`auth:${key}`] }));
  // No answer, or a failure of the platform itself: the catalogue's text, and the step stays.
  if (outcome.status === 0 || (!key && outcome.status >= 500)) {
    return stay(ctx, outcome.status || 503, { ...answered(), failure: outcome.failure });
  }
  const alert = alertFor(outcome.apiMessage);
  return stay(ctx, outcome.status, { ...answered(), alert, failure: alert ? undefined : outcome.failure });
}

export const FORM_IDS = {
  password: "step-password",
  terms: "step-terms",
  questions: "step-questions",
  code: "step-code",
  device: "step-device",
  memorable: "step-memorable",
} as const;

type FormReply = (fieldErrors?: Record<string, string[]>) => SubmissionResult<string[]>;

/** After the platform's answer: the next step or the signed-in page, else the refusal shown at this step. */
async function afterOutcome(
  ctx: StepContext,
  outcome: StepOutcome,
  form?: { id: string; reply: FormReply },
  fieldOf?: (key: string) => string | null,
): Promise<Response> {
  const next = await follow(outcome, ctx.state, ctx.request);
  if (next) return next;
  if (outcome.kind !== "refused") return redirect(loginPath(null));
  return refusedAtStep(ctx, outcome, form, fieldOf);
}

/** spec 000 §4: Return to login, Decline and Cancel all reset the login state. */
async function resetSignIn(ctx: StepContext): Promise<Response> {
  const { state, intent } = ctx;
  const outcome =
    intent === "decline-terms"
      ? await signInCall("auth/terms", { login_ticket: state.ticket, agree: false })
      : await cancelSignIn(state.ticket);
  if (outcome.kind === "refused" && outcome.status === 0) logger.error("sign-in cancel not delivered", {});
  return redirect(loginPath(state), withCookie(clearLoginState()));
}

async function changePassword(ctx: StepContext): Promise<Response> {
  const { step, ticket } = ctx.state;
  const submission = parseWithZod(ctx.formData, { schema: ForcedPasswordSchema });
  const reply: FormReply = (fieldErrors) => submission.reply({ hideFields: ["newPassword"], fieldErrors });
  const limited = await rateLimited(ctx.address, () => ({ step, formId: FORM_IDS.password, result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") return stay(ctx, 400, { formId: FORM_IDS.password, result: reply() });
  const outcome = await signInCall("auth/password", {
    login_ticket: ticket,
    new_password: submission.value.newPassword,
  });
  return afterOutcome(ctx, outcome, { id: FORM_IDS.password, reply }, (key) =>
    key.startsWith("steps.password.") ? "newPassword" : null,
  );
}

async function agreeTerms(ctx: StepContext): Promise<Response> {
  const { step, ticket } = ctx.state;
  const limited = await rateLimited(ctx.address, () => ({ step }));
  if (limited) return limited;
  if (step.status !== "SiteTerms") return redirect(loginPath(null));
  // The terms as shown (the same sanitised text the page rendered) are what the user agreed to.
  const shown = await stepView(step, ctx.request);
  const text = shown.status === "SiteTerms" ? (shown.terms.html ?? "") : "";
  const outcome = await signInCall("auth/terms", { login_ticket: ticket, agree: true, terms_text: text });
  return afterOutcome(ctx, outcome);
}

async function setSecurityQuestions(ctx: StepContext): Promise<Response> {
  const { step, ticket } = ctx.state;
  if (step.status !== "SetSecurityQuestions") return redirect(loginPath(null));
  const schema = securityQuestionsSchema(step.answerMinLength);
  const submission = parseWithZod(ctx.formData, { schema });
  const reply: FormReply = (fieldErrors) => submission.reply({ hideFields: ["answer1", "answer2"], fieldErrors });
  const limited = await rateLimited(ctx.address, () => ({ step, formId: FORM_IDS.questions, result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") return stay(ctx, 400, { formId: FORM_IDS.questions, result: reply() });
  const outcome = await signInCall("auth/security_questions", {
    login_ticket: ticket,
    questions: questionsPayload(submission.value),
  });
  return afterOutcome(ctx, outcome, { id: FORM_IDS.questions, reply }, (key) =>
    key.startsWith("steps.questions.") ? questionsFieldOf(key) : null,
  );
}

async function validateCode(ctx: StepContext): Promise<Response> {
  const { state } = ctx;
  const { step, ticket } = state;
  const submission = parseWithZod(ctx.formData, { schema: SecurityCodeSchema });
  const reply: FormReply = (fieldErrors) => submission.reply({ hideFields: ["code"], fieldErrors });
  const limited = await rateLimited(ctx.address, () => ({ step, formId: FORM_IDS.code, result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") return stay(ctx, 400, { formId: FORM_IDS.code, result: reply() });
  const deviceId = step.status === "MfaEnrolmentValidateDevice" ? step.deviceId : undefined;
  const outcome = await signInCall("auth/tfa/validate", {
    login_ticket: ticket,
    code: submission.value.code,
    device_id: deviceId,
  });
  if (outcome.kind === "retry") {
    // spec 000 §8: a bad one-time code (a new code has been sent, except for a software token)
    const key = messageKeyOf(outcome.apiMessage) ?? "steps.code.badCode";
    return stay(
      ctx,
      outcome.status,
      { formId: FORM_IDS.code, result: reply({ code: [`auth:${key}`] }) },
      { ...state, ticket: outcome.ticket, step: storedStep(outcome.step) },
    );
  }
  return afterOutcome(ctx, outcome, { id: FORM_IDS.code, reply }, (key) =>
    key === "steps.code.badCode" ? "code" : null,
  );
}

async function resendCode(ctx: StepContext): Promise<Response> {
  const { state } = ctx;
  const limited = await rateLimited(ctx.address, () => ({ step: state.step }));
  if (limited) return limited;
  const outcome = await signInCall("auth/tfa/resend", { login_ticket: state.ticket });
  if (outcome.kind === "step") {
    // Shown at once (not redirected) so the page can say that a new code is on its way.
    const next: LoginState = { ...state, ticket: outcome.ticket, step: storedStep(outcome.step) };
    const sent = outcome.step.status !== "MfaEnrolmentValidateDevice" || outcome.step.method !== "token";
    return stay(ctx, 200, sent ? { alert: { kind: "info", key: "steps.code.resent" } } : {}, next);
  }
  return afterOutcome(ctx, outcome);
}

async function linkDevice(ctx: StepContext): Promise<Response> {
  const { step, ticket } = ctx.state;
  const submission = parseWithZod(ctx.formData, { schema: LinkDeviceSchema });
  const reply: FormReply = (fieldErrors) => submission.reply({ fieldErrors });
  const limited = await rateLimited(ctx.address, () => ({ step, formId: FORM_IDS.device, result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") return stay(ctx, 400, { formId: FORM_IDS.device, result: reply() });
  const outcome = await signInCall("auth/tfa/device", { login_ticket: ticket, method: submission.value.method });
  return afterOutcome(ctx, outcome, { id: FORM_IDS.device, reply });
}

async function memorableCharacters(ctx: StepContext): Promise<Response> {
  const { state } = ctx;
  const { step, ticket } = state;
  const submission = parseWithZod(ctx.formData, { schema: MemorableSchema });
  const reply: FormReply = (fieldErrors) => submission.reply({ hideFields: ["char1", "char2", "char3"], fieldErrors });
  const limited = await rateLimited(ctx.address, () => ({ step, formId: FORM_IDS.memorable, result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") return stay(ctx, 400, { formId: FORM_IDS.memorable, result: reply() });
  const { char1, char2, char3 } = submission.value;
  const outcome = await signInCall("auth/memorable", { login_ticket: ticket, answers: [char1, char2, char3] });
  if (outcome.kind === "retry") {
    // spec 000 §4 step 2: a retry with new positions; the fields start empty.
    return stay(
      ctx,
      outcome.status,
      {
        formId: FORM_IDS.memorable,
        result: submission.reply({ resetForm: true }),
        alert: { kind: "error", key: messageKeyOf(outcome.apiMessage) ?? "steps.memorable.failed" },
      },
      { ...state, ticket: outcome.ticket, step: storedStep(outcome.step) },
    );
  }
  // 'Account deactivated' is a login error: the login form with that message (spec 000 §4 step 2).
  return afterOutcome(ctx, outcome, { id: FORM_IDS.memorable, reply });
}

/** Each step's intents and what they do; an intent of none shows the step the sign-in is at. */
const STEP_HANDLERS: Partial<Record<Intent, (ctx: StepContext) => Promise<Response>>> = {
  cancel: resetSignIn,
  "decline-terms": resetSignIn,
  "change-password": changePassword,
  "agree-terms": agreeTerms,
  "security-questions": setSecurityQuestions,
  "validate-code": validateCode,
  "resend-code": resendCode,
  "link-device": linkDevice,
  memorable: memorableCharacters,
};

/** One post of a sign-in step (the state is alive and the intent belongs to its step). */
export async function stepAction(ctx: StepContext): Promise<Response> {
  const handler = STEP_HANDLERS[ctx.intent];
  // A form of another step (an old tab, the back button): show the step the sign-in is at.
  if (!STEP_INTENTS[ctx.state.step.status].includes(ctx.intent) || !handler) return redirect(loginPath(null));
  return handler(ctx);
}

/** What a refused passkey sign-in answers to the login page's script (its fetcher, not the form). */
export type PasskeyActionData = { passkey: { alert?: LoginAlert; failure?: Failure } };

const PasskeyPost = z.object({
  userType: z.enum(["client", "adviser"]).catch("client"),
  redirectTo: z.string().optional(),
  // SimpleWebAuthn's AuthenticationResponseJSON; the platform checks its shape and everything in it.
  response: z.string().min(2).max(40_000),
});

/**
 * docs/decisions/101: the browser's answer to a passkey sign-in, posted by the login page's script
 * (intent `passkey`). Success is the same as a password's: the session, or a step that is not a
 * second factor. A refusal answers a message for the passkey's own alert, so that the password
 * form stays as the user left it.
 */
export async function passkeySignIn(request: Request, formData: FormData, address: string | null): Promise<Response> {
  const refuse = (status: number, passkey: PasskeyActionData["passkey"]) =>
    json<PasskeyActionData>({ passkey }, { status });
  const seconds = await checkRateLimit(address, "signIn");
  if (seconds !== null) {
    return json<PasskeyActionData>(
      { passkey: { alert: { kind: "error", key: "steps.rateLimited", params: { seconds } } } },
      { status: 429, headers: { "Retry-After": String(seconds) } },
    );
  }
  const post = PasskeyPost.safeParse(Object.fromEntries(formData));
  let response: unknown = null;
  try {
    response = post.success ? JSON.parse(post.data.response) : null;
  } catch {
    response = null;
  }
  if (!post.success || typeof response !== "object" || response === null) {
    return refuse(400, { alert: { kind: "error", key: "login.passkey.failed" } });
  }
  const { userType } = post.data;
  const outcome = await signInWithPasskey({ response, userType });
  logger.info("auth", {
    step: "passkey",
    outcome: outcome.kind === "step" || outcome.kind === "success" ? "success" : "failure",
    platformAnswer:
      outcome.kind === "step" ? outcome.step.status : outcome.kind === "success" ? "LoginSuccess" : outcome.kind,
    status: outcome.kind === "refused" || outcome.kind === "retry" ? outcome.status : undefined,
    userType,
    address,
  });
  if (outcome.kind === "refused" || outcome.kind === "retry") {
    if (outcome.status === 403)
      return refuse(403, { alert: alertFor(outcome.apiMessage) ?? { kind: "error", key: "login.disabled" } });
    const key = signInRefusalKey(outcome.status, outcome.apiMessage);
    if (key) return refuse(outcome.status, { alert: { kind: "error", key } });
    const failure =
      outcome.kind === "refused" ? outcome.failure : { kind: "generic" as const, status: outcome.status, detail: null };
    return refuse(failure.status || 503, { failure });
  }
  const next = await follow(outcome, { userType, redirectTo: safeRedirectPath(post.data.redirectTo ?? null) }, request);
  return next ?? refuse(502, { failure: { kind: "generic", status: 502, detail: null } });
}

// The route module takes these from here, never from zod or the schema's module: a `.server` module
// is empty in the browser build (app/session/validation.server.ts).
export { parseWithZod };
export { LoginSchema, UserType } from "./login-schema";
