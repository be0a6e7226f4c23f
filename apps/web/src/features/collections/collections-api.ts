import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ErrorBody,
  StatementLine,
  StatementLineStatus,
  StatementSource,
  StatementSummary,
  StatementUpload,
} from '@kodi/domain';
import { API_BASE, ApiError, api, ensureCsrfToken, fetchCsrfToken } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';

export const collectionKeys = {
  all: ['collections'] as const,
  statements: (params: PageParams) => ['collections', 'statements', params] as const,
  lines: (params: PageParams, status: string) => ['collections', 'lines', params, status] as const,
};

export const statementsQuery = (params: PageParams) =>
  queryOptions({
    queryKey: collectionKeys.statements(params),
    queryFn: ({ signal }) => fetchPage<StatementSummary>('/statements', params, signal),
    placeholderData: keepPreviousData,
  });

export const linesQuery = (params: PageParams, status: StatementLineStatus | '') =>
  queryOptions({
    queryKey: collectionKeys.lines(params, status),
    queryFn: ({ signal }) =>
      fetchPage<StatementLine>('/statement-lines', params, signal, { status: status || undefined }),
    placeholderData: keepPreviousData,
  });

const failure = (status: number, text: string): ApiError => {
  try {
    const body = JSON.parse(text) as ErrorBody;
    return new ApiError(status, body.code, body.error, body.fields);
  } catch {
    return new ApiError(status, 'http_error', `The server answered ${status}.`);
  }
};

/** One upload by XMLHttpRequest, the only browser API that tells how much of a body was sent. */
const send = (form: FormData, token: string | null, onProgress: (fraction: number) => void) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/statements`);
    xhr.withCredentials = true;
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload failed: check your connection.'));
    xhr.send(form);
  });

/** `POST /statements`: uploads the file (telling the share sent) and answers what it came to. */
export const uploadStatement = async (
  req: { source: StatementSource; file: File; mapping?: string },
  onProgress: (fraction: number) => void,
): Promise<StatementUpload> => {
  const form = new FormData();
  form.append('source', req.source);
  if (req.mapping?.trim()) form.append('mapping', req.mapping.trim());
  form.append('file', req.file, req.file.name);
  let answer = await send(form, await ensureCsrfToken(), onProgress);
  if (answer.status === 403 && answer.text.includes('csrf_')) {
    onProgress(0);
    answer = await send(form, await fetchCsrfToken(), onProgress);
  }
  if (answer.status !== 201) throw failure(answer.status, answer.text);
  return JSON.parse(answer.text) as StatementUpload;
};

export const matchLine = (id: number, allocations: { occupancy_id: number; amount: number }[]) =>
  api.post<StatementLine>(`/statement-lines/${id}/match`, { allocations });
export const ignoreLine = (id: number, reason: string) =>
  api.post<StatementLine>(`/statement-lines/${id}/ignore`, { reason });
export const unmatchLine = (id: number) => api.post<StatementLine>(`/statement-lines/${id}/unmatch`);
