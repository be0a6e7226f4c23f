import { defineEntity, editorMaintained, plainColumns, sortableColumns } from '../entity.ts';
import { operators } from '../navigation.ts';
import { priority, requestStatus } from '../enums.ts';
import {
  field,
  isoDate,
  joinedPersonNames,
  nonNegativeNumber,
  oneOf,
  refId,
  tenantRef,
  text,
  unitRef,
  vendorRef,
} from '../fields.ts';
import { todayIso } from '../dates.ts';
import { adminPages, shown } from './ui-texts.ts';

/** The chip colour of each status in the list. */
const statusChips = { open: 'warning', in_progress: 'info', closed: 'success' } as const;

export const maintenanceRequests = defineEntity({
  name: 'maintenance_requests',
  page: { drawer: { section: 'Operations', order: 40, label: 'Maintenance', audience: operators } },
  fields: [
    unitRef({ required: true }),
    tenantRef({ required: true }),
    field.date('request_date', 'Request Date', { required: true, defaultValue: 'today' }),
    field.textarea('description', 'Description', { required: true, fullWidth: true }),
    field.enum('priority', 'Priority', priority, { required: true, defaultValue: 'low' }),
    field.status('status', 'Status', requestStatus, statusChips, 'open'),
    field.money('estimated_cost', 'Estimated Cost', { required: true }),
    // required of staff; none on a request a tenant reported in the portal until staff assign one
    vendorRef({ required: true, nullable: true }),
    field.readOnly('submitted_by_tenant', 'Submitted by tenant', 'boolean'),
    field.copied('unit_name', 'Unit', 'unit_id'),
    ...joinedPersonNames('tenant', 'Tenant'),
    field.copied('vendor_name', 'Vendor', 'vendor_id'),
  ],
  shape: () => ({
    unit_id: refId(),
    tenant_id: refId(),
    request_date: isoDate().default(() => todayIso()),
    description: text(5000, 'Maximum 5000 characters.'),
    priority: oneOf(priority.values).default('low'),
    status: oneOf(requestStatus.values).default('open'),
    // 02-admin §5: a positive-number rule exists but is not applied; a cost of nothing is allowed.
    estimated_cost: nonNegativeNumber(),
    vendor_id: refId(),
  }),
  scope: 'company',
  byProperty: true,
  access: editorMaintained,
  columns: [
    ...sortableColumns('unit_name', 'tenant_name', 'request_date'),
    ...plainColumns('description'),
    ...sortableColumns('priority', 'status', 'estimated_cost', 'vendor_name'),
  ],
  search: ['description', 'status', 'unit_name'],
  ...adminPages('Maintenance request', 'maintenance requests', {
    searchLabel: 'Search Requests (Description, Status, Unit)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete this maintenance request: ${shown(row.description)} (${shown(row.unit_name)})?`,
    messages: { detailsFailed: 'Failed to load request details.' },
  }),
});
