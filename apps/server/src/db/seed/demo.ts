import { and, eq, inArray, sql } from 'drizzle-orm';
import type {
  expenseCategory,
  paymentMethod,
  paymentStatus,
  priority,
  requestStatus,
  unitStatus,
  unitType,
} from '@kodi/domain';
import type { Db, Tx } from '../client.ts';
import {
  commissionWages,
  companies,
  counters,
  employees,
  expenses,
  maintenanceRequests,
  managementAgreements,
  occupancy,
  owners,
  payments,
  properties,
  propertyOwnerSets,
  propertyOwnerShares,
  tenants,
  units,
  vendors,
} from '../schema.ts';

type ValueOf<T extends { values: readonly string[] }> = T['values'][number];
type UnitType = ValueOf<typeof unitType>;
type UnitStatus = ValueOf<typeof unitStatus>;
type ExpenseCategory = ValueOf<typeof expenseCategory>;
type PaymentMethod = ValueOf<typeof paymentMethod>;
type PaymentStatus = ValueOf<typeof paymentStatus>;
type Priority = ValueOf<typeof priority>;
type RequestStatus = ValueOf<typeof requestStatus>;

type NewPayment = typeof payments.$inferInsert;

// ---------------------------------------------------------------- helpers

/** mulberry32: a tiny seeded PRNG, so the demo data is the same on every run for the same `today`. */
const makeRng = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => at(xs, int(0, xs.length - 1));
  const chance = (p: number): boolean => next() < p;
  const weighted = <T>(entries: readonly (readonly [T, number])[]): T => {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return at(entries, entries.length - 1)[0];
  };
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(0, i);
      [out[i], out[j]] = [at(out, j), at(out, i)];
    }
    return out;
  };
  const chars = (alphabet: string, n: number): string =>
    Array.from({ length: n }, () => alphabet.charAt(int(0, alphabet.length - 1))).join('');
  return { next, int, pick, chance, weighted, shuffle, chars };
};
type Rng = ReturnType<typeof makeRng>;

const at = <T>(xs: readonly T[], i: number): T => {
  const v = xs[i];
  if (v === undefined) throw new Error(`Demo seed: index ${i} out of range`);
  return v;
};

const DAY_MS = 86_400_000;
const utcDay = (d: Date): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const iso = (d: Date): string => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number): Date => new Date(d.getTime() + n * DAY_MS);
const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
/** Same day-of-month n months later, clamped to the month's length. */
const addMonths = (d: Date, n: number, day = d.getUTCDate()): Date => {
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const y = first.getUTCFullYear();
  const m = first.getUTCMonth();
  return new Date(Date.UTC(y, m, Math.min(day, daysInMonth(y, m))));
};
const minDate = (a: Date, b: Date): Date => (a < b ? a : b);
const maxDate = (a: Date, b: Date): Date => (a > b ? a : b);
const monthLabel = (d: Date): string =>
  d.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDate = (d: Date): string =>
  d.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

const round1000 = (n: number): number => Math.round(n / 1000) * 1000;
/** UGX has no minor unit: whole shillings, as the NUMERIC column's string. */
const money = (n: number): string => String(Math.round(n));

const BATCH = 500;
const batched = async <R, O>(rows: readonly R[], run: (batch: R[]) => Promise<O[]>): Promise<O[]> => {
  const out: O[] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(...(await run(rows.slice(i, i + BATCH))));
  return out;
};
const ids = (rows: { id: number }[]): number[] => rows.map((r) => r.id);

/** A Ugandan mobile number, '+256' and 9 digits (e.g. +256772123456). */
const mobile = (rng: Rng): string =>
  `+256${rng.pick(['70', '74', '75', '76', '77', '78'])}${rng.chars('0123456789', 7)}`;

// ---------------------------------------------------------------- fixed data

type VendorSpec = { name: string; service: string };
const vendorSpecs: VendorSpec[] = [
  { name: 'Kato Plumbing Services', service: 'plumber' },
  { name: 'Bright Sparks Electricals', service: 'electrician' },
  { name: 'Sparkle Clean Uganda', service: 'cleaner' },
  { name: 'Nsubuga Carpentry Works', service: 'carpenter' },
  { name: 'Kampala Paint Masters', service: 'painter' },
  { name: 'Ssemwanga Roofing & Welding', service: 'roofer' },
  { name: 'Green Thumb Landscaping', service: 'gardener' },
  { name: 'Guardian Security Services', service: 'security' },
];

type UnitSpec = {
  name: string;
  address: string;
  type: UnitType;
  bedrooms: number | null;
  bathrooms: string;
  sqft: number;
  monthly: number;
  status: UnitStatus;
  amenities: string;
  description: string;
  /** let by the week (rent_cycle weekly) */
  weekly?: boolean;
  /** had a tenant who left in the last months */
  formerLease?: boolean;
};

const kololo = 'Plot 14, Acacia Avenue, Kololo, Kampala';
const naguru = 'Plot 27, Naguru Drive, Naguru, Kampala';
const bugolobi = 'Plot 8, Bandali Rise, Bugolobi, Kampala';
const ntinda = 'Plot 45, Ntinda Road, Ntinda, Kampala';
const bukoto = 'Plot 19, Kisasi Road, Bukoto, Kampala';
const kisementi = 'Plot 2, Cooper Road, Kisementi, Kampala';
const kansanga = 'Plot 60, Ggaba Road, Kansanga, Kampala';

