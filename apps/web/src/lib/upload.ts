import type { ErrorBody } from '@kodi/domain';
import { API_BASE, ApiError, ensureCsrfToken, fetchCsrfToken } from './api-client.ts';

/** The ApiError of an answer read as text (its `{ error, code }` body, or its status alone). */
export const apiErrorOf = (status: number, text: string): ApiError => {
  try {
    const body = JSON.parse(text) as ErrorBody;
    return new ApiError(status, body.code, body.error, body.fields);
  } catch {
    return new ApiError(status, 'http_error', `The server answered ${status}.`);
  }
};

/** One upload by XMLHttpRequest, the only browser API that tells how much of a body was sent. */
const send = (path: string, form: FormData, token: string | null, onProgress: (fraction: number) => void) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.withCredentials = true;
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload failed: check your connection.'));
    xhr.send(form);
  });

/**
 * POSTs a multipart form (a file) telling the share sent so far; once more with a fresh CSRF token
 * when the session's had expired. Answers the 201's JSON, or throws the answer's ApiError.
 */
export const uploadForm = async <T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<T> => {
  let answer = await send(path, form, await ensureCsrfToken(), onProgress);
  if (answer.status === 403 && answer.text.includes('csrf_')) {
    onProgress(0);
    answer = await send(path, form, await fetchCsrfToken(), onProgress);
  }
  if (answer.status !== 201) throw apiErrorOf(answer.status, answer.text);
  return JSON.parse(answer.text) as T;
};
