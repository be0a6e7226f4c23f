import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/** A stored `language` (users, tenants, owners, a company's default): one of LANGUAGES. */
export const languageSchema = z.enum(LANGUAGES);
