import { api, errorMessage } from './api-client.ts';

/** `POST /captcha/validate`: checks the answer without using it up. */
export const validateCaptcha = async (answer: string): Promise<boolean> =>
  (await api.post<{ valid: boolean }>('/captcha/validate', { answer })).valid;

/** What is wrong with a CAPTCHA answer: `null` when it is right, else `failedText` or the call's error. */
export const captchaProblem = async (answer: string, failedText: string): Promise<string | null> => {
  try {
    return (await validateCaptcha(answer)) ? null : failedText;
  } catch (e) {
    return errorMessage(e, failedText);
  }
};
