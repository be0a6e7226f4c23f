import { useState } from 'react';
import {
  addDays,
  addMonths,
  formatDate,
  formatMoney,
  intlLocales,
  type Language,
  type MessageKey,
  type OwnerPortalArrears,
  type OwnerPortalMe,
  type OwnerPortalPayout,
  type OwnerPortalProperty,
  type OwnerStatementAnswer,
} from '@kodi/domain';
import { download } from './portal-api.ts';
import { fetchedNote, message, useKept } from './portal-parts.tsx';
import { useT } from '../../lib/i18n.ts';

// The owner portal (issue 27): an owner's properties with their units let and vacant and its share,
// this month's rent due against what was collected, the tenants in arrears (names and amounts only),
// and its statements and payouts. Loaded only when an owner signs in: the tenant portal stays as light.

type Tab = 'properties' | 'arrears' | 'statements';

const TABS: { tab: Tab; label: MessageKey }[] = [
  { tab: 'properties', label: 'portal.owner.properties' },
  { tab: 'arrears', label: 'portal.owner.arrears' },
  { tab: 'statements', label: 'portal.owner.statements' },
];

/** Amounts in the company's currency, written the owner's language's way. */
const useMoney = (me: OwnerPortalMe) => {
  const { language } = useT();
  return (amount: number | string) =>
    formatMoney(amount, me.company.currency, me.company.decimals ?? undefined, language);
};

