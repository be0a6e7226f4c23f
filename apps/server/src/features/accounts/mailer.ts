import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';

export type MailMessage = { to: string; subject: string; text: string };

export type Mailer = {
  /**
   * Queues a message and returns at once: the SMTP exchange runs in the background (so that an answer
   * never waits on the mail server, and takes as long whether or not a message was sent).
   * Without SMTP_URL the message is written to the log instead.
   */
  enqueue: (message: MailMessage, log: FastifyBaseLogger) => void;
  /** Waits for the messages still being sent (on shutdown, and in tests). */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

export const createMailer = (config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer => {
  let transport: Transporter | undefined;
  const pending = new Set<Promise<void>>();

  const send = async (message: MailMessage, log: FastifyBaseLogger): Promise<void> => {
    if (!config.smtpUrl) {
      log.info({ mail: { from: config.mailFrom, ...message } }, 'e-mail not sent (SMTP_URL is not set)');
      return;
    }
    transport ??= nodemailer.createTransport(config.smtpUrl);
    try {
      await transport.sendMail({ from: config.mailFrom, ...message });
      log.info({ to: message.to, subject: message.subject }, 'e-mail sent');
    } catch (err) {
      log.error({ err, to: message.to, subject: message.subject }, 'e-mail could not be sent');
    }
  };

  return {
    enqueue: (message, log) => {
      const p = send(message, log).finally(() => pending.delete(p));
      pending.add(p);
    },
    flush: async () => {
      await Promise.all([...pending]);
    },
    close: async () => {
      await Promise.all([...pending]);
      transport?.close();
    },
  };
};
