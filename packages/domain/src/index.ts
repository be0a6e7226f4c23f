export * from './errors.ts';
export * from './roles.ts';
export * from './validation.ts';
export * from './auth.ts';
export * from './money.ts';
export * from './dates.ts';
export * from './enums.ts';
export * from './navigation.ts';
