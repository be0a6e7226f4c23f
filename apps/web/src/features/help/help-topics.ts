import { PASSWORD_MIN_LENGTH, RESET_TOKEN_MINUTES } from '@kodi/domain';

/**
 * The Help Center's text. It describes Kodi as it behaves (product decisions 'Help text',
 * docs/decisions.md): change it when the behaviour changes.
 */

/** Sign-in lock (server: 5 failures in a row for one address lock it for 15 minutes). */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
/** The dashboard's own refresh (features/dashboard/dashboard-query.ts: 600 000 ms). */
export const DASHBOARD_REFRESH_MINUTES = 10;

export type HelpBlock =
  | { kind: 'p'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'qa'; items: { q: string; a: string }[] }
  | { kind: 'terms'; items: { term: string; text: string }[] };

export type HelpTopic = { id: string; title: string; blocks: HelpBlock[] };

const p = (text: string): HelpBlock => ({ kind: 'p', text });
const list = (...items: string[]): HelpBlock => ({ kind: 'list', items });

export const helpTopics: HelpTopic[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    blocks: [
      p(
        "Kodi keeps a company's rental business in one place: units, tenants, occupancy (lease) records, payments with receipts, maintenance requests, expenses, vendors, employees and their pay. Everything you see belongs to your own company.",
      ),
      list(
        'Sign in with your e-mail address, your password and the characters shown in the CAPTCHA image. New here? Choose Sign Up on the Login page to create an account.',
        'A new account can sign in at once, but it shows a notice that it is waiting for access until an administrator grants it a role.',
        'The menu on the left (the menu button in the top bar on a phone) leads to the pages your role allows. Each of its sections can be folded away.',
        'Lists have a search box above them, many columns can be sorted by clicking their heading, and long lists are split into pages.',
        'The Export button of a list saves the rows matching your search as an Excel (xlsx) or a PDF file.',
        'Messages about what you did appear at the bottom of the screen; Close dismisses them.',
      ),
    ],
  },
  {
    id: 'dashboard',
    title: 'Dashboard',
    blocks: [
      p('Home is the dashboard of your company. Four cards count:'),
      list(
        'Available Units: units whose status is Available.',
        'Pending Repairs: maintenance requests whose status is Open.',
        'Payments This Month: payments dated in the current calendar month that are not pending.',
        'Incomplete Payments: payments whose status is Pending.',
      ),
      p(
        'Each card has a View All link to its list. Below them are short lists (up to 5 each) of available units, pending repairs, recent completed payments and recent expenses, and a table of the incomplete (pending) payments.',
      ),
      p(
        `The dashboard refreshes itself every ${DASHBOARD_REFRESH_MINUTES} minutes while it is open; reload the page to see a change at once.`,
      ),
    ],
  },
  {
    id: 'properties',
    title: 'Properties',
    blocks: [
      p(
        'A property is a building or an estate that holds units: its name, address and type (Residential, Commercial or Mixed), and if you like its manager, their phone and a description. Choose the property of a unit in the unit form.',
      ),
      list(
        'The Properties list shows how many units each property holds, how many of them are Occupied (by their status) and the share occupied (Occupancy %); you can sort by each.',
        'The details of a property list its units with their status and current tenant, with links to its units, its payments and its arrears.',
        'Units, Occupancy, Payments, Expenses, Maintenance Requests, Arrears, Financial Reports and Home have a Property selector: choose a property to see only its records (and export only those). Kodi remembers your choice when you move between those pages; clear the selector to see every property again.',
        "A property's financial reports count the payments and expenses of its units; salaries and commissions belong to the company, not to a property.",
        'Admins and editors add and edit properties; only admins delete them. A property that still has units cannot be deleted.',
      ),
    ],
  },
  {
    id: 'units',
    title: 'Units',
    blocks: [
      p(
        'A unit is a property you let: its name, address, unit type (Apartment, House, Studio or Commercial) and monthly, weekly and daily rates (each greater than 0), and if you like the bedrooms, bathrooms, size, meter numbers, amenities and a description.',
      ),
      list(
        'Status is Available, Occupied or Maintenance. New units start as Available. Kodi does not change the status by itself: set it when a unit is let, freed or under repair.',
        'Each unit can have two images (PNG, JPEG or WebP, at most 2 MB each), shown in its details.',
        'The arrow at the start of a row shows the description.',
        'Admins and editors add and edit units; only admins delete them. A unit that leases, payments or other records still refer to cannot be deleted until those are removed.',
      ),
    ],
  },
  {
    id: 'tenants',
    title: 'Tenants',
    blocks: [
      p(
        'A tenant has a first and last name, sex, phone number and date of birth (a date in the past), and if you like a country dialling code such as +256, an e-mail address, an ID or passport number and an emergency contact. Status is Active or Inactive.',
      ),
      p('Admins and editors add and edit tenants; only admins delete them.'),
    ],
  },
  {
    id: 'payments',
    title: 'Payments',
    blocks: [
      p(
        'A payment records money received from a tenant for a unit: the date, the amount, the method (Cash, Check, Bank transfer, Credit card or Mobile money), the period it pays for, a reference and details.',
      ),
      list(
        "The tenant needs an occupancy record for that unit, otherwise Kodi answers 'No matching occupancy found for this tenant and unit combination.' Choosing a tenant fills in the unit of their first lease.",
        'Status is Pending, Completed or Failed; a new payment starts as Completed.',
        'Every payment gets a serial number when it is recorded (PAY-000001, PAY-000002, ...). When a payment becomes Completed for the first time it also gets a receipt number (RCT-000001, RCT-000002, ...). Both count per company, without gaps, and are never reused; a receipt number never changes once given.',
        'Print receipt, on a payment row, opens the receipt (receipt number, date, tenant, unit, method, status and amount) with Download PDF for an A4 copy.',
        'Admins and editors add and edit payments; only admins delete them.',
      ),
    ],
  },
  {
    id: 'expenses',
    title: 'Expenses',
    blocks: [
      p(
        'An expense has a date, an amount and a category: Plumbing, Fixes, Fittings, Electrical, Cleaning, Repairs, Condominium fees or Other. The unit, a description and the vendor are optional.',
      ),
      p(
        'Admins and editors add expenses; only admins edit or delete them. The most recent ones show on the dashboard.',
      ),
    ],
  },
  {
    id: 'vendors',
    title: 'Vendors',
    blocks: [
      p(
        'Vendors are the people and firms who work for you: a name, the service they offer and a phone number. A vendor can be chosen on maintenance requests and expenses.',
      ),
      p('Admins and editors add vendors; only admins edit or delete them.'),
    ],
  },
  {
    id: 'maintenance-requests',
    title: 'Maintenance Requests',
    blocks: [
      p(
        'A maintenance request records work on a unit: the unit, the tenant, the date, a description, the priority (Low, Medium or High), the status, the vendor and the estimated cost.',
      ),
      list(
        'Status is Open, In Progress or Closed, and any of them can be chosen at any time. New requests start as Open with Low priority.',
        'Open requests count as Pending Repairs on the dashboard.',
        'Admins and editors add and edit requests; only admins delete them.',
      ),
    ],
  },
  {
    id: 'occupancy',
    title: 'Occupancy',
    blocks: [
      p(
        'An occupancy record is a lease: which tenant occupies which unit, from a start date to an optional end date (not before the start), at which rate and rent cycle (Monthly, Weekly or Daily).',
      ),
      list(
        'It also keeps the deposit and its status (Held, Returned or Forfeited), the notice period in days, whether utilities are included, and the lease status: Active, Terminated or Renewed.',
        "A lease document (PDF, PNG or JPEG, at most 5 MB) can be attached and downloaded from the record's details.",
        'Admins and editors add and edit occupancy records; only admins delete them.',
      ),
    ],
  },
  {
    id: 'user-roles',
    title: 'User Roles',
    blocks: [
      p('Every user holds one or more roles:'),
      list(
        'Admin: runs the whole installation. Does everything in their company, including deleting records and editing expenses, vendors, employees, commission wages, companies, countries and currencies, and manages users on the User Roles page.',
        'Company admin: reads the company’s data; the menu also shows Employees and Commission Wages. A company admin does not add, change or delete records.',
        'Editor: adds records, and edits units, tenants, occupancy records, payments and maintenance requests. Editors do not delete.',
        'Viewer: reads the company’s data without changing it; of the data pages, the menu shows Units and Countries.',
      ),
      p(
        'A user without a role can sign in but sees no data until an administrator grants one. Everyone signed in can change their own password (Profile, Change Password).',
      ),
      p(
        "On User Roles (admins only) you search users by e-mail, add a user, edit a user's roles (at least one), set a new password for them, edit their profile, and disable or enable their account. Disabling signs the user out at once; a new password ends their other sessions and lifts a sign-in lock. You cannot remove your own admin role or disable your own account.",
      ),
      p(
        "Business data always belongs to the signed-in user's company, for admins too: an admin works in another company by changing the company in their own profile.",
      ),
    ],
  },
  {
    id: 'account',
    title: 'Account',
    blocks: [
      list(
        `Sign Up asks for your e-mail address, first and last name, your company, a password of at least ${PASSWORD_MIN_LENGTH} characters (typed twice) and the CAPTCHA. You are signed in at once and wait for a role.`,
        `Passwords have at least ${PASSWORD_MIN_LENGTH} characters.`,
        `After ${LOCK_AFTER_FAILURES} failed sign-ins in a row for one e-mail address, that address is locked for ${LOCK_MINUTES} minutes, even with the right password. A successful sign-in resets the count; a wrong CAPTCHA does not count.`,
        `Forgot your password? Choose 'Forgot password?' on the Login page and enter your e-mail address. If it is registered you receive an e-mail with a link that works once, within ${RESET_TOKEN_MINUTES} minutes. Setting the new password ends all your sessions.`,
        'Change Password (Profile in the menu) asks for your current password and the new one twice. Afterwards all your sessions end, this one too, and you sign in again.',
        'Login with Google works when the administrator has set it up, for an active Kodi account with the same verified e-mail address as your Google account. It never creates an account.',
        'Logout is in the account menu at the top right. A disabled account cannot sign in.',
      ),
    ],
  },
  {
    id: 'faq',
    title: 'FAQ',
    blocks: [
      {
        kind: 'qa',
        items: [
          {
            q: 'I registered but see no data.',
            a: 'Your account has no role yet. Ask an administrator to grant one on User Roles, then reload the page or sign in again.',
          },
          {
            q: 'I cannot read the CAPTCHA.',
            a: 'Click the image, or the refresh button next to it, for a new one. Every attempt uses the image up, so a new one appears after each try.',
          },
          {
            q: 'My sign-in is refused even with the right password.',
            a: `After ${LOCK_AFTER_FAILURES} failed attempts the address is locked for ${LOCK_MINUTES} minutes: wait, or ask an administrator to set a new password, which lifts the lock. A disabled account cannot sign in at all.`,
          },
          {
            q: 'The reset link does not work.',
            a: `A reset link works once, for ${RESET_TOKEN_MINUTES} minutes. Ask for a new one on the Forgot password page.`,
          },
          {
            q: "Why is 'Login with Google' greyed out?",
            a: 'Google sign-in has not been set up on this installation.',
          },
          {
            q: 'Why can I not delete a record?',
            a: 'Only admins delete, and a record that others still refer to cannot be deleted: Kodi names what still uses it. Remove those first.',
          },
          {
            q: 'Kodi says the record was changed by someone else.',
            a: 'Someone saved it after you opened it. Reload to see the latest version, then make your change again.',
          },
          {
            q: 'In which currency are amounts shown?',
            a: "In your company's currency (UGX when the company has none).",
          },
          {
            q: 'Where do I find a receipt?',
            a: "On Payments, choose Print receipt on the payment's row. A payment has a receipt number once it is Completed.",
          },
        ],
      },
    ],
  },
  {
    id: 'glossary',
    title: 'Glossary',
    blocks: [
      {
        kind: 'terms',
        items: [
          { term: 'Unit', text: 'A property you let: an apartment, house, studio or commercial space.' },
          { term: 'Tenant', text: 'A person who rents a unit.' },
          {
            term: 'Occupancy record (lease)',
            text: 'Which tenant occupies which unit, from when, at which rate.',
          },
          { term: 'Rent cycle', text: 'How often rent is due: monthly, weekly or daily.' },
          { term: 'Deposit', text: 'Money held for a lease: held, returned or forfeited.' },
          { term: 'Payment serial', text: 'The number every payment gets when recorded, like PAY-000001.' },
          {
            term: 'Receipt number',
            text: 'The number a payment gets when it is first completed, like RCT-000001.',
          },
          { term: 'Pending repair', text: 'A maintenance request whose status is Open.' },
          { term: 'Incomplete payment', text: 'A payment whose status is Pending.' },
          { term: 'Vendor', text: 'A person or firm who does work for you, such as a plumber.' },
          { term: 'Company', text: 'The landlord or agency a user works for; all its data is kept apart.' },
          {
            term: 'Role',
            text: 'What a user may do: Admin, Company admin, Editor or Viewer.',
          },
          {
            term: 'CAPTCHA',
            text: 'The image of characters you type at sign-in and sign-up, to show you are a person.',
          },
          { term: 'Export', text: 'A copy of a list as an Excel (xlsx) or PDF file.' },
        ],
      },
    ],
  },
];

/** A topic's words, for the search box. */
export const topicText = (topic: HelpTopic): string =>
  [
    topic.title,
    ...topic.blocks.flatMap((block) => {
      switch (block.kind) {
        case 'p':
          return [block.text];
        case 'list':
          return block.items;
        case 'qa':
          return block.items.flatMap((i) => [i.q, i.a]);
        case 'terms':
          return block.items.flatMap((i) => [i.term, i.text]);
      }
    }),
  ].join(' ');