/** The buildings that hold several units; the stand-alone houses belong to none. */
const propertySpecs: {
  name: string;
  address: string;
  type: 'residential' | 'commercial' | 'mixed';
  manager: string;
  phone: string;
  description: string;
}[] = [
  {
    name: 'Kololo Heights',
    address: kololo,
    type: 'residential',
    manager: 'Irene Nakato',
    phone: '+256 772 410233',
    description: 'Four-storey block of serviced apartments with a pool and gym.',
  },
  {
    name: 'Naguru View',
    address: naguru,
    type: 'residential',
    manager: 'Samuel Okello',
    phone: '+256 701 552904',
    description: 'Apartments on the slope of Naguru hill.',
  },
  {
    name: 'Bugolobi Court',
    address: bugolobi,
    type: 'residential',
    manager: 'Samuel Okello',
    phone: '+256 701 552904',
    description: 'Walk-up flats around a shared courtyard.',
  },
  {
    name: 'Ntinda Studios',
    address: ntinda,
    type: 'mixed',
    manager: 'Joan Achieng',
    phone: '+256 782 660178',
    description: 'Studios above two ground-floor shops on Ntinda Road.',
  },
  {
    name: 'Bukoto Gardens',
    address: bukoto,
    type: 'residential',
    manager: 'Joan Achieng',
    phone: '+256 782 660178',
    description: 'Two family houses sharing a garden.',
  },
  {
    name: 'Kisementi Shops',
    address: kisementi,
    type: 'commercial',
    manager: 'Patrick Ssempa',
    phone: '+256 753 118420',
    description: 'Street-front retail units by the Kisementi roundabout.',
  },
  {
    name: 'Kansanga Terrace',
    address: kansanga,
    type: 'residential',
    manager: 'Patrick Ssempa',
    phone: '+256 753 118420',
    description: 'A row of terraced houses off Ggaba Road.',
  },
];

