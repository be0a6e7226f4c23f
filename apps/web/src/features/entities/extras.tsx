import ReceiptLong from '@mui/icons-material/ReceiptLong';
import { DEFAULT_CURRENCY, derivedRates, type EntityName } from '@kodi/domain';
import { getSession } from '../../lib/session.ts';
import type { FormApi, ResourceExtras } from '../../components/resource/types.ts';
import type { ListRowOf } from '../../lib/resources.ts';
import { lazyPart } from '../../components/lazy-part.tsx';
import { lockedPaymentFields } from './locked-payment-fields.ts';
import { RequestPhotos, SubmittedByTenant } from './request-photos.tsx';
import { i18n } from '../../lib/i18n.ts';

// The parts of the forms and details dialogs, loaded with them (not with the list's first load)
const BackRentNote = lazyPart(() => import('./back-rent-note.tsx'), 'BackRentNote');
const OwnerStatement = lazyPart(() => import('./owner-statement.tsx'), 'OwnerStatement');
const PropertyOwnership = lazyPart(() => import('./property-ownership.tsx'), 'PropertyOwnership');
const PropertyUnits = lazyPart(() => import('./property-units.tsx'), 'PropertyUnits');
const SharedPhoneNote = lazyPart(() => import('./shared-phone-note.tsx'), 'SharedPhoneNote');
const PortalAccount = lazyPart(() => import('./tenant-portal.tsx'), 'PortalAccount');
const TenantPortal = lazyPart(() => import('./tenant-portal.tsx'), 'TenantPortal');
const TenantHub = lazyPart(() => import('./tenant-hub.tsx'), 'TenantHub');
const UnitPicker = lazyPart(() => import('./unit-picker.tsx'), 'UnitPicker');
const VoidPaymentSection = lazyPart(() => import('./void-payment.tsx'), 'VoidPaymentSection');
const PaymentSuggestionNote = lazyPart(() => import('./payment-suggestion.tsx'), 'PaymentSuggestionNote');
const suggestPayment = async (form: FormApi, fillUnit: boolean) =>
  (await import('./payment-suggestion.tsx')).suggestPayment(form, fillUnit);
const prefillRate = async (form: FormApi) => (await import('./unit-picker.tsx')).prefillRate(form);

/**
 * The entity-specific behaviour of the generic pages, through the declared extension points of
 * `ResourceExtras`. Everything else comes from the entity definitions in @kodi/domain.
 */

/** '1st', '22nd', '13th' (English's ordinal rules; French '1er', '2e'), read when the list draws. */
const ordinal = (n: number): string => i18n._('entityExtras.ordinal', { n });

const payDay = (row: Pick<ListRowOf<'employees'>, 'expected_pay_day'>) => {
  const n = row.expected_pay_day;
  return Number.isInteger(n) && n > 0 ? ordinal(n) : '—';
};

const employeeName = (row: Pick<ListRowOf<'commission_wages'>, 'employee_name' | 'employee_id'>) => {
  const name = row.employee_name;
  return name?.trim() ? name : i18n._('entityExtras.unknownEmployee', { id: row.employee_id });
};

/** The extras of each entity, typed with its own rows. */
/**
 * A unit's weekly and daily rates prefilled from its monthly one while they are empty (× 12 / 52,
 * × 12 / 365, as an import derives them: issue 26); the 'greater than 0' rule stays the server's.
 */
let prefilled: Record<string, unknown> = {};
const prefillRates = (
  value: unknown,
  form: { getValue: (n: string) => unknown; setValue: (n: string, v: unknown) => void },
) => {
  const monthly = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(monthly) || monthly <= 0) return;
  const rates = derivedRates(monthly, getSession().company?.currency_code?.trim() || DEFAULT_CURRENCY);
  // empty, or as prefilled from the monthly rate typed so far (never a rate the user typed)
  const untouched = (name: string) => {
    const v = form.getValue(name);
    return v === undefined || v === null || v === '' || (name in prefilled && prefilled[name] === v);
  };
  const next: Record<string, unknown> = {};
  for (const name of ['weekly_rate', 'daily_rate'] as const)
    if (untouched(name)) {
      form.setValue(name, rates[name]);
      next[name] = rates[name];
    }
  prefilled = next;
};

