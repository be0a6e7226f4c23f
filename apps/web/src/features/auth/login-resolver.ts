import { zodResolver } from '@hookform/resolvers/zod';
import { loginBody } from '@kodi/domain';

/** The Login form's validation: the server's `loginBody` schema (loaded after the page, see login-page.tsx). */
export const loginResolver = zodResolver(loginBody);