const flatAmenities = 'Parking, 24h security, Backup generator, Water tank, Balcony';
const unitSpecs: UnitSpec[] = [
  {
    name: 'Kololo Heights A1',
    address: kololo,
    type: 'apartment',
    bedrooms: 3,
    bathrooms: '2.0',
    sqft: 1450,
    monthly: 3_800_000,
    status: 'occupied',
    amenities: `${flatAmenities}, Lift, Swimming pool, Gym`,
    description: 'Spacious ground-floor apartment with en-suite master bedroom and a view of the city.',
  },
  {
    name: 'Kololo Heights A2',
    address: kololo,
    type: 'apartment',
    bedrooms: 3,
    bathrooms: '2.5',
    sqft: 1500,
    monthly: 4_000_000,
    status: 'occupied',
    amenities: `${flatAmenities}, Lift, Swimming pool, Gym`,
    description: 'Fully furnished top-floor apartment with a large balcony overlooking Kololo airstrip.',
  },
  {
    name: 'Kololo Heights B1',
    address: kololo,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '2.0',
    sqft: 1100,
    monthly: 2_800_000,
    status: 'occupied',
    amenities: `${flatAmenities}, Lift, Swimming pool`,
    description: 'Two-bedroom apartment, both rooms en-suite, fitted kitchen and DSTV connection.',
  },
  {
    name: 'Kololo Heights B2',
    address: kololo,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '2.0',
    sqft: 1100,
    monthly: 2_800_000,
    status: 'available',
    amenities: `${flatAmenities}, Lift, Swimming pool`,
    description: 'Two-bedroom apartment, freshly repainted, ready to move in.',
    formerLease: true,
  },
  {
    name: 'Naguru View 1A',
    address: naguru,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '2.0',
    sqft: 980,
    monthly: 2_200_000,
    status: 'occupied',
    amenities: flatAmenities,
    description: 'Bright first-floor apartment with open-plan living and dining area.',
  },
  {
    name: 'Naguru View 1B',
    address: naguru,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '1.0',
    sqft: 950,
    monthly: 2_000_000,
    status: 'occupied',
    amenities: flatAmenities,
    description: 'Two-bedroom apartment close to the Naguru shopping centre.',
  },
  {
    name: 'Naguru View 2A',
    address: naguru,
    type: 'apartment',
    bedrooms: 3,
    bathrooms: '2.0',
    sqft: 1250,
    monthly: 2_600_000,
    status: 'occupied',
    amenities: `${flatAmenities}, Servant quarters`,
    description: 'Three-bedroom family apartment with servant quarters and a shared garden.',
  },
  {
    name: 'Bugolobi Court Flat 1',
    address: bugolobi,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '1.0',
    sqft: 900,
    monthly: 1_500_000,
    status: 'occupied',
    amenities: 'Parking, Security guard, Water tank, Prepaid electricity',
    description: 'Two-bedroom flat in a quiet compound, walking distance to Bugolobi market.',
  },
  {
    name: 'Bugolobi Court Flat 2',
    address: bugolobi,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '1.0',
    sqft: 900,
    monthly: 1_500_000,
    status: 'occupied',
    amenities: 'Parking, Security guard, Water tank, Prepaid electricity',
    description: 'Two-bedroom flat on the first floor with a small balcony.',
  },
  {
    name: 'Bugolobi Court Flat 3',
    address: bugolobi,
    type: 'apartment',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 650,
    monthly: 1_100_000,
    status: 'available',
    amenities: 'Parking, Security guard, Water tank, Prepaid electricity',
    description: 'One-bedroom flat, ideal for a single professional or a couple.',
    formerLease: true,
  },
  {
    name: 'Ntinda Studios S1',
    address: ntinda,
    type: 'studio',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 420,
    monthly: 650_000,
    status: 'occupied',
    amenities: 'Wi-Fi, Security guard, Prepaid electricity, Water included',
    description: 'Compact self-contained studio with kitchenette, near Ntinda trading centre.',
  },
  {
    name: 'Ntinda Studios S2',
    address: ntinda,
    type: 'studio',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 420,
    monthly: 650_000,
    status: 'occupied',
    amenities: 'Wi-Fi, Security guard, Prepaid electricity, Water included, Furnished',
    description: 'Furnished studio let by the week, bedding and Wi-Fi included.',
    weekly: true,
  },
  {
    name: 'Ntinda Studios S3',
    address: ntinda,
    type: 'studio',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 450,
    monthly: 700_000,
    status: 'available',
    amenities: 'Wi-Fi, Security guard, Prepaid electricity, Water included',
    description: 'Corner studio with two windows and a separate shower room.',
  },
  {
    name: 'Ntinda Studios S4',
    address: ntinda,
    type: 'studio',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 480,
    monthly: 750_000,
    status: 'occupied',
    amenities: 'Wi-Fi, Security guard, Prepaid electricity, Water included, Furnished',
    description: 'Furnished top-floor studio let by the week.',
    weekly: true,
  },
  {
    name: 'Muyenga Hill Villa',
    address: 'Plot 3, Tank Hill Road, Muyenga, Kampala',
    type: 'house',
    bedrooms: 4,
    bathrooms: '3.5',
    sqft: 2800,
    monthly: 4_500_000,
    status: 'occupied',
    amenities: 'Garden, Garage, Boys quarters, Electric fence, Borehole, Backup generator',
    description: 'Four-bedroom villa on Muyenga hill with a lake view, large garden and boys quarters.',
  },
  {
    name: 'Bukoto Gardens House 1',
    address: bukoto,
    type: 'house',
    bedrooms: 3,
    bathrooms: '2.0',
    sqft: 1600,
    monthly: 2_400_000,
    status: 'occupied',
    amenities: 'Garden, Parking, Security guard, Water tank',
    description: 'Three-bedroom bungalow in a gated community of four houses.',
  },
  {
    name: 'Bukoto Gardens House 2',
    address: bukoto,
    type: 'house',
    bedrooms: 3,
    bathrooms: '2.0',
    sqft: 1600,
    monthly: 2_400_000,
    status: 'maintenance',
    amenities: 'Garden, Parking, Security guard, Water tank',
    description: 'Three-bedroom bungalow, under renovation after roof leak damage.',
    formerLease: true,
  },
  {
    name: 'Kisementi Shop 1',
    address: kisementi,
    type: 'commercial',
    bedrooms: null,
    bathrooms: '1.0',
    sqft: 600,
    monthly: 3_200_000,
    status: 'occupied',
    amenities: 'Street frontage, Parking, Three-phase power, Roller shutter',
    description: 'Ground-floor shop on Cooper Road with large display windows.',
  },
  {
    name: 'Kisementi Shop 2',
    address: kisementi,
    type: 'commercial',
    bedrooms: null,
    bathrooms: '1.0',
    sqft: 450,
    monthly: 2_500_000,
    status: 'occupied',
    amenities: 'Street frontage, Parking, Roller shutter',
    description: 'Corner shop suitable for a café or boutique.',
  },
  {
    name: 'Kansanga Terrace T1',
    address: kansanga,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '1.0',
    sqft: 850,
    monthly: 1_200_000,
    status: 'occupied',
    amenities: 'Parking, Security guard, Water tank',
    description: 'Two-bedroom terrace apartment off Ggaba Road, close to KIU.',
  },
  {
    name: 'Kansanga Terrace T2',
    address: kansanga,
    type: 'apartment',
    bedrooms: 2,
    bathrooms: '1.0',
    sqft: 850,
    monthly: 1_200_000,
    status: 'occupied',
    amenities: 'Parking, Security guard, Water tank',
    description: 'Two-bedroom terrace apartment with a private back yard.',
  },
  {
    name: 'Kansanga Terrace T3',
    address: kansanga,
    type: 'apartment',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 600,
    monthly: 900_000,
    status: 'available',
    amenities: 'Parking, Security guard, Water tank',
    description: 'One-bedroom terrace apartment, tiled throughout.',
    formerLease: true,
  },
  {
    name: 'Najjera Bungalow',
    address: 'Plot 112, Najjera Road, Najjera, Kampala',
    type: 'house',
    bedrooms: 3,
    bathrooms: '2.0',
    sqft: 1400,
    monthly: 1_800_000,
    status: 'occupied',
    amenities: 'Garden, Parking, Perimeter wall, Water tank',
    description: 'Three-bedroom bungalow with a walled compound, 20 minutes from Ntinda.',
  },
  {
    name: 'Makindye Studio',
    address: 'Plot 7, Lukuli Road, Makindye, Kampala',
    type: 'studio',
    bedrooms: 1,
    bathrooms: '1.0',
    sqft: 500,
    monthly: 600_000,
    status: 'available',
    amenities: 'Security guard, Prepaid electricity, Water included',
    description: 'Self-contained studio in a quiet neighbourhood with easy boda-boda access.',
  },
];

type Person = { first: string; last: string; sex: 'M' | 'F' };
const tenantPeople: Person[] = [
  { first: 'Brian', last: 'Mugisha', sex: 'M' },
  { first: 'Grace', last: 'Nakato', sex: 'F' },
  { first: 'Joseph', last: 'Okello', sex: 'M' },
  { first: 'Esther', last: 'Namubiru', sex: 'F' },
  { first: 'Ronald', last: 'Ssempala', sex: 'M' },
  { first: 'Patience', last: 'Akello', sex: 'F' },
  { first: 'Emmanuel', last: 'Tumusiime', sex: 'M' },
  { first: 'Sarah', last: 'Nansubuga', sex: 'F' },
  { first: 'Isaac', last: 'Lubega', sex: 'M' },
  { first: 'Doreen', last: 'Atim', sex: 'F' },
  { first: 'Moses', last: 'Byaruhanga', sex: 'M' },
  { first: 'Agnes', last: 'Kyomuhendo', sex: 'F' },
  { first: 'Daniel', last: 'Wasswa', sex: 'M' },
  { first: 'Harriet', last: 'Babirye', sex: 'F' },
  { first: 'Godfrey', last: 'Ochen', sex: 'M' },
  { first: 'Winnie', last: 'Nalwoga', sex: 'F' },
  { first: 'Samuel', last: 'Kiggundu', sex: 'M' },
  { first: 'Juliet', last: 'Namatovu', sex: 'F' },
  // former tenants (their leases have ended)
  { first: 'Paul', last: 'Ouma', sex: 'M' },
  { first: 'Florence', last: 'Auma', sex: 'F' },
  { first: 'Robert', last: 'Kizza', sex: 'M' },
  { first: 'Ruth', last: 'Nabukenya', sex: 'F' },
];
const contactNames = [
  'Mary Namirembe',
  'James Kasozi',
  'Rose Nakimera',
  'Charles Onyango',
  'Betty Namusoke',
  'Henry Muwanga',
  'Alice Adong',
  'Simon Mukasa',
];

