import {
  IMPORT_EXPIRY_HOURS,
  MAX_IMPORT_ROWS,
  MAX_PORTAL_PHOTOS,
  MAX_REMINDERS,
  MAX_SEND_ATTEMPTS,
  MFA_CHALLENGE_MINUTES,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODE_COUNT,
  RESET_TOKEN_MINUTES,
  STALE_REMINDER_DAYS,
  SMS_PART_LENGTH,
  roleDescriptions,
  roleLabels,
  staffRoleNames,
  statementSourceLabels,
  templateVariables,
} from '@kodi/domain';
import {
  DASHBOARD_REFRESH_MINUTES,
  IMPORT_MAX_MB,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  PORTAL_CODE_MINUTES,
  PORTAL_INVITATION_DAYS,
  list,
  p,
  topicText,
  type HelpBlock,
  type HelpTopic,
} from './help-shared.ts';

/**
 * The Help Center's text, in English (the source; help-topics.sw.ts and help-topics.fr.ts say it in
 * Kiswahili and French). It describes Kodi as it behaves (product decisions 'Help text',
 * docs/decisions.md): change it when the behaviour changes.
 */

export {
  DASHBOARD_REFRESH_MINUTES,
  IMPORT_MAX_MB,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  PORTAL_CODE_MINUTES,
  PORTAL_INVITATION_DAYS,
  topicText,
  type HelpBlock,
  type HelpTopic,
};

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
        'Status is Available, Occupied or Maintenance. New units start as Available. The leases keep it: an Available unit becomes Occupied when a lease lets it (on the lease’s start date), and Available again when no lease lets it any more (the lease ended, was terminated or deleted). A unit under Maintenance is never changed by itself, and you can set any status by hand.',
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
        "The tenant needs an occupancy record for that unit, otherwise Kodi answers 'No matching occupancy found for this tenant and unit combination.' Each tenant is offered with the unit they rent. Choosing a tenant fills in the unit of the lease the payment goes to, the amount due today (or the next rent when nothing is due) and the period it covers; what you type yourself is never replaced.",
        'Status is Pending, Completed or Failed; a new payment starts as Completed.',
        'Every payment gets a serial number when it is recorded (PAY-000001, PAY-000002, ...). When a payment becomes Completed for the first time it also gets a receipt number (RCT-000001, RCT-000002, ...). Both count per company, without gaps, and are never reused; a receipt number never changes once given.',
        'Print receipt, on a payment row, opens the receipt (receipt number, date, tenant, unit, method, status and amount) with Download PDF for an A4 copy. Its QR code lets anyone check the receipt online.',
        'A receipt never changes: once a payment is Completed its amount, date, tenant, unit, method and status are locked. If something was wrong, void the payment (Void payment in its details, with a reason) and record a new one. A voided payment keeps its numbers, its receipt says VOID, and it no longer counts in balances, arrears or reports.',
        'Admins and company admins void any payment; an editor voids only a payment they recorded the same day. Voided payments are hidden from the list unless you choose Void in its status filter.',
        'Admins and editors add and edit payments. Deleting a completed payment voids it instead; pending and failed payments can be deleted by admins.',
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
    id: 'owners',
    title: 'Owners',
    blocks: [
      p(
        'Owners are the people and companies whose properties you manage: a first and last name or a company name, a phone, an e-mail, a tax ID and how they are paid out (bank transfer, mobile money, cash or check).',
      ),
      p(
        "A property's details show its owners with their shares and its management agreement (the fee, a minimum fee, the reserve kept back and the rental tax withheld). Shares add up to 100% and count from the day they are set; a property with no owners is the company's own. Nothing is posted to the books for owners yet.",
      ),
      p(
        'Every role reads owners; admins and company admins add and change them and the shares; only admins delete them.',
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
    id: 'imports',
    title: 'Imports',
    blocks: [
      p(
        `Import (Administration; admins and editors) brings records in from a CSV or Excel (xlsx) file: properties, units, tenants, occupancy records (leases, with their opening balances), payments and expenses. A file holds one kind of record, at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows and ${IMPORT_MAX_MB} MB.`,
      ),
      list(
        'Download the template of the kind you import for its columns and an example row. Kodi also reads your own headers: the field labels and usual names such as Phone number, Mobile, Rent, DOB or Gender.',
        'Upload the file and Kodi shows a preview before anything is saved: how many rows it will create, update or leave unchanged, and every problem by row number and field. Change a column’s mapping and the preview is made again. Download the errors file, fix the rows and import it again.',
        `Import saves the valid rows all at once, or nothing if any of them fails. A preview not imported within ${IMPORT_EXPIRY_HOURS} hours expires: upload the file again.`,
        'Related records are named, never numbered: a unit by its name, a tenant by their full name or phone, or by an external reference (External ref column). A row whose external reference already exists updates that record, changing only the columns the file has.',
        "Dates may be written 2026-03-05, 5 Mar 2026 or, in the format you choose, 05/03/2026. Amounts may carry the company's currency (UGX 1,200,000); another currency is refused. Phones are read as numbers of the company's country: 0772 123456 becomes +256772123456.",
        'A lease that started in the past charges the rent of every period since its start: the preview totals that back rent. Give the lease an opening balance (what the tenant owed on a date) so that only the rent after that date is charged.',
      ),
    ],
  },
  {
    id: 'combined-sheet',
    title: 'The Combined Sheet: Tenants, Leases and Balances in One File',
    blocks: [
      p(
        "A landlord's own sheet is enough to start: one row per let unit, with the tenant, their phone, the unit, the rent, the start date and what the tenant owes today. Import it as Occupancy (Administration, Import): Kodi creates the tenants it does not have, their leases and the opening balances together, in one go.",
      ),
      list(
        "Columns Kodi reads by their usual names: Tenant name (or Full name, Name), Phone (or Mobile, Tel), Unit, Rent, Start date (or Move in) and Opening balance (or Balance, Arrears, Amount owed); Sex, Date of birth and E-mail when the sheet has them. Change a column's mapping in the preview if Kodi read it otherwise.",
        'The units must be in Kodi first (add them, or import a units file): the Unit column names them. A unit row with only its monthly rate gets its weekly and daily rates from it (× 12 / 52 and × 12 / 365).',
        "A tenant is found by name (or phone, or external reference). One Kodi does not have is added from the row: a whole name is split, its last word the last name ('Brian Bbosa Okello' becomes Brian Bbosa / Okello); a single word is refused, give a first and a last name. A tenant in two units is added once, with two leases.",
        "Phones are read as your company's country's numbers however they are written (0772 123456, +256 772-123-456, 256772123456). A number that cannot be one of that country's is a rejected row. Two tenants with the same phone are a warning, not an error: a mobile-money payment from that phone cannot say whose it is.",
        "What the file lacks and the records require (a new tenant's sex and date of birth, an opening balance's date) is asked once under 'Values the file lacks': the value goes to every row without one, and the preview shows it '(given for every row)'. Choose Preview again to see the rows with it.",
        'Opening balance: what the tenant owed on the opening balance date (a negative amount for rent paid ahead). No rent is charged for the periods due on or before that date. A lease that started in the past without a balance is charged the rent of every period since its start; the preview totals that back rent before you import.',
        'Import saves every valid row or nothing, and says how many tenants it added. Download the rejected rows, correct them and import that file again.',
      ),
    ],
  },
  {
    id: 'books',
    title: 'The Books',
    blocks: [
      p(
        'Kodi keeps double-entry books for your company. Every money event posts one balanced journal entry by itself: rent as it falls due, late fees, charges, waivers, payments and their voids, deposits, expenses, wages and opening balances. A posted entry never changes; a correction is an entry of its own.',
      ),
      list(
        "Chart of Accounts (Finance) lists the company's accounts with their balances: cash on hand, mobile money, bank, accounts receivable (what tenants owe), tenant credits, deposits held, rental and fee income, one expense account per category, wages and more. Admins and company admins add, rename and deactivate accounts; an account that has entries is never deleted, only deactivated, and Kodi keeps posting to its default accounts even when they are deactivated.",
        'Which account a payment goes to follows its method: cash to Cash on hand, mobile money to Mobile money, bank transfers and cheques to Bank. An expense is paid from the account chosen in its form (Cash on hand by default).',
        'Journal (Finance) lists the entries, newest first, searchable by memo and filtered by date, account and source (Rent due, Payment voided, Manual entry…). Open an entry for its lines. Admins and company admins post a manual entry: two lines or more whose debits equal their credits.',
        'Closing the books (Journal, Close the books; admins and company admins) fixes every day up to the date you choose: nothing can be posted, voided or adjusted on or before it, and a close cannot be undone. Rent still due for those days is posted on the first open day.',
        'Opening balances: a lease can carry what the tenant owed (or had paid ahead, as a negative amount) on a date, its opening balance date. No rent is charged for the periods due on or before that date, so you can start in Kodi without entering the past.',
        'Voiding a payment: a receipt never changes. Void the payment (with a reason) and record a new one; the void posts its own reversing entry on the day it is made.',
      ),
      p(
        'Financial Reports (Finance, every staff role) shows the income statement and the cash flow by month with a total for the period, the trial balance, the general ledger of an account and the balance sheet, for the company or one property, each exported to Excel or PDF. The income statement is on a cash basis (payments received, split into rent, late fees and other charges) or an accrual basis (rent and charges as they fell due).',
      ),
    ],
  },
  {
    id: 'collections',
    title: 'Collections: Statements and Matching',
    blocks: [
      p(
        `Collections (Finance; admins and editors) turns the money you received into payments. Upload a statement as it comes from the provider (${Object.values(statementSourceLabels).join(', ')}, choosing its source) in CSV or Excel: Kodi reads each incoming transaction and looks for the lease it pays.`,
      ),
      list(
        "Matching reads the payer's phone (in any writing: 0772…, 256772…, +256772…) against tenants' phones, and the reference against unit and tenant names and external references. A phone and a reference naming the same lease, or a phone and exactly the rent due, is certain; a phone alone with another amount, or a reference alone, is a suggestion.",
        'Each line is Unmatched, Suggested, Matched or Ignored. Accept a suggestion, or Match by hand (splitting the amount between leases if it pays several); each becomes a completed payment with its receipt, dated on the transaction day, its reference the transaction id.',
        'Company Settings, Collections: turn on posting certain matches at once to make their payments without waiting for you.',
        'Ignore a line that is not rent (with a reason). Money going out (withdrawals, fees) is ignored by itself. The same transaction in a second statement is recognised and never counted twice.',
        'An admin can unmatch a matched line: its payments are voided (their receipts stay, marked void) and the line can be matched again. Deleting a statement (admins and company admins) voids every payment its lines made.',
        'A payment provider or aggregator can also send each transaction to Kodi as it happens (Company Settings, payment webhook); those lines are matched the same way.',
      ),
    ],
  },
  {
    id: 'matching-memory',
    title: 'Matching Memory: How Collections Learn',
    blocks: [
      p(
        "Often rent comes from a phone no tenant has: a relative's, an employer's, a second SIM. The first time, Collections cannot tell whose it is and the line says so ('No tenant has this phone'). Match it to the lease by hand once, and Kodi remembers.",
      ),
      list(
        "Matching a line to one lease (Match by hand, or accepting a suggestion) teaches Kodi that its payer's phone pays that lease. A line without a phone (a bank transfer) is remembered by its reference instead. A line split between several leases teaches nothing.",
        "The open lines of that phone already uploaded follow at once, and every later line of it comes in the same way: suggested for that lease, with the reason 'Matched by hand before: a line of this phone went to this lease'. What was matched by hand comes before what the phone or reference would say.",
        'When Company Settings, Collections posts certain matches at once, those lines are matched and their payments made without waiting for you.',
        'Matching a line of the same phone by hand to another lease replaces what was learned: the latest match by hand wins.',
        "Every open line says why it is open: 'No tenant has this phone', 'Two tenants share this phone', 'Amount differs from the rent due (UGX 800,000)', 'The tenant has several leases: split the amount between them', and so on. Read it before accepting.",
      ),
    ],
  },
  {
    id: 'late-fees-reminders',
    title: 'Late Fees, Reminders and Messages',
    blocks: [
      p(
        "Every day, at the company's daily run hour in its time zone (Company Settings, Daily run), Kodi applies the rent increases that fall due, posts late fees and queues rent reminders. 'Run the daily cycle now' runs it at once and lists for whom each late fee, rent increase and reminder was made; a day is never run twice, and days missed while the server was down are caught up with their own dates.",
      ),
      list(
        'Late fees (Company Settings, Late fees): after the grace days, a rent still unpaid gets a fee the next day, flat or a percentage of what is unpaid, once or again every week or month while unpaid, up to an optional cap per rent. A lease can have its own policy or be exempt. Only rent earns fees.',
        'A fee or a charge is never changed or deleted: admins and company admins waive it (Waive, with a reason, in the lease’s Charges and fees), which takes its amount off what the tenant owes.',
        `Reminders (Company Settings, Reminders; up to ${MAX_REMINDERS}): before the due date, on it, or after it, by e-mail and SMS, each with its template. A reminder goes only when something of that rent is still unpaid at the end of the day before, and never more than ${STALE_REMINDER_DAYS} days late.`,
        'Receipts can be sent by themselves, by e-mail (with the PDF) and SMS, when a payment is completed (Company Settings, Receipts and messages; a tenant can be left out with their own e-mail and SMS choices).',
        `Templates (Messages, Templates) hold the words of each reminder and receipt, with placeholders such as ${templateVariables
          .slice(0, 3)
          .map((v) => `{{${v}}}`)
          .join(', ')}. An SMS longer than ${SMS_PART_LENGTH} characters goes as several parts.`,
        `The message log (Messages) shows every message with its address, status and, for one skipped or failed, the reason: no e-mail address or phone for the tenant, no e-mail or SMS provider set up on the server, or the provider's refusal. A failed send is retried up to ${MAX_SEND_ATTEMPTS} times; Send again queues a failed or skipped message once more.`,
      ),
    ],
  },
  {
    id: 'tenant-portal',
    title: 'Tenant Portal',
    blocks: [
      p(
        'Tenants have a portal of their own, made for phones: what they owe and when the next rent is due, their ledger and statement, their payments with receipts, and their repair requests.',
      ),
      list(
        `Invite a tenant from their details (Tenant portal: Invite by e-mail or Invite by SMS; admins and editors). The link works once, for ${PORTAL_INVITATION_DAYS} days, and lets the tenant choose a password; a new invitation replaces the earlier one.`,
        `Tenants sign in at /portal with their e-mail address or phone number and their password, or with a ${PORTAL_CODE_MINUTES}-minute code sent to them. The staff sign-in page does not let tenants in.`,
        `A tenant can report a repair with up to ${MAX_PORTAL_PHOTOS} photos; it appears among the Maintenance Requests, marked as submitted by the tenant.`,
        'The portal keeps what it last fetched, so a tenant can still read it offline.',
        'Admins and company admins turn a tenant’s portal access off (and on again): turning it off signs the tenant out at once.',
      ),
    ],
  },
  {
    id: 'two-factor',
    title: 'Two-Factor Sign-In',
    blocks: [
      p(
        'Two-factor sign-in asks for a code from an authenticator app on your phone after your password, so that a stolen password alone cannot open your account.',
      ),
      list(
        'Turn it on in Account Security (Profile in the menu): scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…) or type its key, then enter the code the app shows and your password.',
        `You then get ${RECOVERY_CODE_COUNT} recovery codes, shown only once: keep them somewhere safe. Each signs you in once if you lose your phone.`,
        `At sign-in, after your password, enter the app's current code (or a recovery code) within ${MFA_CHALLENGE_MINUTES} minutes. A code works once. Wrong codes count as failed sign-ins, like wrong passwords.`,
        'Turning it on signs you out everywhere else. To turn it off, enter a current code and your password.',
        'Account Security also lists where you are signed in; end a session you do not recognise, or all the others at once.',
        'Lost your phone and your recovery codes? An administrator resets your two-factor sign-in (User Roles, Sign-in security), then you set it up again.',
        'Company Settings, Sign-in can require two-factor sign-in for every staff user of the company: a user without it is taken to Account Security until it is on.',
      ),
    ],
  },
  {
    id: 'user-roles',
    title: 'User Roles',
    blocks: [
      p('Every staff user holds one or more roles:'),
      list(...staffRoleNames.map((r) => `${roleLabels[r]}: ${roleDescriptions[r]}`)),
      p(
        "Tenants' portal accounts are not staff users: they are not listed on User Roles and are managed in the Tenant portal section of a tenant's details.",
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
          {
            term: 'Void',
            text: 'What happens to a wrong payment: it stays, with its receipt marked void, and no longer counts.',
          },
          {
            term: 'Opening balance',
            text: 'What a tenant owed (or had paid ahead) on the day a lease starts being kept in Kodi.',
          },
          {
            term: 'Journal entry',
            text: 'One money event in the books: accounts debited and credited by equal amounts.',
          },
          {
            term: 'Statement line',
            text: 'One transaction of an uploaded mobile-money or bank statement, matched to a lease.',
          },
          { term: 'Waiver', text: 'A fee or charge taken off what a tenant owes, with its reason.' },
        ],
      },
    ],
  },
];
