import FormHelperText from '@mui/material/FormHelperText';
import { useQuery } from '@tanstack/react-query';
import { sharedPhoneWarning, type PhoneCheck } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useDebounced } from '../../components/ui/use-debounced.ts';

/** How long the phone stays unchanged before it is checked. */
export const PHONE_CHECK_DEBOUNCE_MS = 400;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Under the tenant form's phone (issue 26): the company's other tenants who have the number typed, as
 * a warning (saving is allowed), since a payment from it cannot say whose it is. Asked of
 * `GET /tenants/phone-check` once the phone has stopped changing, read as a save would read it.
 */
export const SharedPhoneNote = ({
  values,
  tenantId,
}: {
  values: Readonly<Record<string, unknown>>;
  tenantId: number | null;
}) => {
  const phone = useDebounced(text(values.phone), PHONE_CHECK_DEBOUNCE_MS);
  const countryCode = useDebounced(text(values.country_code), PHONE_CHECK_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: [...resourceKeys.entity('tenants'), 'phone-check', phone, countryCode, tenantId] as const,
    queryFn: () => {
      const params = new URLSearchParams({ phone });
      if (countryCode) params.set('country_code', countryCode);
      if (tenantId !== null) params.set('except_id', String(tenantId));
      return api.get<PhoneCheck>(`/tenants/phone-check?${params.toString()}`);
    },
    enabled: phone.replace(/\D/g, '').length >= 6,
    staleTime: 10_000,
  });
  const shared = query.data?.shared_with ?? [];
  if (!query.data || shared.length === 0) return null;
  return (
    <FormHelperText sx={{ color: 'warning.dark', mx: 1.75 }} role="status" data-testid="shared-phone-note">
      {sharedPhoneWarning(shared.map((s) => s.name))}
    </FormHelperText>
  );
};
