import { useEffect, useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import { Controller, useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_SERVICE_CHARGE_TEXT,
  DEFAULT_TIMEZONE,
  MAX_LOGO_BYTES,
  MONTH_NAMES,
  companySettingsFormSchema,
  formatDate,
  howToPayLines,
  lateFeeKind,
  lateFeeRepeat,
  messageChannel,
  reminderEvent,
  type CompanySettings,
  type RentCycleRunAnswer,
  type RentCycleRunResult,
} from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { RunMade } from './run-made.tsx';
import { PaymentProvidersSection } from './payment-providers-section.tsx';
import { WhatsappSection } from './whatsapp-section.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { imageDataUrl, resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { MFA_ENROLMENT_PATH, navigateTo } from '../../lib/navigation.ts';
import { ensureStatus, getSession } from '../../lib/session.ts';
import {
  rotateWebhookSecret,
  providersQuery,
  templatesQuery,
  runCycleNow,
  saveSettings,
  settingsKey,
  settingsQuery,
} from './settings-api.ts';

type FormInput = z.input<typeof companySettingsFormSchema>;
type FormValues = z.output<typeof companySettingsFormSchema>;

const SAVED = 'Company settings saved.';
const SAVE_FAILED = 'Could not save the company settings.';

/** Every IANA time zone this browser knows (the saved one first when it does not know it). */
const timeZones = (current: string): string[] => {
  const known =
    (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const all = new Set([DEFAULT_TIMEZONE, 'UTC', ...known]);
  return [...(all.has(current) ? [] : [current]), ...[...all].sort()];
};

const hours = Array.from({ length: 24 }, (_, h) => h);
/** 'November 2026': the month a service charge's example names */
const thisMonth = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric' }).format(new Date());
const billingDays = Array.from({ length: 28 }, (_, d) => d + 1);

const valuesOf = (s: CompanySettings): FormInput => ({
  timezone: s.timezone,
  daily_run_hour: s.daily_run_hour,
  late_fee: s.late_fee,
  reminders: s.reminders,
  receipt_notification: s.receipt_notification,
  sms_sender_id: s.sms_sender_id ?? '',
  auto_post_matches: s.auto_post_matches,
  require_mfa: s.require_mfa,
  payment_instructions: s.payment_instructions,
  utility_billing_day: s.utility_billing_day,
  service_charge_amount: s.service_charge_amount,
  service_charge_description: s.service_charge_description,
  rental_tax: s.rental_tax,
  owner_statements_day: s.owner_statements_day,
});

/** A select of a day of the month (1 to 28) or none (''). */
const dayOptions = (none: string) => [
  <option key="" value="">
    {none}
  </option>,
  ...billingDays.map((d) => (
    <option key={d} value={d}>
      {`Day ${String(d)} of the month`}
    </option>
  )),
];

const numberOrNull = (v: string) => (v === '' ? null : Number(v));

/** How tenants pay (issue 29): each instruction's field, label and hint. */
const instructionFields = [
  [
    'mpesa_paybill',
    'M-Pesa paybill or till number',
    '5 to 7 digits; the lease’s account number goes with it.',
  ],
  ['mtn_momo_code', 'MTN MoMo merchant code', 'The pay code tenants dial or enter.'],
  ['airtel_money_code', 'Airtel Money merchant code', ''],
  ['bank_details', 'Bank details', 'Bank, branch, account name and number.'],
  ['other', 'Other instructions', 'Anything else tenants should know, e.g. where to pay cash.'],
] as const;

const readFile = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

const runText = (r: RentCycleRunResult) =>
  `${r.late_fees_posted} late ${r.late_fees_posted === 1 ? 'fee' : 'fees'} posted, ` +
  `${r.escalations_applied} rent ${r.escalations_applied === 1 ? 'escalation' : 'escalations'} applied, ` +
  `${r.reminders_queued} ${r.reminders_queued === 1 ? 'reminder' : 'reminders'} queued.`;

/**
 * Company Settings (drawer: Administration; admins and company admins): the company's time zone and
 * the hour of its daily run, its logo, its late-fee policy, its rent reminders, the notifications of
 * receipts and its SMS sender id; and the daily run, now.
 */
export const CompanySettingsPage = () => {
  const query = useQuery(settingsQuery());
  const settings = query.data;
  // the run now's answer, kept here: the form is made again when the settings change (its key)
  const [lastRun, setLastRun] = useState<RentCycleRunAnswer | null>(null);
  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      <Box>
        <Typography variant="h4" component="h1">
          Company Settings
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          How the daily run charges late fees and reminds tenants, and what receipts and statements show.
        </Typography>
      </Box>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1.5, alignItems: 'center', py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography variant="body2">Loading ... Please wait</Typography>
        </Box>
      ) : query.isError || !settings ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the company settings.')}</Alert>
      ) : (
        <SettingsForm key={settings.version} settings={settings} lastRun={lastRun} onRun={setLastRun} />
      )}
      {settings && <PaymentProvidersSection />}
      {settings && <WhatsappSection />}
    </Stack>
  );
};

