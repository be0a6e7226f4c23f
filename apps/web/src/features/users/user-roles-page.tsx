import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Block from '@mui/icons-material/Block';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Edit from '@mui/icons-material/Edit';
import LockReset from '@mui/icons-material/LockReset';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import Search from '@mui/icons-material/Search';
import { useQuery } from '@tanstack/react-query';
import { canEdit, formatDate, isAdmin, roleLabels, type ManagedUser, type RoleName } from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { useDebounced } from '../../components/resource/use-debounced.ts';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { AddUserDialog } from './add-user-dialog.tsx';
import { PasswordDialog } from './password-dialog.tsx';
import { ProfileDialog } from './profile-dialog.tsx';
import { RolesDialog } from './roles-dialog.tsx';
import { StatusDialog } from './status-dialog.tsx';
import { DESTRUCTIVE_ERROR_MS, ROLES_LOAD_FAILED, USERS_LOAD_FAILED } from './user-texts.ts';
import { rolesQuery, usersQuery } from './users-api.ts';

export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZES = [10, 25, 50, 100];

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

type Column = { label: string; sort?: string };

/** The Actions column stays in view while a narrow screen scrolls the table sideways. */
const stickyActions = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.12)',
} as const;

const COLUMNS: Column[] = [
  { label: 'Email', sort: 'email' },
  { label: 'First Name', sort: 'first_name' },
  { label: 'Last Name', sort: 'last_name' },
  { label: 'Company', sort: 'company_name' },
  { label: 'Roles' },
  { label: 'Active', sort: 'active' },
  { label: 'Country', sort: 'country_code' },
  { label: 'Last Login', sort: 'last_login_at' },
];

type UserDialogKind = 'roles' | 'password' | 'profile' | 'status';
type DialogState = { kind: UserDialogKind; user: ManagedUser; open: boolean; key: number } | null;

export const companyText = (user: ManagedUser): string =>
  user.company_name?.trim() ? user.company_name : `Unknown (ID: ${user.company_id})`;

export const lastLoginText = (value: string | null): string => (value ? formatDate(value) || value : 'N/A');

type RowActionProps = { label: string; icon: ReactNode; onClick: () => void; color?: 'error' | 'primary' };

const RowAction = ({ label, icon, onClick, color }: RowActionProps) => (
  <Tooltip title={label}>
    <IconButton size="small" aria-label={label} color={color} onClick={onClick}>
      {icon}
    </IconButton>
  </Tooltip>
);

