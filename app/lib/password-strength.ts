// spec 000 §5 and 002 §5 "Change password": a strength meter with five levels, score 0-4. A small
// pure estimate (length, variety, obvious patterns), shared by the browser and the tests; the
// platform's password policy (docs/decisions/041) is what actually accepts or refuses a password.

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** i18n keys of the levels, by score: Very Weak, Weak, Medium, Strong, Very Strong. */
export const STRENGTH_LABEL_KEYS = [
  "security:strength.veryWeak",
  "security:strength.weak",
  "security:strength.medium",
  "security:strength.strong",
  "security:strength.veryStrong",
] as const;

// Passwords (and stems) that appear at the top of every leaked-password list.
const COMMON = [
  "password",
  "passw0rd",
  "qwerty",
  "letmein",
  "welcome",
  "iloveyou",
  "admin",
  "monkey",
  "dragon",
  "football",
  "abc123",
  "123456",
  "12345678",
  "111111",
];

function characterClasses(password: string): number {
  return [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}]/u].filter((re) => re.test(password)).length;
}

/** Every character the same, or a run such as 'abcdefgh' or '87654321'. */
function isMonotonous(password: string): boolean {
  if (/^(.)\1*$/u.test(password)) return true;
  const codes = [...password.toLowerCase()].map((c) => c.codePointAt(0)!);
  if (codes.length < 4) return false;
  const step = codes[1]! - codes[0]!;
  return Math.abs(step) === 1 && codes.every((c, i) => i === 0 || c - codes[i - 1]! === step);
}

/**
 * A password's length as the platform's minimum counts it (decision 171, ASVS V2.1.1): Unicode
 * characters, each run of white space counted as one. Held equal to the platform's
 * `passwordLength` by tests/contract/password-length.test.ts.
 */
export function passwordLength(password: string): number {
  return [...password.replace(/\s{2,}/gu, " ")].length;
}

/**
 * Scores a password 0 (very weak) to 4 (very strong). Length counts most (8 and 12 characters),
 * then variety (three kinds of character, then all four or 16 characters). A common password, a
 * single repeated character or a plain run scores 0; a password containing the username at most 1.
 */
export function passwordStrength(password: string, options: { username?: string | null } = {}): StrengthScore {
  if (!password) return 0;
  const length = passwordLength(password);
  const lower = password.toLowerCase();
  if (isMonotonous(password)) return 0;
  if (COMMON.some((word) => lower === word || (lower.startsWith(word) && length - word.length <= 2))) return 0;
  let score = 0;
  if (length >= 8) score++;
  if (length >= 12) score++;
  const classes = characterClasses(password);
  if (classes >= 3 && length >= 8) score++;
  if ((classes === 4 && length >= 8) || length >= 16) score++;
  const username = options.username?.trim().toLowerCase();
  if (username && username.length >= 3 && lower.includes(username)) score = Math.min(score, 1);
  return Math.min(4, Math.max(0, score)) as StrengthScore;
}
