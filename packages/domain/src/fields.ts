import { z } from 'zod';
import { ISO_DATE, RECEIVED_FROM, isReceivedWhen, isValidIsoDate } from './dates.ts';
import type { Field, FieldKind } from './entity.ts';
import { messages } from './validation.ts';

/**
 * The building blocks of entity definitions: zod rules with the spec's messages (every entity schema is
 * made of these), and the field descriptions forms and lists are drawn from (`field`, at the end).
 */

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const text = (max = 255, maxMessage = `Maximum ${max} characters.`) =>
  z.preprocess(
    (v) => blankToUndefined(trimmed(v)),
    z.string({ error: messages.required }).max(max, maxMessage),
  );

export const optionalText = (max = 255, maxMessage = `Maximum ${max} characters.`) =>
  z.preprocess((v) => blankToNull(trimmed(v)), z.string().max(max, maxMessage).nullable()).optional();

const toNumber = (v: unknown) => {
  if (typeof v === 'string') {
    const s = v.trim().replace(/,/g, '');
    return s === '' ? undefined : Number(s);
  }
  return v === null ? undefined : v;
};

const finite = z.number({ error: messages.required }).refine(Number.isFinite, 'Must be a number.');

/**
 * A required amount greater than 0 (rates, amounts), stored to the cent: one that rounds to 0.00
 * (0.001) is not greater than 0.
 */
export const positiveNumber = (message = 'Must be a positive number > 0.') =>
  z.preprocess(
    toNumber,
    finite.pipe(
      z
        .number()
        .gt(0, message)
        .max(999_999_999_999.99, 'The number is too large.')
        .refine((v) => Math.round(v * 100) > 0, message),
    ),
  );

/** An optional number >= 0; blank is null. */
export const optionalNonNegative = (
  message = 'Must be a positive number >= 0.',
  max = 999_999_999_999,
  maxMessage = 'The number is too large.',
) =>
  z
    .preprocess(
      (v) => (v === '' || v === null || v === undefined ? null : toNumber(v)),
      z.number().refine(Number.isFinite, 'Must be a number.').min(0, message).max(max, maxMessage).nullable(),
    )
    .optional();

/** An optional amount that may be negative (an opening balance: a credit), to the cent; blank is null. */
export const optionalSignedAmount = () =>
  z
    .preprocess(
      (v) => (v === '' || v === null || v === undefined ? null : toNumber(v)),
      z
        .number()
        .refine(Number.isFinite, 'Must be a number.')
        .min(-999_999_999_999.99, 'The number is too large.')
        .max(999_999_999_999.99, 'The number is too large.')
        .refine((n) => Number(n.toFixed(2)) === n, 'At most 2 decimals.')
        .nullable(),
    )
    .optional();

/** A required number >= 0 (a cost that may be nothing). */
export const nonNegativeNumber = (message = 'Must be a positive number >= 0.') =>
  z.preprocess(
    toNumber,
    finite.pipe(z.number().min(0, message).max(999_999_999_999.99, 'The number is too large.')),
  );

/** A meter's reading (issue 28): a number ≥ 0 with at most 3 decimals, as NUMERIC(14,3) keeps it. */
export const meterValue = () =>
  z.preprocess(
    toNumber,
    finite.pipe(
      z
        .number()
        .min(0, 'Must be a positive number >= 0.')
        .max(99_999_999_999.999, 'The number is too large.')
        .refine((n) => Number(n.toFixed(3)) === n, 'At most 3 decimals.'),
    ),
  );

/** A required whole number from `min` to `max`, with one message for every way it can be wrong. */
export const integerBetween = (min: number, max: number, message: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? messages.required : message) })
      .int(message)
      .min(min, message)
      .max(max, message),
  );

export const optionalInteger = (message = 'Must be a positive number >= 0.', max = 100_000) =>
  z
    .preprocess(
      (v) => (v === '' || v === null || v === undefined ? null : toNumber(v)),
      z
        .number()
        .int('Must be a whole number.')
        .min(0, message)
        .max(max, 'The number is too large.')
        .nullable(),
    )
    .optional();

/** A required YYYY-MM-DD date. */
export const isoDate = () =>
  z.preprocess(
    (v) => blankToUndefined(typeof v === 'string' ? v.trim().slice(0, 10) : v),
    z.string({ error: messages.required }).refine(isValidIsoDate, 'Invalid date format (YYYY-MM-DD).'),
  );

export const optionalIsoDate = () =>
  z
    .preprocess(
      (v) => blankToNull(typeof v === 'string' ? v.trim().slice(0, 10) : v),
      z.string().refine(isValidIsoDate, 'Invalid date format (YYYY-MM-DD).').nullable(),
    )
    .optional();

/** The largest amount NUMERIC(14,2) holds. */
export const MAX_MONEY = 999_999_999_999.99;

/** A JSON number with at most 2 decimals: its double is the one nearest to a value in cents. */
const inCents = (n: number) => Number.isFinite(n) && Number(n.toFixed(2)) === n;

