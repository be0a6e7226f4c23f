import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type ReactNode,
} from 'react';
import { Controller, useForm, useWatch, type Control, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { formSchema, messages, type EntityDefinition, type Field } from '@kodi/domain';
import { isApiError } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.ts';
import { useLocalizedDefinition } from '../../lib/entity-text.ts';
import {
  downloadFile,
  recordQuery,
  useCompanyMoney,
  useResourceMutations,
  type ResourceRow,
} from '../../lib/resources.ts';
import { PageLoader } from '../page-loader.tsx';
import { DialogButtons } from '../ui/dialog-buttons.tsx';
import { useSnackbar } from '../snackbar-provider.tsx';
import { DocumentInput, ImageInput } from './file-inputs.tsx';
import {
  companionName,
  createValues,
  editValues,
  formFields,
  referenceHints,
  requestBody,
  type FormValues,
} from './form-values.ts';
import { actionErrorText } from './messages.ts';
import { ReferencePicker, type PickerOption, type ReferencePickerProps } from './reference-picker.tsx';
import type { FormApi, ResourceExtras } from './types.ts';

export type FormMode = { kind: 'create' } | { kind: 'edit'; id: number };

export type ResourceFormDialogProps = {
  def: EntityDefinition;
  extras?: ResourceExtras;
  open: boolean;
  mode: FormMode;
  onClose: () => void;
  /** After a successful save (the dialog has closed). */
  onSaved?: (record: ResourceRow, kind: FormMode['kind']) => void;
};

const CONFLICT = 'conflict';

/**
 * The add/edit dialog of an entity: persistent (no close on backdrop or Escape), fields from the
 * definition, validated with the same zod schema as the server, server field errors under the
 * fields, and a Reload offer when someone else changed the record meanwhile.
 */
export const ResourceFormDialog = ({
  def: definition,
  extras,
  open,
  mode,
  onClose,
  onSaved,
}: ResourceFormDialogProps) => {
  const def = useLocalizedDefinition(definition);
  const { t } = useT();
  const formId = useId();
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { create, update } = useResourceMutations(def.name);
  const fields = useMemo(() => formFields(def), [def]);
  const resolver = useMemo(
    () => zodResolver(formSchema(def) as never) as unknown as Resolver<FormValues>,
    [def],
  );
  const emptyValues = useMemo(() => createValues(def), [def]);

  const form = useForm<FormValues, unknown, FormValues>({
    resolver,
    defaultValues: emptyValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { control, handleSubmit, reset, setError, setValue, getValues, formState } = form;

  const [record, setRecord] = useState<ResourceRow | null>(null);
  const [loading, setLoading] = useState(mode.kind === 'edit');
  const [conflict, setConflict] = useState<string | null>(null);
  const [hints, setHints] = useState<Record<string, PickerOption | undefined>>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const editId = mode.kind === 'edit' ? mode.id : null;

  /** Reads the record afresh (edit, or Reload after a conflict) and puts it in the form. */
  const load = useCallback(async () => {
    if (editId === null) return;
    setLoading(true);
    try {
      const fresh = await client.fetchQuery(recordQuery(def.name, editId));
      setRecord(fresh);
      setHints(referenceHints(def, fresh));
      reset(editValues(def, fresh));
      setConflict(null);
      setOtherErrors([]);
    } catch (e) {
      showSnackbar({
        message: actionErrorText(def, e, def.ui.messages.detailsFailed),
        severity: 'error',
        autoHideDuration: def.ui.timeouts.error,
      });
      if (!record) onClose();
    } finally {
      setLoading(false);
    }
  }, [client, def, editId, onClose, record, reset, showSnackbar]);

  const loadedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!open || editId === null || loadedFor.current === editId) return;
    loadedFor.current = editId;
    void load();
  }, [open, editId, load]);

  /** The fields the user typed or chose in this form (FormApi.typed). */
  const userTyped = useRef(new Set<string>());

  const close = () => {
    userTyped.current.clear();
    reset(emptyValues);
    setConflict(null);
    setOtherErrors([]);
    onClose();
  };

  const formApi: FormApi = {
    getValue: (name) => getValues(name),
    setValue: (name, value) =>
      setValue(name, value, { shouldDirty: true, shouldValidate: formState.isSubmitted }),
    setReference: (name, id, label) => {
      setHints((h) => ({ ...h, [name]: id !== null && label ? { value: id, label } : undefined }));
      setValue(name, id, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    },
    typed: (name) => editId !== null || userTyped.current.has(name),
  };

  const userChanged = (name: string, value: unknown) => {
    userTyped.current.add(name);
    const react = extras?.onFieldChange?.[name];
    if (react) void Promise.resolve(react(value, formApi)).catch(() => undefined);
  };

  const onValid = async (values: FormValues) => {
    setOtherErrors([]);
    try {
      const saved =
        editId === null
          ? await create.mutateAsync(requestBody(values))
          : await update.mutateAsync({ id: editId, body: requestBody(values, record?.version) });
      showSnackbar({
        message: editId === null ? def.ui.messages.created : def.ui.messages.updated,
        severity: 'success',
        autoHideDuration: def.ui.timeouts.success,
      });
      close();
      onSaved?.(saved, mode.kind);
    } catch (e) {
      if (isApiError(e)) {
        if (e.code === CONFLICT) setConflict(e.message);
        const unknown: string[] = [];
        for (const [name, message] of Object.entries(e.fields ?? {})) {
          if (fields.some((f) => f.name === name) || extras?.formControls?.[name])
            setError(name, { type: 'server', message });
          else unknown.push(message);
        }
        setOtherErrors(unknown);
      }
      showSnackbar({
        message: actionErrorText(def, e, def.ui.messages.saveFailed),
        severity: 'error',
        autoHideDuration: def.ui.timeouts.saveError,
      });
    }
  };

  const onInvalid = () =>
    showSnackbar({
      message: messages.formInvalid,
      severity: 'warning',
      autoHideDuration: def.ui.timeouts.error,
    });

  // what the entity's note reads, as the user types
  const typed = useWatch({ control }) as Record<string, unknown>;
  const saving = create.isPending || update.isPending;
  const locked = editId !== null && record ? extras?.lockedFields?.(record) : undefined;
  const title = editId === null ? def.ui.formTitle.create : def.ui.formTitle.edit;

  return (
    <Dialog
      open={open}
      disableEscapeKeyDown
      maxWidth={false}
      scroll="paper"
      slotProps={{ paper: { sx: { width: def.ui.dialogWidth, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        {conflict && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => void load()} disabled={loading}>
                Reload
              </Button>
            }
          >
            {conflict}
          </Alert>
        )}
        {locked && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {locked.note}
          </Alert>
        )}
        {otherErrors.length > 0 && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {otherErrors.join(' ')}
          </Alert>
        )}
        {loading ? (
          <PageLoader />
        ) : (
          <Box
            component="form"
            id={formId}
            noValidate
            aria-label={title}
            onSubmit={(e) => void handleSubmit(onValid, onInvalid)(e)}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
              gap: 2,
              pt: 1,
            }}
          >
            {fields.map((field) => (
              <Box
                key={field.name}
                sx={{
                  gridColumn:
                    field.fullWidth || field.kind === 'textarea' || field.kind === 'file' ? '1 / -1' : 'auto',
                }}
              >
                <FormField
                  def={def}
                  field={field}
                  picker={extras?.pickers?.[field.name]}
                  control={control}
                  record={record}
                  locked={locked?.names.includes(field.name) ?? false}
                  hint={hints[field.name]}
                  onUserChange={userChanged}
                  onFileChange={(value, fileName) => {
                    setValue(field.name, value, { shouldDirty: true });
                    setValue(companionName(field), fileName, { shouldDirty: true });
                  }}
                />
                {extras?.fieldNotes?.[field.name]?.(typed, editId)}
              </Box>
            ))}
            {Object.entries(extras?.formControls ?? {}).map(([name, custom]) => (
              <Box key={name} sx={{ gridColumn: '1 / -1' }}>
                <Controller
                  name={name}
                  control={control}
                  render={({ field: input, fieldState }) => (
                    <>
                      {custom.render({
                        value: input.value,
                        onChange: input.onChange,
                        onBlur: input.onBlur,
                        inputRef: input.ref,
                        error: fieldState.error?.message,
                        creating: editId === null,
                      })}
                    </>
                  )}
                />
              </Box>
            ))}
          </Box>
        )}
        {!loading && extras?.formNote?.(typed)}
      </DialogContent>
      <DialogButtons
        busy={saving}
        onCancel={close}
        label={t('shell.save')}
        form={formId}
        disabled={loading}
      />
    </Dialog>
  );
};