type EmployeeSpec = Person & {
  title: string;
  salary: number;
  payDay: number;
  yearsAgo: number;
  method: PaymentMethod;
};
const employeeSpecs: EmployeeSpec[] = [
  {
    first: 'Diana',
    last: 'Nakimuli',
    sex: 'F',
    title: 'Property Manager',
    salary: 3_500_000,
    payDay: 28,
    yearsAgo: 4,
    method: 'banktransfer',
  },
  {
    first: 'Andrew',
    last: 'Mwesigwa',
    sex: 'M',
    title: 'Leasing Agent',
    salary: 1_200_000,
    payDay: 28,
    yearsAgo: 2,
    method: 'mobilemoney',
  },
  {
    first: 'Stella',
    last: 'Kobusingye',
    sex: 'F',
    title: 'Accountant',
    salary: 2_200_000,
    payDay: 25,
    yearsAgo: 3,
    method: 'banktransfer',
  },
  {
    first: 'John',
    last: 'Opio',
    sex: 'M',
    title: 'Caretaker',
    salary: 700_000,
    payDay: 27,
    yearsAgo: 5,
    method: 'mobilemoney',
  },
  {
    first: 'Peter',
    last: 'Ssekandi',
    sex: 'M',
    title: 'Security Guard',
    salary: 550_000,
    payDay: 26,
    yearsAgo: 2,
    method: 'cash',
  },
];

/** An expense line: its text, the vendor service that does such work (if any), and whether it is for one unit. */
type ExpenseText = readonly [text: string, service: string | null, perUnit: boolean];
/** What the expenses of each category look like, and how often they come up. */
const expenseKinds: Record<
  ExpenseCategory,
  { weight: number; min: number; max: number; texts: ExpenseText[] }
> = {
  plumbing: {
    weight: 16,
    min: 30_000,
    max: 650_000,
    texts: [
      ['Replaced leaking kitchen sink trap', 'plumber', true],
      ['Unblocked main sewer line', 'plumber', false],
      ['Replaced shower mixer', 'plumber', true],
      ['Fixed burst pipe near the water tank', 'plumber', false],
      ['Replaced toilet cistern valve', 'plumber', true],
    ],
  },
  electrical: {
    weight: 13,
    min: 40_000,
    max: 900_000,
    texts: [
      ['Replaced faulty sockets in the bedrooms', 'electrician', true],
      ['Rewired distribution board', 'electrician', true],
      ['Installed security lights at the gate', 'electrician', false],
      ['Repaired water heater element', 'electrician', true],
      ['Serviced backup generator changeover', 'electrician', false],
    ],
  },
  cleaning: {
    weight: 14,
    min: 50_000,
    max: 400_000,
    texts: [
      ['Deep cleaning before new tenant', 'cleaner', true],
      ['Monthly common-area cleaning', 'cleaner', false],
      ['Septic tank emptying', null, false],
      ['Compound slashing and garbage collection', 'gardener', false],
      ['Window and facade cleaning', 'cleaner', false],
    ],
  },
  repairs: {
    weight: 12,
    min: 100_000,
    max: 2_000_000,
    texts: [
      ['Roof repairs after heavy rain', 'roofer', true],
      ['Repainted living room and corridors', 'painter', true],
      ['Repaired gate hinges and welded the frame', 'roofer', false],
      ['Replaced damaged ceiling boards', 'carpenter', true],
      ['Fixed cracked veranda tiles', null, true],
    ],
  },
  fixes: {
    weight: 12,
    min: 20_000,
    max: 300_000,
    texts: [
      ['Fixed jammed front door lock', 'carpenter', true],
      ['Re-hung kitchen cabinet doors', 'carpenter', true],
      ['Replaced broken window pane', null, true],
      ['Fixed loose curtain rails', 'carpenter', true],
      ['Replaced bulbs and switch covers', 'electrician', true],
    ],
  },
  fittings: {
    weight: 8,
    min: 80_000,
    max: 1_200_000,
    texts: [
      ['New wardrobe doors fitted', 'carpenter', true],
      ['Installed new ceiling fans', 'electrician', true],
      ['Fitted new kitchen tap and sink', 'plumber', true],
      ['Installed water-saving shower heads', 'plumber', true],
      ['Fitted burglar-proofing on windows', 'roofer', true],
    ],
  },
  condo_fees: {
    weight: 10,
    min: 150_000,
    max: 450_000,
    texts: [
      ['Monthly service charge', null, true],
      ['Block management fee', null, true],
      ['Common-area service charge', null, true],
    ],
  },
  other: {
    weight: 7,
    min: 20_000,
    max: 600_000,
    texts: [
      ['Security guard overtime', 'security', false],
      ['NWSC water bill for common areas', null, false],
      ['UMEME bill for common lighting', null, false],
      ['Advertising vacant units online', null, true],
      ['KCCA ground rent and trading licence', null, false],
    ],
  },
};

