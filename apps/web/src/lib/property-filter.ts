import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from './session.ts';
import { readLocalJson, removeLocal, storageKeys, writeLocalJson } from './storage.ts';

/**
 * The property the pages that take one (Units, Occupancy, Payments, Expenses, Maintenance Requests,
 * Arrears, Financial Reports, Home) show: `?property_id=` in the URL, and remembered for the user
 * (local storage, with the user's id) so that it is put back into the URL of the next of those
 * pages opened without one. Choosing "all properties" forgets it.
 */

/** The URL parameter. */
export const PROPERTY_PARAM = 'property_id';

/** What is remembered: whose choice it is, the property and its name (the picker's label). */
export type RememberedProperty = { user: number; id: number; name?: string | undefined };

const parseId = (raw: string | null): number | null =>
  raw !== null && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;

/** The property remembered for this user, if any. */
export const rememberedProperty = (userId: number | undefined): RememberedProperty | null => {
  if (userId === undefined) return null;
  const r = readLocalJson<RememberedProperty>(storageKeys.property);
  return r && r.user === userId && typeof r.id === 'number' ? r : null;
};

/** The property a URL shows: its `property_id`, else the one remembered for the user. */
export const propertyOfUrl = (search: string, userId: number | undefined): number | null => {
  const raw = new URLSearchParams(search).get(PROPERTY_PARAM);
  return raw !== null ? parseId(raw) : (rememberedProperty(userId)?.id ?? null);
};

export type SelectedProperty = {
  /** the property shown, or null for all of them */
  propertyId: number | null;
  /** its name, when remembered (else the picker looks it up) */
  propertyName: string | undefined;
  /** chooses a property (null: all), in the URL and remembered */
  setProperty: (id: number | null, name?: string) => void;
};

/** The selected property of the page: the URL's, else the one remembered for the user. */
export const useSelectedProperty = (): SelectedProperty => {
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const userId = user?.id;
  const raw = params.get(PROPERTY_PARAM);
  const remembered = rememberedProperty(userId);
  const propertyId = raw !== null ? parseId(raw) : (remembered?.id ?? null);

  const setProperty = useCallback(
    (id: number | null, name?: string) => {
      if (id === null) removeLocal(storageKeys.property);
      else if (userId !== undefined)
        writeLocalJson(storageKeys.property, { user: userId, id, name } satisfies RememberedProperty);
      setParams(
        (p) => {
          if (id === null) p.delete(PROPERTY_PARAM);
          else p.set(PROPERTY_PARAM, String(id));
          return p;
        },
        { replace: true },
      );
    },
    [setParams, userId],
  );

  return {
    propertyId,
    propertyName: remembered?.id === propertyId ? remembered.name : undefined,
    setProperty,
  };
};

/**
 * Keeps the URL and the remembered property together (the property selector of a page does it, once
 * a page): the remembered one is written into a URL without one (replacing the entry, so Back does
 * not undo it), and one the URL names (a link from a property's details) is remembered.
 */
export const useRememberedProperty = (): void => {
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const userId = user?.id;
  const raw = params.get(PROPERTY_PARAM);
  const rememberedId = rememberedProperty(userId)?.id ?? null;
  const named = raw === null ? null : parseId(raw);

  useEffect(() => {
    if (userId === undefined) return;
    if (raw === null && rememberedId !== null) {
      setParams(
        (p) => {
          p.set(PROPERTY_PARAM, String(rememberedId));
          return p;
        },
        { replace: true },
      );
    } else if (named !== null && rememberedId !== named) {
      writeLocalJson(storageKeys.property, { user: userId, id: named } satisfies RememberedProperty);
    }
  }, [raw, named, rememberedId, userId, setParams]);
};

/** `?property_id=N` for a link to another of those pages (empty for all properties). */
/**
 * A page's link with these query parameters (those undefined left out) and the property shown: the
 * dashboard's figures open the list filtered to what they count (`/payments?status=pending`).
 */
export const filteredLink = (
  path: string,
  params: Record<string, string | undefined>,
  propertyId: number | null,
): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  if (propertyId !== null) q.set(PROPERTY_PARAM, String(propertyId));
  const text = q.toString();
  return text ? `${path}?${text}` : path;
};

export const propertySearch = (propertyId: number | null): string =>
  propertyId === null ? '' : `?${PROPERTY_PARAM}=${propertyId}`;
