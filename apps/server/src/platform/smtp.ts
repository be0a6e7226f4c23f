import nodemailer, { type Transporter } from 'nodemailer';
import { SendFailure } from './sms.ts';

/**
 * E-mail to tenants through `SMTP_URL` (the messages' sender): one transport, each send awaited and
 * its failure classified as the SMS adapters' are: a connection failure, a timeout or a 4xx reply
 * (the server's 'try again later') may be retried; a 5xx reply (a refused address) never.
 */

export type Mail = {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type SmtpSender = { send: (mail: Mail) => Promise<void>; close: () => void };

export const smtpSender = (smtpUrl: string | undefined, from: string): SmtpSender | undefined => {
  if (!smtpUrl) return undefined;
  let transport: Transporter | undefined;
  return {
    send: async (mail) => {
      transport ??= nodemailer.createTransport(smtpUrl, { from });
      try {
        await transport.sendMail({ from, ...mail });
      } catch (err) {
        const e = err as { responseCode?: number; message?: string; code?: string };
        const code = e.responseCode;
        const retryable = code === undefined || (code >= 400 && code < 500);
        throw new SendFailure(
          `The mail server refused it: ${e.message ?? e.code ?? 'unknown error'}`,
          retryable,
        );
      }
    },
    close: () => transport?.close(),
  };
};
