import { LedgerSection } from '../features/arrears/ledger-section.tsx';
import { RequestPaymentSection } from '../features/payment-requests/request-payment-section.tsx';
import { LeaseChargesSection } from '../features/lease-charges/lease-section.tsx';
import { createEntityPage } from '../features/entities/entity-page.tsx';
import { expenseBooksExtras } from '../features/books/paid-from-account.tsx';

/**
 * The entity list pages, with a lease's money in its details (features do not import each other):
 * the Ledger of the Arrears feature (rent, fees, charges, payments and balance, and the tenant
 * statement), then its charges and fees, rent changes and deposit (the Lease Charges feature); an
 * expense's paying account from the books (the Books feature).
 */
export const entityPage = createEntityPage({
  occupancy: {
    detailsSection: (record) => (
      <>
        <LedgerSection occupancyId={record.id} />
        <RequestPaymentSection occupancyId={record.id} />
        <LeaseChargesSection lease={record} />
      </>
    ),
  },
  expenses: expenseBooksExtras,
});
