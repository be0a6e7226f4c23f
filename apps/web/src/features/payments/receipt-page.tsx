import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import GlobalStyles from '@mui/material/GlobalStyles';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Print from '@mui/icons-material/Print';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatMoney, paymentMethod, paymentStatus, type ReceiptLink } from '@kodi/domain';
import { PageLoader } from '../../components/page-loader.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { api, errorMessage } from '../../lib/api-client.ts';
import { downloadFile, recordQuery, useCompanyMoney } from '../../lib/resources.ts';
import { companyName, useSession } from '../../lib/session.ts';
import { useT, type TranslateDerived } from '../../lib/i18n.ts';

/** Printing shows the receipt alone: no top bar, drawer, footer or buttons. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '@page': { size: 'A4 portrait', margin: '10mm' },
        'header, nav, footer, .MuiAppBar-root, .MuiDrawer-root, .no-print': { display: 'none !important' },
        main: { padding: '0 !important' },
        'main ~ *, .MuiToolbar-root': { display: 'none !important' },
        body: { background: '#fff !important' },
        '.receipt-paper': { boxShadow: 'none !important', border: 'none !important' },
      },
    }}
  />
);

/** The receipt's QR code: the server's modules as one SVG path, a four-module quiet zone around it. */
export const ReceiptQr = ({ qr, title }: { qr: ReceiptLink['qr']; title: string }) => (
  <Box
    component="svg"
    viewBox={`-4 -4 ${qr.size + 8} ${qr.size + 8}`}
    role="img"
    aria-label={title}
    shapeRendering="crispEdges"
    sx={{ width: 132, height: 132, flex: 'none', display: 'block', bgcolor: '#fff' }}
  >
    <title>{title}</title>
    <rect x={-4} y={-4} width={qr.size + 8} height={qr.size + 8} fill="#fff" />
    <path d={qr.path} fill="#000" />
  </Box>
);

/** Anyone can check the receipt: its QR code and the public link it holds. */
const VerifyBlock = ({ id }: { id: number }) => {
  const { t } = useT();
  const link = useQuery({
    queryKey: ['payments', 'receipt-link', id],
    queryFn: ({ signal }) =>
      api.get<ReceiptLink>(`/payments/${id}/receipt-link`, { signal, quietForbidden: true }),
    staleTime: Infinity,
  });
  if (!link.data) return null;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ mt: 3, alignItems: { xs: 'center', sm: 'flex-start' } }}
      data-testid="receipt-verify"
    >
      <ReceiptQr qr={link.data.qr} title={t('receiptPrint.qrTitle')} />
      <Box sx={{ minWidth: 0, textAlign: { xs: 'center', sm: 'left' } }}>
        <Typography variant="subtitle2" component="h2">
          {t('receiptPrint.verify')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
          {t('receiptPrint.scan')}
        </Typography>
        <Link
          href={link.data.receipt_url}
          target="_blank"
          rel="noopener"
          variant="body2"
          sx={{ wordBreak: 'break-all' }}
        >
          {link.data.receipt_url}
        </Link>
      </Box>
    </Stack>
  );
};

/** A payment method's or status's label in the page's language (`receiptPrint.<kind>.<value>`, the domain's options). */
const label = <T extends string>(
  td: TranslateDerived,
  kind: 'method' | 'status',
  labels: Record<T, string>,
  value: T,
): string => td(`receiptPrint.${kind}.${value}`, labels[value] ?? value);

