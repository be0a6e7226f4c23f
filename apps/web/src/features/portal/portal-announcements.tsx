import { useState } from 'react';
import { formatDate, type PortalAnnouncements as Answer } from '@kodi/domain';
import { fetchedNote, useKept } from './portal-parts.tsx';
import { useT } from '../../lib/i18n.ts';

const PAGE_SIZE = 10;

/**
 * The tenant's notices (issue 29): the announcements sent to it, its property's and the company's,
 * newest first, a page at a time. A chunk of its own: loaded when the tab is first opened.
 */
export const PortalAnnouncements = ({ onSignedOut }: { onSignedOut: () => void }) => {
  const { t, language } = useT();
  const [page, setPage] = useState(1);
  const { state, error } = useKept<Answer>(
    `/portal/announcements?page=${page}&page_size=${PAGE_SIZE}`,
    onSignedOut,
  );
  if (!state) return <p className="muted">{error || t('common.loading')}</p>;
  const pages = Math.max(1, Math.ceil(state.data.total / PAGE_SIZE));
  return (
    <section aria-label={t('portal.tabNotices')}>
      <p className="muted small">{fetchedNote(state)}</p>
      {state.data.rows.length === 0 ? <p className="muted">{t('portal.noNotices')}</p> : null}
      {state.data.rows.map((a) => (
        <article key={a.id} className="card notice" data-testid={`notice-${a.id}`}>
          <h2 className="notice-subject">{a.subject}</h2>
          <p className="muted small">
            {formatDate(a.created_at.slice(0, 10), language)} · {a.property_name ?? t('portal.allProperties')}
          </p>
          <p className="notice-body">{a.body}</p>
        </article>
      ))}
      {pages > 1 ? (
        <div className="actions">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('portal.newer')}
          </button>
          <span className="muted small">{t('portal.pageOf', { page, pages })}</span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('portal.older')}
          </button>
        </div>
      ) : null}
    </section>
  );
};
