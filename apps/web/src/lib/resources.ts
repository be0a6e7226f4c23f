import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_CURRENCY,
  type EntityListRow,
  type EntityName,
  type EntityRecord,
  type entities,
  type Language,
} from '@kodi/domain';
import { api } from './api-client.ts';
import { fetchPage, type Page, type PageParams } from './pages.ts';
import { useSession } from './session.ts';
import { useT } from './i18n.ts';

/**
 * The one data-provider contract of the entity pages: list and record queries (queryOptions
 * factories keyed `['resource', entity, ...]`) and the create, update and remove mutations, which
 * invalidate `['resource', entity]` and `['dashboard']`. Every call goes through the API client.
 */

/** A record of any entity, as the API answers it (what the generic pages handle). */
export type ResourceRow = Record<string, unknown> & { id: number; version?: number };

type Definitions = typeof entities;

/**
 * A row of `GET /{entity}` for entity `N`, typed from its definition (`EntityListRow`, the schema the
 * server declares); any entity's `ResourceRow` when `N` is only known as a string (the generic pages).
 */
export type ListRowOf<N extends string> = N extends EntityName ? EntityListRow<Definitions[N]> : ResourceRow;

/** A record of `GET /{entity}/{id}` (and what POST and PUT answer) for entity `N`: see `ListRowOf`. */
export type RecordOf<N extends string> = N extends EntityName ? EntityRecord<Definitions[N]> : ResourceRow;

export type ListFilter =
  | { field: string; value: string | number | boolean }
  | { field: string; from: string | null; to: string | null };

export type ListParams = PageParams & {
  /**
   * The API's `filter`: `{ field, value }` (enum and reference fields, company_id), a date field's
   * range `{ field, from, to }`, or a list of them.
   */
  filter?: ListFilter | ListFilter[];
  /** The rows of one property (`property_id`; lists of entities `byProperty`). */
  propertyId?: number | undefined;
};

export type ListResult<N extends string = string> = Page<ListRowOf<N>>;

export const resourceKeys = {
  all: ['resource'] as const,
  entity: (entity: string) => ['resource', entity] as const,
  list: (entity: string, params: ListParams) => ['resource', entity, 'list', params] as const,
  record: (entity: string, id: number) => ['resource', entity, 'record', id] as const,
};

export const DASHBOARD_KEY = ['dashboard'] as const;

/** One page of `GET /{entity}` with the total of `X-Total-Count`. */
export const fetchList = <N extends string>(
  entity: N,
  params: ListParams,
  signal?: AbortSignal,
): Promise<ListResult<N>> =>
  fetchPage<ListRowOf<N>>(`/${entity}`, params, signal, {
    filter: params.filter ? JSON.stringify(params.filter) : undefined,
    property_id: params.propertyId === undefined ? undefined : String(params.propertyId),
  });

export const listQuery = <N extends string>(entity: N, params: ListParams) =>
  queryOptions({
    queryKey: resourceKeys.list(entity, params),
    queryFn: ({ signal }) => fetchList(entity, params, signal),
    placeholderData: keepPreviousData,
  });

/** `GET /{entity}/{id}`: the whole record (with its images or document data). */
export const recordQuery = <N extends string>(entity: N, id: number) =>
  queryOptions({
    queryKey: resourceKeys.record(entity, id),
    queryFn: ({ signal }) => api.get<RecordOf<N>>(`/${entity}/${id}`, { signal, quietForbidden: true }),
    staleTime: 0,
  });

/** The rows a picker offers: the server searches with `q` (20 at most). */
export const PICKER_PAGE_SIZE = 20;
export const pickerQuery = <N extends string>(entity: N, q: string) =>
  listQuery(entity, { page: 0, pageSize: PICKER_PAGE_SIZE, q: q.trim() || undefined });

// a refused write (403) is shown once, by the form or the list that asked, not by the client too
export const createRecord = <N extends string>(entity: N, body: Record<string, unknown>) =>
  api.post<RecordOf<N>>(`/${entity}`, body, { quietForbidden: true });

export const updateRecord = <N extends string>(entity: N, id: number, body: Record<string, unknown>) =>
  api.put<RecordOf<N>>(`/${entity}/${id}`, body, { quietForbidden: true });

export const removeRecord = (entity: string, id: number) =>
  api.delete(`/${entity}/${id}`, { quietForbidden: true });

/**
 * The create, update and remove mutations of an entity. Each success invalidates the entity's
 * lists (active ones refetch), the dashboard, and marks every other resource stale (joined names).
 */
