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
  type Language,
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
import { useT, type Translate } from '../../lib/i18n.ts';
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

const LOCALES: Record<Language, string> = { en: 'en-GB', sw: 'sw-KE', fr: 'fr-FR' };

/** Every IANA time zone this browser knows (the saved one first when it does not know it). */
const timeZones = (current: string): string[] => {
  const known =
    (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const all = new Set([DEFAULT_TIMEZONE, 'UTC', ...known]);
  return [...(all.has(current) ? [] : [current]), ...[...all].sort()];
};

const hours = Array.from({ length: 24 }, (_, h) => h);
/** 'November 2026': the month a service charge's example names */
const thisMonthIn = (language: Language) =>
  new Intl.DateTimeFormat(LOCALES[language], { month: 'long', year: 'numeric' }).format(new Date());
/** A month's name in the page's language (English: the domain's `MONTH_NAMES`). */
const monthName = (language: Language, index: number) =>
  language === 'en'
    ? MONTH_NAMES[index]
    : new Intl.DateTimeFormat(LOCALES[language], { month: 'long', timeZone: 'UTC' }).format(
        new Date(Date.UTC(2000, index, 1)),
      );
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
const dayOptions = (t: Translate, none: string) => [
  <option key="" value="">
    {none}
  </option>,
  ...billingDays.map((d) => (
    <option key={d} value={d}>
      {t('settings.dayOfMonth', { day: String(d) })}
    </option>
  )),
];

const numberOrNull = (v: string) => (v === '' ? null : Number(v));

/** How tenants pay (issue 29): each instruction's field, label and hint. */
const instructionFields = [
  ['mpesa_paybill', 'settings.mpesaPaybill', 'settings.mpesaPaybillHint'],
  ['mtn_momo_code', 'settings.mtnMomoCode', 'settings.mtnMomoCodeHint'],
  ['airtel_money_code', 'settings.airtelMoneyCode', null],
  ['bank_details', 'settings.bankDetails', 'settings.bankDetailsHint'],
  ['other', 'settings.otherInstructions', 'settings.otherInstructionsHint'],
] as const;

const readFile = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

const runText = (t: Translate, r: RentCycleRunResult) =>
  t('settings.runText', {
    fees: r.late_fees_posted,
    escalations: r.escalations_applied,
    reminders: r.reminders_queued,
  });

/**
 * Company Settings (drawer: Administration; admins and company admins): the company's time zone and
 * the hour of its daily run, its logo, its late-fee policy, its rent reminders, the notifications of
 * receipts and its SMS sender id; and the daily run, now.
 */
export const CompanySettingsPage = () => {
  const { t } = useT();
  const query = useQuery(settingsQuery());
  const settings = query.data;
  // the run now's answer, kept here: the form is made again when the settings change (its key)
  const [lastRun, setLastRun] = useState<RentCycleRunAnswer | null>(null);
  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('settings.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('settings.intro')}
        </Typography>
      </Box>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1.5, alignItems: 'center', py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography variant="body2">{t('shell.pleaseWait')}</Typography>
        </Box>
      ) : query.isError || !settings ? (
        <Alert severity="error">{errorMessage(query.error, t('settings.loadFailed'))}</Alert>
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
  const { t } = useT();
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
        {t('settings.paymentWebhook')}{' '}
        {shown ? <code style={{ wordBreak: 'break-all' }}>{shown}</code> : t('settings.notSetUp')}
      </Typography>
      {made && (
        <Alert severity="warning">
          {t('settings.secretShownOnce')} <code style={{ wordBreak: 'break-all' }}>{made.secret}</code>
        </Alert>
      )}
      {rotate.isError && (
        <Alert severity="error">{errorMessage(rotate.error, t('settings.secretFailed'))}</Alert>
      )}
      <Box>
        <Button type="button" variant="outlined" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          {shown ? t('settings.replaceSecret') : t('settings.setUpWebhook')}
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
const HowToPayPreview = ({ lines }: { lines: string[] }) => {
  const { t } = useT();
  return lines.length === 0 ? null : (
    <Box sx={{ mt: 1.5 }} data-testid="how-to-pay-preview">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('settings.tenantReads')}
      </Typography>
      {lines.map((l) => (
        <Typography key={l} variant="body2">
          {l}
        </Typography>
      ))}
    </Box>
  );
};

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
  const { t, td, language } = useT();
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
      showSnackbar({ message: t('settings.saved'), severity: 'success' });
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
      showSnackbar({
        message: `${t('settings.saveFailed')} ${errorMessage(e, '')}`.trim(),
        severity: 'error',
      });
    },
  });

  const run = useMutation({
    mutationFn: runCycleNow,
    onSuccess: async (result) => {
      setLastRun(result);
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
      showSnackbar({ message: t('settings.runDone', { run: runText(t, result) }), severity: 'success' });
    },
    onError: (e) => showSnackbar({ message: errorMessage(e, t('settings.runFailed')), severity: 'error' }),
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
    if (file.size > MAX_LOGO_BYTES) return setLogoError(t('settings.logoTooBig'));
    if (!['image/png', 'image/jpeg', 'image/webp'].includes(file.type)) {
      return setLogoError(t('settings.logoType'));
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
      aria-label={t('settings.formLabel')}
      onSubmit={(e) => void handleSubmit((v) => save.mutate(v))(e)}
    >
      <Stack spacing={2}>
        <Section title={t('settings.dailyRun')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Controller
              control={control}
              name="timezone"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  select
                  fullWidth
                  label={t('settings.timeZone')}
                  slotProps={{ select: { native: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.timeZoneHelp')}
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
                  label={t('settings.dailyRunHour')}
                  slotProps={{ select: { native: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.dailyRunHourHelp')}
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
                  label={t('settings.meterBillingDay')}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.meterBillingDayHelp')}
                >
                  {dayOptions(t, t('settings.byHandOnly'))}
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
              {t('settings.runNow')}
            </Button>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="last-run">
              {lastRunText
                ? t('settings.lastRun', {
                    date: formatDate(lastRunText.as_of, language),
                    run: runText(t, lastRunText),
                  })
                : t('settings.notRunYet')}
              {unsaved ? ` ${t('settings.unsavedFirst')}` : ''}
            </Typography>
          </Stack>
          {lastRun ? <RunMade run={lastRun} money={money} /> : null}
        </Section>

        <Section title={t('settings.serviceCharge')}>
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
                  label={t('settings.serviceChargeAmount')}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.serviceChargeAmountHelp')}
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
                  label={t('settings.serviceChargeDescription')}
                  error={!!fieldState.error}
                  helperText={
                    fieldState.error?.message ??
                    t('settings.chargesRead', {
                      text:
                        typeof serviceText === 'string' && serviceText.trim() !== ''
                          ? serviceText.trim()
                          : DEFAULT_SERVICE_CHARGE_TEXT,
                      month: thisMonthIn(language),
                    })
                  }
                  slotProps={{ htmlInput: { maxLength: 60 } }}
                />
              )}
            />
          </Stack>
        </Section>

        <Section title={t('settings.lateFees')}>
          <Controller
            control={control}
            name="late_fee.enabled"
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
                label={t('settings.chargeLateFees')}
              />
            )}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <NumberField
              control={control}
              name="late_fee.grace_days"
              label={t('settings.graceDays')}
              disabled={!feeEnabled}
            />
            <SelectField
              control={control}
              name="late_fee.kind"
              label={t('settings.fee')}
              options={lateFeeKind}
              optionText={(v) => td(`settings.lateFeeKind.${v}`, lateFeeKind.labels[v as 'flat'] ?? v)}
              disabled={!feeEnabled}
            />
            <NumberField
              control={control}
              name="late_fee.amount"
              label={feeKind === 'percent' ? t('settings.percentUnpaid') : t('common.amount')}
              adornment={feeKind === 'percent' ? '%' : money.currency}
              disabled={!feeEnabled}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <SelectField
              control={control}
              name="late_fee.repeat"
              label={t('settings.repeatWhileUnpaid')}
              options={lateFeeRepeat}
              optionText={(v) => td(`settings.lateFeeRepeat.${v}`, lateFeeRepeat.labels[v as 'once'] ?? v)}
              disabled={!feeEnabled}
            />
            <NumberField
              control={control}
              name="late_fee.cap"
              label={t('settings.capPerCharge')}
              adornment={money.currency}
              disabled={!feeEnabled}
              optional
            />
          </Stack>
          <FormHelperText sx={{ mt: 0 }}>{t('settings.lateFeesHelp')}</FormHelperText>
        </Section>

        <Section title={t('settings.reminders')}>
          {reminders.fields.length === 0 && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('settings.noReminders')}
            </Typography>
          )}
          {reminders.fields.map((item, i) => (
            <Stack
              key={item.id}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1.5}
              sx={{ alignItems: { sm: 'flex-start' } }}
              aria-label={t('settings.reminderN', { n: i + 1 })}
              role="group"
            >
              <SelectField
                control={control}
                name={`reminders.${i}.event`}
                label={t('settings.when')}
                options={reminderEvent}
                optionText={(v) => td(`settings.reminderEvent.${v}`, reminderEvent.labels[v as 'due'] ?? v)}
              />
              <NumberField control={control} name={`reminders.${i}.days`} label={t('settings.days')} />
              <Controller
                control={control}
                name={`reminders.${i}.channels`}
                render={({ field, fieldState }) => (
                  <Box sx={{ minWidth: 170 }}>
                    <FormGroup row>
                      {messageChannel.values.map((channel) => (
                        <FormControlLabel
                          key={channel}
                          label={td(`settings.channel.${channel}`, messageChannel.labels[channel])}
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
                    label={t('settings.template')}
                    value={field.value === null || field.value === undefined ? '' : String(field.value)}
                    onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
                    onBlur={field.onBlur}
                    sx={{ minWidth: 200 }}
                    slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message}
                  >
                    <option value="">{t('settings.companyTemplate')}</option>
                    {(templates.data ?? []).map((tpl) => (
                      <option key={tpl.id} value={String(tpl.id)}>
                        {tpl.name}
                      </option>
                    ))}
                  </TextField>
                )}
              />
              <IconButton
                aria-label={t('settings.removeReminder', { n: i + 1 })}
                onClick={() => reminders.remove(i)}
              >
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
              {t('settings.addReminder')}
            </Button>
          </Box>
        </Section>

        <Section title={t('settings.receiptsAndMessages')}>
          <FormGroup row>
            {messageChannel.values.map((channel) => (
              <Controller
                key={channel}
                control={control}
                name={`receipt_notification.${channel}`}
                render={({ field }) => (
                  <FormControlLabel
                    label={t('settings.sendReceiptsBy', {
                      channel: td(`settings.channel.${channel}`, messageChannel.labels[channel]),
                    })}
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
              {t('settings.noSmsProvider')}
            </Alert>
          )}
          <Controller
            control={control}
            name="sms_sender_id"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label={t('settings.smsSenderId')}
                sx={{ maxWidth: 320 }}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? t('settings.smsSenderIdHelp')}
              />
            )}
          />
        </Section>

        <Section title={t('settings.collections')}>
          <Controller
            control={control}
            name="auto_post_matches"
            render={({ field }) => (
              <FormControlLabel
                label={t('settings.autoPost')}
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
              />
            )}
          />
          <WebhookSecret url={settings.webhook_url} />
        </Section>

        <Section title={t('settings.howTenantsPay')}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('settings.howTenantsPayIntro', { placeholder: '{{how_to_pay}}' })}
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
                    label={t(label)}
                    multiline={name === 'bank_details' || name === 'other'}
                    sx={{ maxWidth: 560 }}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message ?? (hint ? t(hint) : undefined)}
                  />
                )}
              />
            ))}
          </Stack>
          <HowToPayPreview
            lines={howToPayLines({ ...noInstructions, ...watch('payment_instructions') }, 'A12')}
          />
        </Section>

        <Section title={t('settings.ownersAndTax')}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('settings.ownersAndTaxIntro')}
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
                  label={t('settings.ownerStatementsDay')}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.ownerStatementsDayHelp')}
                >
                  {dayOptions(t, t('settings.onlyByHand'))}
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
                  label={t('settings.rentalTaxRate')}
                  slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
                  placeholder={t('settings.countrys')}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.rentalTaxRateHelp')}
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
                  label={t('settings.rentalTaxDue')}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.rentalTaxDueHelp')}
                >
                  {dayOptions(t, t('settings.countrysDay'))}
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
                  label={t('settings.taxYearStarts')}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('settings.taxYearStartsHelp')}
                >
                  <option value="">{t('settings.countrysMonth')}</option>
                  {MONTH_NAMES.map((m, i) => (
                    <option key={m} value={i + 1}>
                      {monthName(language, i)}
                    </option>
                  ))}
                </TextField>
              )}
            />
          </Stack>
        </Section>

        <Section title={t('settings.signIn')}>
          <Controller
            control={control}
            name="require_mfa"
            render={({ field }) => (
              <FormControlLabel
                label={t('settings.requireMfa')}
                control={
                  <Switch checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} />
                }
              />
            )}
          />
          <FormHelperText sx={{ mt: 0 }}>{t('settings.requireMfaHelp')}</FormHelperText>
        </Section>

        <Section title={t('settings.logo')}>
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
                  alt={t('settings.companyLogo')}
                  sx={{ maxWidth: '100%', maxHeight: '100%' }}
                />
              ) : (
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {t('settings.noLogo')}
                </Typography>
              )}
            </Box>
            <Button component="label" variant="outlined">
              {t('settings.chooseImage')}
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/webp"
                onChange={(e) => void chooseLogo(e)}
              />
            </Button>
            {shownLogo && (
              <Button color="error" onClick={() => setLogo(null)}>
                {t('settings.removeLogo')}
              </Button>
            )}
          </Stack>
          <FormHelperText error={!!logoError} sx={{ mt: 0 }}>
            {logoError ?? t('settings.logoHelp')}
          </FormHelperText>
        </Section>

        <Divider />
        <Box>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('settings.saveSettings')}
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
  optionText,
  disabled,
}: FieldProps & {
  options: { values: readonly string[] };
  /** an option's label in the page's language, keyed by its value */
  optionText: (value: string) => string;
}) => (
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
            {optionText(v)}
          </option>
        ))}
      </TextField>
    )}
  />
);