/**
 * An amount another system sends (the payment webhook): a JSON number, or a decimal text ('1500',
 * '1500.50'), never `true`, `[1]` or '1e3' (which a coercing rule takes for 1, 1 and 1000); more than 0,
 * at most 2 decimals, at most what NUMERIC(14,2) holds. The value is a number.
 */
export const exactAmount = () =>
  z
    .union([z.number(), z.string().regex(/^\d{1,12}(\.\d{1,2})?$/)], {
      error: 'The amount must be a number, or a decimal text such as "1500.50".',
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .positive('The amount must be more than 0.')
        .max(MAX_MONEY, 'The amount is too large.')
        .refine(inCents, 'At most 2 decimals.'),
    );

const dateTime = z.iso.datetime({ offset: true, local: true });

/**
 * When money was received, as another system sends it (the payment webhook): a date (YYYY-MM-DD) or
 * a date and time (ISO 8601, `2026-02-10T08:30:00Z`, an offset or none), from 2000 on and not more than a
 * day ahead (`isReceivedWhen`). The value is the text sent.
 */
export const receivedAt = () =>
  z
    .string({ error: 'Give a date (YYYY-MM-DD) or a date and time (ISO 8601).' })
    .max(40, 'Give a date (YYYY-MM-DD) or a date and time (ISO 8601).')
    .refine((s) => (ISO_DATE.test(s) ? isValidIsoDate(s) : dateTime.safeParse(s).success), {
      error: 'Give a date (YYYY-MM-DD) or a date and time (ISO 8601, e.g. 2026-02-10T08:30:00Z).',
      abort: true,
    })
    .refine(
      (s) => isReceivedWhen(s),
      `The date must be from ${RECEIVED_FROM} on and not more than a day ahead.`,
    );

/** One of an option list; the value is normalised (lowercased unless `keepCase`). */
export const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  opts: { keepCase?: 'upper' | 'exact' } = {},
) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string' || v.trim() === '') return blankToUndefined(v);
      const s = v.trim();
      return opts.keepCase === 'upper' ? s.toUpperCase() : opts.keepCase === 'exact' ? s : s.toLowerCase();
    },
    z.enum(values, {
      error: (issue) => (issue.input === undefined ? messages.required : 'Choose one of the listed values.'),
    }),
  );

export const optionalOneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null),
      z.enum(values, { error: 'Choose one of the listed values.' }).nullable(),
    )
    .optional();

export const bool = (def: boolean) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).default(def);

/** A reference to another record by id. */
export const refId = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number({ error: messages.required }).int().positive().max(2147483647),
  );

