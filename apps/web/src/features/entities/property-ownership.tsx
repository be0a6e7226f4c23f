import { useId, useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  agreementForm,
  feeKind,
  formatDate,
  formatMoney,
  isCompanyAdmin,
  propertyOwnersForm,
  type Field,
  type ManagementAgreement,
  type PropertyOwners,
} from '@kodi/domain';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { ReferencePicker } from '../../components/resource/reference-picker.tsx';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useT, type Translate } from '../../lib/i18n.ts';
import type { Language } from '@kodi/domain';

/**
 * A property's owners with their shares and its management agreement, in its details dialog (issue 27,
 * first slice), each with its edit form (admins and company admins). Nothing is posted to the books yet.
 */

const keys = {
  owners: (id: number) => [...resourceKeys.entity('properties'), 'owners', id] as const,
  agreement: (id: number) => [...resourceKeys.entity('properties'), 'agreement', id] as const,
};

const ownersQuery = (id: number) =>
  queryOptions({
    queryKey: keys.owners(id),
    queryFn: ({ signal }) => api.get<PropertyOwners>(`/properties/${id}/owners`, { signal }),
    staleTime: 0,
  });

/** The agreement, or null when the property has none (the server's 404 agreement_not_found). */
const agreementQuery = (id: number) =>
  queryOptions({
    queryKey: keys.agreement(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<ManagementAgreement>(`/properties/${id}/agreement`, { signal });
      } catch (e) {
        if (isApiError(e) && e.code === 'agreement_not_found') return null;
        throw e;
      }
    },
    staleTime: 0,
  });

const ownerField = (label: string): Field => ({
  name: 'owner_id',
  label,
  kind: 'reference',
  ref: { entity: 'owners', labelFields: ['display_name'] },
  required: true,
});

/** '62.5%', '33.33%', '100%' ('62,5 %' in French). */
const percentText = (n: number, language: Language = 'en') =>
  new Intl.NumberFormat(language === 'en' ? 'en-US' : language, {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(n / 100);

/** The section's heading, with its Edit button for those who may change it. */
const Heading = ({
  id,
  title,
  onEdit,
  edit,
}: {
  id: string;
  title: string;
  onEdit?: (() => void) | undefined;
  edit: string;
}) => {
  const { t } = useT();
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}
    >
      <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {onEdit && (
        <Button size="small" onClick={onEdit} aria-label={edit} sx={{ flexShrink: 0 }}>
          {edit === t('ownership.setUpAgreement') ? t('ownership.setUp') : t('ownership.edit')}
        </Button>
      )}
    </Stack>
  );
};

/** The save of a dialog: the call, the property's queries refreshed, a snackbar, the dialog closed. */
const useSave = <T,>(propertyId: number, success: string, onClose: () => void) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  return useMutation({
    mutationFn: (call: () => Promise<T>) => call(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.owners(propertyId) });
      await queryClient.invalidateQueries({ queryKey: keys.agreement(propertyId) });
      showSnackbar({ message: success, severity: 'success' });
      onClose();
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, t('ownership.couldNotSave')), severity: 'error' }),
  });
};

type OwnersInput = z.input<typeof propertyOwnersForm>;
type OwnersValues = z.output<typeof propertyOwnersForm>;

