import type { KodiModule } from '../kodi-module.ts';

/** Users, their roles, second factor and recovery codes, sign-in locks and password resets. */
export const identityModule: KodiModule = {
  name: 'identity',
  owns: ['users', 'user_roles', 'mfa_recovery_codes', 'login_attempts', 'password_reset_tokens'],
};
