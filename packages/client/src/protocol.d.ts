// The protocol's types, generated from protocol/protocol.js (npm run protocol).
// The build puts the generated file itself beside the package's index.d.ts.
export * from '../../../protocol/axsnap-protocol.js';
