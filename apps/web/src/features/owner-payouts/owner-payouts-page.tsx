import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDate, formatMoney, isCompanyAdmin, payoutMethod, localDayIso } from '@kodi/domain';
import { useT, type Translate, type TranslateDerived } from '../../lib/i18n.ts';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { CardList, ListTable, RowCard, type ListColumn } from '../../components/ui/list-table.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { usePhone } from '../../lib/use-phone.ts';

type Payout = {
  id: number;
  owner_id: number;
  owner_name: string;
  date: string;
  amount: string;
  method: string;
  reference: string | null;
  override_reason: string | null;
};
type Available = {
  owner_id: number;
  owner_name: string;
  payout_method: string | null;
  held: string;
  reserve: string;
  available: string;
};
type OwnerOption = { id: number; display_name: string; payout_method: string | null };
type Method = 'bank' | 'mobilemoney' | 'cash' | 'check';
type PayoutBody = {
  owner_id: number;
  date: string;
  amount: string;
  method: Method;
  reference?: string;
  override?: boolean;
  reason?: string;
};

const today = () => localDayIso();
/** A payout method's label in the page's language (`payouts.method.<method>`, from the domain's options). */
const methodLabel = (m: string, td: TranslateDerived) =>
  td(`payouts.method.${m}`, payoutMethod.labels[m as Method] ?? m);
const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
const METHODS = payoutMethod.values as readonly Method[];

const useOwners = () =>
  useQuery({
    queryKey: ['owners', 'options'],
    queryFn: () => api.get<OwnerOption[]>('/owners', { query: { page_size: 500 } }),
  });

/** Pays one owner (the form and each line of the run): a 409 above the available asks for a reason. */
const usePay = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PayoutBody) => api.post<Payout>('/owner-payouts', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['owner-payouts'] }),
  });
};

