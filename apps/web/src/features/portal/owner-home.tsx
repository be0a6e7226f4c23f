import { useState } from 'react';
import {
  addDays,
  addMonths,
  formatDate,
  formatMoney,
  type OwnerPortalArrears,
  type OwnerPortalMe,
  type OwnerPortalPayout,
  type OwnerPortalProperty,
  type OwnerStatementAnswer,
} from '@kodi/domain';
import { download } from './portal-api.ts';
import { fetchedNote, message, useKept } from './portal-parts.tsx';

// The owner portal (issue 27): an owner's properties with their units let and vacant and its share,
// this month's rent due against what was collected, the tenants in arrears (names and amounts only),
// and its statements and payouts. Loaded only when an owner signs in: the tenant portal stays as light.

type Tab = 'properties' | 'arrears' | 'statements';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'properties', label: 'Properties' },
  { tab: 'arrears', label: 'Arrears' },
  { tab: 'statements', label: 'Statements' },
];

const useMoney = (me: OwnerPortalMe) => (amount: number | string) =>
  formatMoney(amount, me.company.currency, me.company.decimals ?? undefined);

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
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
  const percent = p.rent_due > 0 ? Math.round((p.collected / p.rent_due) * 100) : null;
  return (
    <>
      <p className="label">Collected this month</p>
      <p className="figure">{money(p.collected)}</p>
      <p className="muted small due">of {money(p.rent_due)} due</p>
      {percent === null ? null : (
        <div
          className="bar"
          role="progressbar"
          aria-label="Collected of the rent due"
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
  if (me.properties.length === 0)
    return <p className="muted">{me.company.name} manages no property of yours today.</p>;
  return (
    <section>
      <article className="card">
        <h2>{monthName(me.month)}</h2>
        <Collected p={me.totals} money={money} />
        <p className="label">Arrears</p>
        <p className="figure" data-testid="total-arrears">
          {money(me.totals.arrears)}
        </p>
      </article>
      {me.properties.map((p) => (
        <article key={p.id} className="card" data-testid={`property-${p.id}`}>
          <h2>
            {p.name} <span className="muted small">· your share {p.share_percent}%</span>
          </h2>
          <p>
            {p.units} {p.units === 1 ? 'unit' : 'units'}: {p.occupied_units} let, {p.vacant_units} vacant
          </p>
          <Collected p={p} money={money} />
          <p className="muted small">Arrears {money(p.arrears)}</p>
        </article>
      ))}
    </section>
  );
};

const Arrears = ({ me, onSignedOut }: { me: OwnerPortalMe; onSignedOut: () => void }) => {
  const money = useMoney(me);
  const { state, error } = useKept<OwnerPortalArrears>('/owner-portal/arrears', onSignedOut);
  if (!state) return <p className="muted">{error || 'Loading…'}</p>;
  const rows = state.data.rows;
  return (
    <section>
      <p className="muted small">Rent that fell due before {formatDate(state.data.as_of)} and is unpaid.</p>
      {rows.length === 0 ? <p className="muted">No tenant is in arrears.</p> : null}
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

const METHODS: Record<string, string> = {
  bank: 'Bank transfer',
  mobilemoney: 'Mobile money',
  cash: 'Cash',
  check: 'Check',
};

/** A month's statement period: its first day through its last, or through today for this month. */
const periodOf = (month: string, today: string) => {
  const from = `${month}-01`;
  const last = addDays(addMonths(from, 1), -1);
  return { from, to: last < today ? last : today };
};

type Figure = { key: keyof OwnerStatementAnswer['totals']; label: string; out?: boolean; strong?: boolean };
const FIGURES: Figure[] = [
  { key: 'opening_balance', label: 'Held at the start' },
  { key: 'collected', label: 'Collected' },
  { key: 'expenses', label: 'Expenses', out: true },
  { key: 'management_fees', label: 'Management fees', out: true },
  { key: 'rental_tax', label: 'Rental tax withheld', out: true },
  { key: 'payouts', label: 'Paid out to you', out: true },
  { key: 'adjustments', label: 'Adjustments' },
  { key: 'closing_balance', label: 'Held at the end', strong: true },
  { key: 'available', label: 'Available to pay out', strong: true },
];

/** A statement's figures, what is taken out shown negative (adjustments only when there are some). */
const Figures = ({
  f,
  money,
}: {
  f: OwnerStatementAnswer['totals'];
  money: (n: number | string) => string;
}) => (
  <ul className="rows figures">
    {FIGURES.filter((x) => x.key !== 'adjustments' || Number(f.adjustments) !== 0).map((x) => (
      <li key={x.key} data-figure={x.key}>
        <span>{x.label}</span>
        {x.strong ? (
          <strong>{money(f[x.key])}</strong>
        ) : (
          <span>{money(x.out && Number(f[x.key]) !== 0 ? -Number(f[x.key]) : f[x.key])}</span>
        )}
      </li>
    ))}
  </ul>
);

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
  const { from, to } = periodOf(month, me.as_of);
  const q = `from=${from}&to=${to}`;
  const { state, error } = useKept<OwnerStatementAnswer>(`/owner-portal/statement?${q}`, onSignedOut);
  const [note, setNote] = useState('');
  if (!state) return <p className="muted">{error || 'Loading…'}</p>;
  const s = state.data;
  return (
    <>
      <article className="card" data-testid="statement-totals">
        <h2>{monthName(month)}</h2>
        <p className="muted small">
          {formatDate(s.from)} to {formatDate(s.to)}
          {s.properties.length > 1 ? ', all your properties' : ''}
        </p>
        <Figures f={s.totals} money={money} />
        <div className="actions">
          <button
            type="button"
            className="primary"
            onClick={() =>
              void download(`/owner-portal/statement.pdf?${q}`, `owner_statement_${from}_${to}.pdf`)
                .then((r) => setNote(`Statement: ${fetchedNote(r)}`))
                .catch((err: unknown) => setNote(message(err)))
            }
          >
            Download PDF
          </button>
        </div>
        {note ? <p className="muted small">{note}</p> : null}
      </article>
      {s.properties.length === 0 ? <p className="muted">Nothing was held for you in this month.</p> : null}
      {s.properties.length > 1
        ? s.properties.map((p) => (
            <article key={p.property_id ?? 0} className="card" data-testid={`statement-${p.property_id}`}>
              <h2>
                {p.property_name ?? 'Other'}
                {p.share_percent === null ? null : (
                  <span className="muted small"> · your share {p.share_percent}%</span>
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
  const { state, error } = useKept<OwnerPortalPayout[]>('/owner-portal/payouts', onSignedOut);
  return (
    <article className="card">
      <h2>Payouts</h2>
      {!state ? <p className="muted">{error || 'Loading…'}</p> : null}
      {state && state.data.length === 0 ? <p className="muted">No payout yet.</p> : null}
      <ul className="rows" data-testid="payouts">
        {state?.data.map((p) => (
          <li key={p.id}>
            <div>
              <strong>{formatDate(p.date)}</strong>
              <div className="muted small">
                {METHODS[p.method] ?? p.method}
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
  const [month, setMonth] = useState(() => addMonths(`${me.month}-01`, -1).slice(0, 7));
  return (
    <section>
      <label className="field">
        <span>Month</span>
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
  if (!state)
    return (
      <main className="narrow">
        <p className="muted">{error || 'Loading…'}</p>
      </main>
    );
  const me = state.data;
  return (
    <>
      <header className="top">
        <h1 className="brand">{me.company.name}</h1>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav className="tabs" aria-label="Owner portal">
        {TABS.map((t) => (
          <button
            key={t.tab}
            type="button"
            aria-current={tab === t.tab ? 'page' : undefined}
            onClick={() => setTab(t.tab)}
          >
            {t.label}
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
