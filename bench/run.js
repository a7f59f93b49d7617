// `npm run bench`: speed on the real catalogs, scale on a synthetic one, the search-quality table,
// the tokens of what the model sees, then the host: tool_call overhead against a direct SDK
// client, `serve` start-up, and stopping servers that ignore SIGTERM.
import { cpus, loadavg } from 'node:os';
import { runContextBench } from './context.bench.js';
import { runHostOverheadBench } from './host-overhead.bench.js';
import { runQualityBench } from './quality.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runServeStartupBench } from './serve-startup.bench.js';
import { runShutdownBench } from './shutdown.bench.js';
import { runSpeedBench } from './speed.bench.js';

const sections = [
  runSpeedBench,
  runScaleBench,
  runQualityBench,
  runContextBench,
  runHostOverheadBench,
  runServeStartupBench,
  runShutdownBench,
];

console.log(
  `# Toolbridge engine bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
);
console.log('Timings are wall-clock; on a busy machine compare the ratios, measured in the same run.\n');
for (const section of sections) {
  console.log(await section());
  console.log('');
}