type IssueSpec = { text: string; service: string; min: number; max: number; priority: Priority };
const issues: IssueSpec[] = [
  {
    text: 'Kitchen sink leaking under the counter.',
    service: 'plumber',
    min: 50_000,
    max: 150_000,
    priority: 'medium',
  },
  {
    text: 'Bedroom socket sparks when an appliance is plugged in.',
    service: 'electrician',
    min: 80_000,
    max: 250_000,
    priority: 'high',
  },
  {
    text: 'Water heater not heating.',
    service: 'electrician',
    min: 150_000,
    max: 450_000,
    priority: 'medium',
  },
  {
    text: 'Front door lock jammed, door hard to open.',
    service: 'carpenter',
    min: 60_000,
    max: 180_000,
    priority: 'high',
  },
  {
    text: 'Ceiling leaks in the living room during heavy rain.',
    service: 'roofer',
    min: 300_000,
    max: 1_200_000,
    priority: 'high',
  },
  {
    text: 'Toilet in the master bathroom keeps blocking.',
    service: 'plumber',
    min: 80_000,
    max: 300_000,
    priority: 'medium',
  },
  {
    text: 'Paint peeling off the bedroom walls.',
    service: 'painter',
    min: 200_000,
    max: 700_000,
    priority: 'low',
  },
  {
    text: 'Compound overgrown behind the parking.',
    service: 'gardener',
    min: 50_000,
    max: 120_000,
    priority: 'low',
  },
  {
    text: 'Window hinge broken in the second bedroom.',
    service: 'carpenter',
    min: 50_000,
    max: 150_000,
    priority: 'low',
  },
  {
    text: 'Low water pressure in the shower.',
    service: 'plumber',
    min: 60_000,
    max: 200_000,
    priority: 'low',
  },
];

/** The demo's owners (issue 27): a person living abroad and a company. */
const ownerSpecs = [
  {
    first_name: 'Grace',
    last_name: 'Namuli',
    phone: '+447700900123',
    email: 'grace.namuli@example.com',
    tax_id: '1000234567',
    payout_method: 'bank',
    payout_account_name: 'Grace Namuli',
    payout_account_number: '0140012345678',
    payout_bank: 'Stanbic Bank Uganda',
  },
  {
    company_name: 'Acacia Holdings Ltd',
    phone: '+256772100200',
    email: 'accounts@acacia-holdings.example.com',
    tax_id: '1000876543',
    payout_method: 'mobilemoney',
    payout_account_name: 'Acacia Holdings Ltd',
    payout_account_number: '0772100200',
    payout_bank: 'MTN Mobile Money',
  },
] as const;

/** Who owns which building (owner index, share percent); the others are the company's own. */
const ownedSpecs: { property: string; shares: [number, number][] }[] = [
  { property: 'Kololo Heights', shares: [[0, 100]] },
  {
    property: 'Naguru View',
    shares: [
      [0, 60],
      [1, 40],
    ],
  },
  { property: 'Bukoto Gardens', shares: [[1, 100]] },
];

// ---------------------------------------------------------------- the seed

/**
 * Fills an existing (empty) company with a believable year of activity in Kampala, UGX:
 * vendors, properties, units, tenants, leases, rent payments, expenses, maintenance requests, employees
 * and wages.
 * Deterministic for a given `today`; everything in one transaction.
 */