/** The payment webhook's URL, and its secret made or replaced here: shown once. */
const WebhookSecret = ({ url }: { url: string | null }) => {
  const queryClient = useQueryClient();
  const [made, setMade] = useState<{ url: string; secret: string } | null>(null);
  const rotate = useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: (answer) => {
      setMade(answer);
      void queryClient.invalidateQueries({ queryKey: settingsKey });
    },
  });
  const shown = made?.url ?? url;
  return (
    <Stack spacing={1}>
      <Typography variant="body2">
        Payment webhook: {shown ? <code style={{ wordBreak: 'break-all' }}>{shown}</code> : 'not set up.'}
      </Typography>
      {made && (
        <Alert severity="warning">
          Secret (shown once; the old one no longer works):{' '}
          <code style={{ wordBreak: 'break-all' }}>{made.secret}</code>
        </Alert>
      )}
      {rotate.isError && (
        <Alert severity="error">{errorMessage(rotate.error, 'Could not make a secret.')}</Alert>
      )}
      <Box>
        <Button type="button" variant="outlined" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          {shown ? 'Replace the webhook secret' : 'Set up the payment webhook'}
        </Button>
      </Box>
    </Stack>
  );
};

const noInstructions: CompanySettings['payment_instructions'] = {
  mpesa_paybill: null,
  mtn_momo_code: null,
  airtel_money_code: null,
  bank_details: null,
  other: null,
};

/** What a tenant of a lease numbered A12 reads. */
const HowToPayPreview = ({ lines }: { lines: string[] }) =>
  lines.length === 0 ? null : (
    <Box sx={{ mt: 1.5 }} data-testid="how-to-pay-preview">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        A tenant of a lease numbered A12 reads:
      </Typography>
      {lines.map((l) => (
        <Typography key={l} variant="body2">
          {l}
        </Typography>
      ))}
    </Box>
  );

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Paper variant="outlined" component="section" aria-label={title} sx={{ p: { xs: 1.5, sm: 2 } }}>
    <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
      {title}
    </Typography>
    <Stack spacing={2}>{children}</Stack>
  </Paper>
);

