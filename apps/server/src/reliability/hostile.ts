/** fast-check arbitraries for hostile input: values, bodies, query strings and headers. */
import fc from 'fast-check';
import type { EntityDefinition } from '@kodi/domain';
import { headerRow, repeated, workbookParts, type Part } from '../test/xlsx-files.ts';
import type { Body } from './world.ts';

/**
 * The runs of each property: `base` scaled by RELIABILITY_RUNS (a longer local run). CI replays a
 * fixed seed (a red run is reproduced with FC_SEED); locally each run explores new cases.
 */
export const hostileRuns = <K extends string>(
  base: Record<K, number>,
  ciSeed: number,
): { runs: Record<K, number>; scale: number } => {
  if (process.env.CI === 'true' || process.env.FC_SEED) {
    fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? ciSeed) });
  }
  const scale = Number(process.env.RELIABILITY_RUNS ?? 1);
  const runs = Object.fromEntries(
    Object.entries<number>(base).map(([k, n]) => [k, Math.round(n * scale)]),
  ) as Record<K, number>;
  return { runs, scale };
};

export const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

/** Bytes that are not png, jpeg or webp, whatever their name or data-URL prefix says. */
export const NOT_IMAGES = {
  gif: b64(Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex')),
  text: b64('this is a text file named photo.png'),
  svg: b64('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  html: b64('<!doctype html><script>alert(1)</script>'),
  /** the first four bytes of the png signature only */
  halfPng: b64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x41, 0x41, 0x41, 0x41])),
  /** "RIFF" without "WEBP" */
  riff: b64(Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt ', 'latin1')),
  pdf: b64('%PDF-1.4\n%%EOF'),
};

/** Real images (only their signatures matter to the server). */
export const IMAGES = {
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  jpeg: b64(
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
  ),
  webp: b64(Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 ')])),
};

const STRINGS = [
  '',
  ' ',
  '\t\n',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '-1',
  '0',
  '-0',
  '0x1F',
  '0b11',
  '1_000',
  '1,000,000.5',
  ' 42 ',
  '9'.repeat(40),
  '12345678901234567890',
  '999999999999.995',
  '2026-02-30',
  '2026-02-29',
  '0000-01-01',
  '9999-12-31',
  '275760-09-13',
  '+275760-09-13',
  '-271821-04-20',
  '+275760-09-13T00:00:00Z',
  '5874897-12-31',
  '4713-01-01 BC',
  '1999-12-31',
  '2026-13-01',
  '2026-1-1',
  '2026-01-01T25:00:00Z',
  '1970-01-01',
  '2999-01-01',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "'; DROP TABLE units; --",
  "' OR '1'='1",
  '=HYPERLINK("http://x","y")',
  '+cmd|" /C calc"!A0',
  '@SUM(1)',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e',
  '\ufeff',
  '𝕂𝕠𝕕𝕚',
  'Ω≈ç√∫',
  'ǅ',
  'İ',
  'ß',
  'e\u0301',
  '👨‍👩‍👧‍👦',
  '%s%n%x',
  '%00',
  '../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'PAY-000001',
  'RCT-000001',
  'admin',
  '+256',
  '+2567721234567',
  'UGA',
  'uga',
  'UGX',
  'x@y',
  'a@b.co',
  ...Object.values(NOT_IMAGES).flatMap((v) => [v, `data:image/png;base64,${v}`]),
  ...Object.values(IMAGES).map((v) => `data:image/png;base64,${v}`),
  'data:image/png;base64,',
  'data:image/png;base64,%%%',
  'data:application/pdf;base64,JVBERi0xLjQ=',
];

/**
 * The values the payment webhook once took (issue 23): dates JavaScript can write but YYYY-MM-DD cannot
 * (stored, after which `GET /statement-lines` answered 500 on every page), amounts a coercing rule
 * read as 1, 1 and 1000, a currency in lower case, and `paid_at` "1" (read as the year 2001); then what
 * lies next to them: the window's edges, texts that look like numbers, too many decimals, too large.
 */
export const WEBHOOK_VALUES = {
  paid_at: [
    '+275760-09-13',
    '-271821-04-20',
    '+275760-09-13T00:00:00Z',
    '-271821-04-20T00:00:00Z',
    '275760-09-13',
    '1',
    '0',
    '2026',
    'Feb 10 2026',
    '10/02/2026',
    '2026-02-30',
    '2026-02-10 08:30:00',
    '2026-02-10T08:30:00+0300',
    '1999-12-31T23:59:59Z',
    '2000-01-01',
    '1970-01-01T00:00:00Z',
    '9999-12-31',
    '0001-01-01',
    '2999-01-01T00:00:00Z',
  ] as unknown[],
  amount: [
    true,
    false,
    [1],
    ['1'],
    { value: 1 },
    '1e3',
    '1E3',
    '0x10',
    '1,000',
    ' 1000',
    '1000 ',
    '+1',
    '-1',
    '.5',
    '1.',
    '1.005',
    '0.00',
    0.001,
    0.1 + 0.2,
    1e13,
    1e308,
    '999999999999.99',
    '1000000000000',
  ] as unknown[],
  currency: ['ugx', 'Ugx', ' UGX', 'UGX ', 'UGXX', 'UG', 'USD', '', 'ÜGX', 'UGX\u0000'] as unknown[],
};

const NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.001,
  0.005,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  0.1 + 0.2,
  1e-7,
  999_999_999_999.99,
  999_999_999_999.995,
  1_000_000_000_000,
  31,
  32,
  100.001,
];