const monthName = (month: string, language: Language) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString(intlLocales[language], {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Collected against the rent due, as words and a bar (its share in `aria-valuenow`). */
const Collected = ({
  p,
  money,
}: {
  p: Pick<OwnerPortalProperty, 'collected' | 'rent_due'>;
  money: (n: number) => string;
}) => {
  const { t } = useT();
  const percent = p.rent_due > 0 ? Math.round((p.collected / p.rent_due) * 100) : null;
  return (
    <>
      <p className="label">{t('portal.owner.collected')}</p>
      <p className="figure">{money(p.collected)}</p>
      <p className="muted small due">{t('portal.owner.ofDue', { amount: money(p.rent_due) })}</p>
      {percent === null ? null : (
        <div
          className="bar"
          role="progressbar"
          aria-label={t('portal.owner.collectedOfDue')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(percent, 100)}
        >
          <span style={{ width: `${Math.min(percent, 100)}%` }} />
        </div>
      )}
    </>
  );
};

const Properties = ({ me }: { me: OwnerPortalMe }) => {
  const money = useMoney(me);
  const { t, language } = useT();
  if (me.properties.length === 0)
    return <p className="muted">{t('portal.owner.noProperty', { company: me.company.name })}</p>;
  return (
    <section>
      <article className="card">
        <h2>{monthName(me.month, language)}</h2>
        <Collected p={me.totals} money={money} />
        <p className="label">{t('portal.owner.arrears')}</p>
        <p className="figure" data-testid="total-arrears">
          {money(me.totals.arrears)}
        </p>
      </article>
      {me.properties.map((p) => (
        <article key={p.id} className="card" data-testid={`property-${p.id}`}>
          <h2>
            {p.name}{' '}
            <span className="muted small">· {t('portal.owner.yourShare', { percent: p.share_percent })}</span>
          </h2>
          <p>{t('portal.owner.units', { count: p.units, let: p.occupied_units, vacant: p.vacant_units })}</p>
          <Collected p={p} money={money} />
          <p className="muted small">{t('portal.owner.arrearsAmount', { amount: money(p.arrears) })}</p>
        </article>
      ))}
    </section>
  );
};

const Arrears = ({ me, onSignedOut }: { me: OwnerPortalMe; onSignedOut: () => void }) => {
  const money = useMoney(me);
  const { t, language } = useT();
  const { state, error } = useKept<OwnerPortalArrears>('/owner-portal/arrears', onSignedOut);
  if (!state) return <p className="muted">{error || t('common.loading')}</p>;
  const rows = state.data.rows;
  return (
    <section>
      <p className="muted small">
        {t('portal.owner.arrearsNote', { date: formatDate(state.data.as_of, language) })}
      </p>
      {rows.length === 0 ? <p className="muted">{t('portal.owner.noArrears')}</p> : null}
      <ul className="rows cards">
        {rows.map((r, i) => (
          <li key={i}>
            <div>
              <strong>{r.tenant_name}</strong>
              <div className="muted small">
                {r.property_name}
                {r.unit_name ? ` · ${r.unit_name}` : ''}
              </div>
            </div>
            <strong>{money(r.amount)}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
};

/** A month's statement period: its first day through its last, or through today for this month. */
const periodOf = (month: string, today: string) => {
  const from = `${month}-01`;
  const last = addDays(addMonths(from, 1), -1);
  return { from, to: last < today ? last : today };
};

type Figure = {
  key: keyof OwnerStatementAnswer['totals'];
  label: MessageKey;
  out?: boolean;
  strong?: boolean;
};
const FIGURES: Figure[] = [
  { key: 'opening_balance', label: 'portal.owner.fig.opening' },
  { key: 'collected', label: 'portal.owner.fig.collected' },
  { key: 'expenses', label: 'portal.owner.fig.expenses', out: true },
  { key: 'management_fees', label: 'portal.owner.fig.fees', out: true },
  { key: 'rental_tax', label: 'portal.owner.fig.tax', out: true },
  { key: 'payouts', label: 'portal.owner.fig.payouts', out: true },
  { key: 'adjustments', label: 'portal.owner.fig.adjustments' },
  { key: 'closing_balance', label: 'portal.owner.fig.closing', strong: true },
  { key: 'available', label: 'portal.owner.fig.available', strong: true },
];

/** A statement's figures, what is taken out shown negative (adjustments only when there are some). */
const Figures = ({
  f,
  money,
}: {
  f: OwnerStatementAnswer['totals'];
  money: (n: number | string) => string;
}) => {
  const { t } = useT();
  return (
    <ul className="rows figures">
      {FIGURES.filter((x) => x.key !== 'adjustments' || Number(f.adjustments) !== 0).map((x) => (
        <li key={x.key} data-figure={x.key}>
          <span>{t(x.label)}</span>
          {x.strong ? (
            <strong>{money(f[x.key])}</strong>
          ) : (
            <span>{money(x.out && Number(f[x.key]) !== 0 ? -Number(f[x.key]) : f[x.key])}</span>
          )}
        </li>
      ))}
    </ul>
  );
};

const Statement = ({
  me,
  month,
  onSignedOut,
}: {
  me: OwnerPortalMe;
  month: string;
  onSignedOut: () => void;
}) => {
  const money = useMoney(me);
  const { t, language } = useT();
  const { from, to } = periodOf(month, me.as_of);
  const q = `from=${from}&to=${to}`;
  const { state, error } = useKept<OwnerStatementAnswer>(`/owner-portal/statement?${q}`, onSignedOut);
  const [note, setNote] = useState('');
  if (!state) return <p className="muted">{error || t('common.loading')}</p>;
  const s = state.data;
  return (
    <>
      <article className="card" data-testid="statement-totals">
        <h2>{monthName(month, language)}</h2>
        <p className="muted small">
          {t(s.properties.length > 1 ? 'portal.owner.periodAll' : 'portal.owner.period', {
            from: formatDate(s.from, language),
            to: formatDate(s.to, language),
          })}
        </p>
        <Figures f={s.totals} money={money} />
        <div className="actions">
          <button
            type="button"
            className="primary"
            onClick={() =>
              void download(`/owner-portal/statement.pdf?${q}`, `owner_statement_${from}_${to}.pdf`)
                .then((r) => setNote(t('portal.owner.statementNote', { note: fetchedNote(r) })))
                .catch((err: unknown) => setNote(message(err)))
            }
          >
            {t('portal.owner.downloadPdf')}
          </button>
        </div>
        {note ? <p className="muted small">{note}</p> : null}
      </article>
      {s.properties.length === 0 ? <p className="muted">{t('portal.owner.nothingHeld')}</p> : null}
      {s.properties.length > 1
        ? s.properties.map((p) => (
            <article key={p.property_id ?? 0} className="card" data-testid={`statement-${p.property_id}`}>
              <h2>
                {p.property_name ?? t('portal.owner.other')}
                {p.share_percent === null ? null : (
                  <span className="muted small">
                    {' '}
                    · {t('portal.owner.yourShare', { percent: p.share_percent })}
                  </span>
                )}
              </h2>
              <Figures f={p} money={money} />
            </article>
          ))
        : null}
    </>
  );
};

const Payouts = ({ me, onSignedOut }: { me: OwnerPortalMe; onSignedOut: () => void }) => {
  const money = useMoney(me);
  const { t, language } = useT();
  const { state, error } = useKept<OwnerPortalPayout[]>('/owner-portal/payouts', onSignedOut);
  return (
    <article className="card">
      <h2>{t('portal.owner.payouts')}</h2>
      {!state ? <p className="muted">{error || t('common.loading')}</p> : null}
      {state && state.data.length === 0 ? <p className="muted">{t('portal.owner.noPayout')}</p> : null}
      <ul className="rows" data-testid="payouts">
        {state?.data.map((p) => (
          <li key={p.id}>
            <div>
              <strong>{formatDate(p.date, language)}</strong>
              <div className="muted small">
                {t('portal.owner.method', { method: p.method })}
                {p.reference ? ` · ${p.reference}` : ''}
              </div>
            </div>
            <strong>{money(p.amount)}</strong>
          </li>
        ))}
      </ul>
    </article>
  );
};

/** A month's statement (last month by default), its PDF, and the owner's payouts. */
const Statements = ({ me, onSignedOut }: { me: OwnerPortalMe; onSignedOut: () => void }) => {
  const { t } = useT();
  const [month, setMonth] = useState(() => addMonths(`${me.month}-01`, -1).slice(0, 7));
  return (
    <section>
      <label className="field">
        <span>{t('portal.owner.month')}</span>
        <input
          type="month"
          value={month}
          max={me.month}
          onChange={(e) => {
            if (/^\d{4}-\d{2}$/.test(e.target.value) && e.target.value <= me.month) setMonth(e.target.value);
          }}
        />
      </label>
      <Statement key={month} me={me} month={month} onSignedOut={onSignedOut} />
      <Payouts me={me} onSignedOut={onSignedOut} />
    </section>
  );
};

/** The owner portal once signed in: its header, its tabs and their pages. */
export const OwnerHome = ({ onSignedOut, signOut }: { onSignedOut: () => void; signOut: () => void }) => {
  const { state, error } = useKept<OwnerPortalMe>('/owner-portal/me', onSignedOut);
  const [tab, setTab] = useState<Tab>('properties');
  const { t } = useT();
  if (!state)
    return (
      <main className="narrow">
        <p className="muted">{error || t('common.loading')}</p>
      </main>
    );
  const me = state.data;
  return (
    <>
      <header className="top">
        <h1 className="brand">{me.company.name}</h1>
        <button type="button" className="link" onClick={signOut}>
          {t('portal.signOut')}
        </button>
      </header>
      <nav className="tabs" aria-label={t('portal.ownerTitle')}>
        {TABS.map((x) => (
          <button
            key={x.tab}
            type="button"
            aria-current={tab === x.tab ? 'page' : undefined}
            onClick={() => setTab(x.tab)}
          >
            {t(x.label)}
          </button>
        ))}
      </nav>
      <main>
        <p className={`muted small ${state.offline ? 'offline' : ''}`} data-testid="fetched-at">
          {me.owner.name} · {fetchedNote(state)}
        </p>
        {tab === 'properties' ? <Properties me={me} /> : null}
        {tab === 'arrears' ? <Arrears me={me} onSignedOut={onSignedOut} /> : null}
        {tab === 'statements' ? <Statements me={me} onSignedOut={onSignedOut} /> : null}
      </main>
    </>
  );
};

export default OwnerHome;
