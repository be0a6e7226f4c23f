/** Browser storage keys and safe accessors (storage may be unavailable, e.g. in private mode). */
export const storageKeys = {
  company: 'kodi.company',
  loggedOut: 'kodi.loggedOut',
  /** the property the filtered pages show (lib/property-filter.ts) */
  property: 'kodi.property',
} as const;

const safely = <T>(fn: () => T, fallback: T): T => {
  try {
    return fn();
  } catch {
    return fallback;
  }
};

export const isLoggedOutFlagSet = (): boolean =>
  safely(() => sessionStorage.getItem(storageKeys.loggedOut) !== null, false);

export const setLoggedOutFlag = (): void =>
  safely(() => sessionStorage.setItem(storageKeys.loggedOut, '1'), undefined);

export const clearLoggedOutFlag = (): void =>
  safely(() => sessionStorage.removeItem(storageKeys.loggedOut), undefined);

export const readLocalJson = <T>(key: string): T | null =>
  safely(() => {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  }, null);

export const writeLocalJson = (key: string, value: unknown): void =>
  safely(() => localStorage.setItem(key, JSON.stringify(value)), undefined);

export const removeLocal = (key: string): void => safely(() => localStorage.removeItem(key), undefined);

/** Logout wipes everything this origin keeps in local and session storage. */
export const clearAllStorage = (): void => {
  safely(() => localStorage.clear(), undefined);
  safely(() => sessionStorage.clear(), undefined);
};

/** Expires every cookie script can see (the httpOnly session cookie is ended by the server). */
export const clearReadableCookies = (): void =>
  safely(() => {
    for (const part of document.cookie.split(';')) {
      const name = part.split('=', 1)[0]?.trim();
      if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
    }
  }, undefined);
