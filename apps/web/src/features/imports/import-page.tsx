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
  intlLocales,
  navKey,
  type Field,
  type ImportCommitResult,
  type ImportDateFormat,
  type ImportRecord,
  type Language,
} from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
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

const when = (iso: string | null, language: Language) =>
  iso
    ? new Intl.DateTimeFormat(intlLocales[language], {
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
  const { t, td, language } = useT();
  const num = (n: number) => formatNumber(n, 0, language);
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
  /** A field's label in the page's language (the entity's own key; English the definition's). */
  const fieldLabel = (f: Pick<Field, 'name' | 'label'>) =>
    td(`entity.${def?.name ?? ''}.field.${f.name}`, f.label);
  const labelOf = (field: string) => {
    const f = fields.find((x) => x.name === field);
    return f ? fieldLabel(f) : field;
  };
  /** An entity's name: the drawer's (Import into), or the list's words (English as before). */
  const entityLabel = (d: (typeof entities)[number]) => td(navKey(d.page.drawer.label), d.page.drawer.label);
  const entityWords = (name: string) => {
    const d = entities.find((x) => x.name === name);
    return d && language !== 'en' ? entityLabel(d) : words(name);
  };
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
    setProgress({ label: t('imports.uploading'), value: 0 });
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
              ? { label: t('imports.uploading'), value: Math.round(fraction * 100) }
              : { label: t('imports.checking'), value: null },
          ),
      );
      setPreview(answer);
      setMapping(answer.mapping);
      setFill(answer.fill);
      await client.invalidateQueries({ queryKey: importKeys.all });
    } catch (e) {
      setError(errorMessage(e, t('imports.previewFailed')));
    } finally {
      setProgress(null);
    }
  };

  const commit = async () => {
    if (!preview) return;
    setError(null);
    setProgress({ label: t('imports.importing'), value: 0 });
    try {
      const done = await commitImport(preview.id, (processed, total) =>
        setProgress({
          label: t('imports.importing'),
          value: total > 0 ? Math.round((processed / total) * 100) : 100,
        }),
      );
      setResult(done);
      setPreview(null);
      setFile(null);
      showSnackbar({ message: t('imports.completed'), severity: 'success' });
      await Promise.all([
        client.invalidateQueries({ queryKey: importKeys.all }),
        client.invalidateQueries({ queryKey: resourceKeys.all }),
        client.invalidateQueries({ queryKey: DASHBOARD_KEY }),
      ]);
    } catch (e) {
      setError(errorMessage(e, t('imports.failed')));
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
    if (field === 'tenant_id' && newTenant) return t('imports.newTenant', { text });
    return filled ? t('imports.givenForEveryRow', { text }) : text;
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: '100%', minWidth: 0 }}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('imports.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('imports.intro')}
        </Typography>
      </Box>

      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormControl sx={{ minWidth: 180 }} disabled={busy}>
                <InputLabel variant="standard" htmlFor="import-entity">
                  {t('imports.importInto')}
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
                      {entityLabel(d)}
                    </option>
                  ))}
                </NativeSelect>
              </FormControl>
              <FormControl sx={{ minWidth: 180 }} disabled={busy}>
                <InputLabel variant="standard" htmlFor="import-date-format">
                  {t('imports.datesInFile')}
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
                {t('imports.chooseFile')}
                <input
                  hidden
                  type="file"
                  aria-label={t('imports.chooseFile')}
                  accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  onChange={choose}
                />
              </Button>
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {file
                  ? t('imports.fileSize', { name: file.name, size: num(Math.ceil(file.size / 1024)) })
                  : t('imports.noFile')}
              </Typography>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Button variant="contained" onClick={() => void upload(false)} disabled={!file || busy}>
                {t('imports.uploadPreview')}
              </Button>
              <Typography variant="body2">
                {t('imports.template')}{' '}
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
                {t('imports.result', {
                  created: num(result.created),
                  updated: num(result.updated),
                  unchanged: num(result.unchanged),
                  skipped: num(result.skipped_invalid),
                })}
                {result.tenants_created
                  ? ` ${t('imports.tenantsAdded', { count: num(result.tenants_created) })}`
                  : ''}
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
                {t('imports.previewOf', { file: preview.file_name })}
              </Typography>
              <Typography variant="body2" aria-live="polite">
                {t('imports.rowsSummary', {
                  total: num(preview.total_rows),
                  valid: num(preview.valid_rows),
                  invalid: num(preview.invalid_rows),
                })}
                {preview.invalid_rows > 0 && (
                  <>
                    {' '}
                    <Link href={errorsUrl(preview.id)} download>
                      {t('imports.downloadRejected')}
                    </Link>
                  </>
                )}
              </Typography>

              <Typography variant="subtitle1" component="h3">
                {t('imports.columns')}
              </Typography>
              {unmappedRequired.length > 0 && (
                <Alert severity="warning">
                  {t('imports.noColumnFor', {
                    fields: unmappedRequired.map(fieldLabel).join(', '),
                    count: unmappedRequired.length,
                  })}
                </Alert>
              )}
              <Box sx={scroll}>
                <Table size="small" aria-label={t('imports.columnMapping')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('imports.columnInFile')}</TableCell>
                      <TableCell>{t('imports.importedAs')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {preview.columns.map((column) => (
                      <TableRow key={column}>
                        <TableCell sx={{ wordBreak: 'break-word' }}>{column}</TableCell>
                        <TableCell>
                          <NativeSelect
                            inputProps={{ 'aria-label': t('imports.fieldForColumn', { column }) }}
                            value={mapping[column] ?? ''}
                            disabled={busy}
                            onChange={(e) => setMapping({ ...mapping, [column]: e.target.value || null })}
                          >
                            <option value="">{t('imports.notImported')}</option>
                            {fields.map((f) => (
                              <option key={f.name} value={f.name}>
                                {fieldLabel(f)}
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
                  {t('imports.previewAgain')}
                </Button>
              </Box>

              {preview.missing.length > 0 && (
                <>
                  <Typography variant="subtitle1" component="h3">
                    {t('imports.valuesLacking')}
                  </Typography>
                  <Typography variant="body2">{t('imports.valuesLackingHelp')}</Typography>
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
                            {t('imports.rowsWithout', {
                              label: fieldLabel({ name: m.field, label: m.label }),
                              count: m.rows,
                            })}
                          </Typography>
                          {f?.options ? (
                            <NativeSelect
                              inputProps={{ id }}
                              value={value}
                              disabled={busy}
                              onChange={(e) => set(e.target.value)}
                            >
                              <option value="">{t('imports.noneGiven')}</option>
                              {f.options.values.map((v) => (
                                <option key={v} value={v}>
                                  {td(
                                    `entity.${def?.name ?? ''}.option.${f.name}.${v}`,
                                    f.options?.labels[v] ?? v,
                                  )}
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
                    {t('imports.worthALook')}
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label={t('imports.warnings')}>
                      <TableHead>
                        <TableRow>
                          <TableCell>{t('imports.row')}</TableCell>
                          <TableCell>{t('imports.column')}</TableCell>
                          <TableCell>{t('imports.warning')}</TableCell>
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
                    {preview.invalid_rows > preview.errors.length
                      ? t('imports.rejectedRowsFirst')
                      : t('imports.rejectedRows')}
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label={t('imports.rejectedRows')}>
                      <TableHead>
                        <TableRow>
                          <TableCell>{t('imports.row')}</TableCell>
                          <TableCell>{t('imports.column')}</TableCell>
                          <TableCell>{t('imports.problem')}</TableCell>
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
                    {t('imports.firstRows')}
                  </Typography>
                  <Box sx={scroll}>
                    <Table size="small" aria-label={t('imports.sample')}>
                      <TableHead>
                        <TableRow>
                          <TableCell>{t('imports.row')}</TableCell>
                          <TableCell>{t('imports.action')}</TableCell>
                          {sampleFields.map((f) => (
                            <TableCell key={f.name}>{fieldLabel(f)}</TableCell>
                          ))}
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {preview.sample.map((r) => (
                          <TableRow key={String(r.row)}>
                            <TableCell>{String(r.row ?? '')}</TableCell>
                            <TableCell>
                              {r.action === 'update' ? t('imports.update') : t('imports.new')}
                            </TableCell>
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
                  {t('imports.importRows', { count: preview.valid_rows })}
                </Button>
                {mappingChanged && (
                  <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
                    {t('imports.previewAgainHint')}
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
            {t('imports.imports')}
          </Typography>
          {list.isError && (
            <Alert severity="error">{errorMessage(list.error, t('imports.loadFailed'))}</Alert>
          )}
          <Box sx={scroll}>
            <Table size="small" aria-label={t('imports.imports')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('imports.when')}</TableCell>
                  <TableCell>{t('imports.who')}</TableCell>
                  <TableCell>{t('imports.what')}</TableCell>
                  <TableCell>{t('imports.status')}</TableCell>
                  <TableCell align="right">{t('imports.rows')}</TableCell>
                  <TableCell>{t('imports.resultColumn')}</TableCell>
                  <TableCell>{t('imports.errors')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(list.data?.rows ?? []).map((r) => (
                  <TableRow key={r.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {when(r.committed_at ?? r.created_at, language)}
                    </TableCell>
                    <TableCell>{r.user_name ?? (r.user_id === user?.id ? t('imports.you') : '')}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-word' }}>
                      {entityWords(r.entity)} · {r.file_name}
                    </TableCell>
                    <TableCell>{td(`imports.status.${r.status}`, words(r.status))}</TableCell>
                    <TableCell align="right">
                      {t('imports.validRejected', { valid: num(r.valid_rows), invalid: num(r.invalid_rows) })}
                    </TableCell>
                    <TableCell>
                      {r.status === 'committed'
                        ? t('imports.counts', {
                            created: num(r.created ?? 0),
                            updated: num(r.updated ?? 0),
                            unchanged: num(r.unchanged ?? 0),
                          })
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
                    <TableCell colSpan={7}>{t('imports.noImports')}</TableCell>
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
            labelRowsPerPage={t('shell.rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) =>
              t('shell.rowsOf', { from: num(from), to: num(to), count: num(count) })
            }
            getItemAriaLabel={(type) => t('shell.goToPage', { type })}
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
