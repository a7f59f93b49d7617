/**
 * True while the process exists: `target` is a pid, or `-pgid` for any member of a process group.
 * Signal 0 checks without signalling; EPERM means it exists but belongs to someone else.
 */
export function processExists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
