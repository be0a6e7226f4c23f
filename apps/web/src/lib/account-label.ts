import { useCallback } from 'react';
import { accountLabel, type NamedAccount } from '@kodi/domain';
import { useT } from './i18n.ts';
import { useTexts } from './texts.ts';

/**
 * An account's name as the pages show it (issue 30): a default account not renamed in the reader's
 * language (`accountLabel`, packages/domain/src/account-names.ts), any other as the company named it.
 * Loads the `accounts` group (the pages that list accounts ask for it with their own, app/routes.tsx).
 */
export const useAccountLabel = (): ((account: NamedAccount) => string) => {
  useTexts('accounts');
  const { td } = useT();
  return useCallback(
    (account: NamedAccount) => accountLabel(account, (key, english) => td(key, english)),
    [td],
  );
};
