import { useEffect, useState } from 'react';
import { useDebounced } from './use-debounced.ts';

export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZES = [10, 25, 50, 100];

type ListStateOptions = {
  /** A new sort goes back to the first page too (not only a new search). */
  resetPageOnSort?: boolean;
};

/**
 * What a server-paged list shows: the search text (sent 300 ms after the last key, trimmed), the
 * page (from 0; back to the first one when the search changes), the page size and the sort.
 */
export const useListState = ({ resetPageOnSort = false }: ListStateOptions = {}) => {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<string | undefined>(undefined);
  const pageResetBySort = resetPageOnSort ? sort : undefined;

  useEffect(() => setPage(0), [q, pageResetBySort]);

  /** `field`, then `-field`, then the server's default order. */
  const toggleSort = (field: string) =>
    setSort((current) => (current === field ? `-${field}` : current === `-${field}` ? undefined : field));

  return {
    search,
    setSearch,
    q,
    page,
    setPage,
    pageSize,
    setPageSize,
    sort,
    toggleSort,
    /** The list query's parameters. */
    params: { page, pageSize, q: q || undefined, sort },
  };
};

export type ListState = ReturnType<typeof useListState>;
