// Timing and memory helpers. Nothing is asserted: bench prints numbers and whether each target is met.

export function median(values) {
  return percentile(values, 50);
}

export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Milliseconds taken by `fn()`, and its result. */
export function timeOnce(fn) {
  const start = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Runs `build` `runs` times; returns the first (cold) time, the median of the rest, and the last index. */
export function timeBuilds(build, runs) {
  const times = [];
  let index;
  for (let i = 0; i < runs; i++) {
    const { ms, value } = timeOnce(build);
    times.push(ms);
    index = value;
  }
  return { coldMs: times[0], medianMs: median(times.length > 1 ? times.slice(1) : times), index };
}

/** Per-query latency in microseconds over `passes` passes of every query (the first pass warms up). */
export function timeQueries(search, queries, passes) {
  const micros = [];
  for (let pass = 0; pass <= passes; pass++) {
    for (const query of queries) {
      const start = process.hrtime.bigint();
      search(query);
      const elapsed = Number(process.hrtime.bigint() - start) / 1e3;
      if (pass > 0) micros.push(elapsed);
    }
  }
  return { medianUs: median(micros), p99Us: percentile(micros, 99) };
}

export function fixed(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

/** A plain text table: header row then rows, columns padded. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => String(cell)[column === 0 ? 'padEnd' : 'padStart'](widths[column]))
        .join('  '),
    )
    .join('\n');
}

export function verdict(ok) {
  return ok ? 'ok' : 'MISSED';
}
