import { api } from './api-client.ts';

/** Which page of a server-paged list to read. */
export type PageParams = {
  /** From 0 (the API counts from 1). */
  page: number;
  pageSize: number;
  q?: string | undefined;
  /** `field` or `-field`. */
  sort?: string | undefined;
};

/**
 * One page of rows, and how many rows all pages hold; `more`: the server counted up to `total`
 * and there are more (a broad search: `X-Total-Count-Exact: false`).
 */
export type Page<T> = { rows: T[]; total: number; more?: boolean };

/**
 * One page of a list (`GET {path}?page=&page_size=&q=&sort=`, more query parameters in `extra`)
 * with the total of `X-Total-Count` (the rows' count when the header is missing).
 */
export const fetchPage = async <T>(
  path: string,
  params: PageParams,
  signal?: AbortSignal,
  extra?: Record<string, string | undefined>,
): Promise<Page<T>> => {
  let total: number | undefined;
  let more = false;
  const rows = await api.get<T[]>(path, {
    signal,
    quietForbidden: true,
    query: {
      page: params.page + 1,
      page_size: params.pageSize,
      q: params.q?.trim() || undefined,
      sort: params.sort || undefined,
      ...extra,
    },
    onHeaders: (headers) => {
      const n = Number(headers.get('X-Total-Count'));
      total = Number.isFinite(n) ? n : undefined;
      more = headers.get('X-Total-Count-Exact') === 'false';
    },
  });
  return { rows, total: total ?? rows.length, ...(more ? { more } : {}) };
};
