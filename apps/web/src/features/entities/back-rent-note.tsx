import Alert from '@mui/material/Alert';
import {
  backRent,
  backRentWarning,
  backRentWarningMessage,
  formatCents,
  formatDate,
  formatMoney,
  localDayIso,
  type Cents,
  type LeaseTerms,
} from '@kodi/domain';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';
import { useTexts } from '../../lib/texts.ts';

const text = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
};

/** An amount as typed ('500,000', '500000', 500000) as the rules take it; '' when it is not one. */
const amount = (v: unknown): string => (text(v) ?? '').replace(/[,\s]/g, '');

/** A lease's terms from its form's values, as typed. */
export const termsFromForm = (values: Readonly<Record<string, unknown>>): LeaseTerms => ({
  start_date: text(values.start_date)?.slice(0, 10) ?? '',
  end_date: text(values.end_date)?.slice(0, 10) ?? null,
  rate: amount(values.rate),
  rent_cycle: text(values.rent_cycle) ?? 'monthly',
  opening_balance: amount(values.opening_balance) || null,
  opening_balance_date: text(values.opening_balance_date)?.slice(0, 10) ?? null,
});

/**
 * The back-rent warning of the lease form (issue 25), as the user types: a start date in the past
 * charges every period since then, up to today, unless an opening balance date says otherwise.
 */
export const BackRentNote = ({ values }: { values: Readonly<Record<string, unknown>> }) => {
  useTexts('domain');
  const { td, language } = useT();
  const money = useCompanyMoney();
  const terms = termsFromForm(values);
  const due = backRent(terms, localDayIso());
  if (due.charges === 0) return null;
  const english = backRentWarning(terms.start_date, due, (cents: Cents) =>
    formatMoney(formatCents(cents), money.currency, money.decimals),
  );
  // in the page's language (`domainTexts.backRent*`) with its date and money formats; the English
  // (`backRentWarning`'s, the spec's) until the `domain` group is in
  const message = backRentWarningMessage(
    terms.start_date,
    due,
    (cents: Cents) => formatMoney(formatCents(cents), money.currency, money.decimals, language),
    (day) => formatDate(day, language),
  );
  return (
    <Alert severity="warning" sx={{ mt: 2 }} data-testid="back-rent-note">
      {message && language !== 'en' ? td(message.key, english, message.values) : english}
    </Alert>
  );
};
