import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  formatDate,
  formatMoney,
  formatNumber,
  meterKind,
  meterUnit,
  portalMessages,
  type Language,
  type LeaseReading,
  type LedgerAnswer,
  type MessageKey,
  type PortalMe,
  type PortalPayments,
  type PortalPending,
  type PortalRequest,
} from '@kodi/domain';
import { api, download, forgetKept, keptGet, PortalError, setCsrf, type Kept } from './portal-api.ts';
import { Alert, fetchedNote, go, message, useKept } from './portal-parts.tsx';
import { PortalLanguageSwitcher } from './portal-language.tsx';
import { activateLanguage, i18n, initialLanguage, useT } from '../../lib/i18n.ts';
import { PayNow, usePayOptions } from './pay-now.tsx';

// The tenant portal (issue 19), its own small app: sign-in (password or one-time code), the welcome
// page of an invitation, and once signed in its home (balance, next due, statement), payments and
// receipts, repairs and profile. Made for a 360 px phone first; no staff code, no MUI.

type SignedIn = {
  user: { first_name: string; tenant_id?: number | null; roles: string[]; language?: Language } | null;
};

// The owner portal (issue 27): the same sign-in, its own pages at /owner, loaded only for an owner.
const OwnerHome = lazy(() => import('./owner-home.tsx'));
/** the tenant's notices (issue 29): a chunk loaded when its tab is first opened */
const PortalAnnouncements = lazy(() =>
  import('./portal-announcements.tsx').then((m) => ({ default: m.PortalAnnouncements })),
);

/** Which portal a path is of: the owner portal's under /owner, else the tenant portal's. */
const portalOf = (path: string) => (/^\/owner(\/|$)/.test(path) ? 'owner' : 'tenant');
const HOME = { tenant: '/portal', owner: '/owner' } as const;
const TITLE = { tenant: 'portal.tenantTitle', owner: 'portal.ownerTitle' } as const;
const WHAT = { tenant: 'portal.tenantWhat', owner: 'portal.ownerWhat' } as const;

const usePath = () => {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const on = () => setPath(window.location.pathname);
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return path;
};

const Field = (props: {
  label: string;
  name: string;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  autoComplete?: string;
  inputMode?: 'numeric' | 'email' | 'tel' | 'text';
  error?: string | undefined;
}) => (
  <label className="field">
    <span>{props.label}</span>
    <input
      name={props.name}
      type={props.type ?? 'text'}
      value={props.value}
      autoComplete={props.autoComplete}
      inputMode={props.inputMode}
      aria-invalid={!!props.error}
      onChange={(e) => props.onChange(e.target.value)}
    />
    {props.error ? <small className="error">{props.error}</small> : null}
  </label>
);

// ---------------------------------------------------------------- signing in