const SettingsForm = ({
  settings,
  lastRun,
  onRun: setLastRun,
}: {
  settings: CompanySettings;
  /** what 'Run the daily cycle now' answered, with for whom each item was made (issue 26) */
  lastRun: RentCycleRunAnswer | null;
  onRun: (run: RentCycleRunAnswer) => void;
}) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const money = useCompanyMoney();
  const zones = useMemo(() => timeZones(settings.timezone), [settings.timezone]);
  /** undefined: unchanged; null: removed; a string: the new image's base64. */
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [logoError, setLogoError] = useState<string | null>(null);
  const providers = useQuery(providersQuery());
  const templates = useQuery(templatesQuery());

  const { control, handleSubmit, watch, setError, reset, formState } = useForm<
    FormInput,
    unknown,
    FormValues
  >({
    resolver: zodResolver(companySettingsFormSchema),
    defaultValues: valuesOf(settings),
  });
  useEffect(() => reset(valuesOf(settings)), [settings, reset]);
  const reminders = useFieldArray({ control, name: 'reminders' });
  const feeKind = watch('late_fee.kind');
  const feeEnabled = watch('late_fee.enabled');
  const serviceText = watch('service_charge_description');

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      saveSettings({ ...values, ...(logo === undefined ? {} : { logo }), version: settings.version }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(settingsKey, saved);
      setLogo(undefined);
      showSnackbar({ message: SAVED, severity: 'success' });
      // two-factor sign-in now required: this user too, if they have none, sets it up first
      const me = getSession().user;
      if (saved.require_mfa && me && !me.mfa_enabled) {
        await ensureStatus({ force: true });
        navigateTo(MFA_ENROLMENT_PATH);
      }
    },
    onError: (e) => {
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (name === 'logo') setLogoError(message);
          else setError(name as FieldPath<FormInput>, { message });
        }
      }
      showSnackbar({ message: `${SAVE_FAILED} ${errorMessage(e, '')}`.trim(), severity: 'error' });
    },
  });

  const run = useMutation({
    mutationFn: runCycleNow,
    onSuccess: async (result) => {
      setLastRun(result);
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
      showSnackbar({ message: `Daily run done: ${runText(result)}`, severity: 'success' });
    },
    onError: (e) => showSnackbar({ message: errorMessage(e, 'The daily run failed.'), severity: 'error' }),
  });

  // settings are not lost (issue 26): the run follows the settings as shown, so changes not saved yet
  // are saved first (a form the rules refuse is not run)
  const unsaved = formState.isDirty || logo !== undefined;
  const runNow = () => {
    if (!unsaved) return run.mutate();
    void handleSubmit(async (values) => {
      await save.mutateAsync(values).then(
        () => run.mutate(),
        () => undefined,
      );
    })();
  };

  const chooseLogo = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > MAX_LOGO_BYTES) return setLogoError('The logo must be at most 1 MB.');
    if (!['image/png', 'image/jpeg', 'image/webp'].includes(file.type)) {
      return setLogoError('The logo must be a PNG, JPEG or WebP image.');
    }
    setLogoError(null);
    setLogo(await readFile(file));
  };

  const shownLogo = logo === undefined ? settings.logo : logo;
  const lastRunText = lastRun ?? settings.last_run;

  return (
    <Box
      component="form"
      noValidate
      aria-label="Company settings"
      onSubmit={(e) => void handleSubmit((v) => save.mutate(v))(e)}
    >
      <Stack spacing={2}>
        <Section title="Daily run">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Controller
              control={control}
              name="timezone"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  select
                  fullWidth
                  label="Time zone"
                  slotProps={{ select: { native: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'Dates and the daily run follow this zone.'}
                >
                  {zones.map((z) => (
                    <option key={z} value={z}>
                      {z}
                    </option>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="daily_run_hour"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={String(field.value ?? '')}
                  onChange={(e) => field.onChange(Number(e.target.value))}
                  select
                  fullWidth
                  label="Daily run hour"
                  slotProps={{ select: { native: true } }}
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ?? 'Late fees, escalations and reminders, once a day.'
                  }
                >
                  {hours.map((h) => (
                    <option key={h} value={h}>
                      {`${String(h).padStart(2, '0')}:00`}
                    </option>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="utility_billing_day"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
                  select
                  fullWidth
                  label="Meter billing day"
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ?? 'The daily run bills the meters’ readings that day.'
                  }
                >
                  {dayOptions('By hand only')}
                </TextField>
              )}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Button
              variant="outlined"
              startIcon={<PlayArrow />}
              loading={run.isPending || save.isPending}
              onClick={runNow}
              sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
            >
              Run the daily cycle now
            </Button>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="last-run">
              {lastRunText
                ? `Last run for ${formatDate(lastRunText.as_of)}: ${runText(lastRunText)}`
                : 'Not run yet.'}
              {unsaved ? ' Your unsaved changes are saved first.' : ''}
            </Typography>
          </Stack>
          {lastRun ? <RunMade run={lastRun} money={money} /> : null}
        </Section>

        <Section title="Service charge">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Controller
              control={control}
              name="service_charge_amount"
              render={({ field, fieldState }) => (
                <TextField
                  name={field.name}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => {
                    const v = e.target.value.trim();
                    field.onChange(v === '' ? 0 : Number(v));
                  }}
                  type="number"
                  fullWidth
                  label="Service charge per unit per month"
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ??
                    'Charged to every let unit on the meter billing day (else the 1st); 0: none. A property can have its own.'
                  }
                  slotProps={{
                    htmlInput: { step: 'any', inputMode: 'decimal', min: 0 },
                    input: {
                      startAdornment: <InputAdornment position="start">{money.currency}</InputAdornment>,
                    },
                  }}
                />
              )}
            />
            <Controller
              control={control}
              name="service_charge_description"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={typeof field.value === 'string' ? field.value : ''}
                  fullWidth
                  label="Service charge description"
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ??
                    `Its charges read: ${typeof serviceText === 'string' && serviceText.trim() !== '' ? serviceText.trim() : DEFAULT_SERVICE_CHARGE_TEXT} ${thisMonth}.`
                  }
                  slotProps={{ htmlInput: { maxLength: 60 } }}
                />
              )}
            />
          </Stack>
        </Section>

        <Section title="Late fees">
          <Controller
            control={control}
            name="late_fee.enabled"
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
                label="Charge late fees"
              />
            )}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <NumberField
              control={control}
              name="late_fee.grace_days"
              label="Grace days"
              disabled={!feeEnabled}
            />
            <SelectField
              control={control}
              name="late_fee.kind"
              label="Fee"
              options={lateFeeKind}
              disabled={!feeEnabled}
            />
            <NumberField
              control={control}
              name="late_fee.amount"
              label={feeKind === 'percent' ? 'Percent of what is unpaid' : 'Amount'}
              adornment={feeKind === 'percent' ? '%' : money.currency}
              disabled={!feeEnabled}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <SelectField
              control={control}
              name="late_fee.repeat"
              label="Repeat while unpaid"
              options={lateFeeRepeat}
              disabled={!feeEnabled}
            />
            <NumberField
              control={control}
              name="late_fee.cap"
              label="Cap per charge (optional)"
              adornment={money.currency}
              disabled={!feeEnabled}
              optional
            />
          </Stack>
          <FormHelperText sx={{ mt: 0 }}>
            A rent charge still unpaid at the end of its due date plus the grace days gets a fee the next day;
            a posted fee stays when the policy changes.
          </FormHelperText>
        </Section>

        <Section title="Reminders">
          {reminders.fields.length === 0 && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              No reminders: tenants are not reminded of their rent.
            </Typography>
          )}
          {reminders.fields.map((item, i) => (
            <Stack
              key={item.id}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1.5}
              sx={{ alignItems: { sm: 'flex-start' } }}
              aria-label={`Reminder ${i + 1}`}
              role="group"
            >
              <SelectField
                control={control}
                name={`reminders.${i}.event`}
                label="When"
                options={reminderEvent}
              />
              <NumberField control={control} name={`reminders.${i}.days`} label="Days" />
              <Controller
                control={control}
                name={`reminders.${i}.channels`}
                render={({ field, fieldState }) => (
                  <Box sx={{ minWidth: 170 }}>
                    <FormGroup row>
                      {messageChannel.values.map((channel) => (
                        <FormControlLabel
                          key={channel}
                          label={messageChannel.labels[channel]}
                          control={
                            <Checkbox
                              checked={(field.value ?? []).includes(channel)}
                              onChange={(e) =>
                                field.onChange(
                                  e.target.checked
                                    ? [...(field.value ?? []), channel]
                                    : (field.value ?? []).filter((c) => c !== channel),
                                )
                              }
                            />
                          }
                        />
                      ))}
                    </FormGroup>
                    {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
                  </Box>
                )}
              />
              <Controller
                control={control}
                name={`reminders.${i}.template_id`}
                render={({ field, fieldState }) => (
                  <TextField
                    select
                    label="Template"
                    value={field.value === null || field.value === undefined ? '' : String(field.value)}
                    onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
                    onBlur={field.onBlur}
                    sx={{ minWidth: 200 }}
                    slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message}
                  >
                    <option value="">The company’s for this event</option>
                    {(templates.data ?? []).map((t) => (
                      <option key={t.id} value={String(t.id)}>
                        {t.name}
                      </option>
                    ))}
                  </TextField>
                )}
              />
              <IconButton aria-label={`Remove reminder ${i + 1}`} onClick={() => reminders.remove(i)}>
                <DeleteOutline />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button
              startIcon={<Add />}
              onClick={() =>
                reminders.append({ event: 'overdue', days: 3, channels: ['email'], template_id: null })
              }
            >
              Add reminder
            </Button>
          </Box>
        </Section>

        <Section title="Receipts and messages">
          <FormGroup row>
            {messageChannel.values.map((channel) => (
              <Controller
                key={channel}
                control={control}
                name={`receipt_notification.${channel}`}
                render={({ field }) => (
                  <FormControlLabel
                    label={`Send receipts by ${messageChannel.labels[channel]}`}
                    control={
                      <Checkbox
                        checked={field.value === true}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                  />
                )}
              />
            ))}
          </FormGroup>
          {providers.data && !providers.data.sms && (
            <Alert severity="info" data-testid="no-sms-provider">
              No SMS provider configured: SMS messages are recorded as skipped, not sent (the server's
              SMS_URL).
            </Alert>
          )}
          <Controller
            control={control}
            name="sms_sender_id"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label="SMS sender id"
                sx={{ maxWidth: 320 }}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? '3 to 11 letters, digits or spaces.'}
              />
            )}
          />
        </Section>

        <Section title="Collections">
          <Controller
            control={control}
            name="auto_post_matches"
            render={({ field }) => (
              <FormControlLabel
                label="Post certain matches at once (phone and reference, or phone and the exact rent due)"
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
              />
            )}
          />
          <WebhookSecret url={settings.webhook_url} />
        </Section>

        <Section title="How tenants pay">
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            Shown in the tenant portal, on statements and in reminders ({'{{how_to_pay}}'}), each with the
            lease’s account number.
          </Typography>
          <Stack spacing={2}>
            {instructionFields.map(([name, label, hint]) => (
              <Controller
                key={name}
                control={control}
                name={`payment_instructions.${name}`}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    value={field.value ?? ''}
                    label={label}
                    multiline={name === 'bank_details' || name === 'other'}
                    sx={{ maxWidth: 560 }}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message ?? (hint || undefined)}
                  />
                )}
              />
            ))}
          </Stack>
          <HowToPayPreview
            lines={howToPayLines({ ...noInstructions, ...watch('payment_instructions') }, 'A12')}
          />
        </Section>

        <Section title="Owners and rental tax">
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            Left empty, each rental-tax setting follows the company’s country: Kenya 7.5% of gross residential
            rent, due on the 20th of the next month; Uganda a tax year from July (see the Rental tax report).
          </Typography>
          <Stack spacing={2} sx={{ maxWidth: 560 }}>
            <Controller
              control={control}
              name="owner_statements_day"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(numberOrNull(e.target.value))}
                  select
                  label="Owner statements day"
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ??
                    'The daily run sends every owner their statement of the month before that day.'
                  }
                >
                  {dayOptions('Only when sent by hand')}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="rental_tax.rate"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.target.value === '' ? null : e.target.value)}
                  label="Rental tax rate (%)"
                  slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
                  placeholder="The country’s"
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'Percent of the gross rent received in a month.'}
                />
              )}
            />
            <Controller
              control={control}
              name="rental_tax.due_day"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(numberOrNull(e.target.value))}
                  select
                  label="Rental tax due"
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'The day of the next month a month’s tax is due.'}
                >
                  {dayOptions('The country’s day')}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="rental_tax.year_start_month"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(numberOrNull(e.target.value))}
                  select
                  label="Tax year starts in"
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'The first month of the rental-tax year.'}
                >
                  <option value="">The country’s month</option>
                  {MONTH_NAMES.map((m, i) => (
                    <option key={m} value={i + 1}>
                      {m}
                    </option>
                  ))}
                </TextField>
              )}
            />
          </Stack>
        </Section>

        <Section title="Sign-in">
          <Controller
            control={control}
            name="require_mfa"
            render={({ field }) => (
              <FormControlLabel
                label="Require two-factor sign-in for every staff user"
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
              />
            )}
          />
          <FormHelperText sx={{ mt: 0 }}>
            A user without it is sent to set it up (Account Security) before anything else.
          </FormHelperText>
        </Section>

        <Section title="Logo">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Box
              sx={{
                width: 120,
                height: 80,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                display: 'grid',
                placeItems: 'center',
              }}
            >
              {shownLogo ? (
                <Box
                  component="img"
                  src={imageDataUrl(shownLogo) ?? undefined}
                  alt="Company logo"
                  sx={{ maxWidth: '100%', maxHeight: '100%' }}
                />
              ) : (
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  No logo
                </Typography>
              )}
            </Box>
            <Button component="label" variant="outlined">
              Choose image
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/webp"
                onChange={(e) => void chooseLogo(e)}
              />
            </Button>
            {shownLogo && (
              <Button color="error" onClick={() => setLogo(null)}>
                Remove logo
              </Button>
            )}
          </Stack>
          <FormHelperText error={!!logoError} sx={{ mt: 0 }}>
            {logoError ?? 'PNG, JPEG or WebP, at most 1 MB: shown on receipts, statements and e-mails.'}
          </FormHelperText>
        </Section>

        <Divider />
        <Box>
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save settings
          </Button>
        </Box>
      </Stack>
    </Box>
  );
};

