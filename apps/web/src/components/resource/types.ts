import type { ReactNode } from 'react';
import type { ListRowOf, RecordOf } from '../../lib/resources.ts';
import type { ReferencePickerProps } from './reference-picker.tsx';
import type { MessageKey } from '@kodi/domain/i18n/web';

/**
 * What is called with a row of entity `N`. Written as a method, so that the extras of one entity
 * (typed with its own rows) are the generic page's `ResourceExtras`: the page calls an entity's
 * extras only with that entity's rows.
 */
type WithRow<Row, Out> = { call(row: Row): Out }['call'];

/** What a control an extension draws for a form field gets (`ResourceExtras.formControls`). */
export type FormControlProps = {
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  inputRef: (el: HTMLInputElement | null) => void;
  /** The field's error (the form's rules or the server's). */
  error?: string | undefined;
  /** A new record (its form may choose a default). */
  creating: boolean;
};

/** What an extension may do with the open form. */
export type FormApi = {
  getValue: (name: string) => unknown;
  setValue: (name: string, value: unknown) => void;
  /** Sets a reference field, with the label its picker shows (else the picker looks it up). */
  setReference: (name: string, id: number | null, label?: string) => void;
  /**
   * Whether the field's value is the user's: typed or chosen in this form, or a stored record's (an
   * edit). A suggestion fills only the fields that are not (the payment form's amount due: issue 26).
   */
  typed: (name: string) => boolean;
};

/** One more per-row action: an icon link to a page. */
export type RowLinkAction<N extends string = string> = {
  /** its text's key (issue 30: shown in the page's language) */
  label: MessageKey;
  icon: ReactNode;
  to: WithRow<ListRowOf<N>, string>;
};

/**
 * The declared extension points of the generic entity pages, for entity `N` (its rows typed from its
 * definition). Everything else (columns, fields, texts, permissions) comes from the entity definition.
 */
export type ResourceExtras<N extends string = string> = {
  /** Per-row actions after View/Edit/Delete (payments: Print receipt). */
  rowActions?: readonly RowLinkAction<N>[];
  /** Reacts to a user's change of a form field (payments: a tenant fills the unit). */
  onFieldChange?: Readonly<Record<string, (value: unknown, form: FormApi) => void | Promise<void>>>;
  /** How a list cell shows a column (employee names, pay-day suffixes). */
  cells?: Readonly<Record<string, WithRow<ListRowOf<N>, ReactNode>>>;
  /** How the details dialog shows a field. */
  details?: Readonly<Record<string, WithRow<RecordOf<N>, ReactNode>>>;
  /**
   * A note under one field of the add/edit form, from the values as typed and the record changed (null
   * for a new one): tenants' phone, shared with another tenant (issue 26).
   */
  fieldNotes?: Readonly<
    Record<string, (values: Readonly<Record<string, unknown>>, id: number | null) => ReactNode>
  >;
  /** A note under the fields of the add/edit form, from the values as typed (occupancy: the back rent). */
  formNote?: (values: Readonly<Record<string, unknown>>) => ReactNode;
  /**
   * Fields of a stored record its form shows read-only, with a note saying why (a completed
   * payment's receipt fields: issue 25); undefined: none.
   */
  lockedFields?: WithRow<RecordOf<N>, { names: readonly string[]; note: string } | undefined>;
  /** An enum field the list can be filtered by, with 'All' first (payments: status, Void included). */
  filterField?: string;
  /**
   * Fields the definition keeps off the generic form (`form: false`) that a feature draws itself, after
   * the others (expenses: the account paid from, a picker of the books' asset accounts).
   */
  formControls?: Readonly<Record<string, { label: string; render: (props: FormControlProps) => ReactNode }>>;
  /**
   * A reference field's own picker instead of the generic one (a lease's unit: which units are
   * vacant, and their rates), given what the generic one gets.
   */
  pickers?: Readonly<Record<string, (props: ReferencePickerProps) => ReactNode>>;
  /** A section of its own under the fields of the details dialog (occupancy: the ledger). */
  detailsSection?: WithRow<RecordOf<N>, ReactNode>;
};