/** User Roles Management (02-admin §2): admins list, add and edit users and their roles. */
export const UserRolesPage = () => {
  const { user: me } = useSession();
  const { showSnackbar } = useSnackbar();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<string | undefined>(undefined);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [adding, setAdding] = useState({ open: false, key: 0 });

  useEffect(() => setPage(0), [q]);

  const list = useQuery(usersQuery({ page, pageSize, q: q || undefined, sort }));
  const roles = useQuery(rolesQuery());
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  const loadError = list.isError
    ? isApiError(list.error) && (list.error.status === 401 || list.error.status === 403)
      ? errorMessage(list.error, USERS_LOAD_FAILED)
      : USERS_LOAD_FAILED
    : null;

  useEffect(() => {
    if (loadError)
      showSnackbar({ message: loadError, severity: 'error', autoHideDuration: DESTRUCTIVE_ERROR_MS });
  }, [loadError, showSnackbar]);
  useEffect(() => {
    if (roles.isError)
      showSnackbar({ message: ROLES_LOAD_FAILED, severity: 'error', autoHideDuration: DESTRUCTIVE_ERROR_MS });
  }, [roles.isError, showSnackbar]);

  const readable = useMemo(() => {
    const map = new Map<string, string>();
    for (const role of roles.data ?? []) map.set(role.name, role.readable_name);
    return (name: string) => map.get(name) ?? roleLabels[name as RoleName] ?? name;
  }, [roles.data]);

  const mayAdd = canEdit(me);
  const admin = isAdmin(me);

  const openDialog = (kind: UserDialogKind, user: ManagedUser) =>
    setDialog((d) => ({ kind, user, open: true, key: (d?.key ?? 0) + 1 }));
  const closeDialog = () => setDialog((d) => (d ? { ...d, open: false } : d));

  const toggleSort = (field: string) =>
    setSort((current) => (current === field ? `-${field}` : current === `-${field}` ? undefined : field));

  const columnCount = COLUMNS.length + 1;
  const bodyMessage = (text: string, status = false) => (
    <TableRow>
      <TableCell colSpan={columnCount} align="center" sx={{ py: 4, color: 'text.secondary' }}>
        <span role={status ? 'status' : undefined}>{text}</span>
      </TableCell>
    </TableRow>
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        User Roles Management
      </Typography>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <TextField
          label="Search by email"
          type="search"
          size="small"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ flexGrow: 1, maxWidth: { sm: 480 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ flexGrow: 1 }} />
        {mayAdd && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setAdding((a) => ({ open: true, key: a.key + 1 }))}
          >
            Add User
          </Button>
        )}
      </Stack>

      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box sx={{ height: 4 }}>
          {list.isFetching && (
            <>
              <LinearProgress aria-hidden="true" />
              <Box role="status" sx={visuallyHidden}>
                Loading ... Please wait
              </Box>
            </>
          )}
        </Box>
        <TableContainer>
          <Table size="small" aria-label="Users" sx={{ '& th, & td': { px: 1.25 } }}>
            <TableHead>
              <TableRow>
                {COLUMNS.map((col) => {
                  const active = !!col.sort && (sort === col.sort || sort === `-${col.sort}`);
                  const direction = sort === `-${col.sort}` ? 'desc' : 'asc';
                  return (
                    <TableCell
                      key={col.label}
                      sortDirection={active ? direction : false}
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                    >
                      {col.sort ? (
                        <TableSortLabel
                          active={active}
                          direction={direction}
                          onClick={() => col.sort && toggleSort(col.sort)}
                        >
                          {col.label}
                        </TableSortLabel>
                      ) : (
                        col.label
                      )}
                    </TableCell>
                  );
                })}
                <TableCell align="right" sx={{ fontWeight: 600, ...stickyActions }}>
                  Actions
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.isPending
                ? bodyMessage('Fetching data...', true)
                : rows.length === 0
                  ? bodyMessage(loadError ?? 'No users available or match your search.')
                  : rows.map((user) => (
                      <TableRow key={user.id} hover>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{user.email}</TableCell>
                        <TableCell>{user.first_name}</TableCell>
                        <TableCell>{user.last_name}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{companyText(user)}</TableCell>
                        <TableCell>
                          {user.roles.length === 0 ? (
                            <Chip
                              size="small"
                              variant="outlined"
                              label="No role"
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
                            label={user.active ? 'Active' : 'Inactive'}
                            color={user.active ? 'success' : 'default'}
                            variant={user.active ? 'filled' : 'outlined'}
                          />
                        </TableCell>
                        <TableCell>{user.country_code ?? '—'}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {lastLoginText(user.last_login_at)}
                        </TableCell>
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap', ...stickyActions }}>
                          <RowAction
                            label="Edit Roles"
                            icon={<ManageAccounts fontSize="small" />}
                            color="primary"
                            onClick={() => openDialog('roles', user)}
                          />
                          {admin && (
                            <>
                              <RowAction
                                label="Reset password"
                                icon={<LockReset fontSize="small" />}
                                onClick={() => openDialog('password', user)}
                              />
                              <RowAction
                                label="Edit profile"
                                icon={<Edit fontSize="small" />}
                                onClick={() => openDialog('profile', user)}
                              />
                              {user.id !== me?.id && (
                                <RowAction
                                  label={user.active ? 'Disable user' : 'Enable user'}
                                  icon={
                                    user.active ? (
                                      <Block fontSize="small" />
                                    ) : (
                                      <CheckCircleOutline fontSize="small" />
                                    )
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
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          sx={{
            '& .MuiTablePagination-selectLabel': { display: { xs: 'none', sm: 'block' } },
            '& .MuiTablePagination-input': { display: { xs: 'none', sm: 'inline-flex' } },
          }}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      </Paper>

      {dialog?.kind === 'roles' && (
        <RolesDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'password' && (
        <PasswordDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'profile' && (
        <ProfileDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      {dialog?.kind === 'status' && (
        <StatusDialog key={dialog.key} open={dialog.open} user={dialog.user} onClose={closeDialog} />
      )}
      <AddUserDialog
        key={`add-${adding.key}`}
        open={adding.open}
        onClose={() => setAdding((a) => ({ ...a, open: false }))}
        onAdded={() => setPage(0)}
      />
    </Stack>
  );
};
