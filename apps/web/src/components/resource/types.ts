import type { ReactNode } from 'react';
import type { ResourceRow } from '../../lib/resources.ts';

/** What an extension may do with the open form. */
export type FormApi = {
  getValue: (name: string) => unknown;
  setValue: (name: string, value: unknown) => void;
  /** Sets a reference field, with the label its picker shows (else the picker looks it up). */
  setReference: (name: string, id: number | null, label?: string) => void;
};

/** One more per-row action: an icon link to a page. */
export type RowLinkAction = {
  label: string;
  icon: ReactNode;
  to: (row: ResourceRow) => string;
};

/**
 * The declared extension points of the generic entity pages. Everything else (columns, fields,
 * texts, permissions) comes from the entity definition.
 */
export type ResourceExtras = {
  /** Per-row actions after View/Edit/Delete (payments: Print receipt). */
  rowActions?: readonly RowLinkAction[];
  /** Reacts to a user's change of a form field (payments: a tenant fills the unit). */
  onFieldChange?: Readonly<Record<string, (value: unknown, form: FormApi) => void | Promise<void>>>;
  /** How a list cell shows a column (employee names, pay-day suffixes). */
  cells?: Readonly<Record<string, (row: ResourceRow) => ReactNode>>;
  /** How the details dialog shows a field. */
  details?: Readonly<Record<string, (record: ResourceRow) => ReactNode>>;
  /** A section of its own under the fields of the details dialog (occupancy: the ledger). */
  detailsSection?: (record: ResourceRow) => ReactNode;
};
