import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Announcement, AnnouncementBody, Message, MessageChannel, MessageTemplate } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';
import { resourceKeys } from '../../lib/resources.ts';

/** The message log, the templates and what the server can send through (keys under the resources'). */
export const messageKeys = {
  all: [...resourceKeys.all, 'messages'] as const,
  log: (params: LogParams) => [...resourceKeys.all, 'messages', 'log', params] as const,
  templates: [...resourceKeys.all, 'messages', 'templates'] as const,
  providers: [...resourceKeys.all, 'messages', 'providers'] as const,
};

export type LogParams = PageParams & { status?: string | undefined; channel?: string | undefined };

export const messageLogQuery = (params: LogParams) =>
  queryOptions({
    queryKey: messageKeys.log(params),
    queryFn: ({ signal }) =>
      fetchPage<Message>('/messages', params, signal, { status: params.status, channel: params.channel }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const templatesQuery = () =>
  queryOptions({
    queryKey: messageKeys.templates,
    queryFn: ({ signal }) =>
      api.get<MessageTemplate[]>('/message-templates', { signal, query: { page_size: 500 } }),
    staleTime: 0,
  });

export const providersQuery = () =>
  queryOptions({
    queryKey: messageKeys.providers,
    queryFn: ({ signal }) =>
      api.get<{ email: boolean; sms: boolean; whatsapp: boolean }>('/messages/providers', {
        signal,
        quietForbidden: true,
      }),
    staleTime: 60_000,
  });

export const retryMessage = (id: number) => api.post<Message>(`/messages/${id}/retry`);

export type TemplateInput = {
  name: string;
  channel: 'email' | 'sms';
  kind: 'before_due' | 'due' | 'overdue' | 'receipt';
  subject: string | null;
  body: string;
  /** the language it is written in (issue 30) */
  language?: 'en' | 'sw' | 'fr';
};

export const saveTemplate = (input: TemplateInput, existing?: MessageTemplate) =>
  existing
    ? api.put<MessageTemplate>(`/message-templates/${existing.id}`, { ...input, version: existing.version })
    : api.post<MessageTemplate>('/message-templates', input);

export const deleteTemplate = (id: number) => api.delete(`/message-templates/${id}`);

export const previewTemplate = (id: number, occupancyId: number) =>
  api.post<{ subject: string | null; body: string; warnings: string[] }>(`/message-templates/${id}/preview`, {
    occupancy_id: occupancyId,
  });

export const sendTestMessage = (channel: MessageChannel, to: string) =>
  api.post<Message>('/messages/test', { channel, to });

/** Announcements (issue 29): the list with their counts, and one sent. */
export const announcementKeys = {
  all: [...resourceKeys.all, 'announcements'] as const,
  list: (params: PageParams) => [...resourceKeys.all, 'announcements', params] as const,
};

export const announcementsQuery = (params: PageParams) =>
  queryOptions({
    queryKey: announcementKeys.list(params),
    queryFn: ({ signal }) => fetchPage<Announcement>('/announcements', params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const sendAnnouncement = (body: AnnouncementBody) =>
  api.post<Announcement>('/announcements', body, { quietForbidden: true });