export const seedDemoData = async (db: Db, companyId: number, today: Date = new Date()): Promise<void> => {
  const rng = makeRng(0x4b6f6469); // 'Kodi'
  const now = utcDay(today);
  const yearAgo = addMonths(now, -12);

  await db.transaction(async (tx) => {
    const [company] = await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, companyId));
    if (!company) throw new Error(`Demo seed: company ${companyId} does not exist`);

    // ---- vendors
    const vendorIds = ids(
      await tx
        .insert(vendors)
        .values(
          vendorSpecs.map((v) => ({
            company_id: companyId,
            name: v.name,
            service_offered: v.service,
            phone: mobile(rng),
          })),
        )
        .returning({ id: vendors.id }),
    );
    const vendorsFor = (services: readonly string[]): number[] =>
      vendorSpecs.flatMap((v, i) => (services.includes(v.service) ? [at(vendorIds, i)] : []));

    // ---- properties: the buildings, each with the units at its address
    const propertyIds = ids(
      await tx
        .insert(properties)
        .values(
          propertySpecs.map((p) => ({
            company_id: companyId,
            name: p.name,
            address: p.address,
            property_type: p.type,
            manager_name: p.manager,
            manager_phone: p.phone,
            description: p.description,
          })),
        )
        .returning({ id: properties.id }),
    );
    // ---- owners (issue 27): two owners of some of the buildings, managed for 10% of what is collected;
    // the rest stay the company's own. Their shares date from a year ago, with the demo's history.
    const ownerIds = ids(
      await tx
        .insert(owners)
        .values(
          ownerSpecs.map((o) => ({
            company_id: companyId,
            ...o,
          })),
        )
        .returning({ id: owners.id }),
    );
    const propertyNamed = (name: string): number =>
      at(
        propertyIds,
        propertySpecs.findIndex((p) => p.name === name),
      );
    for (const owned of ownedSpecs) {
      const property = propertyNamed(owned.property);
      const [set] = await tx
        .insert(propertyOwnerSets)
        .values({ company_id: companyId, property_id: property, effective_from: iso(yearAgo) })
        .returning({ id: propertyOwnerSets.id });
      await tx.insert(propertyOwnerShares).values(
        owned.shares.map(([owner, share]) => ({
          company_id: companyId,
          set_id: Number(set?.id),
          owner_id: at(ownerIds, owner),
          share_percent: share.toFixed(2),
        })),
      );
      await tx.insert(managementAgreements).values({
        company_id: companyId,
        property_id: property,
        fee_kind: 'percent_of_collected',
        fee_amount: '10.00',
      });
    }
    const propertyAt = (address: string): number | null => {
      const i = propertySpecs.findIndex((p) => p.address === address);
      return i < 0 ? null : at(propertyIds, i);
    };

    // ---- units
    const unitIds = ids(
      await tx
        .insert(units)
        .values(
          unitSpecs.map((u) => ({
            company_id: companyId,
            name: u.name,
            property_id: propertyAt(u.address),
            address: u.address,
            water_meter_nbr: `NWSC-${rng.chars('0123456789', 8)}`,
            electricity_meter_nbr: rng.chars('0123456789', 11),
            monthly_rate: money(u.monthly),
            weekly_rate: money(round1000(u.monthly / 4)),
            daily_rate: money(round1000(u.monthly / 30)),
            description: u.description,
            bedrooms: u.bedrooms,
            bathrooms: u.bathrooms,
            size_sqft: String(u.sqft),
            amenities: u.amenities,
            unit_type: u.type,
            status: u.status,
          })),
        )
        .returning({ id: units.id }),
    );

    // ---- tenants: one per occupied unit, then the former tenants of the units that are free again
    const occupied = unitSpecs.flatMap((u, i) => (u.status === 'occupied' ? [i] : []));
    const vacated = unitSpecs.flatMap((u, i) => (u.formerLease ? [i] : []));
    const leaseUnits = [...occupied, ...vacated];
    if (tenantPeople.length < leaseUnits.length) throw new Error('Demo seed: not enough tenants');
    const tenantRows = leaseUnits.map((_, i) => {
      const p = at(tenantPeople, i);
      const dob = addDays(addMonths(now, -12 * rng.int(22, 58)), -rng.int(0, 364));
      const former = i >= occupied.length;
      return {
        company_id: companyId,
        first_name: p.first,
        last_name: p.last,
        sex: p.sex,
        country_code: '+256',
        phone: mobile(rng),
        email: rng.chance(0.75)
          ? `${p.first}.${p.last}${rng.chance(0.4) ? rng.int(1, 99) : ''}@${rng.pick(['gmail.com', 'yahoo.com', 'outlook.com'])}`.toLowerCase()
          : null,
        date_of_birth: iso(dob),
        id_or_passport_number: rng.chance(0.85)
          ? `${p.sex === 'M' ? 'CM' : 'CF'}${iso(dob).slice(2, 4)}${rng.chars('0123456789', 6)}${rng.chars('ABCDEFGHJKLMNPRTUVWXY', 4)}`
          : null,
        emergency_contact_name: rng.pick(contactNames),
        emergency_contact_phone: mobile(rng),
        status: former ? 'inactive' : 'active',
      };
    });
    const tenantIds = ids(await tx.insert(tenants).values(tenantRows).returning({ id: tenants.id }));

    // ---- occupancies
    type Lease = {
      unitIndex: number;
      tenantIndex: number;
      start: Date;
      end: Date | null;
      cycle: 'monthly' | 'weekly';
      rate: number;
    };
    const leases: Lease[] = leaseUnits.map((unitIndex, tenantIndex) => {
      const u = at(unitSpecs, unitIndex);
      const former = tenantIndex >= occupied.length;
      const startMonthsAgo = former ? rng.int(14, 30) : rng.int(6, 30);
      const start = addMonths(now, -startMonthsAgo, rng.int(1, 28));
      const end = former ? addDays(addMonths(start, startMonthsAgo - rng.int(1, 5)), -1) : null;
      const cycle = u.weekly ? 'weekly' : 'monthly';
      return {
        unitIndex,
        tenantIndex,
        start,
        end,
        cycle,
        rate: cycle === 'weekly' ? round1000(u.monthly / 4) : u.monthly,
      };
    });
    const occupancyIds = ids(
      await tx
        .insert(occupancy)
        .values(
          leases.map((l) => {
            const u = at(unitSpecs, l.unitIndex);
            return {
              company_id: companyId,
              tenant_id: at(tenantIds, l.tenantIndex),
              unit_id: at(unitIds, l.unitIndex),
              start_date: iso(l.start),
              end_date: l.end ? iso(l.end) : null,
              rate: money(l.rate),
              deposit_amount: money(u.monthly),
              deposit_status: l.end ? (u.status === 'maintenance' ? 'forfeited' : 'returned') : 'held',
              rent_cycle: l.cycle,
              utilities_included: u.type === 'studio',
              occupancy_status: l.end ? 'terminated' : 'active',
              notice_period_days: 30,
              is_active: !l.end,
              // the payments below cover the last year: what was due before it was settled (a
              // believable company: most tenants pay on time, issue 26)
              ...(l.start < yearAgo
                ? { opening_balance: '0', opening_balance_date: iso(addDays(yearAgo, -1)) }
                : {}),
            };
          }),
        )
        .returning({ id: occupancy.id }),
    );

    // ---- payments: the last 12 rent periods of every lease, up to today (or the lease's end)
    const methodWeights: (readonly [PaymentMethod, number])[] = [
      ['mobilemoney', 45],
      ['banktransfer', 30],
      ['cash', 15],
      ['check', 7],
      ['creditcard', 3],
    ];
    const referenceFor = (method: PaymentMethod): string => {
      switch (method) {
        case 'mobilemoney':
          return `MM-${rng.chars('0123456789ABCDEFGHJKLMNPQRSTUVWXYZ', 5)}`;
        case 'banktransfer':
          return `BT-${rng.chars('0123456789', 8)}`;
        case 'check':
          return `CHQ-${rng.chars('0123456789', 6)}`;
        case 'creditcard':
          return `CC-${rng.chars('0123456789ABCDEF', 6)}`;
        case 'cash':
          return 'N/A';
      }
    };
    type PlannedPayment = Omit<NewPayment, 'payment_serial' | 'invoice_id'> & {
      lease: number;
      wantsInvoice: boolean;
    };
    const planned: PlannedPayment[] = [];
    const recent = addDays(now, -45);
    const firstActive = 0;
    const failedLease = Math.min(2, occupied.length - 1);
    leases.forEach((l, leaseIndex) => {
      const preferred = rng.weighted(methodWeights);
      const last = l.end ? minDate(l.end, now) : now;
      const periods: { start: Date; end: Date }[] = [];
      for (let k = 0; ; k++) {
        const start = l.cycle === 'weekly' ? addDays(l.start, 28 * k) : addMonths(l.start, k);
        if (start > last) break;
        if (start < yearAgo) continue;
        const end = l.cycle === 'weekly' ? addDays(start, 27) : addDays(addMonths(l.start, k + 1), -1);
        periods.push({ start, end });
      }
      const commercial = at(unitSpecs, l.unitIndex).type === 'commercial';
      const amountDue = l.cycle === 'weekly' ? l.rate * 4 : l.rate;
      periods.forEach((p, pi) => {
        const isLast = pi === periods.length - 1;
        const paidOn = minDate(maxDate(addDays(p.start, rng.int(-3, 4)), l.start), now);
        const method = rng.chance(0.8) ? preferred : rng.weighted(methodWeights);
        let status: PaymentStatus = 'completed';
        if (!l.end && leaseIndex === firstActive && isLast) status = 'pending';
        else if (!l.end && isLast && p.start >= recent && rng.chance(0.15)) status = 'pending';
        const partial = status === 'completed' && !isLast && rng.chance(0.06);
        const amount = partial ? round1000(amountDue / 2) : amountDue;
        const label = l.cycle === 'weekly' ? `4 weeks from ${longDate(p.start)}` : monthLabel(p.start);
        const base = {
          company_id: companyId,
          unit_id: at(unitIds, l.unitIndex),
          tenant_id: at(tenantIds, l.tenantIndex),
          occupancy_id: at(occupancyIds, leaseIndex),
          effective_start_date: iso(p.start),
          effective_end_date: iso(p.end),
          lease: leaseIndex,
          wantsInvoice: commercial || rng.chance(0.2),
        };
        if (leaseIndex === failedLease && pi === periods.length - 2) {
          // a mobile-money payment that bounced, paid in cash a few days later
          planned.push({
            ...base,
            payment_date: iso(paidOn),
            amount_paid: money(amountDue),
            payment_method: 'mobilemoney',
            status: 'failed',
            reference_number: referenceFor('mobilemoney'),
            payment_details: `Rent for ${label}: mobile money transaction failed (insufficient funds)`,
            wantsInvoice: false,
          });
          planned.push({
            ...base,
            payment_date: iso(minDate(addDays(paidOn, 3), now)),
            amount_paid: money(amountDue),
            payment_method: 'cash',
            status: 'completed',
            reference_number: 'N/A',
            payment_details: `Rent for ${label} (paid in cash after a failed mobile money payment)`,
          });
          return;
        }
        planned.push({
          ...base,
          payment_date: iso(paidOn),
          amount_paid: money(amount),
          payment_method: method,
          status,
          reference_number: referenceFor(method),
          payment_details: partial
            ? `Part payment of rent for ${label}; balance of ${money(amountDue - amount)} to follow`
            : `Rent for ${label}`,
        });
        // the balance of a part payment follows within two weeks (most tenants pay on time, issue 26)
        const balanceOn = addDays(paidOn, rng.int(5, 14));
        if (partial && balanceOn <= now)
          planned.push({
            ...base,
            payment_date: iso(balanceOn),
            amount_paid: money(amountDue - amount),
            payment_method: method,
            status: 'completed',
            reference_number: referenceFor(method),
            payment_details: `Balance of rent for ${label}`,
            wantsInvoice: false,
          });
      });
    });
    planned.sort((a, b) => a.payment_date.localeCompare(b.payment_date) || a.lease - b.lease);

    const existing = await tx
      .select({ name: counters.name, value: counters.value })
      .from(counters)
      .where(
        and(eq(counters.company_id, companyId), inArray(counters.name, ['payment_serial', 'receipt_number'])),
      );
    let serial = existing.find((c) => c.name === 'payment_serial')?.value ?? 0;
    let receipt = existing.find((c) => c.name === 'receipt_number')?.value ?? 0;
    const invoiceCount = new Map<string, number>();
    const paymentRows: NewPayment[] = planned.map(({ lease: _lease, wantsInvoice, ...p }) => {
      serial += 1;
      let invoice = 'N/A';
      if (wantsInvoice) {
        const year = p.payment_date.slice(0, 4);
        const n = (invoiceCount.get(year) ?? 0) + 1;
        invoiceCount.set(year, n);
        invoice = `INV-${year}-${String(n).padStart(4, '0')}`;
      }
      let receiptNumber: string | null = null;
      if (p.status === 'completed') {
        receipt += 1;
        receiptNumber = `RCT-${String(receipt).padStart(6, '0')}`;
      }
      return {
        ...p,
        payment_serial: `PAY-${String(serial).padStart(6, '0')}`,
        receipt_number: receiptNumber,
        invoice_id: invoice,
        // the demo's history: no receipt goes out for it
        receipt_queued: true,
      };
    });
    await batched(paymentRows, async (batch) =>
      tx.insert(payments).values(batch).returning({ id: payments.id }),
    );
    await setCounter(tx, companyId, 'payment_serial', serial);
    await setCounter(tx, companyId, 'receipt_number', receipt);

    // ---- expenses over the last 12 months
    const categories = Object.entries(expenseKinds).map(
      ([c, k]) => [c as ExpenseCategory, k.weight] as const,
    );
    const apartmentUnits = unitSpecs.flatMap((u, i) => (u.type === 'apartment' ? [i] : []));
    const expenseRows = Array.from({ length: 80 }, () => {
      const category = rng.weighted(categories);
      const kind = expenseKinds[category];
      const [text, service, perUnit] = rng.pick(kind.texts);
      const unitIndex =
        category === 'condo_fees'
          ? rng.pick(apartmentUnits)
          : perUnit && rng.chance(0.85)
            ? rng.int(0, unitSpecs.length - 1)
            : null;
      const candidates = service ? vendorsFor([service]) : [];
      const vendorId = candidates.length > 0 && rng.chance(0.85) ? rng.pick(candidates) : null;
      const step = kind.max >= 1_000_000 ? 5_000 : 1_000;
      const amount = Math.round(rng.int(kind.min, kind.max) / step) * step;
      return {
        company_id: companyId,
        unit_id: unitIndex === null ? null : at(unitIds, unitIndex),
        vendor_id: vendorId,
        expense_date: iso(addDays(now, -rng.int(0, 364))),
        amount: money(amount),
        category,
        description: text,
      };
    }).sort((a, b) => a.expense_date.localeCompare(b.expense_date));
    await batched(expenseRows, async (batch) =>
      tx.insert(expenses).values(batch).returning({ id: expenses.id }),
    );

    // ---- maintenance requests: current tenants, plus the one that sent the house into renovation
    const statuses: RequestStatus[] = [
      'closed',
      'closed',
      'closed',
      'closed',
      'in_progress',
      'in_progress',
      'open',
      'open',
      'open',
    ];
    const activeLeases = rng.shuffle(leases.flatMap((l, i) => (l.end ? [] : [i]))).slice(0, statuses.length);
    const chosenIssues = rng.shuffle(issues);
    const requestRows = activeLeases.map((leaseIndex, i) => {
      const l = at(leases, leaseIndex);
      const issue = at(chosenIssues, i % chosenIssues.length);
      const status = at(statuses, i);
      const daysAgo =
        status === 'closed' ? rng.int(30, 200) : status === 'in_progress' ? rng.int(5, 30) : rng.int(0, 7);
      const candidates = vendorsFor([issue.service]);
      return {
        company_id: companyId,
        unit_id: at(unitIds, l.unitIndex),
        tenant_id: at(tenantIds, l.tenantIndex),
        vendor_id: candidates.length > 0 ? rng.pick(candidates) : at(vendorIds, 0),
        request_date: iso(maxDate(addDays(now, -daysAgo), l.start)),
        description: issue.text,
        priority: issue.priority,
        status,
        estimated_cost: money(Math.round(rng.int(issue.min, issue.max) / 5_000) * 5_000),
      };
    });
    const renovated = leases.findIndex((l) => l.end && at(unitSpecs, l.unitIndex).status === 'maintenance');
    if (renovated >= 0) {
      const l = at(leases, renovated);
      requestRows.push({
        company_id: companyId,
        unit_id: at(unitIds, l.unitIndex),
        tenant_id: at(tenantIds, l.tenantIndex),
        vendor_id: at(vendorsFor(['roofer']), 0),
        request_date: iso(addDays(l.end ?? now, -10)),
        description:
          'Roof leak has damaged the ceiling boards and the living-room floor; needs a full repair.',
        priority: 'high',
        status: 'in_progress',
        estimated_cost: money(1_850_000),
      });
    }
    requestRows.sort((a, b) => a.request_date.localeCompare(b.request_date));
    await tx.insert(maintenanceRequests).values(requestRows);

    // ---- employees and a year of wages
    const employeeIds = ids(
      await tx
        .insert(employees)
        .values(
          employeeSpecs.map((e) => ({
            company_id: companyId,
            first_name: e.first,
            last_name: e.last,
            email: `${e.first}.${e.last}@kodi-properties.ug`.toLowerCase(),
            phone_number: mobile(rng),
            job_title: e.title,
            hire_date: iso(addDays(addMonths(now, -12 * e.yearsAgo), -rng.int(0, 200))),
            salary: money(e.salary),
            expected_pay_day: e.payDay,
            status: 'active',
          })),
        )
        .returning({ id: employees.id }),
    );
    const wageRows: (typeof commissionWages.$inferInsert)[] = [];
    employeeSpecs.forEach((e, ei) => {
      for (let m = -11; m <= 0; m++) {
        const monthStart = addMonths(now, m, 1);
        const monthEnd = addMonths(now, m, 31);
        wageRows.push({
          company_id: companyId,
          employee_id: at(employeeIds, ei),
          payment_date: iso(addMonths(now, m, e.payDay)),
          payment_category: 'salary',
          payment_method: e.method,
          commission_split_percentage: null,
          payment_start_date: iso(monthStart),
          payment_end_date: iso(monthEnd),
          status: m === 0 ? 'pending' : 'paid',
          description: `Salary for ${monthLabel(monthStart)}`,
          amount: money(e.salary),
        });
      }
    });
    // the leasing agent earns 10% of the first rent of each lease signed this year
    const agent = employeeSpecs.findIndex((e) => e.title === 'Leasing Agent');
    leases.forEach((l) => {
      if (agent < 0 || l.start < yearAgo) return;
      const firstRent = l.cycle === 'weekly' ? l.rate * 4 : l.rate;
      const paidOn = minDate(addDays(l.start, 7), now);
      wageRows.push({
        company_id: companyId,
        employee_id: at(employeeIds, agent),
        payment_date: iso(paidOn),
        payment_category: 'commission',
        payment_method: 'mobilemoney',
        commission_split_percentage: '10.00',
        payment_start_date: iso(l.start),
        payment_end_date: iso(l.start),
        status: 'paid',
        description: `Commission on new lease: ${at(unitSpecs, l.unitIndex).name}`,
        amount: money(round1000(firstRent * 0.1)),
      });
    });
    wageRows.sort((a, b) => a.payment_date.localeCompare(b.payment_date));
    await batched(wageRows, async (batch) =>
      tx.insert(commissionWages).values(batch).returning({ id: commissionWages.id }),
    );
  });
};

const setCounter = async (tx: Tx, companyId: number, name: string, value: number): Promise<void> => {
  await tx
    .insert(counters)
    .values({ company_id: companyId, name, value })
    .onConflictDoUpdate({
      target: [counters.company_id, counters.name],
      set: { value, updated_at: sql`now()`, version: sql`${counters.version} + 1` },
    });
};
