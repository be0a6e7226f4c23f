import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PhotoCamera from '@mui/icons-material/PhotoCamera';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  formatDate,
  isCompanyAdmin,
  meterKind,
  meterUnit,
  readingFlag,
  readingFlagOf,
  localDayIso,
  type Language,
} from '@kodi/domain';
import { getSession } from '../../lib/session.ts';
import { BillingCard } from './billing-card.tsx';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { useT, type TranslateDerived } from '../../lib/i18n.ts';
import {
  flushOutbox,
  newIdempotencyKey,
  queued,
  readOutbox,
  shrinkPhoto,
  writeOutbox,
  type OutboxReading,
  type SendOutcome,
} from './reading-outbox.ts';

type RoundMeter = {
  meter_id: number;
  number: string;
  kind: 'water' | 'electricity' | 'gas';
  unit_of_measure: 'm3' | 'kwh';
  unit_id: number | null;
  unit_name: string | null;
  previous_value: number;
  previous_date: string | null;
  usual_consumption: number | null;
};
type Round = { property_id: number; meters: RoundMeter[] };
type SavedReading = {
  id: number;
  meter_id: number;
  value: number;
  consumption: number;
  flag: 'lower' | 'high' | null;
  status: string;
  version: number;
};

/** What became of each meter's reading on this phone: waiting for the network, saved, or refused. */
type Done = { state: 'waiting' | 'saved' | 'refused'; value: number; saved?: SavedReading; message?: string };

const LOCALES: Record<Language, string> = { en: 'en-US', sw: 'sw-KE', fr: 'fr-FR' };
const numberIn = (language: Language) => (n: number) =>
  n.toLocaleString(LOCALES[language], { maximumFractionDigits: 3 });
/** A meter's kind and a reading's flag in the page's language, keyed by the domain's option values. */
const kindText = (td: TranslateDerived, kind: RoundMeter['kind']) =>
  td(`utilities.meterKind.${kind}`, meterKind.labels[kind]);
const flagText = (td: TranslateDerived, flag: 'lower' | 'high') =>
  td(`utilities.readingFlag.${flag}`, readingFlag.labels[flag]);

/** The refusal's text when the server gives none (set by the page, in its language). */
let refusedText = 'The reading was refused.';

const send = async (r: OutboxReading): Promise<SendOutcome<SavedReading>> => {
  try {
    return { kind: 'sent', record: await api.post<SavedReading>('/meter_readings/round', r) };
  } catch (e) {
    if (isApiError(e) && e.code === 'network_error') return { kind: 'offline' };
    if (isApiError(e) && e.status >= 500) return { kind: 'offline' };
    return { kind: 'refused', message: errorMessage(e, refusedText) };
  }
};

/**
 * 'Reading Round' (issue 28): a caretaker walks a property's meters in order on a phone, types each
 * one's reading (its consumption and flag shown as it is typed), takes a photo, and goes on. Readings
 * are kept on the phone and sent in order; without a network they wait and go when it returns, each
 * once (its idempotency key). A flagged reading is held back from billing until confirmed here.
 */
