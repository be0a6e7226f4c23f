// The captcha check that sign-in and registration share with the captcha routes.

export const CAPTCHA_TTL_MS = 10 * 60_000;

/** True when the session holds an unexpired captcha whose answer matches (case-insensitive). */
export const captchaMatches = (
  session: { captchaAnswer: string | null; captchaCreatedAt: Date | null } | null,
  answer: string,
): boolean =>
  !!session?.captchaAnswer &&
  !!session.captchaCreatedAt &&
  Date.now() - session.captchaCreatedAt.getTime() < CAPTCHA_TTL_MS &&
  session.captchaAnswer.toLowerCase() === answer.trim().toLowerCase();