type FieldProps = {
  control: ReturnType<typeof useForm<FormInput, unknown, FormValues>>['control'];
  name: FieldPath<FormInput>;
  label: string;
  disabled?: boolean;
};

const NumberField = ({
  control,
  name,
  label,
  adornment,
  disabled,
  optional = false,
}: FieldProps & { adornment?: string; optional?: boolean }) => (
  <Controller
    control={control}
    name={name}
    render={({ field, fieldState }) => (
      <TextField
        name={field.name}
        inputRef={field.ref}
        onBlur={field.onBlur}
        value={field.value === null || field.value === undefined ? '' : String(field.value)}
        onChange={(e) => {
          const v = e.target.value.trim();
          field.onChange(v === '' ? (optional ? null : v) : Number(v));
        }}
        type="number"
        fullWidth
        label={label}
        disabled={disabled}
        error={!!fieldState.error}
        helperText={fieldState.error?.message}
        slotProps={{
          htmlInput: { step: 'any', inputMode: 'decimal' },
          input: adornment
            ? adornment === '%'
              ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
              : { startAdornment: <InputAdornment position="start">{adornment}</InputAdornment> }
            : undefined,
        }}
      />
    )}
  />
);

const SelectField = ({
  control,
  name,
  label,
  options,
  disabled,
}: FieldProps & { options: { values: readonly string[]; labels: Record<string, string> } }) => (
  <Controller
    control={control}
    name={name}
    render={({ field, fieldState }) => (
      <TextField
        {...field}
        value={String(field.value ?? '')}
        select
        fullWidth
        label={label}
        disabled={disabled}
        slotProps={{ select: { native: true } }}
        error={!!fieldState.error}
        helperText={fieldState.error?.message}
      >
        {options.values.map((v) => (
          <option key={v} value={v}>
            {options.labels[v] ?? v}
          </option>
        ))}
      </TextField>
    )}
  />
);
