import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  StatementLine,
  StatementLineStatus,
  StatementSource,
  StatementSummary,
  StatementUpload,
} from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { uploadForm } from '../../lib/upload.ts';
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

/** `POST /statements`: uploads the file (telling the share sent) and answers what it came to. */
export const uploadStatement = async (
  req: { source: StatementSource; file: File; mapping?: string },
  onProgress: (fraction: number) => void,
): Promise<StatementUpload> => {
  const form = new FormData();
  form.append('source', req.source);
  if (req.mapping?.trim()) form.append('mapping', req.mapping.trim());
  form.append('file', req.file, req.file.name);
  return uploadForm<StatementUpload>('/statements', form, onProgress);
};

export const matchLine = (id: number, allocations: { occupancy_id: number; amount: number }[]) =>
  api.post<StatementLine>(`/statement-lines/${id}/match`, { allocations });
export const ignoreLine = (id: number, reason: string) =>
  api.post<StatementLine>(`/statement-lines/${id}/ignore`, { reason });
export const unmatchLine = (id: number) => api.post<StatementLine>(`/statement-lines/${id}/unmatch`);

/** `DELETE /statements/{id}` (company admins): its payments voided, its lines and itself removed. */
export const deleteStatement = (id: number) =>
  api.delete<{ id: number; lines_removed: number; payments_voided: number[] }>(`/statements/${id}`);
