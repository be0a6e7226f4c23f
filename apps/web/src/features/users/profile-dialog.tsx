import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Stack from '@mui/material/Stack';
import { userProfileBody } from '@kodi/domain';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { showFieldErrors } from '../../lib/form-errors.ts';
import { ActiveSwitch, EmailInput, NameInputs } from './form-fields.tsx';
import { CompanyInput, CountryInput } from './pickers.tsx';
import type { UserDialogProps } from './roles-dialog.tsx';
import { useT } from '../../lib/i18n.ts';
import { useUserFeedback } from './use-user-feedback.ts';
import { useUserMutations } from './users-api.ts';

type ProfileInput = z.input<typeof userProfileBody>;
type ProfileValues = z.output<typeof userProfileBody>;

const fieldNames = new Set(['email', 'first_name', 'last_name', 'company_id', 'country_code', 'active']);

/** Edit profile (admin): e-mail, company, names and country required, active optional (02-admin §5). */
export const ProfileDialog = ({ user, ...dialog }: UserDialogProps) => {
  const { t } = useT();
  const feedback = useUserFeedback(dialog.onClose);
  const { updateProfile } = useUserMutations();

  const { control, handleSubmit, setError } = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(userProfileBody),
    defaultValues: {
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      company_id: user.company_id,
      country_code: user.country_code ?? '',
      active: user.active,
      version: user.version,
    },
  });

  const onValid = (values: ProfileValues) =>
    feedback.save(
      async () => {
        await updateProfile.mutateAsync({ id: user.id, body: values });
        return t('users.profileSaved');
      },
      {
        failure: (e) => errorMessage(e, t('users.profileFailed')),
        onError: (e) => showFieldErrors(e, fieldNames, setError),
      },
    );

  return (
    <FormDialog
      {...dialog}
      busy={updateProfile.isPending}
      title={t('users.editProfile')}
      maxWidth="sm"
      onSubmit={(e) => void handleSubmit(onValid, feedback.invalid)(e)}
      submitLabel={t('shell.save')}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <EmailInput control={control} />
        <CompanyInput
          control={control}
          name="company_id"
          valueLabel={(value) =>
            value === user.company_id
              ? (user.company_name ?? t('users.unknownCompany', { id: user.company_id }))
              : undefined
          }
        />
        <NameInputs control={control} />
        <CountryInput control={control} name="country_code" />
        <ActiveSwitch control={control} name="active" label={t('users.active')} />
      </Stack>
    </FormDialog>
  );
};
