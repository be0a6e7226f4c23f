import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginAnswer,
  MessageAnswer,
  RegisterBody,
  ResetPasswordBody,
} from '@kodi/domain';
import { api } from '../../lib/api-client.ts';

/** Registration and password-flow calls (02-admin §7), and the register page's companies. */

export type CompanyChoice = { id: number; name: string };

/** Reset and change password go to Login this long after success (02-admin §9). */
export const PASSWORD_REDIRECT_MS = 2500;

/** How many companies a picker asks for at a time (the server searches with `q`). */
export const COMPANY_CHOICES_PAGE_SIZE = 20;

export const accountKeys = {
  publicCompanies: (q: string) => ['public-companies', q] as const,
};

/** `GET /companies` signed out: the active companies' id and name, `q` matching the name. */
export const publicCompaniesQuery = (q: string) =>
  queryOptions({
    queryKey: accountKeys.publicCompanies(q),
    queryFn: ({ signal }) =>
      api.get<CompanyChoice[]>('/companies', {
        signal,
        public: true,
        query: { q: q.trim() || undefined, page_size: COMPANY_CHOICES_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export const registerAccount = (body: RegisterBody) => api.post<LoginAnswer>('/auth/register', body);

export const requestPasswordReset = (body: ForgotPasswordBody) =>
  api.post<MessageAnswer>('/auth/forgot-password', body);

export const resetPassword = (body: ResetPasswordBody) =>
  api.post<MessageAnswer>('/auth/reset-password', body);

export const changePassword = (body: ChangePasswordBody) =>
  api.post<MessageAnswer>('/auth/change-password', body);
