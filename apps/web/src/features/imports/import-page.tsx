import { useMemo, useState, type ChangeEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import NativeSelect from '@mui/material/NativeSelect';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  formatNumber,
  importDateFormats,
  importColumnFields,
  importableEntities,
  type ImportCommitResult,
  type ImportDateFormat,
  type ImportRecord,
} from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { DASHBOARD_KEY, resourceKeys } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import {
  commitImport,
  errorsUrl,
  importKeys,
  importsQuery,
  previewImport,
  templateUrl,
} from './import-api.ts';
import { BackRentPreview } from './back-rent-preview.tsx';

const words = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

const when = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('en-US', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      }).format(new Date(iso))
    : '';

/** Progress of the upload, then of the check, then of the commit. */
type Progress = { label: string; value: number | null } | null;

const scroll = { overflowX: 'auto', maxWidth: '100%' } as const;

/**
 * 'Import' (Administration; admins and editors): choose what to import and a CSV or xlsx file, upload
 * it (a progress bar), see how its columns were mapped (and change them, previewing again), its
 * rejected rows and a sample, then commit it (a progress bar). Below, the company's imports: who,
 * when, counts and each one's errors file.
 */
export const ImportPage = () => {
  const { user } = useSession();
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const entities = useMemo(() => importableEntities(), []);
  const [entity, setEntity] = useState(entities[0]?.name ?? 'units');
  const [dateFormat, setDateFormat] = useState<ImportDateFormat>('YYYY-MM-DD');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportRecord | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  // one value for every row without one (a sex, a date of birth), as the preview asks
  const [fill, setFill] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<Progress>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportCommitResult | null>(null);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const list = useQuery(importsQuery({ page, pageSize }));

  const def = entities.find((d) => d.name === (preview?.entity ?? entity));
  const fields = def ? importColumnFields(def) : [];
  const labelOf = (field: string) => fields.find((f) => f.name === field)?.label ?? field;
  const columnOf = (field: string) =>
    Object.entries(preview?.mapping ?? {}).find(([, f]) => f === field)?.[0] ?? labelOf(field);
  const busy = progress !== null;
  const fillChanged =
    preview !== null &&
    preview.missing.some((m) => (fill[m.field] ?? '').trim() !== (preview.fill[m.field] ?? ''));
  const mappingChanged =
    preview !== null &&
    (Object.entries(mapping).some(([c, f]) => (preview.mapping[c] ?? null) !== f) || fillChanged);

  const upload = async (again: boolean) => {
    if (!file) return;
    setError(null);
    setResult(null);
    setProgress({ label: 'Uploading…', value: 0 });
    try {
      const answer = await previewImport(
        {
          entity,
          file,
          dateFormat,
          ...(again && preview ? { mapping, fill, replaces: preview.id } : {}),
        },
        (fraction) =>
          setProgress(
            fraction < 1
              ? { label: 'Uploading…', value: Math.round(fraction * 100) }
              : { label: 'Checking the rows…', value: null },
          ),
      );
      setPreview(answer);
      setMapping(answer.mapping);
      setFill(answer.fill);
      await client.invalidateQueries({ queryKey: importKeys.all });
    } catch (e) {
      setError(errorMessage(e, 'The file could not be previewed.'));
    } finally {
      setProgress(null);
    }
  };

  const commit = async () => {
    if (!preview) return;
    setError(null);
    setProgress({ label: 'Importing…', value: 0 });
    try {
      const done = await commitImport(preview.id, (processed, total) =>
        setProgress({ label: 'Importing…', value: total > 0 ? Math.round((processed / total) * 100) : 100 }),
      );
      setResult(done);
      setPreview(null);
      setFile(null);
      showSnackbar({ message: 'Import completed successfully!', severity: 'success' });
      await Promise.all([
        client.invalidateQueries({ queryKey: importKeys.all }),
        client.invalidateQueries({ queryKey: resourceKeys.all }),
        client.invalidateQueries({ queryKey: DASHBOARD_KEY }),
      ]);
    } catch (e) {
      setError(errorMessage(e, 'The import failed: nothing was saved.'));
    } finally {
      setProgress(null);
    }
  };

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    setFile(e.target.files?.[0] ?? null);
    setPreview(null);
    setFill({});
    setResult(null);
    setError(null);
  };

  const unmappedRequired = preview
    ? fields.filter(
        (f) =>
          f.required &&
          (f.defaultValue === undefined || f.defaultValue === 'today') &&
          !Object.values(mapping).includes(f.name),
      )
    : [];
  const sampleFields = preview
    ? fields
        .filter(
          (f) =>
            Object.values(preview.mapping).includes(f.name) ||
            preview.missing.some((m) => m.field === f.name),
        )
        .filter((f) => f.name !== 'full_name')
        .slice(0, 10)
    : [];
  /** A sample's cell: a record by name (never its id), a lease's new tenant said so, a value given for every row said so. */
  const sampleCell = (r: Record<string, unknown>, field: string) => {
    const names = (r.names ?? {}) as Record<string, string>;
    const newTenant = r.new_tenant as Record<string, unknown> | undefined;
    const filled = ((r.filled ?? []) as string[]).includes(field);
    const value = field.startsWith('new_tenant_')
      ? newTenant?.[field.slice('new_tenant_'.length)]
      : (names[field] ?? r[field]);
    const text = value === undefined || value === null ? '' : String(value);
    if (field === 'tenant_id' && newTenant) return `${text} (new tenant)`;
    return filled ? `${text} (given for every row)` : text;
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: '100%', minWidth: 0 }}>
      <Box>
        <Typography variant="h4" component="h1">
          Import
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Bring records in from a CSV or Excel (.xlsx) file of up to 20 MB and 100,000 rows. Nothing is saved
          until you import the preview; rows with an external ref that already exists update their record.
        </Typography>
      </Box>

      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormControl sx={{ minWidth: 180 }} disabled={busy}>
                <InputLabel variant="standard" htmlFor="import-entity">
                  Import into
                </InputLabel>
                <NativeSelect
                  inputProps={{ id: 'import-entity' }}
                  value={entity}
                  onChange={(e) => {
                    setEntity(e.target.value);
                    setPreview(null);
                    setResult(null);
                  }}
                >
                  {entities.map((d) => (
                    <option key={d.name} value={d.name}>
                      {d.page.drawer.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormControl>
              <FormControl sx={{ minWidth: 180 }} disabled={busy}>
                <InputLabel variant="standard" htmlFor="import-date-format">
                  Dates in the file
                </InputLabel>
                <NativeSelect
                  inputProps={{ id: 'import-date-format' }}
                  value={dateFormat}
                  onChange={(e) => setDateFormat(e.target.value as ImportDateFormat)}
                >
                  {importDateFormats.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </NativeSelect>
              </FormControl>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={busy}>
                Choose file
                <input
                  hidden
                  type="file"
                  aria-label="Choose file"
                  accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  onChange={choose}
                />
              </Button>
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {file ? `${file.name} (${formatNumber(Math.ceil(file.size / 1024))} KB)` : 'No file chosen.'}
              </Typography>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Button variant="contained" onClick={() => void upload(false)} disabled={!file || busy}>
                Upload and preview
              </Button>
              <Typography variant="body2">
                Template:{' '}
                <Link href={templateUrl(entity, 'csv')} download>
                  CSV
                </Link>{' '}
                ·{' '}
                <Link href={templateUrl(entity, 'xlsx')} download>
                  xlsx
                </Link>
              </Typography>
            </Stack>
            {progress && (
              <Box>
                <Typography variant="body2" id="import-progress-label">
                  {progress.label}
                  {progress.value !== null ? ` ${progress.value}%` : ''}
                </Typography>
                <LinearProgress
                  aria-labelledby="import-progress-label"
                  variant={progress.value === null ? 'indeterminate' : 'determinate'}
                  value={progress.value ?? 0}
                />
              </Box>
            )}
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            {result && (
              <Alert severity="success">
                Imported: {formatNumber(result.created)} created, {formatNumber(result.updated)} updated,{' '}
                {formatNumber(result.unchanged)} unchanged, {formatNumber(result.skipped_invalid)} rejected
                rows skipped.
                {result.tenants_created ? ` ${formatNumber(result.tenants_created)} tenants added.` : ''}
              </Alert>
            )}
          </Stack>
        </CardContent>
      </Card>

      {preview && (
        <Card variant="outlined">
          <CardContent>
            <Stack spacing={2}>
              <Typography variant="h6" component="h2">
                Preview of {preview.file_name}
              </Typography>
              <Typography variant="body2" aria-live="polite">
                {formatNumber(preview.total_rows)} rows: {formatNumber(preview.valid_rows)} valid,{' '}
                {formatNumber(preview.invalid_rows)} rejected.
                {preview.invalid_rows > 0 && (
                  <>
                    {' '}
                    <Link href={errorsUrl(preview.id)} download>
                      Download the rejected rows
                    </Link>
                  </>
                )}
              </Typography>

              <Typography variant="subtitle1" component="h3">
                Columns
              </Typography>
              {unmappedRequired.length > 0 && (
                <Alert severity="warning">
                  No column is imported as {unmappedRequired.map((f) => f.label).join(', ')}: choose the
                  column that holds {unmappedRequired.length === 1 ? 'it' : 'them'}, then preview again.
                </Alert>
              )}
              <Box sx={scroll}>
                <Table size="small" aria-label="Column mapping">
                  <TableHead>
                    <TableRow>
                      <TableCell>Column in the file</TableCell>
                      <TableCell>Imported as</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {preview.columns.map((column) => (
                      <TableRow key={column}>
                        <TableCell sx={{ wordBreak: 'break-word' }}>{column}</TableCell>
                        <TableCell>
                          <NativeSelect
                            inputProps={{ 'aria-label': `Field for column ${column}` }}
                            value={mapping[column] ?? ''}
                            disabled={busy}
                            onChange={(e) => setMapping({ ...mapping, [column]: e.target.value || null })}
                          >
                            <option value="">Not imported</option>
                            {fields.map((f) => (
                              <option key={f.name} value={f.name}>
                                {f.label}
                              </option>
                            ))}
                          </NativeSelect>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
              <Box>
                <Button
                  variant="outlined"
                  onClick={() => void upload(true)}
                  disabled={!mappingChanged || busy}
                >
                  Preview again
                </Button>
              </Box>

              {preview.missing.length > 0 && (
                <>
                  <Typography variant="subtitle1" component="h3">
                    Values the file lacks
                  </Typography>
                  <Typography variant="body2">
                    Give one value for every row without one, then preview again; the rows show it as given
                    for every row.
                  </Typography>
                  <Stack spacing={1}>
                    {preview.missing.map((m) => {
                      const f = fields.find((x) => x.name === m.field);
                      const id = `import-fill-${m.field}`;
                      const value = fill[m.field] ?? '';
                      const set = (v: string) => setFill({ ...fill, [m.field]: v });
                      return (
                        <Stack
                          key={m.field}
                          direction={{ xs: 'column', sm: 'row' }}
                          spacing={1}
                          sx={{ alignItems: { sm: 'center' } }}
                        >
                          <Typography variant="body2" component="label" htmlFor={id} sx={{ minWidth: 220 }}>
                            {m.label} ({formatNumber(m.rows)} {m.rows === 1 ? 'row' : 'rows'} without one)
                          </Typography>
                          {f?.options ? (
                            <NativeSelect
                              inputProps={{ id }}
                              value={value}
                              disabled={busy}
                              onChange={(e) => set(e.target.value)}
                            >
                              <option value="">None given</option>
                              {f.options.values.map((v) => (
                                <option key={v} value={v}>
                                  {f.options?.labels[v] ?? v}
                                </option>
                              ))}
                            </NativeSelect>
                          ) : (
                            <input
                              id={id}
                              type={f?.kind === 'date' ? 'date' : 'text'}
                              value={value}
                              disabled={busy}
                              onChange={(e) => set(e.target.value)}
                            />
                          )}
                        </Stack>
                      );
                    })}
                  </Stack>
                </>
              )}

              {preview.warnings.length > 0 && (
                <>
                  <Typography variant="subtitle1" component="h3">
                    Worth a look (saved all the same)
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label="Warnings">
                      <TableHead>
                        <TableRow>
                          <TableCell>Row</TableCell>
                          <TableCell>Column</TableCell>
                          <TableCell>Warning</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {preview.warnings.map((w, i) => (
                          <TableRow key={`${w.row}-${w.field}-${i}`}>
                            <TableCell>{w.row}</TableCell>
                            <TableCell>{columnOf(w.field)}</TableCell>
                            <TableCell>{w.message}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </Box>
                </>
              )}

              {preview.errors.length > 0 && (
                <>
                  <Typography variant="subtitle1" component="h3">
                    Rejected rows
                    {preview.invalid_rows > preview.errors.length ? ' (the first problems)' : ''}
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label="Rejected rows">
                      <TableHead>
                        <TableRow>
                          <TableCell>Row</TableCell>
                          <TableCell>Column</TableCell>
                          <TableCell>Problem</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {preview.errors.map((e, i) => (
                          <TableRow key={`${e.row}-${e.field}-${i}`}>
                            <TableCell>{e.row}</TableCell>
                            <TableCell>{columnOf(e.field)}</TableCell>
                            <TableCell>{e.message}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </Box>
                </>
              )}

              {preview.back_rent && <BackRentPreview backRent={preview.back_rent} />}

              {preview.sample.length > 0 && (
                <>
                  <Typography variant="subtitle1" component="h3">
                    First rows as they will be saved
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label="Sample">
                      <TableHead>
                        <TableRow>
                          <TableCell>Row</TableCell>
                          <TableCell>Action</TableCell>
                          {sampleFields.map((f) => (
                            <TableCell key={f.name}>{f.label}</TableCell>
                          ))}
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {preview.sample.map((r) => (
                          <TableRow key={String(r.row)}>
                            <TableCell>{String(r.row ?? '')}</TableCell>
                            <TableCell>{r.action === 'update' ? 'Update' : 'New'}</TableCell>
                            {sampleFields.map((f) => (
                              <TableCell key={f.name}>{sampleCell(r, f.name)}</TableCell>
                            ))}
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </Box>
                </>
              )}

              <Box>
                <Button
                  variant="contained"
                  color="success"
                  onClick={() => void commit()}
                  disabled={busy || preview.valid_rows === 0 || mappingChanged}
                >
                  Import {formatNumber(preview.valid_rows)} {preview.valid_rows === 1 ? 'row' : 'rows'}
                </Button>
                {mappingChanged && (
                  <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
                    Preview again to import with the columns and values changed.
                  </Typography>
                )}
              </Box>
            </Stack>
          </CardContent>
        </Card>
      )}

      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            Imports
          </Typography>
          {list.isError && (
            <Alert severity="error">{errorMessage(list.error, 'Failed to load imports.')}</Alert>
          )}
          <Box sx={scroll}>
            <Table size="small" aria-label="Imports">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Who</TableCell>
                  <TableCell>What</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Rows</TableCell>
                  <TableCell>Result</TableCell>
                  <TableCell>Errors</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(list.data?.rows ?? []).map((r) => (
                  <TableRow key={r.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {when(r.committed_at ?? r.created_at)}
                    </TableCell>
                    <TableCell>{r.user_name ?? (r.user_id === user?.id ? 'You' : '')}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-word' }}>
                      {words(r.entity)} · {r.file_name}
                    </TableCell>
                    <TableCell>{words(r.status)}</TableCell>
                    <TableCell align="right">
                      {formatNumber(r.valid_rows)} valid / {formatNumber(r.invalid_rows)} rejected
                    </TableCell>
                    <TableCell>
                      {r.status === 'committed'
                        ? `${formatNumber(r.created ?? 0)} created, ${formatNumber(r.updated ?? 0)} updated, ${formatNumber(r.unchanged ?? 0)} unchanged`
                        : '—'}
                    </TableCell>
                    <TableCell>
                      {r.invalid_rows > 0 && r.status !== 'expired' ? (
                        <Link href={errorsUrl(r.id)} download>
                          errors.csv
                        </Link>
                      ) : (
                        '—'
                      )}
                    </TableCell>
                  </TableRow>
                ))}
                {list.data && list.data.rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7}>No imports yet.</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </Box>
          <TablePagination
            component="div"
            count={list.data?.total ?? 0}
            page={page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[10, 25, 50]}
            onPageChange={(_, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(0);
            }}
          />
        </CardContent>
      </Card>
    </Stack>
  );
};
