/** Valid bodies for each entity, for API tests (`buildX` factories go through the real routes). */
export const validUnit = (overrides: Record<string, unknown> = {}) => ({
  name: 'Kololo Heights A1',
  address: 'Plot 4, Kololo Hill Drive, Kampala',
  unit_type: 'apartment',
  status: 'available',
  monthly_rate: 1_500_000,
  weekly_rate: 375_000,
  daily_rate: 50_000,
  description: 'Two-bedroom flat with a balcony.',
  ...overrides,
});

export const validTenant = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Grace',
  last_name: 'Namuli',
  sex: 'F',
  country_code: '+256',
  phone: '+256772123456',
  email: 'grace@example.com',
  date_of_birth: '1990-04-12',
  status: 'active',
  ...overrides,
});

/** A 1x1 transparent PNG, and text pretending to be one. */
export const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
export const FAKE_PNG = Buffer.from('this is not a png at all').toString('base64');