/** Nested arrays and objects `depth` deep. */
export const deepNest = (depth: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

const HUGE = ['x'.repeat(300_000), 'é'.repeat(70_000), '𝕂'.repeat(40_000), '\u0000'.repeat(10_000)];

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300, minLength: 250 }) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 400 }).map(deepNest) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
);

/** Keys a body should never be able to use: prototype pollution, read-only and unknown fields. */
const EXTRA_KEYS = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'company_id',
    'version',
    'created_at',
    'payment_serial',
    'receipt_number',
    'tenant_name',
    'has_image_1',
    'password_hash',
    'roles',
    'admin',
    'is_admin',
    'lease_doc_type',
  ),
  fc.string({ maxLength: 12 }),
);

/** An object with own properties only, whatever their names (`__proto__` included). */
const own = (entries: [string, unknown][]): Body => {
  const o: Body = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
};

const PROTO_PREFIXES = [
  '',
  '',
  '',
  '"__proto__":{"polluted":"yes","admin":true},',
  '"constructor":{"prototype":{"polluted":"yes"}},',
  '"__proto__":null,',
];

/**
 * A raw JSON body: mostly a valid body of the entity with some fields replaced, removed or added, and
 * sometimes anything at all; prototype-pollution keys go into the text itself.
 */
export const hostileBody = (keys: readonly string[], base: () => Body): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({
          replace: fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { maxLength: 3 }),
          remove: fc.oneof(
            { weight: 3, arbitrary: fc.constant<string[]>([]) },
            { weight: 1, arbitrary: fc.subarray([...keys], { maxLength: Math.min(3, keys.length) }) },
          ),
          extra: fc.oneof(
            { weight: 3, arbitrary: fc.constant<[string, unknown][]>([]) },
            { weight: 1, arbitrary: fc.array(fc.tuple(EXTRA_KEYS, hostileValue), { maxLength: 2 }) },
          ),
          prefix: fc.constantFrom(...PROTO_PREFIXES),
        })
        .map(({ replace, remove, extra, prefix }) => {
          const entries = Object.entries(base()).filter(([k]) => !remove.includes(k));
          const body = own(entries);
          for (const [k, v] of [...replace, ...extra]) {
            Object.defineProperty(body, k, {
              value: v,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          const json = JSON.stringify(body);
          return prefix && json.startsWith('{') ? `{${prefix}${json.slice(1)}`.replace(/,}$/, '}') : json;
        }),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.object({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        'nul',
        '[',
        '{"a":1,}',
        "{'a':1}",
        '{"a":1}{"b":2}',
        '\u0000',
        '{"a":"\\ud800"}',
        '{"a":1e999}',
        '{"a":NaN}',
        '{"__proto__":{"polluted":"yes"}}',
        '{"constructor":{"prototype":{"polluted":"yes"}}}',
        '['.repeat(3000) + ']'.repeat(3000),
        '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
      ),
    },
  );

/** A query-string value: a number, a known word, or anything. */
const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 600 }).map(String),
  fc.constantFrom(
    '1',
    '25',
    '500',
    '501',
    '0',
    '-1',
    '1.5',
    '1e3',
    'NaN',
    'Infinity',
    '',
    ' ',
    '2147483648',
    '99999999999',
  ),
  hostileString,
);

const filterItem = (def: EntityDefinition) =>
  fc.record({
    field: fc.oneof(
      fc.constant('company_id'),
      fc.constantFrom(...def.fields.map((f) => f.name)),
      fc.constantFrom('password_hash', 'id', 't.company_id', 'company_id OR 1=1', '__proto__', ''),
      hostileString,
    ),
    value: fc.oneof(
      hostileValue,
      fc.integer({ min: -2, max: 50 }),
      fc.constantFrom('active', 'completed', '1'),
    ),
  });