export const ReadingRoundPage = () => {
  const { t, td, language } = useT();
  refusedText = t('utilities.refused');
  const number = numberIn(language);
  const { propertyId } = useSelectedProperty();
  const user = getSession().user;
  const canBill = !!user && isCompanyAdmin(user);
  const queryClient = useQueryClient();
  const round = useQuery({
    queryKey: ['meter_readings', 'round', propertyId],
    queryFn: () =>
      api.get<Round>('/meter_readings/round', { query: { property_id: propertyId ?? undefined } }),
    enabled: propertyId !== null,
    networkMode: 'offlineFirst',
    staleTime: 5 * 60_000,
  });
  const meters = useMemo(() => round.data?.meters ?? [], [round.data]);
  const [index, setIndex] = useState(0);
  const [date, setDate] = useState(localDayIso());
  const [typed, setTyped] = useState('');
  const [photo, setPhoto] = useState<string | undefined>();
  const [done, setDone] = useState<Record<number, Done>>({});
  const [waiting, setWaiting] = useState(() => readOutbox().length);
  const [online, setOnline] = useState(() => navigator.onLine);
  const [problem, setProblem] = useState<string | null>(null);
  const flushing = useRef(false);
  const camera = useRef<HTMLInputElement>(null);

  useEffect(() => setIndex(0), [propertyId]);
  const meter = meters[Math.min(index, Math.max(meters.length - 1, 0))];

  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      await flushOutbox(send, (r, outcome) => {
        if (outcome.kind === 'offline') {
          setOnline(false);
          return;
        }
        setOnline(true);
        setDone((d) => ({
          ...d,
          [r.meter_id]:
            outcome.kind === 'sent'
              ? { state: 'saved', value: r.value, saved: outcome.record }
              : { state: 'refused', value: r.value, message: outcome.message },
        }));
      });
    } finally {
      flushing.current = false;
      setWaiting(readOutbox().length);
    }
  }, []);

  useEffect(() => {
    void flush();
    const back = () => {
      setOnline(true);
      void flush();
    };
    const gone = () => setOnline(false);
    window.addEventListener('online', back);
    window.addEventListener('offline', gone);
    const timer = window.setInterval(() => void flush(), 30_000);
    return () => {
      window.removeEventListener('online', back);
      window.removeEventListener('offline', gone);
      window.clearInterval(timer);
    };
  }, [flush]);

  const value = typed.trim() === '' ? null : Number(typed.replace(/,/g, ''));
  const valid = value !== null && Number.isFinite(value) && value >= 0;
  const consumption = meter && valid ? value - meter.previous_value : null;
  const flag = meter && valid ? readingFlagOf(meter.previous_value, value, meter.usual_consumption) : null;
  const unit = meter ? meterUnit.labels[meter.unit_of_measure] : '';

  const save = () => {
    if (!meter || !valid) return;
    const reading: OutboxReading = {
      idempotency_key: newIdempotencyKey(),
      meter_id: meter.meter_id,
      reading_date: date,
      value,
      ...(photo ? { photo } : {}),
    };
    writeOutbox(queued(readOutbox(), reading));
    setWaiting(readOutbox().length);
    setDone((d) => ({ ...d, [meter.meter_id]: { state: 'waiting', value } }));
    setTyped('');
    setPhoto(undefined);
    setIndex((i) => Math.min(i + 1, meters.length - 1));
    void flush();
  };

  const confirm = async (meterId: number, saved: SavedReading) => {
    try {
      const record = await api.post<SavedReading>(`/meter_readings/${saved.id}/confirm`);
      setDone((d) => ({ ...d, [meterId]: { state: 'saved', value: record.value, saved: record } }));
      setProblem(null);
    } catch (e) {
      setProblem(errorMessage(e, t('utilities.confirmFailed')));
    }
  };

  const takePhoto = async (file: File | undefined) => {
    if (!file) return;
    try {
      setPhoto(await shrinkPhoto(file));
    } catch {
      setProblem(t('utilities.photoFailed'));
    }
  };

  const current = meter ? done[meter.meter_id] : undefined;

  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('utilities.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('utilities.intro')}
        </Typography>
      </Box>
      <PropertyFilter />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          label={t('common.date')}
          type="date"
          size="small"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Chip
          data-testid="round-network"
          color={online ? (waiting ? 'warning' : 'success') : 'warning'}
          label={
            online
              ? waiting
                ? t('utilities.sending', { count: waiting })
                : t('utilities.allSent')
              : t('utilities.offline', { count: waiting })
          }
        />
      </Stack>
      {problem && (
        <Alert severity="error" onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
      {propertyId === null && <Alert severity="info">{t('utilities.chooseProperty')}</Alert>}
      {round.isError && (
        <Alert severity="error">{errorMessage(round.error, t('utilities.metersLoadFailed'))}</Alert>
      )}
      {propertyId !== null && round.isSuccess && meters.length === 0 && (
        <Alert severity="info">{t('utilities.noMeters')}</Alert>
      )}
      {meter && (
        <Card variant="outlined" data-testid="round-meter">
          <CardContent>
            <Stack spacing={1.5}>
              <Typography variant="overline">
                {t('utilities.meterOf', { index: index + 1, count: meters.length })}
              </Typography>
              <Typography variant="h5" component="h2">
                {meter.unit_name ?? t('utilities.masterMeter')}
              </Typography>
              <Typography>
                {t('utilities.kindMeter', { kind: kindText(td, meter.kind) })} <strong>{meter.number}</strong>
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {meter.previous_date
                  ? t('utilities.previousOn', {
                      value: number(meter.previous_value),
                      unit,
                      date: formatDate(meter.previous_date, language),
                    })
                  : t('utilities.previous', { value: number(meter.previous_value), unit })}
              </Typography>
              <TextField
                label={t('utilities.todaysReading')}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') save();
                }}
                slotProps={{
                  htmlInput: { inputMode: 'decimal', 'aria-label': t('utilities.todaysReading') },
                }}
                error={typed !== '' && !valid}
                helperText={typed !== '' && !valid ? t('utilities.typeNumber') : ' '}
                fullWidth
              />
              {consumption !== null && (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                  <Typography data-testid="round-consumption">
                    {t('utilities.consumption', { value: number(consumption), unit })}
                  </Typography>
                  {flag && <Chip size="small" color="warning" label={flagText(td, flag)} />}
                </Stack>
              )}
              <input
                ref={camera}
                type="file"
                accept="image/*"
                capture="environment"
                hidden
                data-testid="round-camera"
                onChange={(e) => void takePhoto(e.target.files?.[0])}
              />
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                <Button
                  variant="outlined"
                  startIcon={<PhotoCamera />}
                  onClick={() => camera.current?.click()}
                >
                  {photo ? t('utilities.photoTaken') : t('utilities.photo')}
                </Button>
                <Button variant="contained" disabled={!valid} onClick={save}>
                  {t('utilities.saveNext')}
                </Button>
              </Stack>
              <Stack direction="row" spacing={1}>
                <Button
                  size="small"
                  disabled={index === 0}
                  onClick={() => setIndex((i) => Math.max(0, i - 1))}
                >
                  {t('utilities.previousMeter')}
                </Button>
                <Button
                  size="small"
                  disabled={index >= meters.length - 1}
                  onClick={() => setIndex((i) => Math.min(meters.length - 1, i + 1))}
                >
                  {t('utilities.skip')}
                </Button>
              </Stack>
              {current && <DoneLine done={current} onConfirm={(s) => void confirm(meter.meter_id, s)} />}
            </Stack>
          </CardContent>
        </Card>
      )}
      {meters.length > 0 && (
        <List
          dense
          aria-label={t('utilities.metersOfRound')}
          sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
        >
          {meters.map((m, i) => {
            const d = done[m.meter_id];
            return (
              <ListItemButton key={m.meter_id} selected={i === index} onClick={() => setIndex(i)}>
                <ListItemText
                  primary={`${m.unit_name ?? t('utilities.masterMeter')} · ${m.number}`}
                  secondary={t('utilities.listLine', {
                    kind: kindText(td, m.kind),
                    value: number(m.previous_value),
                    unit: meterUnit.labels[m.unit_of_measure],
                  })}
                />
                {d && <StateChip done={d} />}
              </ListItemButton>
            );
          })}
        </List>
      )}
      {waiting === 0 && Object.keys(done).length > 0 && (
        <Button onClick={() => void queryClient.invalidateQueries({ queryKey: ['meter_readings', 'round'] })}>
          {t('utilities.startAgain')}
        </Button>
      )}
      {canBill && <BillingCard propertyId={propertyId ?? null} />}
    </Stack>
  );
};

