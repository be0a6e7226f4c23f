import { AppError, securityMessages } from '@kodi/domain';

// New passwords (registration, reset, change, an admin's add user and set password) are refused when
// zxcvbn-ts scores them under 3 or when they are one of the common passwords its language pack ships
// (docs/decisions.md, 'Passwords'). The dictionaries (a few MB) load on the first check.

export const MIN_PASSWORD_SCORE = 3;

type Checker = {
  check: (
    password: string,
    userInputs?: (string | number)[],
  ) => {
    score: number;
    feedback: { warning: string | null; suggestions: string[] };
  };
  common: Set<string>;
};

let checker: Promise<Checker> | undefined;

const loadChecker = async (): Promise<Checker> => {
  const [{ ZxcvbnFactory }, common, en] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const factory = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  const list = common.dictionary['passwords-common'];
  return {
    check: (password, inputs) => factory.check(password, inputs),
    common: new Set(Array.isArray(list) ? list.map((p) => String(p).toLowerCase()) : []),
  };
};

/** Why a new password is refused, or null when it is strong enough. */
export const passwordProblem = async (
  password: string,
  userInputs: readonly (string | null | undefined)[] = [],
): Promise<string | null> => {
  checker ??= loadChecker();
  const { check, common } = await checker;
  if (common.has(password.toLowerCase())) return securityMessages.passwordCommon;
  // the checker reads at most 100 characters (its cost grows with the length)
  const inputs = userInputs
    .flatMap((v) => (v ? [v, ...v.split(/[@.\s_-]+/)] : []))
    .filter((v) => v.length > 2);
  const result = check(password.slice(0, 100), inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return [securityMessages.passwordWeak, result.feedback.warning, ...result.feedback.suggestions]
    .filter(Boolean)
    .join(' ');
};

/** Throws 400 validation_failed on `field` when the new password is too weak. */
export const assertStrongPassword = async (
  password: string,
  field: string,
  userInputs: readonly (string | null | undefined)[] = [],
): Promise<void> => {
  const problem = await passwordProblem(password, userInputs);
  if (problem) throw new AppError('validation_failed', problem, { [field]: problem });
};
