import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditLogEntry } from '@kodi/domain';
import { fetchPage, type PageParams } from '../../lib/pages.ts';
import { resourceKeys } from '../../lib/resources.ts';

/** The audit log's filters (empty: all). */
export type AuditFilters = { action?: string; entity?: string; from?: string; to?: string };

export type AuditLogParams = PageParams & AuditFilters;

/** The filters as query parameters (blank ones left out). */
export const filterQuery = (f: AuditFilters): Record<string, string | undefined> => ({
  action: f.action || undefined,
  entity: f.entity?.trim() || undefined,
  from: f.from || undefined,
  to: f.to || undefined,
});

export const auditLogQuery = (params: AuditLogParams) =>
  queryOptions({
    queryKey: [...resourceKeys.all, 'audit-log', params] as const,
    queryFn: ({ signal }) => fetchPage<AuditLogEntry>('/audit-log', params, signal, filterQuery(params)),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