export const optionalRefId = () =>
  z
    .preprocess(
      (v) => (v === '' || v === null || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
      z.number().int().positive().max(2147483647).nullable(),
    )
    .optional();

/** A rule across fields for `check`: the end date, when given, is not before the start date. */
export const endNotBeforeStart =
  (start: string, end: string) =>
  (v: Record<string, unknown>): { field: string; message: string } | undefined => {
    const from = v[start];
    const to = v[end];
    return typeof from === 'string' && typeof to === 'string' && to < from
      ? { field: end, message: 'End date must be after start date.' }
      : undefined;
  };

/** A code of exactly three uppercase letters (countries, currencies). */
export const LETTER_CODE = /^[A-Z]{3}$/;
export const letterCode = (message: string) => text(3, message).refine((v) => LETTER_CODE.test(v), message);

export const optionalEmail = () =>
  z.preprocess((v) => blankToNull(trimmed(v)), z.email(messages.email).max(255).nullable()).optional();

/** The record version a PUT must send back (optimistic locking). */
export const version = z.preprocess(toNumber, z.number({ error: messages.required }).int().min(1));

/** Fields the API answers that a client may send back: accepted and dropped. */
export const ignored = z.unknown().optional();

/** What a field description may say besides its name, label and kind. */
export type FieldExtras = Omit<Field, 'name' | 'label' | 'kind' | 'options' | 'ref'>;

/**
 * A field description whose name, kind and extras keep their literal types, so that the record an
 * entity answers can be typed from its definition (`EntityRecord`, record-schema.ts).
 */
export type TypedField<N extends string, K extends FieldKind, E = object> = Field & { name: N; kind: K } & E;

const described =
  <K extends FieldKind>(kind: K) =>
  <N extends string, const E extends FieldExtras = object>(
    name: N,
    label: string,
    extras?: E,
  ): TypedField<N, K, E> =>
    ({ name, label, kind, ...extras }) as TypedField<N, K, E>;

/** Field descriptions (entity.ts `Field`), one call a field: `field.money('rate', 'Rate', { required: true })`. */
export const field = {
  text: described('text'),
  textarea: described('textarea'),
  email: described('email'),
  phone: described('phone'),
  number: described('number'),
  integer: described('integer'),
  money: described('money'),
  percent: described('percent'),
  date: described('date'),
  boolean: described('boolean'),
  image: described('image'),
  file: described('file'),
  enum: <N extends string, const V extends readonly string[], const E extends FieldExtras = object>(
    name: N,
    label: string,
    options: { values: V; labels: Record<V[number], string> },
    extras?: E,
  ): TypedField<N, 'enum', E & { options: { values: V } }> =>
    ({ name, label, kind: 'enum', options, ...extras }) as TypedField<
      N,
      'enum',
      E & { options: { values: V } }
    >,
  /** A record of `entity` picked by id, named by its `labelFields`. */
  reference: <N extends string, const E extends FieldExtras = object>(
    name: N,
    label: string,
    entity: string,
    labelFields: readonly string[],
    extras?: E,
    detailFields?: readonly string[],
  ): TypedField<N, 'reference', E> =>
    ({
      name,
      label,
      kind: 'reference',
      ref: {
        entity,
        labelFields: [...labelFields],
        ...(detailFields ? { detailFields: [...detailFields] } : {}),
      },
      ...extras,
    }) as TypedField<N, 'reference', E>,
  /** A required status, shown in lists as a chip of its colour. */
  status: <N extends string, const V extends readonly string[]>(
    name: N,
    label: string,
    options: { values: V; labels: Record<V[number], string> },
    chipColors: NonNullable<Field['chipColors']>,
    defaultValue?: V[number],
  ): TypedField<N, 'enum', { required: true; options: { values: V } }> => ({
    name,
    label,
    kind: 'enum',
    options,
    required: true,
    ...(defaultValue === undefined ? {} : { defaultValue }),
    chipColors,
  }),
  /** Answered by the API (joined names, serials), never written by the client. */
  readOnly: <N extends string, K extends FieldKind = 'text'>(
    name: N,
    label: string,
    kind?: K,
  ): TypedField<N, K, { readOnly: true }> =>
    ({ name, label, kind: kind ?? 'text', readOnly: true }) as TypedField<N, K, { readOnly: true }>,
  /**
   * The name of the record the reference field `via` picks (its label fields), copied on the row and
   * kept there by the database (`Field.copyOf`): lists sort and search by it.
   */
  copied: <N extends string, V extends string>(
    name: N,
    label: string,
    via: V,
  ): TypedField<N, 'text', { readOnly: true; copyOf: V }> =>
    ({ name, label, kind: 'text', readOnly: true, copyOf: via }) as TypedField<
      N,
      'text',
      { readOnly: true; copyOf: V }
    >,
};

const personName = ['first_name', 'last_name'];
const referenceTo =
  <N extends string>(
    name: N,
    label: string,
    entity: string,
    labelFields: readonly string[],
    detailFields?: readonly string[],
  ) =>
  <const E extends FieldExtras = object>(extras?: E) =>
    field.reference(name, label, entity, labelFields, extras, detailFields);

/**
 * The references records make to one another, each the same wherever it is made. A tenant is offered
 * with the unit it rents ('Jane Doe · A3, Kololo Heights', issue 26).
 */
export const tenantRef = referenceTo('tenant_id', 'Tenant', 'tenants', personName, ['current_unit']);
export const unitRef = referenceTo('unit_id', 'Unit', 'units', ['name']);
export const propertyRef = referenceTo('property_id', 'Property', 'properties', ['name']);
export const vendorRef = referenceTo('vendor_id', 'Vendor', 'vendors', ['name']);
export const employeeRef = referenceTo('employee_id', 'Employee', 'employees', personName);

/**
 * The key a record has in the system it was imported from (unique per company and entity): an import
 * whose row names an existing `external_ref` updates that record instead of creating another.
 */
export const externalRef = {
  field: () => field.text('external_ref', 'External Ref', { helperText: 'Its key in another system' }),
  rule: () => optionalText(100, 'Maximum 100 characters.'),
};

/** A person's first and last name, both required (tenants, employees). */
export const nameFields = () =>
  [
    field.text('first_name', 'First Name', { required: true }),
    field.text('last_name', 'Last Name', { required: true }),
  ] as const;

/**
 * The read-only names of a referenced person: `tenant_first_name` and `tenant_last_name` joined (the
 * entity's server part), `tenant_name` copied along `tenant_id`.
 */
export const joinedPersonNames = <P extends string>(prefix: P, label: string) =>
  [
    field.readOnly(`${prefix}_first_name` as const, `${label} First Name`),
    field.readOnly(`${prefix}_last_name` as const, `${label} Last Name`),
    field.copied(`${prefix}_name` as const, label, `${prefix}_id` as const),
  ] as const;

/**
 * A record of a tenant in a unit (occupancy, payments): its two required references, their ids as the API
 * takes them, and the names the API joins from them.
 */
export const tenantInUnit = {
  refs: () => [tenantRef({ required: true }), unitRef({ required: true })] as const,
  ids: () => ({ tenant_id: refId(), unit_id: refId() }),
  names: (unitLabel = 'Unit') =>
    [...joinedPersonNames('tenant', 'Tenant'), field.copied('unit_name', unitLabel, 'unit_id')] as const,
};
