/** The User Roles page's texts and timings (02-admin §8, §9). */
export const USERS_LOAD_FAILED = 'Failed to load users.';
export const ROLES_LOAD_FAILED = 'Failed to load available roles.';
export const SERVER_ERROR = 'Server error';
export const USER_ADDED = 'User added successfully!';
export const PROFILE_SAVED = 'Profile saved successfully!';
export const PASSWORD_SET = 'Password updated';
export const ADD_FAILED = 'Could not add user.';
export const PROFILE_FAILED = 'Could not save profile.';
export const STATUS_FAILED = 'Could not change the account status.';

/** Snackbar timeouts: 4 s, and 6 s for destructive errors (enable/disable). */
export const SUCCESS_MS = 4000;
export const ERROR_MS = 4000;
export const DESTRUCTIVE_ERROR_MS = 6000;
