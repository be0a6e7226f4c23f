/** Messages shared by every form (01-core §5, 02-admin §5). */
export const messages = {
  required: 'This field is required.',
  formInvalid: 'Please correct the form errors.',
  email: 'E-mail must be valid.',
  passwordMin: 'Minimum 8 characters.',
  passwordsMismatch: 'Passwords do not match.',
} as const;