const OwnersDialog = ({ current, onClose }: { current: PropertyOwners; onClose: () => void }) => {
  const { t, language } = useT();
  const save = useSave(current.property_id, t('ownership.ownersSaved'), onClose);
  const names = new Map(current.owners.map((o) => [o.owner_id, o.owner_name]));
  const { control, handleSubmit, setError, watch, formState } = useForm<OwnersInput, unknown, OwnersValues>({
    resolver: zodResolver(propertyOwnersForm),
    defaultValues: {
      owners: current.owners.map((o) => ({ owner_id: o.owner_id, share_percent: o.share_percent })),
    },
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'owners' });
  const rows = watch('owners');
  const total = rows.reduce((sum, r) => sum + (Number(r.share_percent) || 0), 0);
  const listError = formState.errors.owners?.root?.message ?? formState.errors.owners?.message;

  const onValid = (values: OwnersValues) =>
    save.mutate(() => api.put<PropertyOwners>(`/properties/${current.property_id}/owners`, values.owners), {
      onError: (e) => {
        if (!isApiError(e) || !e.fields) return;
        for (const [name, message] of Object.entries(e.fields))
          setError(name.replace(/^(\d)/, 'owners.$1') as 'owners', { message });
      },
    });

  return (
    <FormDialog
      open
      onClose={onClose}
      busy={save.isPending}
      title={t('ownership.ownersOfProperty')}
      maxWidth="sm"
      submitLabel={t('ownership.save')}
      onSubmit={(e) => void handleSubmit(onValid)(e)}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('ownership.sharesHelp')}
        </Typography>
        {fields.map((f, i) => (
          <Box key={f.id} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
            <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
              <Controller
                control={control}
                name={`owners.${i}.owner_id`}
                render={({ field, fieldState }) => {
                  const id = Number(field.value);
                  const known = names.get(id);
                  return (
                    <ReferencePicker
                      field={ownerField(t('ownership.owner'))}
                      value={field.value}
                      hint={known === undefined ? undefined : { value: id, label: known }}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={!!fieldState.error}
                      helperText={fieldState.error?.message}
                    />
                  );
                }}
              />
            </Box>
            <Controller
              control={control}
              name={`owners.${i}.share_percent`}
              render={({ field, fieldState }) => (
                <TextField
                  label={t('ownership.share')}
                  type="number"
                  required
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(e.target.value)}
                  onBlur={field.onBlur}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                  sx={{ width: 110, flexShrink: 0 }}
                  slotProps={{
                    htmlInput: { step: 'any', inputMode: 'decimal', min: 0, max: 100 },
                    input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
                  }}
                />
              )}
            />
            <IconButton
              aria-label={t('ownership.removeOwner', { n: i + 1 })}
              onClick={() => remove(i)}
              sx={{ mt: 1 }}
            >
              <DeleteOutline />
            </IconButton>
          </Box>
        ))}
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Button
            size="small"
            startIcon={<Add />}
            onClick={() => append({ owner_id: '', share_percent: rows.length === 0 ? 100 : '' })}
          >
            {t('ownership.addOwner')}
          </Button>
          {rows.length > 0 && (
            <Typography variant="body2">
              {t('ownership.total', { percent: percentText(Math.round(total * 100) / 100, language) })}
            </Typography>
          )}
        </Stack>
        {listError && <Alert severity="error">{listError}</Alert>}
      </Stack>
    </FormDialog>
  );
};

type AgreementInput = z.input<typeof agreementForm>;
type AgreementValues = z.output<typeof agreementForm>;
const agreementFields = new Set([
  'fee_kind',
  'fee_amount',
  'minimum_fee',
  'reserve',
  'withhold_rental_tax',
  'rental_tax_rate',
]);

