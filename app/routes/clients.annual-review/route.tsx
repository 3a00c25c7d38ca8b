import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { ContactInstead } from "~/components/contact-instead";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FieldError, type SummaryError } from "~/components/error-summary";
import { FailureAlert } from "~/components/error-summary";
import { clearLeaveWarning, useLeaveWarning } from "~/components/leave-warning";
import type { Failure } from "~/lib/error-catalogue";
import { SITE_ACCESS_LEVELS } from "~/lib/site-access";
import { REVIEW_HOME, telHref } from "~/lib/review";
import { readForm } from "~/session/csrf.server";
import { refuseAccess, requireClientContext } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { reviewAction, reviewLoader, type PersonAnswer, type PlaybackRow, type ReviewView } from "./review.server";
import reviewStyles from "./review.css";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Annual Review page" (docs/decisions/098-annual-review.md): clients only; one page of
// the review at a time, each a plain post; the answers kept by the platform.

export const handle = { i18n: ["review", "clients"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reviewStyles }];

async function reviewContext(request: Request) {
  const context = await requireClientContext(request);
  // spec 002 §6: Annual Review allows only the client role
  if (context.isAdviser) throw refuseAccess(context, "clients only");
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "review")]);
  return {
    request,
    planning: context.planning,
    clientId: context.entityId,
    role: context.user.role,
    clientAccess: SITE_ACCESS_LEVELS.indexOf(context.siteAccessLevel),
    t,
    locale,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  return reviewLoader(await reviewContext(request));
}

export async function action({ request }: ActionFunctionArgs) {
  const args = await reviewContext(request);
  const form = await readForm(request);
  return reviewAction({ ...args, form });
}

type ActionData = {
  errors?: { client?: string; partner?: string; respondForPartner?: string };
  typed?: { client: PersonAnswer; partner: PersonAnswer; respondForPartner: string | null } | null;
  failure?: Failure;
  submitFailed?: true;
};

/** A Yes/No question in a fieldset, its error beside it, and the free text for a Yes where the page asks. */
function YesNo({
  name,
  legend,
  value,
  error,
  additional,
  onChange,
}: {
  name: "client" | "partner" | "respondForPartner";
  legend: string;
  value: PersonAnswer;
  error: string | undefined;
  additional: boolean;
  onChange: (value: "yes" | "no") => void;
}) {
  const { t } = useTranslation("review");
  const hydrated = useHydrated();
  const [choice, setChoice] = useState(value.response);
  const errorId = `${name}-error`;
  const showText = additional && (!hydrated || choice === "yes");
  const pick = (next: "yes" | "no") => {
    setChoice(next);
    onChange(next);
  };
  return (
    <div className={error ? "review-question field--error" : "review-question"}>
      <fieldset aria-describedby={error ? errorId : undefined}>
        <legend className="review-question__legend">{legend}</legend>
        <FieldError id={errorId} errors={[error]} />
        <div className="review-question__choices">
          {(["yes", "no"] as const).map((option) => (
            <div className="radio" key={option}>
              <input
                id={option === "yes" ? name : `${name}-no`}
                type="radio"
                name={name}
                value={option}
                defaultChecked={value.response === option}
                onChange={() => pick(option)}
              />
              <label htmlFor={option === "yes" ? name : `${name}-no`}>
                {t(option === "yes" ? "answer.yes" : "answer.no")}
              </label>
            </div>
          ))}
        </div>
      </fieldset>
      {showText ? (
        <div className="field review-question__text">
          <label className="field__label" htmlFor={`${name}Text`}>
            {t("answer.tellUs")}
          </label>
          {!hydrated ? (
            <p className="field__hint" id={`${name}Text-hint`}>
              {t("answer.tellUsHint")}
            </p>
          ) : null}
          <textarea
            id={`${name}Text`}
            name={`${name}Text`}
            className="textarea"
            maxLength={4000}
            defaultValue={value.additionalText}
            aria-describedby={!hydrated ? `${name}Text-hint` : undefined}
          />
        </div>
      ) : null}
    </div>
  );
}

function Progress({ view, answeredNow }: { view: ReviewView; answeredNow: boolean }) {
  const { t } = useTranslation("review");
  const value = answeredNow ? view.progress.answered : view.progress.shown;
  return (
    <div className="review-progress">
      <label htmlFor="review-progress" className="review-progress__label">
        {view.position
          ? t("progress.position", { index: view.position.index, total: view.position.total })
          : t("progress.label")}
      </label>
      <progress id="review-progress" max={100} value={value} aria-valuetext={t("progress.text", { percent: value })}>
        {t("progress.text", { percent: value })}
      </progress>
      <span className="review-progress__text" aria-hidden="true">
        {t("progress.text", { percent: value })}
      </span>
    </div>
  );
}

