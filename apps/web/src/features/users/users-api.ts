import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ManagedUser,
  MessageAnswer,
  RegisterAsAdminBody,
  Role,
  UserPasswordBody,
  UserProfileBody,
  UserRolesBody,
} from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { fetchPage, type Page, type PageParams } from '../../lib/pages.ts';
import { ensureStatus, getSession } from '../../lib/session.ts';

/** Users and roles (02-admin §2 'User Roles Management', §7): admins only. */

export type UsersParams = PageParams;

export type UsersPage = Page<ManagedUser>;

export const userKeys = {
  all: ['users'] as const,
  list: (params: UsersParams) => ['users', 'list', params] as const,
  roles: ['roles'] as const,
};

/** One page of `GET /users` (q searches the e-mail) with the total of `X-Total-Count`. */
export const usersQuery = (params: UsersParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }): Promise<UsersPage> => fetchPage<ManagedUser>('/users', params, signal),
    placeholderData: keepPreviousData,
  });

/** `GET /roles`: the roles a user may hold, with their readable names. */
export const rolesQuery = () =>
  queryOptions({
    queryKey: userKeys.roles,
    queryFn: ({ signal }) => api.get<Role[]>('/roles', { signal, quietForbidden: true }),
    staleTime: 10 * 60_000,
  });

/** A user's profile as `PUT /users/{id}` takes it (without the read-only fields). */
export const profileOf = (user: ManagedUser) => ({
  email: user.email,
  first_name: user.first_name,
  last_name: user.last_name,
  company_id: user.company_id,
  country_code: user.country_code,
  active: user.active,
  version: user.version,
});

/**
 * The users mutations. Each success refetches the users lists; a change to the signed-in admin's own
 * account also refreshes the session (company, roles).
 */
export const useUserMutations = () => {
  const client = useQueryClient();
  const refresh = async (userId?: number) => {
    await client.invalidateQueries({ queryKey: userKeys.all });
    if (userId !== undefined && userId === getSession().user?.id) void ensureStatus({ force: true });
  };

  const updateProfile = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserProfileBody }) =>
      api.put<ManagedUser>(`/users/${id}`, body),
    onSuccess: (user) => refresh(user.id),
  });
  const updateRoles = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserRolesBody }) =>
      api.put<ManagedUser>(`/users/${id}/roles`, body),
    onSuccess: (user) => refresh(user.id),
  });
  const setPassword = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserPasswordBody }) =>
      api.put<MessageAnswer>(`/users/${id}/password`, body),
    onSuccess: () => refresh(),
  });
  const addUser = useMutation({
    mutationFn: (body: RegisterAsAdminBody) => api.post<ManagedUser>('/auth/register_as_admin', body),
    onSuccess: () => refresh(),
  });
  const resetMfa = useMutation({
    mutationFn: (id: number) => api.delete<MessageAnswer>(`/users/${id}/mfa`),
    onSuccess: (_answer, id) => refresh(id),
  });
  const endSessions = useMutation({
    mutationFn: (id: number) => api.delete<{ ended: number }>(`/users/${id}/sessions`),
    onSuccess: () => refresh(),
  });
  return { updateProfile, updateRoles, setPassword, addUser, resetMfa, endSessions };
};
