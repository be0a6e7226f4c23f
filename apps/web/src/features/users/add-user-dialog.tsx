import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { addUserForm } from '@kodi/domain';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { NewPasswordFields } from '../../components/ui/form-text-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { showFieldErrors } from '../../lib/form-errors.ts';
import { ActiveSwitch, EmailInput, NameInputs } from './form-fields.tsx';
import { CompanyInput, CountryInput } from './pickers.tsx';
import { RolesInput } from './roles-dialog.tsx';
import { useT } from '../../lib/i18n.ts';
import { useUserFeedback } from './use-user-feedback.ts';
import { rolesQuery, useUserMutations } from './users-api.ts';

type AddInput = z.input<typeof addUserForm>;
type AddValues = z.output<typeof addUserForm>;

const fieldNames = new Set([
  'email',
  'first_name',
  'last_name',
  'company_id',
  'country_code',
  'active',
  'password',
  'roles',
]);

type AddUserDialogProps = { open: boolean; onClose: () => void; onAdded: () => void };

/** Add user (canEdit): every field required but the roles (02-admin §5 'Add user'). */
export const AddUserDialog = ({ open, onClose, onAdded }: AddUserDialogProps) => {
  const { t } = useT();
  const feedback = useUserFeedback(() => {
    onAdded();
    onClose();
  });
  const { addUser } = useUserMutations();
  const roles = useQuery({ ...rolesQuery(), enabled: open });

  const { control, handleSubmit, setError } = useForm<AddInput, unknown, AddValues>({
    resolver: zodResolver(addUserForm),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      company_id: null,
      country_code: '',
      active: true,
      password: '',
      confirm_password: '',
      roles: [],
    },
  });

  const onValid = ({ confirm_password: _confirm, ...body }: AddValues) =>
    feedback.save(
      async () => {
        await addUser.mutateAsync(body);
        return t('users.userAdded');
      },
      {
        failure: (e) => errorMessage(e, t('users.addFailed')),
        onError: (e) => showFieldErrors(e, fieldNames, setError),
      },
    );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      busy={addUser.isPending}
      title={t('users.addUser')}
      maxWidth="sm"
      onSubmit={(e) => void handleSubmit(onValid, feedback.invalid)(e)}
      submitLabel={t('users.addUser')}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <EmailInput control={control} />
        <NameInputs control={control} />
        <CompanyInput control={control} name="company_id" />
        <CountryInput control={control} name="country_code" />
        <ActiveSwitch control={control} name="active" label={t('users.active')} />
        <NewPasswordFields control={control} name="password" confirmName="confirm_password" newAccount />
        {roles.isError ? (
          <Alert severity="error">{t('users.rolesLoadFailed')}</Alert>
        ) : (
          <RolesInput
            control={control}
            name="roles"
            label={t('users.rolesOptional')}
            roles={roles.data ?? []}
          />
        )}
      </Stack>
    </FormDialog>
  );
};
