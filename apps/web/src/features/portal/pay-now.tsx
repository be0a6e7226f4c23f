import { useEffect, useState, type FormEvent } from 'react';
import {
  formatMoney,
  paymentProviderLabels,
  providerOfPhone,
  type PaymentProviderName,
  type PaymentRequest,
} from '@kodi/domain';
import { api } from './portal-api.ts';
import { Alert, message } from './portal-parts.tsx';
import { useT } from '../../lib/i18n.ts';

type Options = {
  providers: PaymentProviderName[];
  phone: string | null;
  provider: PaymentProviderName | null;
};

/** How often a pending prompt is asked about. */
const POLL_MS = 2000;

/** The options of Pay now (the providers the company has on, the tenant's phone), read once per page. */
export const usePayOptions = () => {
  const [options, setOptions] = useState<Options | null>(null);
  useEffect(() => {
    void api<Options>('GET', '/portal/payments/options')
      .then(setOptions)
      .catch(() => setOptions(null));
  }, []);
  return options;
};

/**
 * 'Pay now' on a lease's balance (issue 29): the amount due prefilled (changeable), the tenant's phone
 * prefilled (changeable), the provider of the number's network chosen (changeable); a prompt goes to
 * the phone and the request is followed until the provider ends it: the receipt shows without a reload.
 */
export const PayNow = ({
  leaseId,
  due,
  currency,
  decimals,
  options,
  onPaid,
}: {
  leaseId: number;
  due: number;
  currency: string;
  decimals: number | null;
  options: Options;
  onPaid: () => void;
}) => {
  const { t, language } = useT();
  const money = (n: number) => formatMoney(n, currency, decimals ?? undefined, language);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(due > 0 ? String(due) : '');
  const [phone, setPhone] = useState(options.phone ?? '');
  const [provider, setProvider] = useState<PaymentProviderName>(
    options.provider ?? options.providers[0] ?? 'mpesa',
  );
  const [request, setRequest] = useState<PaymentRequest | null>(null);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (request?.status !== 'pending') return;
    const timer = setInterval(() => {
      void api<PaymentRequest>('GET', `/portal/payments/requests/${request.id}`)
        .then((r) => {
          setRequest(r);
          if (r.status === 'completed') onPaid();
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [request, onPaid]);

  const changePhone = (value: string) => {
    setPhone(value);
    const own = value.trim().startsWith('+') ? providerOfPhone(value) : null;
    if (own && options.providers.includes(own)) setProvider(own);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError('');
    void api<PaymentRequest>('POST', '/portal/payments/request', {
      amount: Number(amount),
      phone,
      provider,
      occupancy_id: leaseId,
    })
      .then(setRequest)
      .catch((err: unknown) => setError(message(err)))
      .finally(() => setSending(false));
  };

  if (request)
    return (
      <div className="pay-now" data-testid={`pay-now-${leaseId}`}>
        {request.status === 'pending' ? (
          <p role="status">
            {t('portal.pay.checkPhone', { phone: request.phone, amount: money(Number(request.amount)) })}
          </p>
        ) : request.status === 'completed' ? (
          <div role="status" data-testid="pay-now-receipt">
            <p>
              <strong>
                {t('portal.pay.paid', { amount: money(Number(request.received_amount ?? request.amount)) })}
              </strong>{' '}
              {t('portal.pay.receipt', { number: request.receipt_number ?? '' })}
              {request.transaction_id
                ? ` (${paymentProviderLabels[request.provider]} ${request.transaction_id})`
                : ''}
            </p>
            {request.receipt_url ? (
              <p>
                <a href={request.receipt_url}>{t('portal.pay.viewReceipt')}</a>
              </p>
            ) : null}
          </div>
        ) : (
          <Alert>
            {t('portal.pay.notPaid', {
              status: request.status,
              reason: request.reason ?? t('portal.pay.noReason'),
            })}
          </Alert>
        )}
        {request.status !== 'pending' ? (
          <button type="button" className="link" onClick={() => setRequest(null)}>
            {request.status === 'completed' ? t('portal.pay.again') : t('portal.pay.tryAgain')}
          </button>
        ) : null}
      </div>
    );

  if (!open)
    return (
      <div className="actions">
        <button type="button" className="primary" onClick={() => setOpen(true)}>
          {t('portal.pay.now')}
        </button>
      </div>
    );

  return (
    <form className="pay-now" onSubmit={submit} aria-label={t('portal.pay.now')}>
      <label className="field">
        <span>{t('portal.pay.amount', { currency })}</span>
        <input
          name="amount"
          inputMode="decimal"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t('portal.pay.phone')}</span>
        <input name="phone" type="tel" required value={phone} onChange={(e) => changePhone(e.target.value)} />
      </label>
      {options.providers.length > 1 ? (
        <label className="field">
          <span>{t('portal.pay.with')}</span>
          <select value={provider} onChange={(e) => setProvider(e.target.value as PaymentProviderName)}>
            {options.providers.map((p) => (
              <option key={p} value={p}>
                {paymentProviderLabels[p]}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="muted small">
          {t('portal.pay.withProvider', { provider: paymentProviderLabels[provider] })}
        </p>
      )}
      <Alert>{error}</Alert>
      <div className="actions">
        <button type="submit" className="primary" disabled={sending}>
          {t('portal.pay.send')}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {t('portal.pay.cancel')}
        </button>
      </div>
    </form>
  );
};
