import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The address this installation is reached at, for links made while answering a request: PUBLIC_URL
 * when it is set, else the request's own origin (its Host, and X-Forwarded-Proto/Host only from a
 * proxy TRUST_PROXY trusts), so that an installation without PUBLIC_URL still prints links that open.
 */
export const publicBaseUrl = (config: Config, request: FastifyRequest): string =>
  config.publicUrlSet ? config.publicUrl : `${request.protocol}://${request.host}`;
