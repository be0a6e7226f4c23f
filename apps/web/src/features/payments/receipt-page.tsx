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

export const RECEIPT_LOAD_FAILED = 'Failed to load receipt.';

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
      <ReceiptQr qr={link.data.qr} title="QR code of this receipt's public link" />
      <Box sx={{ minWidth: 0, textAlign: { xs: 'center', sm: 'left' } }}>
        <Typography variant="subtitle2" component="h2">
          Verify this receipt
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
          Scan the code or open this address to check it with the issuer:
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

const label = <T extends string>(labels: Record<T, string>, value: T): string => labels[value] ?? value;

/** ReceiptPrint (`/payments/:id/receipt`): the printable receipt of a payment. */
export const ReceiptPage = () => {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const session = useSession();
  const money = useCompanyMoney();
  const { showSnackbar } = useSnackbar();
  const [downloading, setDownloading] = useState(false);
  const query = useQuery({ ...recordQuery('payments', valid ? id : 0), enabled: valid });

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`/payments/${id}/receipt.pdf`, `receipt_${query.data?.receipt_number ?? id}.pdf`);
    } catch (e) {
      showSnackbar({ message: errorMessage(e, 'Could not download the receipt.'), severity: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const back = (
    <Button component={RouterLink} to="/payments" startIcon={<ArrowBack />}>
      Back to Payments
    </Button>
  );

  if (valid && query.isPending) return <PageLoader />;
  if (!valid || query.isError || !query.data) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 720, mx: 'auto' }}>
        <Alert severity="error">{RECEIPT_LOAD_FAILED}</Alert>
        <Box>{back}</Box>
      </Stack>
    );
  }

  const p = query.data;
  const number = p.receipt_number ?? String(p.id);
  const completed = p.status === 'completed';
  const tenant =
    [p.tenant_first_name, p.tenant_last_name].filter((v) => !!v).join(' ') || (p.tenant_name ?? '');
  const rows: [string, string][] = [
    ['Date', formatDate(p.payment_date)],
    ['Tenant', tenant],
    ['Unit', p.unit_name ?? ''],
    ['Payment method', p.payment_method ? label(paymentMethod.labels, p.payment_method) : 'N/A'],
    // as the PDF has them (modules/receipts/receipt-pdf.ts)
    ['Period', `${formatDate(p.effective_start_date)} – ${formatDate(p.effective_end_date)}`],
    ['Reference', p.reference_number || 'N/A'],
    ['Payment serial', p.payment_serial ?? ''],
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
            Print
          </Button>
          <Button
            variant="contained"
            startIcon={<PictureAsPdf />}
            loading={downloading}
            loadingPosition="start"
            onClick={() => void download()}
          >
            Download PDF
          </Button>
        </Stack>
      </Stack>
      <Paper className="receipt-paper" variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
          <Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
              Payment Receipt
            </Typography>
            <Typography sx={{ color: 'text.secondary' }}>{companyName(session)}</Typography>
          </Box>
          <Chip
            label={label(paymentStatus.labels, p.status)}
            color={completed ? 'success' : 'warning'}
            sx={{ fontWeight: 600 }}
          />
        </Stack>
        <Typography variant="subtitle1" sx={{ mt: 3, fontWeight: 600 }}>
          Receipt No: {number}
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
            Amount Paid
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            {formatMoney(p.amount_paid, money.currency, money.decimals)}
          </Typography>
        </Stack>
        {notes && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2" component="h2">
              Notes
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {notes}
            </Typography>
          </Box>
        )}
        <Typography sx={{ mt: 4, textAlign: 'center', color: 'text.secondary' }}>
          Thank you for your payment!
        </Typography>
        <VerifyBlock id={id} />
      </Paper>
    </Box>
  );
};
