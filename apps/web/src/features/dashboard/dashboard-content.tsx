/**
 * The dashboard body (01-core §2 'Home dashboard'), shown to users who hold a role:
 * four count cards (Available Units, Pending Repairs, Payments This Month, Incomplete Payments),
 * four lists of up to 5 entries, and the 'Incomplete Payments (Pending)' table, loaded in parallel
 * (units, maintenance requests, payments, expenses) and refreshed every 10 minutes.
 *
 * Not built yet: it lands here without touching the Home page.
 */
export const DashboardContent = () => null;