export const hostileFilter = (def: EntityDefinition): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: filterItem(def).map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: fc.array(filterItem(def), { maxLength: 3 }).map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null') },
  );

export const hostileSort = (def: EntityDefinition): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...def.sort, ...def.sort.map((s) => `-${s}`)),
    fc.constantFrom(...def.fields.map((f) => f.name)),
    fc.constantFrom(
      'password_hash',
      'id;DROP TABLE units',
      '-',
      '--id',
      'ID',
      'id DESC',
      't.id',
      '(select 1)',
      '',
    ),
    hostileString,
  );

export type ListParams = {
  page?: string;
  page_size?: string;
  q?: string;
  sort?: string;
  filter?: string;
  raw: string;
};

export const hostileListQuery = (def: EntityDefinition): fc.Arbitrary<ListParams> =>
  fc.record(
    {
      page: queryValue,
      page_size: queryValue,
      q: hostileString,
      sort: hostileSort(def),
      filter: hostileFilter(def),
      raw: fc.constantFrom(
        '',
        '',
        '',
        '&%zz',
        '&q=%',
        '&q=%E0%A4%A',
        '&&&',
        '&page[]=1',
        '&page[a]=1',
        '&__proto__=1',
        '&constructor[prototype][x]=1',
        '&page=1&page=2',
      ),
    },
    { requiredKeys: ['raw'] },
  );

export const toQueryString = (p: Record<string, string | undefined>, raw = ''): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined) params.set(k, v);
  return params.toString() + raw;
};

/** Does the server know this sort (`field` or `-field` of the definition's sort list)? */
export const knownSort = (def: EntityDefinition, sort: string | undefined): boolean =>
  sort === undefined || sort === '' || def.sort.includes(sort.startsWith('-') ? sort.slice(1) : sort);

/** Does the server know every field of this filter (company_id, enum and reference fields)? */
export const knownFilter = (def: EntityDefinition, filter: string | undefined): boolean => {
  if (filter === undefined || filter === '') return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    return false;
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.every((f) => {
    const { field, value } = (f ?? {}) as { field?: unknown; value?: unknown };
    const fieldOk =
      field === 'company_id' ||
      def.fields.some((d) => d.name === field && (d.kind === 'enum' || d.kind === 'reference'));
    return fieldOk && ['string', 'number', 'boolean'].includes(typeof value);
  });
};

/** Printable header values (what an HTTP client can send). */
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/html',
  'application/xml',
  'image/png',
  'application/octet-stream',
  '*/*',
  '',
];

export type HostileHeaders = {
  contentType: string | undefined;
  cookie: 'valid' | 'none' | string;
  csrf: 'valid' | 'none' | string;
  accept: string | undefined;
};

export const hostileHeaders: fc.Arbitrary<HostileHeaders> = fc.record({
  contentType: fc.option(fc.oneof(fc.constantFrom(...CONTENT_TYPES), printable), { nil: undefined }),
  cookie: fc.oneof(
    fc.constantFrom('valid', 'valid', 'none'),
    printable,
    printable.map((v) => `kodi_sid=${v}`),
    fc.constantFrom(
      'kodi_sid=',
      `kodi_sid=${'a'.repeat(5000)}`,
      'kodi_sid=%E0%A4%A',
      'kodi_sid="unterminated',
      'kodi_sid=a; kodi_sid=b',
      '=; ;=;',
      '__proto__=x; constructor=y',
    ),
  ),
  csrf: fc.oneof(
    fc.constantFrom('valid', 'valid', 'none', '', ' ', 'null', 'undefined', 'x'.repeat(8000)),
    printable,
  ),
  accept: fc.option(fc.constantFrom('text/html', 'application/json', '*/*', 'image/*', ''), {
    nil: undefined,
  }),
});

/** What a client may write into its own X-Forwarded-For: addresses, ports, junk, many entries, nothing. */
const forwardedEntry = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.constantFrom(
    '',
    ' ',
    'unknown',
    '_hidden',
    '127.0.0.1',
    '10.0.0.1',
    '::1',
    '0.0.0.0',
    '255.255.255.255',
    '1.2.3.4:8080',
    '[2001:db8::1]:443',
    'for=1.2.3.4',
    '1.2.3.4/8',
    '::ffff:127.0.0.1',
    'fe80::1%eth0',
    `1.${'2'.repeat(300)}.3.4`,
  ),
  printable.map((s) => s.replace(/,/g, '')),
);

/**
 * The X-Forwarded-For a client writes itself (undefined: none): up to 40 entries, as one header with
 * any spacing around the commas, or as a list the proxy joins.
 */
