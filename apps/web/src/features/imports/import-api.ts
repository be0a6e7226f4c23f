import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ErrorBody, ImportCommitResult, ImportDateFormat, ImportRecord } from '@kodi/domain';
import { API_BASE, ApiError, ensureCsrfToken, fetchCsrfToken } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';

/** An import as the list answers it (without its mapping, errors and sample). */
export type ImportSummary = Omit<ImportRecord, 'mapping' | 'columns' | 'errors' | 'sample'>;

export const importKeys = {
  all: ['imports'] as const,
  list: (params: PageParams) => ['imports', 'list', params] as const,
};

export const importsQuery = (params: PageParams) =>
  queryOptions({
    queryKey: importKeys.list(params),
    queryFn: ({ signal }) => fetchPage<ImportSummary>('/imports', params, signal),
    placeholderData: keepPreviousData,
  });

export const templateUrl = (entity: string, fmt: 'csv' | 'xlsx') =>
  `${API_BASE}/imports/template?entity=${encodeURIComponent(entity)}&fmt=${fmt}`;

export const errorsUrl = (id: number) => `${API_BASE}/imports/${id}/errors.csv`;

const failure = (status: number, text: string): ApiError => {
  try {
    const body = JSON.parse(text) as ErrorBody;
    return new ApiError(status, body.code, body.error, body.fields);
  } catch {
    return new ApiError(status, 'http_error', `The server answered ${status}.`);
  }
};

export type PreviewRequest = {
  entity: string;
  file: File;
  dateFormat: ImportDateFormat;
  mapping?: Record<string, string | null>;
  /** the preview this one replaces (its mapping changed) */
  replaces?: number;
};

/** One upload by XMLHttpRequest, the only browser API that tells how much of a body was sent. */
const send = (form: FormData, token: string | null, onProgress: (fraction: number) => void) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/imports`);
    xhr.withCredentials = true;
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload failed: check your connection.'));
    xhr.send(form);
  });

/** `POST /imports`: uploads the file (telling the share sent) and answers its preview. */
export const previewImport = async (
  req: PreviewRequest,
  onProgress: (fraction: number) => void,
): Promise<ImportRecord> => {
  const form = new FormData();
  form.append('entity', req.entity);
  form.append('date_format', req.dateFormat);
  if (req.mapping) form.append('mapping', JSON.stringify(req.mapping));
  if (req.replaces !== undefined) form.append('replaces', String(req.replaces));
  form.append('file', req.file, req.file.name);
  let answer = await send(form, await ensureCsrfToken(), onProgress);
  if (answer.status === 403 && answer.text.includes('csrf_')) {
    onProgress(0);
    answer = await send(form, await fetchCsrfToken(), onProgress);
  }
  if (answer.status !== 201) throw failure(answer.status, answer.text);
  return JSON.parse(answer.text) as ImportRecord;
};

/**
 * `POST /imports/{id}/commit`, reading its progress as it streams (one JSON line per batch saved,
 * then the result or the error).
 */
export const commitImport = async (
  id: number,
  onProgress: (processed: number, total: number) => void,
): Promise<ImportCommitResult> => {
  const post = async (token: string | null) =>
    fetch(`${API_BASE}/imports/${id}/commit`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/x-ndjson', ...(token ? { 'X-CSRF-Token': token } : {}) },
    });
  let res = await post(await ensureCsrfToken());
  if (res.status === 403) {
    const text = await res.text();
    if (!text.includes('csrf_')) throw failure(res.status, text);
    res = await post(await fetchCsrfToken());
  }
  if (!res.ok || !res.body) throw failure(res.status, await res.text());
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let last: unknown = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message.processed === 'number' && typeof message.total === 'number')
        onProgress(message.processed, message.total);
      else last = message;
    }
    if (done) break;
  }
  const result = last as (ImportCommitResult & Partial<ErrorBody>) | null;
  if (!result) throw new ApiError(0, 'network_error', 'The import was interrupted.');
  if (result.code) throw new ApiError(500, result.code, result.error ?? 'The import failed.', result.fields);
  return result;
};
