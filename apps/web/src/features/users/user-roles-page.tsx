import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Block from '@mui/icons-material/Block';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Edit from '@mui/icons-material/Edit';
import LockReset from '@mui/icons-material/LockReset';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import Security from '@mui/icons-material/Security';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { canEdit, formatDate, isAdmin, staffRoleNames, type Language, type ManagedUser } from '@kodi/domain';
import { useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { AddUserDialog } from './add-user-dialog.tsx';
import { PasswordDialog } from './password-dialog.tsx';
import { ProfileDialog } from './profile-dialog.tsx';
import { RolesDialog } from './roles-dialog.tsx';
import { SecurityDialog } from './security-dialog.tsx';
import { StatusDialog } from './status-dialog.tsx';
import { useT, type Translate } from '../../lib/i18n.ts';
import { DESTRUCTIVE_ERROR_MS, roleDescriptionText, roleText } from './user-texts.ts';
import { rolesQuery, usersQuery } from './users-api.ts';

/** The Actions column stays in view while a narrow screen scrolls the table sideways. */
const stickyActions = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.12)',
} as const;

const columns = (t: Translate): ListColumn[] => [
  { key: 'email', label: t('common.email'), sortField: 'email' },
  { key: 'first_name', label: t('users.firstName'), sortField: 'first_name' },
  { key: 'last_name', label: t('users.lastName'), sortField: 'last_name' },
  { key: 'company', label: t('users.company'), sortField: 'company_name' },
  { key: 'roles', label: t('users.roles') },
  { key: 'active', label: t('users.active'), sortField: 'active' },
  { key: 'country', label: t('users.country'), sortField: 'country_code' },
  { key: 'last_login', label: t('users.lastLogin'), sortField: 'last_login_at' },
];

type UserDialogKind = 'roles' | 'password' | 'profile' | 'status' | 'security';
type DialogState = { kind: UserDialogKind; user: ManagedUser; open: boolean; key: number } | null;

export const companyText = (user: ManagedUser, t: Translate): string =>
  user.company_name?.trim() ? user.company_name : t('users.unknownCompany', { id: user.company_id });

export const lastLoginText = (value: string | null, t: Translate, language: Language): string =>
  value ? formatDate(value, language) || value : t('users.notAvailable');

