/** The texts of two-factor sign-in, sessions and password strength (issue 20): no zod, so that pages ship them alone. */
export const securityMessages = {
  codeFormat: 'Enter the 6-digit code from your authenticator app.',
  codeWrong: 'The code is not right or has expired. Enter the current code from your authenticator app.',
  recoveryWrong: 'This recovery code is not right or has been used already.',
  codeOrRecovery: 'Enter the code from your authenticator app or a recovery code.',
  challengeExpired: 'The sign-in took too long. Enter your e-mail and password again.',
  alreadyEnabled: 'Two-factor sign-in is on already. Turn it off first to set it up again.',
  notEnabled: 'Two-factor sign-in is not on.',
  noSetup: 'Start the setup first: scan the QR code, then enter a code.',
  enrolmentRequired:
    'Your company requires two-factor sign-in: set it up on the Account Security page to continue.',
  enabled: 'Two-factor sign-in is on.',
  disabled: 'Two-factor sign-in is off.',
  mfaReset: 'Two-factor sign-in was reset: the user sets it up again at the next sign-in.',
  sessionsEnded: 'Sessions ended.',
  sessionNotFound: 'This session has ended already.',
  currentSession: 'This is the session you are using: sign out instead.',
  passwordCommon: 'This password is one of the most common passwords: choose another.',
  passwordWeak: 'This password is too easy to guess.',
  codesUnavailable:
    'Codes from your authenticator app cannot be checked at the moment: sign in with a recovery code, or ask your administrator.',
} as const;