const RecordPayout = ({ owners }: { owners: OwnerOption[] }) => {
  const { t, td, language } = useT();
  const pay = usePay();
  const [body, setBody] = useState<PayoutBody>({ owner_id: 0, date: today(), amount: '', method: 'bank' });
  const [above, setAbove] = useState(false);
  const [done, setDone] = useState('');
  const set = (patch: Partial<PayoutBody>) => setBody((b) => ({ ...b, ...patch }));
  const submit = () => {
    setDone('');
    pay.mutate(
      { ...body, ...(above ? { override: true, reason: body.reason ?? '' } : {}) },
      {
        onSuccess: (p) => {
          setDone(t('payouts.paidOn', { owner: p.owner_name, date: formatDate(p.date, language) }));
          setAbove(false);
          setBody({ owner_id: 0, date: today(), amount: '', method: 'bank' });
        },
        onError: (e) => {
          if (isApiError(e) && e.code === 'above_available') setAbove(true);
        },
      },
    );
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="record-payout">
      <Typography id="record-payout" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('payouts.record')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ flexWrap: 'wrap' }} useFlexGap>
        <TextField
          select
          size="small"
          label={t('payouts.owner')}
          value={body.owner_id || ''}
          onChange={(e) => {
            const o = owners.find((x) => x.id === Number(e.target.value));
            set({ owner_id: Number(e.target.value), method: (o?.payout_method as Method) ?? body.method });
          }}
          sx={{ minWidth: 200 }}
        >
          {owners.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.display_name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label={t('payouts.date')}
          value={body.date}
          onChange={(e) => set({ date: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          label={t('payouts.amount')}
          value={body.amount}
          onChange={(e) => set({ amount: e.target.value })}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          error={Boolean(pay.error && isApiError(pay.error) && pay.error.fields?.amount)}
          helperText={isApiError(pay.error) ? pay.error.fields?.amount : undefined}
        />
        <TextField
          select
          size="small"
          label={t('payouts.method')}
          value={body.method}
          onChange={(e) => set({ method: e.target.value as Method })}
          sx={{ minWidth: 150 }}
        >
          {METHODS.map((m) => (
            <MenuItem key={m} value={m}>
              {methodLabel(m, td)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('payouts.reference')}
          value={body.reference ?? ''}
          onChange={(e) => set({ reference: e.target.value })}
        />
      </Stack>
      {above && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('payouts.aboveNeedsReason')}
          </Typography>
          <TextField
            size="small"
            fullWidth
            label={t('payouts.aboveReason')}
            value={body.reason ?? ''}
            onChange={(e) => set({ reason: e.target.value })}
          />
        </Box>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
        <Button
          variant="contained"
          disabled={pay.isPending || body.owner_id === 0 || body.amount.trim() === ''}
          onClick={submit}
        >
          {above ? t('payouts.payAnyway') : t('payouts.record')}
        </Button>
        {done && (
          <Alert severity="success" role="status">
            {done}
          </Alert>
        )}
      </Stack>
      {pay.isError && (
        <Alert severity={above ? 'warning' : 'error'} sx={{ mt: 2 }}>
          {errorMessage(pay.error, t('payouts.recordFailed'))}
        </Alert>
      )}
    </Paper>
  );
};

/** One owner's line of the run: the amount (what is available by default), paid when confirmed. */
const RunLine = ({ line, asOf, phone }: { line: Available; asOf: string; phone: boolean }) => {
  const money = useCompanyMoney();
  const { t, td, language } = useT();
  const pay = usePay();
  const [amount, setAmount] = useState(line.available);
  const [paid, setPaid] = useState(false);
  const method = (line.payout_method as Method | null) ?? 'bank';
  const held = formatMoney(line.held, money.currency, money.decimals, language);
  const available = formatMoney(line.available, money.currency, money.decimals, language);
  const amountField = (
    <TextField
      size="small"
      value={amount}
      onChange={(e) => setAmount(e.target.value)}
      disabled={paid}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'aria-label': t('payouts.amountFor', { owner: line.owner_name }) },
      }}
      sx={{ width: 150, maxWidth: '100%' }}
    />
  );
  const action = (
    <>
      {paid ? (
        <Typography color="success.main">{t('payouts.paid')}</Typography>
      ) : (
        <Button
          size="small"
          variant="outlined"
          disabled={pay.isPending || !(Number(amount) > 0)}
          onClick={() =>
            pay.mutate(
              { owner_id: line.owner_id, date: asOf, amount, method },
              { onSuccess: () => setPaid(true) },
            )
          }
        >
          {t('payouts.payBy', { method: methodLabel(method, td) })}
        </Button>
      )}
      {pay.isError && (
        <Typography variant="body2" color="error">
          {errorMessage(pay.error, t('payouts.notPaid'))}
        </Typography>
      )}
    </>
  );
  if (phone)
    return (
      <RowCard
        titleLabel={t('payouts.owner')}
        title={line.owner_name}
        fields={[
          { label: t('payouts.held'), value: held },
          { label: t('payouts.available'), value: available },
          { label: t('payouts.amount'), value: amountField },
        ]}
        actions={action}
      />
    );
  return (
    <TableRow>
      <TableCell component="th" scope="row">
        {line.owner_name}
      </TableCell>
      <TableCell align="right" sx={num}>
        {held}
      </TableCell>
      <TableCell align="right" sx={num}>
        {available}
      </TableCell>
      <TableCell>{amountField}</TableCell>
      <TableCell>{action}</TableCell>
    </TableRow>
  );
};

const PayoutRun = () => {
  const phone = usePhone();
  const { t } = useT();
  const [asOf, setAsOf] = useState(today);
  const propose = useMutation({
    mutationFn: () => api.post<Available[]>('/owner-payouts/propose', { as_of: asOf }),
  });
  const lines = (propose.data ?? []).filter((l) => Number(l.available) > 0);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="payout-run">
      <Typography id="payout-run" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('payouts.run')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <TextField
          size="small"
          type="date"
          label={t('payouts.asOf')}
          value={asOf}
          onChange={(e) => setAsOf(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="outlined" disabled={propose.isPending} onClick={() => propose.mutate()}>
          {t('payouts.propose')}
        </Button>
      </Stack>
      {propose.isError && (
        <Alert severity="error">{errorMessage(propose.error, t('payouts.proposeFailed'))}</Alert>
      )}
      {propose.isSuccess && lines.length === 0 && <Alert severity="info">{t('payouts.noneAvailable')}</Alert>}
      {lines.length > 0 &&
        (phone ? (
          <CardList label={t('payouts.proposed')}>
            {lines.map((l) => (
              <RunLine key={`${l.owner_id}-${propose.submittedAt}`} line={l} asOf={asOf} phone />
            ))}
          </CardList>
        ) : (
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={t('payouts.proposed')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('payouts.owner')}</TableCell>
                  <TableCell align="right">{t('payouts.held')}</TableCell>
                  <TableCell align="right">{t('payouts.available')}</TableCell>
                  <TableCell>{t('payouts.amount')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {lines.map((l) => (
                  <RunLine key={`${l.owner_id}-${propose.submittedAt}`} line={l} asOf={asOf} phone={false} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ))}
    </Paper>
  );
};

const payoutColumns = (t: Translate): ListColumn[] => [
  { key: 'date', label: t('payouts.date') },
  { key: 'owner', label: t('payouts.owner') },
  { key: 'amount', label: t('payouts.amount'), align: 'right' },
  { key: 'method', label: t('payouts.method') },
  { key: 'reference', label: t('payouts.reference') },
];

const referenceText = (p: Payout, t: Translate) =>
  `${p.reference ?? ''}${p.override_reason ? ` ${t('payouts.aboveAvailable', { reason: p.override_reason })}` : ''}`.trim();

/**
 * Owner payouts (issue 27): the payouts made, filtered by owner and dates, with the exports; admins and
 * company admins record one, or run the payouts: every owner's available amount, paid line by line.
 */
export const OwnerPayoutsPage = () => {
  const { user } = useSession();
  const money = useCompanyMoney();
  const { t, td, language } = useT();
  const owners = useOwners();
  const [ownerId, setOwnerId] = useState<number | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters = {
    owner_id: ownerId === '' ? undefined : ownerId,
    from: from || undefined,
    to: to || undefined,
  };
  const listState = useListState();
  const { page, pageSize, setPage } = listState;
  const list = useQuery({
    queryKey: ['owner-payouts', filters, page, pageSize],
    queryFn: async ({ signal }) => {
      let total = 0;
      const rows = await api.get<Payout[]>('/owner-payouts', {
        query: { ...filters, page: page + 1, page_size: pageSize },
        signal,
        onHeaders: (h) => {
          total = Number(h.get('X-Total-Count') ?? 0);
        },
      });
      return { rows, total };
    },
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.rows ?? [];
  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setPage(0);
  };
  const admin = user ? isCompanyAdmin(user) : false;
  return (
    <Stack spacing={3} sx={{ minWidth: 0 }}>
      <Typography variant="h4" component="h1">
        {t('payouts.title')}
      </Typography>
      {admin && <PayoutRun />}
      {admin && <RecordPayout owners={owners.data ?? []} />}
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="payouts-made">
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
        >
          <Typography id="payouts-made" variant="h6" component="h2">
            {t('payouts.made')}
          </Typography>
          <ExportButtons
            path="/owner-payouts"
            params={filters}
            label={t('payouts.exportWhat')}
            filename="owner_payouts"
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField
            select
            size="small"
            label={t('payouts.owner')}
            value={ownerId}
            onChange={filter((v) => setOwnerId(v === '' ? '' : Number(v)))}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">{t('payouts.allOwners')}</MenuItem>
            {(owners.data ?? []).map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.display_name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            type="date"
            label={t('payouts.from')}
            value={from}
            onChange={filter(setFrom)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="date"
            label={t('payouts.to')}
            value={to}
            onChange={filter(setTo)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
        <ListTable
          label={t('payouts.made')}
          list={listState}
          query={list}
          emptyText={list.isError ? errorMessage(list.error, t('payouts.loadFailed')) : t('payouts.none')}
          columns={payoutColumns(t)}
          cards={rows.map((p) => (
            <RowCard
              key={p.id}
              titleLabel={t('payouts.owner')}
              title={p.owner_name}
              fields={[
                { label: t('payouts.date'), value: formatDate(p.date, language) },
                {
                  label: t('payouts.amount'),
                  value: formatMoney(p.amount, money.currency, money.decimals, language),
                },
                { label: t('payouts.method'), value: methodLabel(p.method, td) },
                { label: t('payouts.reference'), value: referenceText(p, t) || '—' },
              ]}
            />
          ))}
        >
          {rows.map((p) => (
            <TableRow key={p.id} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(p.date, language)}</TableCell>
              <TableCell>{p.owner_name}</TableCell>
              <TableCell align="right" sx={num}>
                {formatMoney(p.amount, money.currency, money.decimals, language)}
              </TableCell>
              <TableCell>{methodLabel(p.method, td)}</TableCell>
              <TableCell>{referenceText(p, t)}</TableCell>
              <TableCell />
            </TableRow>
          ))}
        </ListTable>
      </Paper>
    </Stack>
  );
};
