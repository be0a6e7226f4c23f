import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ErrorBody, ImportCommitResult, ImportDateFormat, ImportRecord } from '@kodi/domain';
import { API_BASE, ApiError, ensureCsrfToken, fetchCsrfToken } from '../../lib/api-client.ts';
import { apiErrorOf, uploadForm } from '../../lib/upload.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';

/** An import as the list answers it (without its mapping, errors and sample). */
export type ImportSummary = Omit<
  ImportRecord,
  'mapping' | 'columns' | 'errors' | 'sample' | 'warnings' | 'fill' | 'missing'
>;

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

export type PreviewRequest = {
  entity: string;
  file: File;
  dateFormat: ImportDateFormat;
  mapping?: Record<string, string | null>;
  /** field → one value for every row without one */
  fill?: Record<string, string>;
  /** the preview this one replaces (its mapping changed) */
  replaces?: number;
};

/** `POST /imports`: uploads the file (telling the share sent) and answers its preview. */
export const previewImport = async (
  req: PreviewRequest,
  onProgress: (fraction: number) => void,
): Promise<ImportRecord> => {
  const form = new FormData();
  form.append('entity', req.entity);
  form.append('date_format', req.dateFormat);
  if (req.mapping) form.append('mapping', JSON.stringify(req.mapping));
  if (req.fill && Object.keys(req.fill).length > 0) form.append('fill', JSON.stringify(req.fill));
  if (req.replaces !== undefined) form.append('replaces', String(req.replaces));
  form.append('file', req.file, req.file.name);
  return uploadForm<ImportRecord>('/imports', form, onProgress);
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
    if (!text.includes('csrf_')) throw apiErrorOf(res.status, text);
    res = await post(await fetchCsrfToken());
  }
  if (!res.ok || !res.body) throw apiErrorOf(res.status, await res.text());
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
