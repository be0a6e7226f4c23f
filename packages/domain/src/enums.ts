/** Every status-like value of the spec (01-core §4, 02-admin §4 and §9), with its label. */
const options = <const T extends readonly string[]>(values: T, labels: Record<T[number], string>) => ({
  values,
  labels,
});

export const unitStatus = options(['available', 'occupied', 'maintenance'] as const, {
  available: 'Available',
  occupied: 'Occupied',
  maintenance: 'Maintenance',
});
export const unitType = options(['apartment', 'house', 'studio', 'commercial'] as const, {
  apartment: 'Apartment',
  house: 'House',
  studio: 'Studio',
  commercial: 'Commercial',
});
export const tenantStatus = options(['active', 'inactive'] as const, {
  active: 'Active',
  inactive: 'Inactive',
});
export const sex = options(['M', 'F', 'O'] as const, { M: 'Male', F: 'Female', O: 'Other' });
export const occupancyStatus = options(['active', 'terminated', 'renewed'] as const, {
  active: 'Active',
  terminated: 'Terminated',
  renewed: 'Renewed',
});
export const depositStatus = options(['held', 'returned', 'forfeited'] as const, {
  held: 'Held',
  returned: 'Returned',
  forfeited: 'Forfeited',
});
export const rentCycle = options(['monthly', 'weekly', 'daily'] as const, {
  monthly: 'Monthly',
  weekly: 'Weekly',
  daily: 'Daily',
});
export const paymentStatus = options(['pending', 'completed', 'failed'] as const, {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
});
export const paymentMethod = options(
  ['cash', 'check', 'banktransfer', 'creditcard', 'mobilemoney'] as const,
  {
    cash: 'Cash',
    check: 'Check',
    banktransfer: 'Bank transfer',
    creditcard: 'Credit card',
    mobilemoney: 'Mobile money',
  },
);
export const requestStatus = options(['open', 'in_progress', 'closed'] as const, {
  open: 'Open',
  in_progress: 'In Progress',
  closed: 'Closed',
});
export const priority = options(['low', 'medium', 'high'] as const, {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
});
export const expenseCategory = options(
  ['plumbing', 'fixes', 'fittings', 'electrical', 'cleaning', 'repairs', 'condo_fees', 'other'] as const,
  {
    plumbing: 'Plumbing',
    fixes: 'Fixes',
    fittings: 'Fittings',
    electrical: 'Electrical',
    cleaning: 'Cleaning',
    repairs: 'Repairs',
    condo_fees: 'Condominium fees',
    other: 'Other',
  },
);
export const employeeStatus = options(['active', 'inactive'] as const, {
  active: 'Active',
  inactive: 'Inactive',
});
export const wageCategory = options(['salary', 'commission'] as const, {
  salary: 'Salary',
  commission: 'Commission',
});
export const wageStatus = options(['paid', 'pending', 'voided'] as const, {
  paid: 'Paid',
  pending: 'Pending',
  voided: 'Voided',
});
