import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatMoney, type PaymentSuggestionAnswer } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import type { FormApi } from '../../components/resource/types.ts';
import { useT } from '../../lib/i18n.ts';

const idOf = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : v === null || v === undefined || v === '' ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
};

const dayOf = (v: unknown): string | null =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;

/**
 * `GET /payments/suggestion` for a tenant (and unit): the lease a payment goes to, the amount due today
 * (else the next rent) and its period. Under the payments' key, so that a payment saved refreshes it;
 * null when the tenant has no such lease (404).
 */
const suggestionQuery = (tenant: number, unit: number | null, date: string | null) => ({
  queryKey: [...resourceKeys.entity('payments'), 'suggestion', tenant, unit, date] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const params = new URLSearchParams({ tenant_id: String(tenant) });
    if (unit !== null) params.set('unit_id', String(unit));
    if (date !== null) params.set('payment_date', date);
    try {
      return await api.get<PaymentSuggestionAnswer>(`/payments/suggestion?${params.toString()}`, { signal });
    } catch {
      return null;
    }
  },
  staleTime: 30_000,
});

/**
 * The payment form's suggestion (issue 26): the tenant chosen (with `fillUnit`: the unit of the lease the
 * payment goes to, 01-core §5's 'the tenant's unit'), or the unit, fills the amount due and the period it
 * covers, each only while the user has not typed it (FormApi.typed).
 */
export const suggestPayment = async (form: FormApi, fillUnit: boolean): Promise<void> => {
  const tenant = idOf(form.getValue('tenant_id'));
  if (tenant === null) return;
  const unit = fillUnit ? null : idOf(form.getValue('unit_id'));
  const s = await queryClient.fetchQuery(suggestionQuery(tenant, unit, dayOf(form.getValue('payment_date'))));
  // the form moved on meanwhile: another tenant or unit chosen
  if (!s || idOf(form.getValue('tenant_id')) !== tenant) return;
  if (!fillUnit && idOf(form.getValue('unit_id')) !== unit) return;
  if (fillUnit) {
    // the note under the form asks for this tenant and unit: the same answer
    queryClient.setQueryData(
      suggestionQuery(tenant, s.unit_id, dayOf(form.getValue('payment_date'))).queryKey,
      s,
    );
    form.setReference('unit_id', s.unit_id, s.unit_name ?? undefined);
  }
  const fill = (name: string, value: unknown) => {
    if (value !== null && !form.typed(name)) form.setValue(name, value);
  };
  fill('amount_paid', s.amount);
  fill('effective_start_date', s.period_start);
  fill('effective_end_date', s.period_end);
};

/** Under the payment form's fields: what the amount suggested is ('Balance due today …', 'Nothing is due …'). */
export const PaymentSuggestionNote = ({ values }: { values: Readonly<Record<string, unknown>> }) => {
  const money = useCompanyMoney();
  const { t, language } = useT();
  const tenant = idOf(values.tenant_id);
  const unit = idOf(values.unit_id);
  const s = useQuery({
    ...suggestionQuery(tenant ?? 0, unit, dayOf(values.payment_date)),
    enabled: tenant !== null && unit !== null,
  }).data;
  if (!s || s.unit_id !== unit) return null;
  const m = (n: number) => formatMoney(n, money.currency, money.decimals, language);
  const period =
    s.period_start && s.period_end
      ? { from: formatDate(s.period_start, language), to: formatDate(s.period_end, language) }
      : null;
  const credit = s.balance < 0 ? m(-s.balance) : null;
  const text = s.due
    ? period
      ? t('entityExtras.balanceDueFor', { amount: m(s.balance), ...period })
      : t('entityExtras.balanceDue', { amount: m(s.balance) })
    : s.amount === null
      ? credit
        ? t('entityExtras.nothingDueEndedCredit', { credit })
        : t('entityExtras.nothingDueEnded')
      : credit
        ? period
          ? t('entityExtras.nothingDueNextCreditFor', { credit, amount: m(s.rent), ...period })
          : t('entityExtras.nothingDueNextCredit', { credit, amount: m(s.rent) })
        : period
          ? t('entityExtras.nothingDueNextFor', { amount: m(s.rent), ...period })
          : t('entityExtras.nothingDueNext', { amount: m(s.rent) });
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="payment-suggestion">
      {text}
    </Alert>
  );
};