const StateChip = ({ done }: { done: Done }) => {
  const { t } = useT();
  if (done.state === 'waiting') return <Chip size="small" label={t('utilities.waiting')} />;
  if (done.state === 'refused') return <Chip size="small" color="error" label={t('utilities.refusedChip')} />;
  if (done.saved?.status === 'flagged')
    return <Chip size="small" color="warning" label={t('utilities.heldBack')} />;
  return <Chip size="small" color="success" label={t('utilities.saved')} />;
};

const DoneLine = ({ done, onConfirm }: { done: Done; onConfirm: (saved: SavedReading) => void }) => {
  const { t, td, language } = useT();
  const number = numberIn(language);
  if (done.state === 'waiting')
    return <Alert severity="info">{t('utilities.keptOnPhone', { value: number(done.value) })}</Alert>;
  if (done.state === 'refused') return <Alert severity="error">{done.message}</Alert>;
  const saved = done.saved;
  if (saved?.status === 'flagged' && saved.flag)
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={() => onConfirm(saved)}>
            {t('utilities.confirm')}
          </Button>
        }
      >
        {t('utilities.savedHeldBack', { flag: flagText(td, saved.flag).toLowerCase() })}
      </Alert>
    );
  return <Alert severity="success">{t('utilities.readingSaved', { value: number(done.value) })}</Alert>;
};
