import { LedgerSection } from '../features/arrears/ledger-section.tsx';
import { createEntityPage } from '../features/entities/entity-page.tsx';

/**
 * The entity list pages, with the Ledger of the Arrears feature in a lease's details: the lease's rent
 * charges, payments and balance, and its tenant statement (features do not import each other).
 */
export const entityPage = createEntityPage({
  occupancy: { detailsSection: (record) => <LedgerSection occupancyId={record.id} /> },
});