/** What each staff role may do (tenants' portal accounts are not listed here: they are the portal's). */
export const RoleGuide = () => {
  const { t, td } = useT();
  return (
    <Accordion disableGutters variant="outlined">
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="role-guide" id="role-guide-header">
        <Typography>{t('users.roleGuide')}</Typography>
      </AccordionSummary>
      <AccordionDetails id="role-guide">
        <Stack component="dl" spacing={1} sx={{ m: 0 }}>
          {staffRoleNames.map((name) => (
            <div key={name}>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                {roleText(td, name)}
              </Typography>
              <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>
                {roleDescriptionText(td, name)}
              </Typography>
            </div>
          ))}
          <Typography variant="body2" color="text.secondary">
            {t('users.tenantsNotListed')}
          </Typography>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
};

/** User Roles Management (02-admin §2): admins list, add and edit users and their roles. */
export const UserRolesPage = () => {
  const { user: me } = useSession();
  const { t, td, language } = useT();
  const listState = useListState();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [adding, setAdding] = useState({ open: false, key: 0 });

  const list = useQuery(usersQuery(listState.params));
  const roles = useQuery(rolesQuery());
  const rows = list.data?.rows ?? [];

  const loadError = list.isError
    ? isApiError(list.error) && (list.error.status === 401 || list.error.status === 403)
      ? errorMessage(list.error, t('users.usersLoadFailed'))
      : t('users.usersLoadFailed')
    : null;

  useErrorSnackbar(loadError, DESTRUCTIVE_ERROR_MS);
  useErrorSnackbar(roles.isError ? t('users.rolesLoadFailed') : null, DESTRUCTIVE_ERROR_MS);

  const readable = useMemo(() => {
    const map = new Map<string, string>();
    for (const role of roles.data ?? []) map.set(role.name, role.readable_name);
    return (name: string) => roleText(td, name, map.get(name));
  }, [roles.data, td]);

  const mayAdd = canEdit(me);
  const admin = isAdmin(me);

  const openDialog = (kind: UserDialogKind, user: ManagedUser) =>
    setDialog((d) => ({ kind, user, open: true, key: (d?.key ?? 0) + 1 }));
  const closeDialog = () => setDialog((d) => (d ? { ...d, open: false } : d));

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {t('users.title')}
      </Typography>

      <RoleGuide />

      <ListToolbar label={t('users.search')} value={listState.search} onChange={listState.setSearch}>
        {mayAdd && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setAdding((a) => ({ open: true, key: a.key + 1 }))}
          >
            {t('users.addUser')}
          </Button>
        )}
      </ListToolbar>

      <ListTable
        label={t('users.users')}
        tableSx={{ '& th, & td': { px: 1.25 } }}
        list={listState}
        query={list}
        announceLoading
        emptyText={loadError ?? t('users.empty')}
        columns={columns(t)}
        actionsSx={stickyActions}
        paginationSx={{
          '& .MuiTablePagination-selectLabel': { display: { xs: 'none', sm: 'block' } },
          '& .MuiTablePagination-input': { display: { xs: 'none', sm: 'inline-flex' } },
        }}
      >
        {rows.map((user) => (
          <TableRow key={user.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{user.email}</TableCell>
            <TableCell>{user.first_name}</TableCell>
            <TableCell>{user.last_name}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{companyText(user, t)}</TableCell>
            <TableCell>
              {user.roles.length === 0 ? (
                <Chip
                  size="small"
                  variant="outlined"
                  label={t('users.noRole')}
                  sx={{ borderStyle: 'dashed' }}
                />
              ) : (
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                  {user.roles.map((role) => (
                    <Chip key={role} size="small" label={readable(role)} />
                  ))}
                </Stack>
              )}
            </TableCell>
            <TableCell>
              <Chip
                size="small"
                label={t(user.active ? 'users.active' : 'users.inactive')}
                color={user.active ? 'success' : 'default'}
                variant={user.active ? 'filled' : 'outlined'}
              />
            </TableCell>
            <TableCell>{user.country_code ?? '—'}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {lastLoginText(user.last_login_at, t, language)}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap', ...stickyActions }}>
              <RowAction
                label={t('users.editRoles')}
                icon={<ManageAccounts fontSize="small" />}
                color="primary"
                onClick={() => openDialog('roles', user)}
              />
              {admin && (
                <>
                  <RowAction
                    label={t('users.resetPassword')}
                    icon={<LockReset fontSize="small" />}
                    onClick={() => openDialog('password', user)}
                  />
                  <RowAction
                    label={t('users.editProfile')}
                    icon={<Edit fontSize="small" />}
                    onClick={() => openDialog('profile', user)}
                  />
                  <RowAction
                    label={t('users.signInSecurity')}
                    icon={<Security fontSize="small" />}
                    onClick={() => openDialog('security', user)}
                  />
                  {user.id !== me?.id && (
                    <RowAction
                      label={t(user.active ? 'users.disableUser' : 'users.enableUser')}
                      icon={
                        user.active ? <Block fontSize="small" /> : <CheckCircleOutline fontSize="small" />
                      }
                      color={user.active ? 'error' : 'primary'}
                      onClick={() => openDialog('status', user)}
                    />
                  )}
                </>
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>

      {dialog?.kind === 'roles' && (
        <RolesDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'password' && (
        <PasswordDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'profile' && (
        <ProfileDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'security' && (
        <SecurityDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'status' && (
        <StatusDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      <AddUserDialog
        key={`add-${adding.key}`}
        open={adding.open}
        onClose={() => setAdding((a) => ({ ...a, open: false }))}
        onAdded={() => listState.setPage(0)}
      />
    </Stack>
  );
};