/** ReceiptPrint (`/payments/:id/receipt`): the printable receipt of a payment. */
export const ReceiptPage = () => {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const session = useSession();
  const money = useCompanyMoney();
  const { t, td, language } = useT();
  const { showSnackbar } = useSnackbar();
  const [downloading, setDownloading] = useState(false);
  const query = useQuery({ ...recordQuery('payments', valid ? id : 0), enabled: valid });

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`/payments/${id}/receipt.pdf`, `receipt_${query.data?.receipt_number ?? id}.pdf`);
    } catch (e) {
      showSnackbar({ message: errorMessage(e, t('receiptPrint.downloadFailed')), severity: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const back = (
    <Button component={RouterLink} to="/payments" startIcon={<ArrowBack />}>
      {t('receiptPrint.back')}
    </Button>
  );

  if (valid && query.isPending) return <PageLoader />;
  if (!valid || query.isError || !query.data) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 720, mx: 'auto' }}>
        <Alert severity="error">{t('receiptPrint.loadFailed')}</Alert>
        <Box>{back}</Box>
      </Stack>
    );
  }

  const p = query.data;
  const number = p.receipt_number ?? String(p.id);
  const completed = p.status === 'completed';
  const tenant =
    [p.tenant_first_name, p.tenant_last_name].filter((v) => !!v).join(' ') || (p.tenant_name ?? '');
  const none = t('receiptPrint.none');
  const rows: [string, string][] = [
    [t('receiptPrint.date'), formatDate(p.payment_date, language)],
    [t('receiptPrint.tenant'), tenant],
    [t('receiptPrint.unit'), p.unit_name ?? ''],
    [
      t('receiptPrint.paymentMethod'),
      p.payment_method ? label(td, 'method', paymentMethod.labels, p.payment_method) : none,
    ],
    // as the PDF has them (modules/receipts/receipt-pdf.ts)
    [
      t('receiptPrint.period'),
      `${formatDate(p.effective_start_date, language)} – ${formatDate(p.effective_end_date, language)}`,
    ],
    [t('receiptPrint.reference'), p.reference_number || none],
    [t('receiptPrint.paymentSerial'), p.payment_serial ?? ''],
  ];
  const notes = p.payment_details?.trim() ?? '';

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      {printStyles}
      <Stack
        direction="row"
        className="no-print"
        sx={{ mb: 2, justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
      >
        {back}
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" startIcon={<Print />} onClick={() => window.print()}>
            {t('receiptPrint.print')}
          </Button>
          <Button
            variant="contained"
            startIcon={<PictureAsPdf />}
            loading={downloading}
            loadingPosition="start"
            onClick={() => void download()}
          >
            {t('receiptPrint.downloadPdf')}
          </Button>
        </Stack>
      </Stack>
      <Paper className="receipt-paper" variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
          <Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
              {t('receiptPrint.title')}
            </Typography>
            <Typography sx={{ color: 'text.secondary' }}>{companyName(session)}</Typography>
          </Box>
          <Chip
            label={label(td, 'status', paymentStatus.labels, p.status)}
            color={completed ? 'success' : 'warning'}
            sx={{ fontWeight: 600 }}
          />
        </Stack>
        <Typography variant="subtitle1" sx={{ mt: 3, fontWeight: 600 }}>
          {t('receiptPrint.number', { number })}
        </Typography>
        <Divider sx={{ my: 2 }} />
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'max-content minmax(0, 1fr)',
            columnGap: 4,
            rowGap: 1.5,
          }}
        >
          {rows.map(([term, value]) => (
            <Box key={term} sx={{ display: 'contents' }}>
              <Typography component="dt" sx={{ color: 'text.secondary' }}>
                {term}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value || '—'}
              </Typography>
            </Box>
          ))}
        </Box>
        <Divider sx={{ my: 2 }} />
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography variant="h6" component="p">
            {t('receiptPrint.amountPaid')}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            {formatMoney(p.amount_paid, money.currency, money.decimals, language)}
          </Typography>
        </Stack>
        {notes && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2" component="h2">
              {t('receiptPrint.notes')}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {notes}
            </Typography>
          </Box>
        )}
        <Typography sx={{ mt: 4, textAlign: 'center', color: 'text.secondary' }}>
          {t('receiptPrint.thanks')}
        </Typography>
        <VerifyBlock id={id} />
      </Paper>
    </Box>
  );
};
