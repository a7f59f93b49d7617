// `npm run bench`: speed on the real catalogs, scale on a synthetic one, and the search-quality table.
import { cpus, loadavg } from 'node:os';
import { runQualityBench } from './quality.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runSpeedBench } from './speed.bench.js';

const sections = [runSpeedBench, runScaleBench, runQualityBench];

console.log(
  `# Toolbridge engine bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
);
console.log('Timings are wall-clock; on a busy machine compare the ratios, measured in the same run.\n');
for (const section of sections) {
  console.log(section());
  console.log('');
}