function Lines({ lines, phone }: { lines: string[] | null; phone: boolean }) {
  const { t } = useTranslation("review");
  if (!lines) return <span className="review-playback__none">{t("playback.none")}</span>;
  return (
    <>
      {lines.map((line, i) => (
        <span className="review-playback__line" key={`${i}-${line}`}>
          {phone ? <a href={telHref(line)}>{line}</a> : line}
        </span>
      ))}
    </>
  );
}

function Playback({ rows, view }: { rows: PlaybackRow[]; view: ReviewView }) {
  const { t } = useTranslation("review");
  return (
    <table className="review-playback">
      <caption className="visually-hidden">{view.page.heading}</caption>
      <thead>
        <tr>
          <th scope="col">{t("playback.field")}</th>
          <th scope="col">{view.clientName}</th>
          {view.respondForPartner && view.partnerName ? <th scope="col">{view.partnerName}</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.fieldName}>
            <th scope="row">{row.label}</th>
            <td>
              <Lines lines={row.client} phone={row.phone} />
            </td>
            {view.respondForPartner && view.partnerName ? (
              <td>
                <Lines lines={row.partner} phone={row.phone} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Risk({ view }: { view: ReviewView }) {
  const { t } = useTranslation("review");
  if (!view.risk) return null;
  const people = [
    { name: view.clientName, risk: view.risk.client },
    ...(view.risk.partner && view.partnerName ? [{ name: view.partnerName, risk: view.risk.partner }] : []),
  ];
  return (
    <dl className="review-risk">
      {people.map((p) => (
        <div className="review-risk__person" key={p.name}>
          <dt>{p.name}</dt>
          <dd>{p.risk.rating ?? t("playback.none")}</dd>
          {p.risk.description ? <dd className="review-risk__description">{p.risk.description}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

function Completion({ view }: { view: ReviewView }) {
  const { t } = useTranslation("review");
  const completion = view.completion;
  return (
    <>
      {completion?.successText ? <p className="alert alert--success">{completion.successText}</p> : null}
      {completion?.adviserHeader && completion.advisers.length ? (
        <section className="review-advisers" aria-labelledby="review-advisers-heading">
          <h2 id="review-advisers-heading">{completion.adviserHeader}</h2>
          {completion.advisers.map((adviser) => (
            <div className="review-advisers__card card" key={adviser.name}>
              <p className="review-advisers__name">{adviser.name}</p>
              {adviser.phones.map((phone) => (
                <p key={phone.href}>
                  <a href={phone.href}>{phone.text}</a>
                </p>
              ))}
              {adviser.email ? (
                <p>
                  <a href={adviser.email.href}>{adviser.email.text}</a>
                </p>
              ) : null}
            </div>
          ))}
        </section>
      ) : null}
      <FinishForm label={t("buttons.finish")} />
    </>
  );
}

function FinishForm({ label }: { label: string }) {
  return (
    <Form method="post" className="form-actions review-actions">
      <AuthenticityTokenInput />
      <button type="submit" name="intent" value="finish" className="button">
        {label}
      </button>
    </Form>
  );
}

export default function AnnualReview() {
  const { view } = useLoaderData<typeof loader>() as unknown as { view: ReviewView };
  const location = useLocation();
  // a new page (or the same page loaded again) starts from its own answers
  return <ReviewPageView key={`${view.page.order}-${location.key}`} view={view} />;
}

function FollowUp() {
  const { t } = useTranslation("review");
  return (
    <article className="review">
      <h1>{t("title")}</h1>
      <p className="alert alert--success" role="status">
        {t("followUp")}
      </p>
      <p>
        <Link to={REVIEW_HOME} className="button">
          {t("buttons.finish")}
        </Link>
      </p>
    </article>
  );
}

/** The review could not be submitted: try again, or go home. */
function SubmitFailed({ order, busy }: { order: number; busy: boolean }) {
  const { t } = useTranslation("review");
  return (
    <article className="review">
      <h1>{t("title")}</h1>
      <div className="alert alert--error" role="alert">
        <p className="alert__title">{t("failure.title")}</p>
        <p>{t("failure.text")}</p>
      </div>
      <Form method="post" className="form-actions review-actions">
        <AuthenticityTokenInput />
        <input type="hidden" name="page" value={order} />
        <button type="submit" name="intent" value="submit" className="button" disabled={busy}>
          {t("buttons.tryAgain")}
        </button>
        <Link to={REVIEW_HOME} className="button button--secondary">
          {t("buttons.home")}
        </Link>
      </Form>
    </article>
  );
}

/** Who the page asks, with the question: the client, then the partner when answered for. */
function askedOf(questions: ReviewView["questions"]) {
  if (!questions) return [];
  const asked: Array<{ person: "client" | "partner"; legend: string }> = [
    { person: "client", legend: questions.client },
  ];
  if (questions.partner) asked.push({ person: "partner", legend: questions.partner });
  return asked;
}

/** The page's questions: whether to answer for the partner (on the introduction), then the client's and the partner's. */
function Questions({
  view,
  answers,
  errors,
  partnerChoice,
  onChosen,
}: {
  view: ReviewView;
  answers: ReviewView["answers"];
  errors: NonNullable<ActionData["errors"]>;
  partnerChoice: PersonAnswer["response"];
  onChosen: (person: "client" | "partner", response: string | null) => void;
}) {
  const { t } = useTranslation("review");
  const { page } = view;
  return (
    <>
      {page.type === "reviewIntro" && view.canAnswerForPartner ? (
        <YesNo
          name="respondForPartner"
          legend={t("respondForPartner")}
          value={{ response: partnerChoice, additionalText: "" }}
          error={errors.respondForPartner}
          additional={false}
          onChange={() => undefined}
        />
      ) : null}
      {askedOf(view.questions).map(({ person, legend }) => (
        <YesNo
          key={person}
          name={person}
          legend={legend}
          value={answers[person]}
          error={errors[person]}
          additional={page.showAdditionalInformation}
          onChange={(v) => onChosen(person, v)}
        />
      ))}
    </>
  );
}

/** Previous, then Start, Submit or Next; on the introduction 'speak to an adviser' or how to reach one. */
function PageActions({ view, busy }: { view: ReviewView; busy: boolean }) {
  const { t } = useTranslation("review");
  const isIntro = view.page.type === "reviewIntro";
  return (
    <>
      <div className="form-actions review-actions">
        {view.previousOrder !== null ? (
          <button type="submit" name="intent" value="previous" className="button button--secondary" disabled={busy}>
            {t("buttons.previous")}
          </button>
        ) : null}
        {isIntro ? (
          <button type="submit" name="intent" value="start" className="button" disabled={busy}>
            {t("buttons.start")}
          </button>
        ) : view.page.type === "submission" ? (
          <button type="submit" name="intent" value="submit" className="button" disabled={busy}>
            {t("buttons.submit")}
          </button>
        ) : (
          <button type="submit" name="intent" value="next" className="button" disabled={busy}>
            {t("buttons.next")}
          </button>
        )}
      </div>
      {isIntro && view.speakToAdviser?.offered !== false ? (
        <p className="review__speak">
          <button type="submit" name="intent" value="speak" className="button--link" disabled={busy}>
            {t("buttons.speak")}
          </button>
        </p>
      ) : null}
      {isIntro && view.speakToAdviser?.offered === false ? <ContactInstead speak={view.speakToAdviser} /> : null}
    </>
  );
}

function ReviewPageView({ view }: { view: ReviewView }) {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { t } = useTranslation("review");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = actionData?.errors ?? {};
  const typed = actionData?.typed ?? null;
  const answers = typed ?? view.answers;
  const [chosen, setChosen] = useState<{ client: string | null; partner: string | null }>({
    client: answers.client.response,
    partner: answers.partner.response,
  });
  const answeredNow = chosen.client !== null && (!view.questions?.partner || chosen.partner !== null);
  const submitFailed = actionData?.submitFailed === true;
  useLeaveWarning(view.inProgress && !submitFailed);

  const summary: SummaryError[] = [];
  if (errors.respondForPartner) summary.push({ fieldId: "respondForPartner", message: errors.respondForPartner });
  if (errors.client) summary.push({ fieldId: "client", message: errors.client });
  if (errors.partner) summary.push({ fieldId: "partner", message: errors.partner });

  if (view.kind === "followUp") return <FollowUp />;

  if (submitFailed) return <SubmitFailed order={view.page.order} busy={busy} />;

  const { page } = view;
  return (
    <article className="review">
      {page.type === "completion" ? null : <ErrorSummary errors={summary} />}
      <h1>{t("title")}</h1>
      {page.type !== "reviewIntro" ? <Progress view={view} answeredNow={answeredNow} /> : null}
      <h2 className="review__heading">{page.heading}</h2>
      {page.secondaryHeading ? <p className="review__secondary">{page.secondaryHeading}</p> : null}
      {page.introHtml ? (
        <div className="prose review__intro" dangerouslySetInnerHTML={{ __html: page.introHtml }} />
      ) : null}
      {page.type === "completion" ? (
        <Completion view={view} />
      ) : (
        <Form method="post" className="review__form" noValidate onSubmit={clearLeaveWarning}>
          <FailureAlert failure={actionData?.failure} />
          <AuthenticityTokenInput />
          <input type="hidden" name="page" value={page.order} />
          {page.hint ? <p className="hint review__hint">{page.hint}</p> : null}
          <Risk view={view} />
          {view.playback ? <Playback rows={view.playback} view={view} /> : null}
          <Questions
            view={view}
            answers={answers}
            errors={errors}
            partnerChoice={typed ? (typed.respondForPartner as PersonAnswer["response"]) : view.partnerChoice}
            onChosen={(person, v) => setChosen((c) => ({ ...c, [person]: v }))}
          />
          {view.summary ? <p className="review__summary">{view.summary}</p> : null}
          <PageActions view={view} busy={busy} />
        </Form>
      )}
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return [{ title: title ? `${title} – Client Online` : errorPageTitle(error, matches) }];
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
