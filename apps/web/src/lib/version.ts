/** Shown in the drawer footer (02-admin §9). Keep in step with package.json. */
export const APP_VERSION = '1.1.0';