export const hostileForwardedFor: fc.Arbitrary<string | undefined> = fc.option(
  fc.oneof(
    fc
      .tuple(
        fc.array(forwardedEntry, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(',', ', ', ' , ', ',,'),
      )
      .map(([entries, sep]) => entries.join(sep)),
    printable,
    fc.constant('1.2.3.4,'.repeat(2000)),
  ),
  { nil: undefined },
);

// ---------------------------------------------------------------- spreadsheets (issue 23)

/**
 * Cells a spreadsheet would run as a formula or DDE: every CSV the server writes must neutralise
 * them (a single quote before), and the import must take them back as they were.
 */
export const FORMULA_CELLS = [
  '=HYPERLINK("http://evil.test","x")',
  "=cmd|' /C calc'!A0",
  '+SUM(1+1)',
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
  '=1+1',
  '-',
  '+',
];

const MB = 1024 * 1024;

/** Cells that start like a formula but are numbers as written: left as they are ('-5' in an amount column). */
export const NUMBER_CELLS = ['-5', '-1,200.50', '+256772123456', '+256 772 123456', '(1,200)', '-0'];

/** The bombs: what each is, what it unpacks to, and the limit that refuses it (its message). */
export type Bomb = { name: string; parts: Part[]; unpacks: number; message: string };

const total = (parts: Part[]) =>
  parts.reduce(
    (s, p) => s + p.segments.reduce((t, g) => t + Buffer.byteLength(g.text) * (g.times ?? 1), 0),
    0,
  );

const DECLARED = 'The spreadsheet unpacks to more than 200 MB.';

/** A bomb whose zip tells its size honestly is refused on that size, before anything is inflated. */
const bomb = (name: string, parts: Part[], message: string): Bomb => {
  const unpacks = total(parts);
  const honest = parts.every((p) => !p.lie);
  return honest && unpacks > 200 * MB
    ? { name: `${name} (its size declared)`, parts, unpacks, message: DECLARED }
    : { name, parts, unpacks, message };
};

/**
 * The shapes of issue 23, each with `headers` as its first row (so that an import or a statement reads
 * past its header to the bomb): shared strings of `bytes`, a row of a million columns, one cell of
 * 100 MB (inline and shared), and a sheet whose zip tells its size honestly (refused before inflating).
 * `lie` makes the zip declare tiny sizes, so that only counting the inflated bytes catches them.
 */
export const spreadsheetBombs = (
  headers: readonly string[],
  { bytes = 1024 * MB, lie = true } = {},
): Bomb[] => {
  const head = { text: headerRow(headers) };
  return [
    bomb(
      'shared strings that unpack to gigabytes',
      workbookParts([head, { text: '<row r="2"><c r="A2" t="s"><v>0</v></c></row>' }], {
        sharedStrings: [repeated(`<si><t>${'A'.repeat(30_000)}</t></si>`, bytes)],
        lie,
      }),
      "The spreadsheet's shared strings hold more than 50 MB of text.",
    ),
    bomb(
      'a million shared strings',
      workbookParts([head], { sharedStrings: [repeated('<si><t>x</t></si>', 1_100_000 * 17)], lie }),
      'The spreadsheet has more than 1,000,000 shared strings.',
    ),
    bomb(
      'a row of a million columns',
      workbookParts(
        [head, { text: '<row r="2">' }, repeated('<c><v>1</v></c>', 1_000_000 * 16), { text: '</row>' }],
        {
          lie,
        },
      ),
      'The spreadsheet has more than 16,384 columns.',
    ),
    bomb(
      'a cell of 100 MB (inline)',
      workbookParts(
        [
          head,
          { text: '<row r="2"><c r="A2" t="inlineStr"><is><t>' },
          repeated('A', 100 * MB),
          { text: '</t></is></c></row>' },
        ],
        { lie },
      ),
      'A cell holds more than 32,767 characters.',
    ),
    bomb(
      'a shared string of 100 MB',
      workbookParts([head, { text: '<row r="2"><c r="A2" t="s"><v>0</v></c></row>' }], {
        sharedStrings: [{ text: '<si><t>' }, repeated('B', 100 * MB), { text: '</t></si>' }],
        lie,
      }),
      'A cell holds more than 32,767 characters.',
    ),
  ];
};

/** A sheet of `bytes` whose zip tells its size: refused from the zip's directory, before inflating. */
export const declaredBomb = (headers: readonly string[], bytes = 1024 * MB): Bomb =>
  bomb(
    'a sheet of 1 GB',
    workbookParts([{ text: headerRow(headers) }, repeated('<row/>', bytes)], { lie: false }),
    DECLARED,
  );