export const useResourceMutations = <N extends string>(entity: N) => {
  const client = useQueryClient();
  const invalidate = async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: resourceKeys.entity(entity) }),
      client.invalidateQueries({ queryKey: DASHBOARD_KEY }),
      client.invalidateQueries({ queryKey: resourceKeys.all, refetchType: 'none' }),
    ]);
  };
  /** Puts the saved row in place in every cached list page right away (the refetch follows). */
  const replaceInLists = (record: RecordOf<N>) => {
    client.setQueriesData<ListResult<N>>({ queryKey: [...resourceKeys.entity(entity), 'list'] }, (old) =>
      old
        ? { ...old, rows: old.rows.map((r) => (r.id === record.id ? { ...r, ...listView(record) } : r)) }
        : old,
    );
    client.setQueryData(resourceKeys.record(entity, record.id), record);
  };

  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => createRecord(entity, body),
    onSuccess: invalidate,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Record<string, unknown> }) =>
      updateRecord(entity, id, body),
    onSuccess: async (record) => {
      replaceInLists(record);
      await invalidate();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => removeRecord(entity, id),
    onSuccess: async (_data, id) => {
      client.removeQueries({ queryKey: resourceKeys.record(entity, id) });
      await invalidate();
    },
  });
  return { create, update, remove };
};

/** A record without its large base64 payloads (what a list row holds). */
const listView = <N extends string>(record: RecordOf<N>): ListRowOf<N> => {
  const out: Record<string, unknown> = { ...record };
  for (const key of Object.keys(out)) {
    if (key.endsWith('_base64') || key === 'lease_doc') delete out[key];
  }
  return out as ListRowOf<N>;
};

// ---------------------------------------------------------------------------------------------
// Files

/** The file name of a download: X-Suggested-Filename, else Content-Disposition, else the fallback. */
export const suggestedFilename = (headers: Headers, fallback: string): string => {
  const suggested = headers.get('X-Suggested-Filename');
  if (suggested) return suggested;
  const disposition = headers.get('Content-Disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
};

/** Hands a Blob to the browser as a download. */
export const saveBlob = (blob: Blob, filename: string): void => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** GETs a file through the API client and saves it under the name the server suggests. */
export const downloadFile = async (
  path: string,
  fallbackName: string,
  query?: Record<string, string | number | undefined>,
  onProgress?: (bytes: number) => void,
): Promise<string> => {
  let filename = fallbackName;
  const blob = await api.get<Blob>(path, {
    query,
    blob: true,
    ...(onProgress ? { onProgress } : {}),
    onHeaders: (headers) => {
      filename = suggestedFilename(headers, fallbackName);
    },
  });
  saveBlob(blob, filename);
  return filename;
};

export type ExportFormat = 'xlsx' | 'pdf';

/** `GET /{entity}/export?fmt=...&headers=[visible column labels]` saved as a file (`more`: other parameters). */
export const exportList = (
  entity: string,
  fmt: ExportFormat,
  headers: string[],
  q?: string,
  sort?: string,
  onProgress?: (bytes: number) => void,
  more?: Record<string, string | number | undefined>,
) =>
  downloadFile(
    `/${entity}/export`,
    `${entity}.${fmt}`,
    { ...more, fmt, headers: JSON.stringify(headers), q: q?.trim() || undefined, sort: sort || undefined },
    onProgress,
  );

/** '1.2 MB' */
export const formatBytes = (n: number): string =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(0)} KB`
      : `${(n / 1024 / 1024).toFixed(1)} MB`;

// ---------------------------------------------------------------------------------------------
// Money

/** How a page writes amounts (and, issue 30, its numbers and dates: `language`, English when absent). */
export type MoneyFormat = { currency: string; decimals: number | undefined; language?: Language };

/** The company's currency and its decimal places (UGX when the company has none). */
export const useCompanyMoney = (): MoneyFormat => {
  const { company } = useSession();
  const { language } = useT();
  const extra = company as (typeof company & { currency_decimal_places?: number | null }) | null;
  const decimals = extra?.currency_decimal_places;
  return {
    currency: company?.currency_code || DEFAULT_CURRENCY,
    decimals: decimals === null || decimals === undefined ? undefined : Number(decimals),
    language,
  };
};

// ---------------------------------------------------------------------------------------------
// Images

/** A data URL for base64 image data without a prefix: png, jpeg or webp from the first bytes. */
export const imageDataUrl = (base64: string | null | undefined): string | null => {
  if (!base64) return null;
  if (base64.startsWith('data:')) return base64;
  const mime = base64.startsWith('iVBOR')
    ? 'image/png'
    : base64.startsWith('/9j/')
      ? 'image/jpeg'
      : base64.startsWith('UklGR')
        ? 'image/webp'
        : 'application/octet-stream';
  return `data:${mime};base64,${base64}`;
};