type FormFieldProps = {
  def: EntityDefinition;
  field: Field;
  control: Control<FormValues, unknown, FormValues>;
  record: ResourceRow | null;
  /** shown, not changed (a completed payment's receipt fields) */
  locked?: boolean;
  hint?: PickerOption;
  onUserChange: (name: string, value: unknown) => void;
  onFileChange: (value: string, fileName: string) => void;
  /** the entity's own picker of this reference field (ResourceExtras.pickers) */
  picker?: ((props: ReferencePickerProps) => ReactNode) | undefined;
};

const inputType = (field: Field): string => {
  switch (field.kind) {
    case 'email':
      return 'email';
    case 'phone':
      return 'tel';
    case 'date':
      return 'date';
    case 'number':
    case 'money':
    case 'integer':
    case 'percent':
      return 'number';
    default:
      return 'text';
  }
};

/** One form control, chosen by the field's kind. */
const FormField = ({
  def,
  field,
  control,
  record,
  locked = false,
  hint,
  onUserChange,
  onFileChange,
  picker,
}: FormFieldProps) => {
  const money = useCompanyMoney();
  const { t } = useT();
  return (
    <Controller
      name={field.name}
      control={control}
      render={({ field: input, fieldState }) => {
        const error = fieldState.error?.message;
        const change = (value: unknown) => {
          input.onChange(value);
          onUserChange(field.name, value);
        };
        /** What the text and select fields share. */
        const textProps = {
          fullWidth: true,
          label: field.label,
          required: field.required,
          value: input.value ?? '',
          onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => change(e.target.value),
          onBlur: input.onBlur,
          inputRef: input.ref,
          name: input.name,
          error: !!error,
          helperText: error ?? field.helperText,
          disabled: locked,
        };
        if (locked && field.kind === 'reference')
          return (
            <TextField
              fullWidth
              disabled
              label={field.label}
              value={hint?.label ?? String(input.value ?? '')}
            />
          );
        switch (field.kind) {
          case 'boolean':
            return (
              <Box>
                <FormControlLabel
                  control={
                    <Switch
                      checked={input.value === true}
                      onChange={(e) => change(e.target.checked)}
                      onBlur={input.onBlur}
                      inputRef={input.ref}
                    />
                  }
                  label={field.label}
                />
                {(error || field.helperText) && (
                  <FormHelperText error={!!error}>{error ?? field.helperText}</FormHelperText>
                )}
              </Box>
            );
          case 'reference': {
            const props: ReferencePickerProps = {
              field,
              value: input.value,
              hint,
              onChange: change,
              onBlur: input.onBlur,
              inputRef: input.ref,
              error: !!error,
              helperText: error ?? field.helperText,
            };
            return picker ? <>{picker(props)}</> : <ReferencePicker {...props} />;
          }
          case 'image':
            return (
              <ImageInput
                field={field}
                value={input.value}
                current={record?.[field.name]}
                onChange={change}
                error={error}
              />
            );
          case 'file':
            return (
              <FileField
                def={def}
                field={field}
                control={control}
                record={record}
                value={input.value}
                onChange={onFileChange}
                error={error}
              />
            );
          case 'enum':
            return (
              <TextField select {...textProps}>
                {!field.required && (
                  <MenuItem value="">
                    <em>{t('resource.none')}</em>
                  </MenuItem>
                )}
                {(field.options?.values ?? [])
                  // the values a form offers (a payment is never recorded void), and the stored one
                  .filter(
                    (value) => !field.formValues || field.formValues.includes(value) || value === input.value,
                  )
                  .map((value) => (
                    <MenuItem key={value} value={value}>
                      {field.options?.labels[value] ?? value}
                    </MenuItem>
                  ))}
              </TextField>
            );
          default: {
            const numeric = inputType(field) === 'number';
            return (
              <TextField
                {...textProps}
                type={inputType(field)}
                multiline={field.kind === 'textarea'}
                minRows={field.kind === 'textarea' ? 3 : undefined}
                slotProps={{
                  inputLabel: field.kind === 'date' ? { shrink: true } : undefined,
                  htmlInput: numeric
                    ? { step: field.kind === 'integer' ? 1 : 'any', inputMode: 'decimal' }
                    : undefined,
                  input:
                    field.kind === 'money'
                      ? { startAdornment: <InputAdornment position="start">{money.currency}</InputAdornment> }
                      : field.kind === 'percent'
                        ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
                        : undefined,
                }}
              />
            );
          }
        }
      }}
    />
  );
};

