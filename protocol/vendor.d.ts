// The bundled Public Suffix List library (scripts/build-panel.mjs makes protocol/vendor/tldts.js).
declare module '*/vendor/tldts.js' {
  export * from 'tldts';
}
