// One language's compiled catalogue (vite-catalogues.ts).
declare module 'virtual:kodi-catalogue/*' {
  export const messages: import('@lingui/core').Messages;
}