const LoginPage = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const portal = portalOf(window.location.pathname);
  const { t } = useT();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [mode, setMode] = useState<'password' | 'code' | 'verify'>('password');
  const [channel, setChannel] = useState<'email' | 'sms'>('email');
  const [error, setError] = useState('');
  const [info, setInfo] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!login.trim()) return setError(t('portal.enterLogin'));
    setBusy(true);
    try {
      if (mode === 'password') {
        await api('POST', '/portal/auth/login', { login, password });
        onSignedIn();
      } else if (mode === 'code') {
        // the answer says whether a code can go out at all (no e-mail or SMS set up: it says so)
        const answer = await api<{ sent: boolean; message: string }>('POST', '/portal/auth/code', {
          login,
          channel,
        });
        if (answer.sent) {
          setInfo(answer.message);
          setMode('verify');
        } else setError(answer.message);
      } else {
        await api('POST', '/portal/auth/code/verify', { login, code });
        onSignedIn();
      }
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>{t(TITLE[portal])}</h1>
      <p className="muted">{t(WHAT[portal])}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field
          label={t('portal.emailOrPhone')}
          name="login"
          value={login}
          onChange={setLogin}
          autoComplete="username"
        />
        {mode === 'password' ? (
          <Field
            label={t('common.password')}
            name="password"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
        ) : null}
        {mode === 'code' ? (
          <fieldset className="choice">
            <legend>{t('portal.sendCodeBy')}</legend>
            <label>
              <input type="radio" checked={channel === 'email'} onChange={() => setChannel('email')} />{' '}
              {t('portal.emailChannel')}
            </label>
            <label>
              <input type="radio" checked={channel === 'sms'} onChange={() => setChannel('sms')} />{' '}
              {t('portal.smsChannel')}
            </label>
          </fieldset>
        ) : null}
        {mode === 'verify' ? (
          <Field
            label={t('portal.sixDigitCode')}
            name="code"
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        ) : null}
        <Alert kind="info">{info}</Alert>
        <Alert>{error}</Alert>
        <button type="submit" className="primary" disabled={busy}>
          {mode === 'code' ? t('portal.sendMeCode') : t('auth.signIn')}
        </button>
      </form>
      <button
        type="button"
        className="link"
        onClick={() => {
          setError('');
          setInfo('');
          setMode(mode === 'password' ? 'code' : 'password');
        }}
      >
        {mode === 'password' ? t('portal.useCodeInstead') : t('portal.usePasswordInstead')}
      </button>
      <PortalLanguageSwitcher />
    </main>
  );
};

const WelcomePage = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const portal = portalOf(window.location.pathname);
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    const f: Record<string, string> = {};
    if (password.length < 8) f.password = 'At least 8 characters.';
    if (confirm !== password) f.confirm = 'The passwords do not match.';
    setFields(f);
    if (Object.keys(f).length) return;
    setBusy(true);
    try {
      await api('POST', '/portal/auth/accept', { token, password });
      window.history.replaceState(null, '', HOME[portal]);
      onSignedIn();
    } catch (err) {
      // a refused password (the staff rules: strength, common passwords) is said under its field
      if (err instanceof PortalError && err.fields) setFields(err.fields);
      else setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>Welcome</h1>
      <p className="muted">Set a password for your {TITLE[portal].toLowerCase()}.</p>
      {!token ? <Alert>This link is incomplete. Open the link from your invitation again.</Alert> : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          error={fields.password}
        />
        <Field
          label="Confirm password"
          name="confirm"
          type="password"
          value={confirm}
          onChange={setConfirm}
          autoComplete="new-password"
          error={fields.confirm}
        />
        <Alert>{error}</Alert>
        <button type="submit" className="primary" disabled={busy || !token}>
          Set password and sign in
        </button>
      </form>
      <a className="link" href={`${HOME[portal]}/login`}>
        Already set? Sign in
      </a>
    </main>
  );
};

// ---------------------------------------------------------------- signed in

type Tab = 'home' | 'payments' | 'notices' | 'repairs' | 'profile';

/** An amount in the company's currency, written the language's way. */
const money = (me: PortalMe, amount: number | null, language: Language) =>
  amount === null ? '' : formatMoney(amount, me.company.currency, me.company.decimals ?? undefined, language);

const Money = ({ me, amount }: { me: PortalMe; amount: number | null }) => {
  const { language } = useT();
  return <>{money(me, amount, language)}</>;
};

const amountOf = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : 2);