const AgreementDialog = ({
  propertyId,
  current,
  onClose,
}: {
  propertyId: number;
  current: ManagementAgreement | null;
  onClose: () => void;
}) => {
  const money = useCompanyMoney();
  const { t } = useT();
  const save = useSave(propertyId, t('ownership.agreementSaved'), onClose);
  const { control, handleSubmit, setError, watch } = useForm<AgreementInput, unknown, AgreementValues>({
    resolver: zodResolver(agreementForm),
    defaultValues: current ?? {
      fee_kind: 'percent_of_collected',
      fee_amount: 10,
      minimum_fee: 0,
      reserve: 0,
      withhold_rental_tax: false,
      rental_tax_rate: 0,
    },
  });
  const kind = watch('fee_kind');
  const withholding = watch('withhold_rental_tax') === true;
  const percentFee = kind === 'percent_of_collected';

  const onValid = (values: AgreementValues) =>
    save.mutate(
      () =>
        api.put<ManagementAgreement>(`/properties/${propertyId}/agreement`, {
          ...values,
          ...(current ? { version: current.version } : {}),
        }),
      {
        onError: (e) => {
          if (!isApiError(e) || !e.fields) return;
          for (const [name, message] of Object.entries(e.fields))
            if (agreementFields.has(name)) setError(name as 'fee_kind', { message });
        },
      },
    );

  const number = (
    name: 'fee_amount' | 'minimum_fee' | 'reserve' | 'rental_tax_rate',
    label: string,
    unit: 'money' | 'percent',
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          label={label}
          type="number"
          required={name === 'fee_amount'}
          fullWidth
          value={field.value ?? ''}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          slotProps={{
            htmlInput: { step: 'any', inputMode: 'decimal', min: 0 },
            input:
              unit === 'percent'
                ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
                : { startAdornment: <InputAdornment position="start">{money.currency}</InputAdornment> },
          }}
        />
      )}
    />
  );

  return (
    <FormDialog
      open
      onClose={onClose}
      busy={save.isPending}
      title={t('ownership.agreement')}
      maxWidth="sm"
      submitLabel={t('ownership.save')}
      onSubmit={(e) => void handleSubmit(onValid)(e)}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Controller
          control={control}
          name="fee_kind"
          render={({ field, fieldState }) => (
            <TextField
              select
              label={t('ownership.fee')}
              required
              fullWidth
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={!!fieldState.error}
              helperText={fieldState.error?.message}
            >
              {feeKind.values.map((v) => (
                <MenuItem key={v} value={v}>
                  {t('ownership.feeKind', { kind: v })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {number(
            'fee_amount',
            percentFee
              ? t('ownership.feePercent')
              : kind === 'per_occupied_unit'
                ? t('ownership.feePerUnit')
                : t('ownership.feeMonth'),
            percentFee ? 'percent' : 'money',
          )}
          {number('minimum_fee', t('ownership.minimumFee'), 'money')}
        </Stack>
        {number('reserve', t('ownership.reserve'), 'money')}
        <Controller
          control={control}
          name="withhold_rental_tax"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Checkbox checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
              }
              label={t('ownership.withholdTax')}
            />
          )}
        />
        {withholding && number('rental_tax_rate', t('ownership.taxRate'), 'percent')}
      </Stack>
    </FormDialog>
  );
};

/** The agreement in a line: '10% of collected · minimum UGX 50,000 · reserve UGX 200,000 · tax 7.5% withheld'. */
const agreementLine = (
  a: ManagementAgreement,
  currency: string,
  decimals: number | undefined,
  t: Translate,
  language: Language,
): string => {
  const money = (n: number) => formatMoney(n, currency, decimals, language);
  const percent = (n: number) => percentText(n, language);
  return [
    a.fee_kind === 'percent_of_collected'
      ? t('ownership.ofCollected', { percent: percent(a.fee_amount) })
      : a.fee_kind === 'fixed_monthly'
        ? t('ownership.aMonth', { amount: money(a.fee_amount) })
        : t('ownership.perUnitMonth', { amount: money(a.fee_amount) }),
    a.minimum_fee > 0 ? t('ownership.minimum', { amount: money(a.minimum_fee) }) : undefined,
    a.reserve > 0 ? t('ownership.reserveOf', { amount: money(a.reserve) }) : undefined,
    a.withhold_rental_tax ? t('ownership.taxWithheld', { percent: percent(a.rental_tax_rate) }) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
};

/** The owners and the agreement of a property, in its details dialog. */
export const PropertyOwnership = ({ propertyId }: { propertyId: number }) => {
  const ownersHeading = useId();
  const agreementHeading = useId();
  const { user } = useSession();
  const money = useCompanyMoney();
  const { t, language } = useT();
  const mayEdit = isCompanyAdmin(user);
  const owners = useQuery(ownersQuery(propertyId));
  const agreement = useQuery(agreementQuery(propertyId));
  const [editing, setEditing] = useState<'owners' | 'agreement' | null>(null);
  const close = () => setEditing(null);

  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      <Box component="section" aria-labelledby={ownersHeading}>
        <Heading
          id={ownersHeading}
          title={t('ownership.owners')}
          edit={t('ownership.editOwners')}
          onEdit={mayEdit && owners.data ? () => setEditing('owners') : undefined}
        />
        {owners.isPending ? (
          <CircularProgress size={24} aria-label={t('ownership.loadingOwners')} />
        ) : owners.isError ? (
          <Alert severity="error">{errorMessage(owners.error, t('ownership.ownersFailed'))}</Alert>
        ) : owners.data.owners.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('ownership.companyOwn')}
          </Typography>
        ) : (
          <>
            <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
              {owners.data.owners.map((o) => (
                <Box
                  component="li"
                  key={o.owner_id}
                  sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, py: 0.25 }}
                >
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {o.owner_name}
                  </Typography>
                  <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
                    {percentText(o.share_percent, language)}
                  </Typography>
                </Box>
              ))}
            </Box>
            {owners.data.effective_from && (
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {t('ownership.since', { date: formatDate(owners.data.effective_from, language) })}
              </Typography>
            )}
          </>
        )}
      </Box>
      <Box component="section" aria-labelledby={agreementHeading}>
        <Heading
          id={agreementHeading}
          title={t('ownership.agreement')}
          edit={agreement.data ? t('ownership.editAgreement') : t('ownership.setUpAgreement')}
          onEdit={mayEdit && agreement.data !== undefined ? () => setEditing('agreement') : undefined}
        />
        {agreement.isPending ? (
          <CircularProgress size={24} aria-label={t('ownership.loadingAgreement')} />
        ) : agreement.isError ? (
          <Alert severity="error">{errorMessage(agreement.error, t('ownership.agreementFailed'))}</Alert>
        ) : agreement.data === null ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('ownership.noAgreement')}
          </Typography>
        ) : (
          <Typography variant="body2">
            {agreementLine(agreement.data, money.currency, money.decimals, t, language)}
          </Typography>
        )}
      </Box>
      {editing === 'owners' && owners.data && <OwnersDialog current={owners.data} onClose={close} />}
      {editing === 'agreement' && agreement.data !== undefined && (
        <AgreementDialog propertyId={propertyId} current={agreement.data} onClose={close} />
      )}
    </Stack>
  );
};
