/** The tenant portal's texts (issues 19, 23): no zod, so that the portal's pages ship them alone. */
export const portalMessages = {
  /** issue 26: nothing says 'sent' when nothing was sent (no SMTP_URL, no SMS_URL) */
  emailNotSetUp: 'Not sent: e-mail is not set up',
  smsNotSetUp: 'Not sent: SMS is not set up',
  copyLink: 'Copy the link and give it to the tenant yourself (WhatsApp, a text message or on paper).',
  codeOnItsWay: (channel: 'email' | 'sms') =>
    `If this ${channel === 'email' ? 'e-mail' : 'phone'} is yours, a 6-digit code is on its way.`,
  codeNotSetUp: (channel: 'email' | 'sms') =>
    `Not sent: ${channel === 'email' ? 'e-mail' : 'SMS'} is not set up on this server. Sign in with your password, or ask your landlord for a new invitation link.`,
  loginRequired: 'Enter your e-mail or phone number.',
  codeFormat: 'The code has 6 digits.',
  noEmail: 'This tenant has no e-mail address.',
  noPhone: 'This tenant has no valid phone number.',
  alreadyActive: 'This tenant already uses the portal.',
  disabled: 'Portal access is turned off for this tenant: turn it on first.',
  addressTaken: 'Another account already signs in with this e-mail or phone.',
  noAccount: 'This tenant has no portal account.',
  photoTooLarge: 'Photos must be at most 5 MB.',
  photoType: 'Photos must be png, jpeg or webp.',
  tooManyPhotos: 'At most 3 photos.',
  staffRefused: 'This is a tenant account: sign in at the tenant portal.',
  ownerAccount: 'This is an owner account: sign in at the owner portal.',
  /** a new e-mail or phone waits for the code sent to it (issue 23): the same whoever else uses it */
  addressCodeSent: 'We sent a 6-digit code to the new address. Enter it to start using it.',
  addressCodeWrong: 'The code is wrong or has expired. Save the address again for a new code.',
  addressChanged: 'Your new address is saved: you sign in with it from now on.',
  /** accepting an invitation sent to an address another account signs in with (told to its holder only) */
  invitationAddressTaken:
    'Another account already signs in with this e-mail or phone. Ask your landlord to invite you with another one.',
} as const;

/**
 * The owner portal's own words (issue 27) where the tenant portal's name the tenant: the rest of
 * `portalMessages` serves both portals.
 */
export const ownerPortalMessages = {
  copyLink: 'Copy the link and give it to the owner yourself (WhatsApp, a text message or on paper).',
  noEmail: 'This owner has no e-mail address.',
  noPhone: 'This owner has no valid phone number.',
  alreadyActive: 'This owner already uses the portal.',
  disabled: 'Portal access is turned off for this owner: turn it on first.',
  noAccount: 'This owner has no portal account.',
  propertyNotFound: 'Property not found.',
} as const;