/** A billed meter reading under its utility charge (issue 28): the dates, the values, what was used, the photo. */
const ReadingLine = ({ me, r }: { me: PortalMe; r: LeaseReading }) => {
  const unit = meterUnit.labels[r.unit_of_measure];
  const { language } = useT();
  return (
    <div className="reading" data-testid={`reading-${r.id}`}>
      <span>
        {meterKind.labels[r.kind]} meter {r.meter_number}:{' '}
        {r.previous_date ? `${formatDate(r.previous_date, language)} ${amountOf(r.previous_value)} → ` : ''}
        {formatDate(r.reading_date, language)} {amountOf(r.value)}
      </span>
      <span>
        Used <strong>{`${amountOf(r.consumption)} ${unit}`}</strong> · <Money me={me} amount={r.amount} />
        {r.has_photo ? (
          <>
            {' · '}
            <a href={`/rentapi/api/portal/meter-readings/${r.id}/photo`} target="_blank" rel="noreferrer">
              Photo
            </a>
          </>
        ) : null}
      </span>
    </div>
  );
};

const Home = ({ kept, onPaid }: { kept: Kept<PortalMe>; onPaid: () => void }) => {
  const me = kept.data;
  const { t, language } = useT();
  const payOptions = usePayOptions();
  const [ledgerOf, setLedgerOf] = useState<number | undefined>();
  const [ledger, setLedger] = useState<Kept<LedgerAnswer> | undefined>();
  const [readings, setReadings] = useState<LeaseReading[]>([]);
  const [note, setNote] = useState('');
  useEffect(() => {
    if (ledgerOf === undefined) return;
    void keptGet<LedgerAnswer>(`/portal/leases/${ledgerOf}/ledger`)
      .then(setLedger)
      .catch((err: unknown) => setNote(message(err)));
    void keptGet<LeaseReading[]>(`/portal/leases/${ledgerOf}/meter-readings`)
      .then((r) => setReadings(r.data))
      .catch(() => setReadings([]));
  }, [ledgerOf]);
  return (
    <section>
      {me.leases.length === 0 ? (
        <p className="muted">{t('portal.noLease', { company: me.company.name })}</p>
      ) : null}
      {me.leases.map((l) => (
        <article key={l.id} className="card">
          <h2>
            {l.unit_name}
            {l.property_name ? <span className="muted"> · {l.property_name}</span> : null}
          </h2>
          <p className="label">
            {l.balance > 0
              ? t('portal.youOwe')
              : l.balance < 0
                ? t('portal.paidAhead')
                : t('glossary.balance')}
          </p>
          <p className="balance" data-testid={`balance-${l.id}`}>
            <Money me={me} amount={Math.abs(l.balance)} />
          </p>
          {l.next_due_date ? (
            <p>
              {t('portal.nextRent', {
                amount: money(me, l.next_due_amount, language),
                date: formatDate(l.next_due_date, language),
              })}
            </p>
          ) : null}
          <p className="muted small">
            {t(l.end_date ? 'portal.rentSinceUntil' : 'portal.rentSince', {
              amount: money(me, l.rate, language),
              cycle: t('portal.cycle', { cycle: l.rent_cycle }),
              start: formatDate(l.start_date, language),
              end: formatDate(l.end_date, language),
            })}
          </p>
          {l.how_to_pay.length > 0 || l.account_reference ? (
            <div className="how-to-pay" data-testid={`how-to-pay-${l.id}`}>
              <h3>{t('portal.howToPay')}</h3>
              {l.account_reference ? (
                <p>
                  {t('portal.accountNumber')} <strong>{l.account_reference}</strong>
                </p>
              ) : null}
              {l.how_to_pay.map((line) => (
                <p key={line} className="small">
                  {line}
                </p>
              ))}
            </div>
          ) : null}
          {payOptions && payOptions.providers.length > 0 && !kept.offline ? (
            <PayNow
              leaseId={l.id}
              due={Math.max(0, l.balance)}
              currency={me.company.currency}
              decimals={me.company.decimals}
              options={payOptions}
              onPaid={onPaid}
            />
          ) : null}
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                void download(`/portal/leases/${l.id}/statement.pdf`, `statement_${l.id}.pdf`)
                  .then((r) => setNote(t('portal.owner.statementNote', { note: fetchedNote(r) })))
                  .catch((err: unknown) => setNote(message(err)))
              }
            >
              {t('portal.downloadStatement')}
            </button>
            <button type="button" onClick={() => setLedgerOf(ledgerOf === l.id ? undefined : l.id)}>
              {ledgerOf === l.id ? t('portal.hideLedger') : t('portal.showLedger')}
            </button>
          </div>
          {ledgerOf === l.id && ledger?.data.occupancy_id === l.id ? (
            <div className="ledger">
              <p className="muted small">{fetchedNote(ledger)}</p>
              <ul className="rows">
                {ledger.data.entries.map((e, i) => (
                  <li key={i}>
                    <div className="entry">
                      <span>
                        {formatDate(e.date, language)} · {e.description}
                      </span>
                      <span className={e.amount < 0 ? 'credit' : ''}>
                        <Money me={me} amount={e.amount} />
                      </span>
                    </div>
                    {e.kind === 'charge' && e.charge_id !== null
                      ? readings
                          .filter((r) => r.charge_id === e.charge_id)
                          .map((r) => <ReadingLine key={r.id} me={me} r={r} />)
                      : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </article>
      ))}
      <Alert kind="info">{note}</Alert>
    </section>
  );
};

const Payments = ({ me, onSignedOut }: { me: PortalMe; onSignedOut: () => void }) => {
  const { t, language } = useT();
  const [page, setPage] = useState(1);
  const { state, error } = useKept<PortalPayments>(`/portal/payments?page=${page}&page_size=10`, onSignedOut);
  const [note, setNote] = useState('');
  if (!state) return <p className="muted">{error || t('common.loading')}</p>;
  const pages = Math.max(1, Math.ceil(state.data.total / 10));
  return (
    <section>
      <p className="muted small">{fetchedNote(state)}</p>
      {state.data.rows.length === 0 ? <p className="muted">{t('portal.noPayments')}</p> : null}
      <ul className="rows cards">
        {state.data.rows.map((p) => (
          <li key={p.id}>
            <div>
              <strong>
                <Money me={me} amount={p.amount_paid} />
              </strong>
              <div className="muted small">
                {formatDate(p.payment_date, language)} · {p.unit_name} ·{' '}
                {t('portal.paymentStatus', { status: p.status })}
              </div>
            </div>
            <button
              type="button"
              aria-label={t('portal.pay.receipt', { number: p.receipt_number ?? p.id })}
              onClick={() =>
                void download(
                  `/portal/payments/${p.id}/receipt.pdf`,
                  `receipt_${p.receipt_number ?? p.id}.pdf`,
                )
                  .then((r) => setNote(t('portal.receiptNote', { note: fetchedNote(r) })))
                  .catch((err: unknown) => setNote(message(err)))
              }
            >
              {t('glossary.receipt')}
            </button>
          </li>
        ))}
      </ul>
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
      <Alert kind="info">{note}</Alert>
    </section>
  );
};

const readPhoto = (file: File) =>
  new Promise<{ name: string; data: string }>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, data: String(reader.result) });
    reader.onerror = () => reject(new Error(i18n._('portal.repair.photoUnreadable')));
    reader.readAsDataURL(file);
  });

const Repairs = ({ me, onSignedOut }: { me: PortalMe; onSignedOut: () => void }) => {
  const { t, language } = useT();
  const { state, error, reload } = useKept<PortalRequest[]>('/portal/maintenance-requests', onSignedOut);
  const leases = me.leases.filter((l) => l.active);
  const [lease, setLease] = useState(String(leases[0]?.id ?? me.leases[0]?.id ?? ''));
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState('medium');
  const [photos, setPhotos] = useState<File[]>([]);
  // a new file input after each request sent (a file input cannot be emptied by its value)
  const [sent, setSent] = useState(0);
  const [formError, setFormError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError('');
    setDone('');
    if (!description.trim()) return setFormError(t('portal.repair.describe'));
    if (photos.length > 3) return setFormError(t('portal.repair.atMostPhotos'));
    if (photos.some((p) => p.size > 5 * 1024 * 1024)) return setFormError(t('portal.repair.photoTooBig'));
    setBusy(true);
    try {
      await api('POST', '/portal/maintenance-requests', {
        occupancy_id: Number(lease),
        description,
        priority,
        photos: await Promise.all(photos.map(readPhoto)),
      });
      setDescription('');
      setPhotos([]);
      setSent(sent + 1);
      setDone(t('portal.repair.sent'));
      await reload();
    } catch (err) {
      setFormError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <form className="card" onSubmit={(e) => void submit(e)} noValidate>
        <h2>{t('portal.repair.title')}</h2>
        {me.leases.length > 1 ? (
          <label className="field">
            <span>{t('common.unit')}</span>
            <select value={lease} onChange={(e) => setLease(e.target.value)}>
              {me.leases.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.unit_name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>{t('portal.repair.what')}</span>
          <textarea
            name="description"
            rows={4}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('portal.repair.priority')}</span>
          <select name="priority" value={priority} onChange={(e) => setPriority(e.target.value)}>
            {['low', 'medium', 'high'].map((p) => (
              <option key={p} value={p}>
                {t('portal.repair.priorityLevel', { priority: p })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('portal.repair.photos')}</span>
          <input
            key={sent}
            name="photos"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            multiple
            onChange={(e) => setPhotos([...(e.target.files ?? [])].slice(0, 3))}
          />
        </label>
        <Alert>{formError}</Alert>
        <Alert kind="info">{done}</Alert>
        <button type="submit" className="primary" disabled={busy || !lease}>
          {t('portal.repair.send')}
        </button>
      </form>
      <h2>{t('portal.repair.yourRequests')}</h2>
      {state ? (
        <p className="muted small">{fetchedNote(state)}</p>
      ) : (
        <p className="muted">{error || t('common.loading')}</p>
      )}
      <ul className="rows cards">
        {state?.data.map((r) => (
          <li key={r.id} data-testid={`request-${r.id}`}>
            <div>
              <div>{r.description}</div>
              <div className="muted small">
                {formatDate(r.request_date, language)} · {r.unit_name} ·{' '}
                {t('portal.repair.photoCount', { count: r.photos.length })}
              </div>
            </div>
            <span className={`chip ${r.status}`}>{t('portal.repair.status', { status: r.status })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
};

/**
 * A new e-mail or phone waiting for the code sent to it (issue 23): the code, and the address saved.
 * The server answers the same whoever else uses the address; only the code's holder may learn it.
 */
const AddressCode = ({ pending, onConfirmed }: { pending: PortalPending[]; onConfirmed: () => void }) => {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!/^\d{6}$/.test(code.trim())) return setError('The code has 6 digits.');
    setBusy(true);
    try {
      await api('POST', '/portal/me/confirm', { code: code.trim() });
      setCode('');
      onConfirmed();
    } catch (err) {
      setError(err instanceof PortalError && err.fields?.code ? err.fields.code : message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} noValidate aria-label="Confirm your new address">
      <h2>Confirm your new address</h2>
      <Alert kind="info">{portalMessages.addressCodeSent}</Alert>
      <ul className="rows">
        {pending.map((p) => (
          <li key={p.field}>
            <span>{p.field === 'email' ? 'E-mail' : 'Phone'}</span>
            <span data-testid={`pending-${p.field}`}>{p.value}</span>
          </li>
        ))}
      </ul>
      <Field
        label="6-digit code"
        name="address-code"
        value={code}
        onChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        error={error || undefined}
      />
      <button type="submit" className="primary" disabled={busy}>
        Confirm
      </button>
    </form>
  );
};

const Profile = ({ kept, onSaved }: { kept: Kept<PortalMe>; onSaved: () => void }) => {
  const t = kept.data.tenant;
  const [form, setForm] = useState({
    phone: t.phone,
    email: t.email ?? '',
    emergency_contact_name: t.emergency_contact_name ?? '',
    emergency_contact_phone: t.emergency_contact_phone ?? '',
    notify_email: t.notify_email,
    notify_sms: t.notify_sms,
    notify_whatsapp: t.notify_whatsapp,
  });
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [done, setDone] = useState('');
  // what the last answer says is waiting for its code (the page's copy until it is fetched again)
  const [pending, setPending] = useState<PortalPending[]>(kept.data.pending ?? []);
  useEffect(() => setPending(kept.data.pending ?? []), [kept.data.pending]);
  const set = (k: keyof typeof form) => (v: string) => setForm({ ...form, [k]: v });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setDone('');
    try {
      const answer = await api<PortalMe>('PUT', '/portal/me', { ...form, version: t.version });
      setPending(answer.pending);
      setFields({});
      setDone(answer.pending.length > 0 ? 'Saved. Your new address waits for its code below.' : 'Saved.');
      onSaved();
    } catch (err) {
      setError(message(err));
      setFields(err instanceof PortalError && err.fields ? err.fields : {});
    }
  };
  return (
    <>
      <form className="card" onSubmit={(e) => void submit(e)} noValidate>
        <h2>
          {t.first_name} {t.last_name}
        </h2>
        <Field
          label="Phone"
          name="phone"
          value={form.phone}
          onChange={set('phone')}
          inputMode="tel"
          error={fields.phone}
        />
        <Field
          label="E-mail"
          name="email"
          value={form.email}
          onChange={set('email')}
          inputMode="email"
          error={fields.email}
        />
        <Field
          label="Emergency contact"
          name="emergency_contact_name"
          value={form.emergency_contact_name}
          onChange={set('emergency_contact_name')}
        />
        <Field
          label="Emergency contact phone"
          name="emergency_contact_phone"
          value={form.emergency_contact_phone}
          onChange={set('emergency_contact_phone')}
          inputMode="tel"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={form.notify_email}
            onChange={(e) => setForm({ ...form, notify_email: e.target.checked })}
          />{' '}
          Messages by e-mail
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.notify_sms}
            onChange={(e) => setForm({ ...form, notify_sms: e.target.checked })}
          />{' '}
          Messages by SMS
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.notify_whatsapp}
            onChange={(e) => setForm({ ...form, notify_whatsapp: e.target.checked })}
          />{' '}
          Messages by WhatsApp
        </label>
        <Alert>{error}</Alert>
        <Alert kind="info">{done}</Alert>
        <button type="submit" className="primary">
          Save
        </button>
      </form>
      {pending.length > 0 ? (
        <AddressCode
          pending={pending}
          onConfirmed={() => {
            setPending([]);
            setDone(portalMessages.addressChanged);
            onSaved();
          }}
        />
      ) : null}
    </>
  );
};

const TABS: { tab: Tab; label: MessageKey }[] = [
  { tab: 'home', label: 'portal.tabHome' },
  { tab: 'payments', label: 'portal.tabPayments' },
  { tab: 'notices', label: 'portal.tabNotices' },
  { tab: 'repairs', label: 'portal.tabRepairs' },
  { tab: 'profile', label: 'portal.tabProfile' },
];

/** Ends the session and forgets what was kept for offline reading. */
const endSession = async (onSignedOut: () => void) => {
  await api('POST', '/portal/auth/logout').catch(() => undefined);
  await forgetKept();
  setCsrf(undefined);
  onSignedOut();
};

const PortalHome = ({ onSignedOut }: { onSignedOut: () => void }) => {
  const { state, error, reload } = useKept<PortalMe>('/portal/me', onSignedOut);
  const [tab, setTab] = useState<Tab>('home');
  const { t } = useT();
  const signOut = () => endSession(onSignedOut);
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
        {me.company.logo_url && !state.offline ? <img src={me.company.logo_url} alt="" height={32} /> : null}
        <h1 className="brand">{me.company.name}</h1>
        <button type="button" className="link" onClick={() => void signOut()}>
          {t('portal.signOut')}
        </button>
      </header>
      <nav className="tabs" aria-label={t('portal.tenantTitle')}>
        {TABS.map((tab_) => (
          <button
            key={tab_.tab}
            type="button"
            aria-current={tab === tab_.tab ? 'page' : undefined}
            onClick={() => setTab(tab_.tab)}
          >
            {t(tab_.label)}
          </button>
        ))}
      </nav>
      <main>
        <p className={`muted small ${state.offline ? 'offline' : ''}`} data-testid="fetched-at">
          {fetchedNote(state)}
        </p>
        {tab === 'home' ? <Home kept={state} onPaid={() => void reload()} /> : null}
        {tab === 'payments' ? <Payments me={me} onSignedOut={onSignedOut} /> : null}
        {tab === 'notices' ? (
          <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
            <PortalAnnouncements onSignedOut={onSignedOut} />
          </Suspense>
        ) : null}
        {tab === 'repairs' ? <Repairs me={me} onSignedOut={onSignedOut} /> : null}
        {tab === 'profile' ? <Profile kept={state} onSaved={() => void reload()} /> : null}
      </main>
    </>
  );
};

export const PortalApp = () => {
  const path = usePath();
  const portal = portalOf(path);
  const { t } = useT();
  // whose account is signed in: a tenant's or an owner's (each has its own pages), else none
  const [session, setSession] = useState<'unknown' | 'tenant' | 'owner' | 'out'>('unknown');
  const check = useCallback(async () => {
    try {
      const s = await api<SignedIn & { csrf_token: string }>('GET', '/auth/status');
      setCsrf(s.csrf_token);
      // the tenant's (or owner's) language once signed in; before, the one chosen or the browser's
      await activateLanguage(s.user?.language ?? initialLanguage());
      const roles = s.user?.roles ?? [];
      setSession(roles.includes('tenant') ? 'tenant' : roles.includes('owner') ? 'owner' : 'out');
    } catch {
      // offline: show what was kept, if anything
      setSession(
        localStorage.getItem('kodi-portal:/portal/me')
          ? 'tenant'
          : localStorage.getItem('kodi-portal:/owner-portal/me')
            ? 'owner'
            : 'out',
      );
    }
  }, []);
  useEffect(() => {
    void check();
  }, [check]);
  // portal.html's title is the tenant portal's: the owner portal names itself
  useEffect(() => {
    document.title = t(TITLE[portal]);
  }, [portal, t]);
  const signedIn = () => {
    setSession('unknown');
    void check();
    // this portal's home; an account of the other portal is taken to its own once its role is known
    go(HOME[portalOf(window.location.pathname)]);
  };
  const signedOut = useCallback(() => {
    setSession('out');
    const at = window.location.pathname;
    if (!/^\/(portal|owner)\/welcome/.test(at)) go(`${HOME[portalOf(at)]}/login`);
  }, []);

  if (/^\/(portal|owner)\/welcome/.test(path)) return <WelcomePage onSignedIn={signedIn} />;
  if (session === 'unknown') return <main className="narrow muted">{t('common.loading')}</main>;
  const login = path === `${HOME[portal]}/login`;
  if (session === 'out') return <LoginPage onSignedIn={signedIn} />;
  // signed in: the account's own portal, whichever path it came by
  if (session !== portal || login) {
    go(HOME[session]);
    return null;
  }
  if (session === 'owner')
    return (
      <Suspense fallback={<main className="narrow muted">{t('common.loading')}</main>}>
        <OwnerHome onSignedOut={signedOut} signOut={() => void endSession(signedOut)} />
      </Suspense>
    );
  return <PortalHome onSignedOut={signedOut} />;
};
