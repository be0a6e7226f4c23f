import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@kodi/domain';

/** An upload as received: its form fields as sent and its file, written to a temporary path. */
export type Upload = { fields: Record<string, string>; fileName: string | undefined; path: string };

/**
 * Reads a multipart request (the route's scope registered @fastify/multipart with its limits): its
 * text fields, and its `file` part streamed to a temporary file as it arrives (other files are
 * drained). Over the file limit is `413 payload_too_large`. The caller runs `work` and the file is
 * deleted after it, whatever happens.
 */
export const withUpload = async <T>(
  request: FastifyRequest,
  prefix: string,
  tooLarge: string,
  work: (upload: Upload) => Promise<T>,
): Promise<T> => {
  if (!request.isMultipart())
    throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data.');
  const tmp = path.join(os.tmpdir(), `${prefix}-${randomUUID()}`);
  try {
    const fields: Record<string, string> = {};
    let fileName: string | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || fileName !== undefined) {
        part.file.resume();
        continue;
      }
      fileName = part.filename || 'upload';
      try {
        await pipeline(part.file, fs.createWriteStream(tmp));
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 413 || part.file.truncated)
          throw new AppError('payload_too_large', tooLarge);
        throw err;
      }
      if (part.file.truncated) throw new AppError('payload_too_large', tooLarge);
    }
    return await work({ fields, fileName, path: tmp });
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
};
