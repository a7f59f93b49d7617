/**
 * Runs `work` with V8's RegExp refusing to build any of `patterns` (constructed or called): a
 * server's pattern that reached the backtracking engine fails at once, instead of stalling the
 * event loop for seconds and passing all the same.
 */
export async function withoutNativePatterns<T>(
  patterns: readonly string[],
  work: () => T | Promise<T>,
): Promise<T> {
  const native = globalThis.RegExp;
  const refuse = (args: unknown[]) => {
    const source = args[0] instanceof native ? args[0].source : String(args[0]);
    if (patterns.includes(source)) throw new Error(`"${source}" reached the backtracking engine`);
  };
  globalThis.RegExp = new Proxy(native, {
    construct(target, args) {
      refuse(args);
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      refuse(args);
      return Reflect.apply(target, self, args);
    },
  });
  try {
    return await work();
  } finally {
    globalThis.RegExp = native;
  }
}