type FileFieldProps = {
  def: EntityDefinition;
  field: Field;
  control: Control<FormValues, unknown, FormValues>;
  record: ResourceRow | null;
  value: unknown;
  onChange: (value: string, fileName: string) => void;
  error?: string;
};

/** A document with its file name (`{name}_name`) and the download of the stored one. */
const FileField = ({ def, field, control, record, value, onChange, error }: FileFieldProps) => {
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  const chosenName = useWatch({ control, name: companionName(field) }) as string | null | undefined;
  const storedName = record?.[companionName(field)];
  const fileName = chosenName ?? (typeof storedName === 'string' ? storedName : null);
  const id = record?.id;
  const download = () =>
    void downloadFile(`/${def.name}/${String(id)}/${field.name}`, fileName || field.name).catch(
      (e: unknown) =>
        showSnackbar({
          message: actionErrorText(def, e, t('resource.downloadFailed')),
          severity: 'error',
          autoHideDuration: def.ui.timeouts.error,
        }),
    );
  return (
    <DocumentInput
      field={field}
      value={value}
      fileName={fileName}
      hasCurrent={!!record && (record[`has_${field.name}`] === true || !!storedName)}
      onChange={onChange}
      onDownload={id === undefined ? undefined : download}
      error={error}
    />
  );
};
