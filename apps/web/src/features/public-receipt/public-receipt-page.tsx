import { useEffect, useState, type CSSProperties } from 'react';
import {
  formatDate,
  formatMoney,
  type MessageKey,
  type PublicReceipt,
  type PublicReceiptStatus,
} from '@kodi/domain';
import { useT, type Translate } from '../../lib/i18n.ts';

export const RECEIPT_NOT_FOUND = 'Receipt not found';
export const RECEIPT_NOT_FOUND_TEXT = 'No receipt has this code. Check that the whole address was opened.';
export const RECEIPT_TOO_MANY = 'Too many checks from your network. Please wait a minute and try again.';
export const RECEIPT_FAILED = 'The receipt could not be checked. Please try again.';

type State =
  | { kind: 'loading' }
  | { kind: 'found'; receipt: PublicReceipt }
  | { kind: 'error'; title: MessageKey; text: MessageKey };

/** The colours of each status: its band and its mark. */
const tones: Record<PublicReceiptStatus, { color: string; background: string; mark: string }> = {
  completed: { color: '#1b5e20', background: '#e8f5e9', mark: '✓' },
  pending: { color: '#8a4b00', background: '#fff4e5', mark: '…' },
  failed: { color: '#b71c1c', background: '#fdecea', mark: '✕' },
  void: { color: '#b71c1c', background: '#fdecea', mark: '✕' },
  revoked: { color: '#b71c1c', background: '#fdecea', mark: '✕' },
};

const page: CSSProperties = {
  fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
  color: '#1f2933',
  maxWidth: 520,
  margin: '0 auto',
  padding: '16px 12px 32px',
  boxSizing: 'border-box',
};
const card: CSSProperties = {
  background: '#fff',
  border: '1px solid #dde2e6',
  borderRadius: 8,
  overflow: 'hidden',
};
const row: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  gap: 12,
  padding: '10px 0',
  borderTop: '1px solid #eef1f3',
};

/** The code of `/r/{code}`: what follows `/r/`, as sent. */
const codeOfPath = (pathname: string): string => {
  const m = /^\/r\/([^/]+)\/?$/.exec(pathname);
  try {
    return m?.[1] ? decodeURIComponent(m[1]) : '';
  } catch {
    return '';
  }
};

const load = async (code: string, signal: AbortSignal): Promise<State> => {
  if (!code) return { kind: 'error', title: 'receipt.notFound', text: 'receipt.notFoundText' };
  try {
    const res = await fetch(`/rentapi/api/public/receipts/${encodeURIComponent(code)}`, {
      credentials: 'omit',
      headers: { accept: 'application/json' },
      signal,
    });
    if (res.ok) return { kind: 'found', receipt: (await res.json()) as PublicReceipt };
    if (res.status === 404) return { kind: 'error', title: 'receipt.notFound', text: 'receipt.notFoundText' };
    if (res.status === 429) return { kind: 'error', title: 'receipt.pleaseWait', text: 'receipt.tooMany' };
  } catch (e) {
    if (signal.aborted) throw e;
  }
  return { kind: 'error', title: 'receipt.checkFailed', text: 'receipt.failed' };
};

const Details = ({ receipt }: { receipt: PublicReceipt }) => {
  const { t, language } = useT();
  const rows: [string, string][] = [];
  if (receipt.receipt_number) rows.push([t('receipt.receiptNo'), receipt.receipt_number]);
  if (receipt.date) rows.push([t('common.date'), formatDate(receipt.date, language)]);
  if (receipt.amount !== null) {
    rows.push([
      t('common.amount'),
      formatMoney(receipt.amount, receipt.currency, receipt.currency_decimals ?? undefined, language),
    ]);
  }
  if (receipt.unit_name) rows.push([t('common.unit'), receipt.unit_name]);
  if (receipt.tenant_initials) rows.push([t('glossary.tenant'), receipt.tenant_initials]);
  if (rows.length === 0) return null;
  return (
    <dl style={{ margin: '0 16px 8px' }}>
      {rows.map(([term, value]) => (
        <div key={term} style={row}>
          <dt style={{ color: '#52606d' }}>{term}</dt>
          <dd style={{ margin: 0, fontWeight: 500, textAlign: 'right', overflowWrap: 'anywhere' }}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
};

/** What the status means, in the page's language (the server's `message` is its English). */
const statusMessage = (t: Translate, receipt: PublicReceipt, language: Parameters<typeof formatDate>[1]) =>
  receipt.status === 'void' && receipt.voided_on
    ? t('receipt.voidedOn', { date: formatDate(receipt.voided_on, language) })
    : t('receipt.statusMessage', { status: receipt.status });

/** `/r/{code}`: what a receipt's QR code opens, for anyone, signed in or not. */
export const PublicReceiptPage = () => {
  const { t, language } = useT();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    load(codeOfPath(window.location.pathname), controller.signal).then(setState, () => undefined);
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (state.kind === 'found')
      document.title = `${t('receipt.statusTitle', { status: state.receipt.status })} · ${state.receipt.company.name}`;
  }, [state, t]);

  if (state.kind === 'loading') {
    return (
      <main style={page} aria-busy="true">
        <p style={{ textAlign: 'center', color: '#52606d', marginTop: 48 }}>{t('receipt.checking')}</p>
      </main>
    );
  }
  if (state.kind === 'error') {
    return (
      <main style={page}>
        <section style={{ ...card, padding: 16 }}>
          <h1 style={{ fontSize: 22, margin: '0 0 8px' }}>{t(state.title)}</h1>
          <p style={{ margin: 0 }}>{t(state.text)}</p>
        </section>
      </main>
    );
  }

  const { receipt } = state;
  const tone = tones[receipt.status];
  return (
    <main style={page}>
      <section style={card} data-status={receipt.status}>
        <header style={{ display: 'flex', alignItems: 'center', gap: 12, padding: 16 }}>
          {receipt.company.logo_url && (
            <img
              src={receipt.company.logo_url}
              alt=""
              style={{ width: 48, height: 48, objectFit: 'contain', flex: 'none' }}
            />
          )}
          <div style={{ minWidth: 0 }}>
            <div style={{ fontSize: 18, fontWeight: 600, overflowWrap: 'anywhere' }}>
              {receipt.company.name}
            </div>
            <div style={{ fontSize: 13, color: '#52606d' }}>{t('receipt.paymentReceipt')}</div>
          </div>
        </header>
        <div
          role="status"
          style={{
            display: 'flex',
            gap: 12,
            alignItems: 'flex-start',
            padding: '12px 16px',
            background: tone.background,
            color: tone.color,
          }}
        >
          <span aria-hidden="true" style={{ fontSize: 24, lineHeight: '28px', fontWeight: 700 }}>
            {tone.mark}
          </span>
          <div>
            <h1 style={{ fontSize: 20, lineHeight: '28px', margin: 0 }}>
              {t('receipt.statusTitle', { status: receipt.status })}
            </h1>
            <p style={{ margin: '4px 0 0' }}>{statusMessage(t, receipt, language)}</p>
          </div>
        </div>
        <Details receipt={receipt} />
      </section>
      <p style={{ fontSize: 12, color: '#7b8794', textAlign: 'center', marginTop: 16 }}>
        {t('receipt.checkedBy')}
      </p>
    </main>
  );
};
