import { useEffect } from 'react';
import { startSessionWatch } from '../lib/session.ts';

/** Runs the periodic status check and the visibility check for the app's lifetime. */
export const SessionWatch = () => {
  useEffect(() => startSessionWatch(), []);
  return null;
};
