import { useState } from 'react';
import {
  formatDate,
  formatMoney,
  type OwnerPortalArrears,
  type OwnerPortalMe,
  type OwnerPortalProperty,
} from '@kodi/domain';
import { fetchedNote, useKept } from './portal-parts.tsx';

// The owner portal (issue 27): an owner's properties with their units let and vacant and its share,
// this month's rent due against what was collected, the tenants in arrears (names and amounts only),
// and its statements and payouts. Loaded only when an owner signs in: the tenant portal stays as light.

type Tab = 'properties' | 'arrears' | 'statements';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'properties', label: 'Properties' },
  { tab: 'arrears', label: 'Arrears' },
  { tab: 'statements', label: 'Statements' },
];

const useMoney = (me: OwnerPortalMe) => (amount: number) =>
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

// TODO(issue 27, owner statements and payouts): once the agency branch is merged, list the owner's
// statements (`GET /owner-portal/statement?from=&to=` and its `.pdf`, from `ownerStatement(...)`) and
// payouts (`GET /owner-portal/payouts`, from `owner_payouts`) here, month by month.
const Statements = ({ me }: { me: OwnerPortalMe }) => (
  <section>
    <article className="card">
      <h2>Statements and payouts</h2>
      <p className="muted">
        Your monthly statements (collections, expenses, fees and what is held for you) and the payouts{' '}
        {me.company.name} makes to you will appear here.
      </p>
    </article>
  </section>
);

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
        {tab === 'statements' ? <Statements me={me} /> : null}
      </main>
    </>
  );
};

export default OwnerHome;
