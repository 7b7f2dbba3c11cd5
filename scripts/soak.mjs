// The long lifecycle soak: `npm run soak [-- --calls N] [--seed S]` (default
// 400 calls). Prints every call and a summary; exits non-zero on any failure.
import { parseArgs } from 'node:util';
import { setup } from './setup.mjs';
import { build } from './build.mjs';

// Like npm test, it installs and builds what it needs first (a fresh clone has neither).
setup();
build({ quiet: true });
const { soak } = await import('../tests/soak.mjs');

const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' }, seed: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const { stats, failures } = await soak({
  calls: Number(values.calls),
  seed: values.seed === undefined ? undefined : Number(values.seed),
  progress: values.quiet ? undefined : (line) => console.log(line),
});
console.log(`\nsoak: ${JSON.stringify(stats, null, 1)}`);
if (failures.length) {
  console.error(`\n${failures.length} failures (seed ${stats.seed}):\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`\nno failures in ${stats.calls} calls (seed ${stats.seed})`);
