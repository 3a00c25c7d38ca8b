import { z } from "zod";

/** spec 002 §3: the default list has 8 questions (the first two are the demo client's). */
export const DEFAULT_SECURITY_QUESTIONS = [
  "What was the name of your first pet?",
  "In which town or city did your parents meet?",
  "What was the name of your first school?",
  "What is your oldest cousin's first name?",
  "What was the make of your first car?",
  "In which town or city were you born?",
  "What was your childhood nickname?",
  "What is the name of the street you grew up in?",
] as const;

export const SECURITY_QUESTION_MESSAGES = {
  questionRequired: "Please enter a security question.",
  questionTooLong: "Question needs to be at most 256 characters",
  answerRequired: "Please enter an answer to your security question.",
  answerTooLong: "Answers must be at most 256 characters",
  answerTooShort: "Answers must be at least 8 characters",
  different: "Please select two different security questions.",
} as const;

export const SECURITY_TEXT_MAX = 256;

/**
 * spec 002 §5: the answer minimum is 8 only for platform 22.8 build 234 or later, or 22.9 up to
 * build 237; otherwise 0. The version is major.minor.build.
 */
export function answerMinLength(version: string): 0 | 8 {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return 0;
  const [major, minor, build] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major === 22 && minor === 8 && build >= 234) return 8;
  if (major === 22 && minor === 9 && build <= 237) return 8;
  return 0;
}

export const SecurityQuestionsInput = z.object({
  questions: z.array(z.object({ question: z.string(), answer: z.string() })).length(2),
});

/** Answers are compared ignoring case and surrounding or repeated spaces. */
export function normaliseAnswer(answer: string): string {
  return answer.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** The first security-question rule the two pairs break, or null. */
export function securityQuestionsProblem(
  questions: Array<{ question: string; answer: string }>,
  minLength: 0 | 8,
): string | null {
  for (const { question, answer } of questions) {
    const q = question.trim();
    const a = answer.trim();
    if (!q) return SECURITY_QUESTION_MESSAGES.questionRequired;
    if ([...q].length > SECURITY_TEXT_MAX) return SECURITY_QUESTION_MESSAGES.questionTooLong;
    if (!a) return SECURITY_QUESTION_MESSAGES.answerRequired;
    if ([...a].length > SECURITY_TEXT_MAX) return SECURITY_QUESTION_MESSAGES.answerTooLong;
    if ([...a].length < minLength) return SECURITY_QUESTION_MESSAGES.answerTooShort;
  }
  const [first, second] = questions.map((p) => p.question.trim().toLowerCase());
  if (first === second) return SECURITY_QUESTION_MESSAGES.different;
  return null;
}