export const entityExtras: { [N in EntityName]?: ResourceExtras<N> } = {
  units: {
    onFieldChange: { monthly_rate: prefillRates },
  },
  properties: {
    // its owners and management agreement (issue 27), its units with their status and current
    // tenant, and links to its payments and arrears
    detailsSection: (record) => (
      <>
        <PropertyOwnership propertyId={record.id} />
        <PropertyUnits propertyId={record.id} />
      </>
    ),
  },
  payments: {
    // receipts never change (issue 25): a completed payment's receipt fields are read-only, it is voided
    lockedFields: lockedPaymentFields,
    detailsSection: (record) => <VoidPaymentSection payment={record} />,
    filterField: 'status',
    rowActions: [
      {
        label: 'entityExtras.printReceipt',
        icon: <ReceiptLong fontSize="small" />,
        to: (row) => `/payments/${row.id}/receipt`,
      },
    ],
    onFieldChange: {
      // 01-core §5: choosing a tenant fills the tenant's unit: that of the lease the payment goes to
      // (the server's choice, as a save makes it), with the amount due and its period (issue 26); the
      // server then picks the matching occupancy (occupancy_id null).
      tenant_id: async (_value, form) => {
        form.setValue('occupancy_id', null);
        await suggestPayment(form, true);
      },
      unit_id: async (_value, form) => {
        form.setValue('occupancy_id', null);
        await suggestPayment(form, false);
      },
    },
    // what the amount suggested is: the balance due today, or the next rent (issue 26)
    formNote: (values) => <PaymentSuggestionNote values={values} />,
  },
  employees: {
    cells: { expected_pay_day: payDay },
    details: { expected_pay_day: payDay },
  },
  commission_wages: {
    cells: { employee_name: employeeName },
    details: { employee_id: employeeName },
  },
  occupancy: {
    // a start date in the past charges back rent: say how much before saving (issue 25)
    formNote: (values) => <BackRentNote values={values} />,
    // the unit picker says which units are vacant; the unit (or the cycle) chosen fills the rate (issue 26)
    pickers: { unit_id: (props) => <UnitPicker {...props} /> },
    onFieldChange: {
      unit_id: (_value, form) => prefillRate(form),
      rent_cycle: (_value, form) => prefillRate(form),
    },
  },
  owners: {
    // a month's statement as a PDF, and the owner's portal account (issue 27): its state, the
    // invitation, access on or off
    detailsSection: (record) => (
      <>
        <OwnerStatement ownerId={record.id} />
        <PortalAccount entity="owners" record={record} />
      </>
    ),
  },
  tenants: {
    // the tenant's portal account: its state, the invitation, access on or off (issue 19)
    // the tenant's hub (issue 26): leases with balances and statements, payments, messages, then the portal
    detailsSection: (record) => (
      <>
        <TenantHub tenantId={record.id} />
        <TenantPortal tenant={record} />
      </>
    ),
    // another tenant with the phone typed: a warning under it, saving allowed (issue 26)
    fieldNotes: { phone: (values, id) => <SharedPhoneNote values={values} tenantId={id} /> },
  },
  maintenance_requests: {
    // a request a tenant reported in the portal: marked, with its photos in the details
    cells: {
      description: (row) => (
        <>
          {row.submitted_by_tenant ? <SubmittedByTenant /> : null}
          {row.description}
        </>
      ),
    },
    details: {
      submitted_by_tenant: (row) => (row.submitted_by_tenant ? i18n._('shell.yes') : i18n._('shell.no')),
    },
    detailsSection: (record) => <RequestPhotos requestId={record.id} />,
  },
  countries: {
    details: {
      phone_code: (row) => `+${row.phone_code}`,
    },
  },
};
