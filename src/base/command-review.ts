/**
 * What a stdio server's command does beyond starting a program, in plain words, before it runs
 * with the user's rights: inline scripts for a shell or an interpreter, administrator rights,
 * recursive deletes, text piped into a shell, environment set on the command line or variables
 * that make a program load other code. One detector for every place a command is reviewed: the
 * command form, pasted or imported configs, and manage_connections install cards. Pure (the
 * renderer imports it too).
 */

export type CalloutKind =
  | 'inline-script'
  | 'script-file'
  | 'admin'
  | 'delete'
  | 'pipe-to-shell'
  | 'env-assignment'
  | 'code-loading-env';

export interface CommandCallout {
  kind: CalloutKind;
  /** What it does, to follow "this command …", e.g. "runs a shell script inline (sh -c)". */
  message: string;
  /** The script or code it runs, in full, when there is one. */
  code?: string;
}

export interface ReviewedCommand {
  command: string;
  args?: readonly string[];
  /** The names of the variables set for it. */
  envNames?: readonly string[];
  /** Their values where known: a variable that loads code shows what it loads. */
  env?: Readonly<Record<string, string>>;
}

/**
 * A shell by its program name, however installed: `/bin/sh`, `bash5.2`, `bash-5.2`, `rbash`,
 * `ksh93`, `busybox`-style names. The path is already gone (see `programName`).
 */
const SHELL =
  /^r?(?:sh|bash|zsh|dash|ksh|ksh93|mksh|pdksh|oksh|loksh|ash|fish|csh|tcsh|yash|posh|hush|elvish|xonsh|nu|osh|ysh)(?:[-_.]?\d+(?:\.\d+)*)?$/;
const isShell = (program: string): boolean => SHELL.test(program);
/** Multi-call binaries whose first argument names the applet: `busybox sh -c …`. */
const MULTI_CALL = new Set(['busybox', 'toybox']);
/** Interpreters and the flags that take code on the command line. */
const CODE_FLAGS: ReadonlyArray<{ test: (program: string) => boolean; flags: RegExp; what: string }> = [
  { test: (p) => /^(python|pypy)\d*(\.\d+)?$/.test(p), flags: /^-[A-Za-z]*c$/, what: 'Python code' },
  {
    test: (p) => /^(node|nodejs|bun)$/.test(p),
    flags: /^(-[A-Za-z]*[ep]|--eval|--print)$/,
    what: 'JavaScript code',
  },
  { test: (p) => p === 'deno', flags: /^eval$/, what: 'JavaScript code' },
  { test: (p) => /^perl\d*$/.test(p), flags: /^-[A-Za-z]*[eE]$/, what: 'Perl code' },
  { test: (p) => /^ruby\d*$/.test(p), flags: /^-[A-Za-z]*e$/, what: 'Ruby code' },
  { test: (p) => /^php\d*$/.test(p), flags: /^-[A-Za-z]*r$/, what: 'PHP code' },
  { test: (p) => /^lua(jit|\d[\d.]*)?$/.test(p), flags: /^-e$/, what: 'Lua code' },
  { test: (p) => p === 'osascript', flags: /^-e$/, what: 'AppleScript' },
];
/** Prefixes PowerShell accepts for -Command and -EncodedCommand (any unambiguous prefix works). */
const POWERSHELL_COMMAND = /^[-/]c(o(m(m(a(n(d)?)?)?)?)?)?$/i;
const POWERSHELL_ENCODED = /^[-/](e|ec|en(c(o(d(e(d(c(o(m(m(a(n(d)?)?)?)?)?)?)?)?)?)?)?)?)$/i;
const ADMIN = new Set(['sudo', 'doas', 'su', 'pkexec', 'runas', 'gsudo']);
/** Wrappers that run the rest of the line as the real command. */
const WRAPPERS = new Set([
  'nohup',
  'exec',
  'command',
  'time',
  'nice',
  'ionice',
  'stdbuf',
  'setsid',
  'chrt',
  'wsl',
]);
/** Wrapper options that take a value (`exec -a name`, `nice -n 5`, `wsl -d Ubuntu`), so the value is not the program. */
const WRAPPER_VALUE_OPTION = /^(-[nksaioedu]|--(distribution|user|cd))$/;
/** Variables that make a program load code from elsewhere. */
const CODE_LOADING_ENV =
  /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONINSPECT|BASH_ENV|ENV|ZDOTDIR|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|PROMPT_COMMAND|GIT_SSH_COMMAND|PATH)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const PIPE_TO_SHELL =
  /\|\s*(?:(?:sudo|doas|env|exec|command)\s+(?:-\S+\s+)*)*(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|ash|fish|python\d*(?:\.\d+)?|node|perl|ruby|php|powershell|pwsh|iex|invoke-expression)\b/i;
const RECURSIVE_DELETE =
  /\b(?:rm\s+(?:-\S*\s+)*-[a-z]*(?:r[a-z]*f|f[a-z]*r)|rm\s+(?:-\S*\s+)*(?:--recursive\s+(?:-\S*\s+)*--force|--force\s+(?:-\S*\s+)*--recursive)|rmdir\s+\/s|del\s+\/[sq]|remove-item\b[^|;]*-recurse|rd\s+\/s)\b/i;

/**
 * Splits a command line into words the way a shell would for plain cases: whitespace separates,
 * single and double quotes group, backslash escapes inside double quotes and outside quotes.
 * Nothing is expanded (no `~`, `$VAR` or globs): what you see is what runs.
 */
export function splitCommandLine(
  line: string,
): { ok: true; words: string[] } | { ok: false; message: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (
      char === '\\' &&
      i + 1 < line.length &&
      (quote === '"' ? /["\\$`]/.test(line[i + 1]!) : true)
    ) {
      word += line[++i];
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return { ok: false, message: `A ${quote} quote is not closed.` };
  if (inWord) words.push(word);
  return { ok: true, words };
}

/** The program's name for matching: the last path segment, lower-case, without `.exe` and the like. */
export function programName(command: string): string {
  const last = command.split(/[\\/]/).pop() ?? command;
  return last.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
}

/** Every call-out for one command line, in the order they apply, each once. */
export function commandCallouts(reviewed: ReviewedCommand): CommandCallout[] {
  const out: CommandCallout[] = [];
  const add = (callout: CommandCallout) => {
    if (!out.some((c) => c.kind === callout.kind && c.message === callout.message && c.code === callout.code))
      out.push(callout);
  };
  for (const name of reviewed.envNames ?? Object.keys(reviewed.env ?? {})) {
    if (!CODE_LOADING_ENV.test(name)) continue;
    const value =
      reviewed.env !== undefined && Object.hasOwn(reviewed.env, name) ? reviewed.env[name] : undefined;
    add({
      kind: 'code-loading-env',
      message: `sets ${name}, which can make the program load other code`,
      ...(value === undefined ? {} : { code: `${name}=${value}` }),
    });
  }
  const words = [reviewed.command, ...(reviewed.args ?? [])];
  examine(words, add, 0);
  return out;
}

/** The call-outs as one sentence, or undefined when there are none ("Careful: this command …"). */
export function calloutSentence(callouts: readonly CommandCallout[]): string | undefined {
  if (callouts.length === 0) return undefined;
  return `Careful: this command ${callouts.map((c) => c.message).join('; ')}.`;
}

function examine(words: readonly string[], add: (callout: CommandCallout) => void, depth: number): void {
  let at = 0;
  // Walk through wrappers (env, sudo, nohup, …) to the program that really runs.
  while (at < words.length) {
    const word = words[at]!;
    const program = programName(word);
    if (ASSIGNMENT.test(word)) {
      add({
        kind: 'env-assignment',
        message: `sets environment variables on the command line (${word.split('=')[0]})`,
      });
      at += 1;
    } else if (program === 'env') {
      at += 1;
      while (at < words.length && (words[at]!.startsWith('-') || ASSIGNMENT.test(words[at]!))) {
        const option = words[at]!;
        if (ASSIGNMENT.test(option))
          add({
            kind: 'env-assignment',
            message: `sets environment variables on the command line (${option.split('=')[0]})`,
          });
        else if (/^-[a-zA-Z]*S/.test(option) || option === '--split-string') {
          // `env -S "sh -c …"`: the next word is split into a whole command line.
          const line = option.length > 2 && option.startsWith('-S') ? option.slice(2) : words[at + 1];
          if (line !== undefined) examine(line.trim().split(/\s+/), add, depth + 1);
        }
        at += /^(-u|--unset|-C|--chdir)$/.test(option) ? 2 : 1;
      }
    } else if (program === 'su' || program === 'runuser') {
      // `su -c 'script' user`: the target user's shell runs the script.
      add({ kind: 'admin', message: `runs with administrator rights (${program})` });
      const rest = words.slice(at + 1);
      const flag = rest.findIndex((arg) => /^(-c|--command|--command=.*)$/.test(arg));
      if (flag >= 0) {
        const script = rest[flag]!.startsWith('--command=') ? rest[flag]!.slice(10) : (rest[flag + 1] ?? '');
        add({ kind: 'inline-script', message: `runs a shell script inline (${program} -c)`, code: script });
        inspectScript(script, add, depth);
      }
      return;
    } else if (ADMIN.has(program)) {
      add({ kind: 'admin', message: `runs with administrator rights (${program})` });
      at += 1;
      while (at < words.length && words[at]!.startsWith('-')) at += /^-[ugCDhprT]$/.test(words[at]!) ? 2 : 1;
    } else if (WRAPPERS.has(program) || program === 'timeout') {
      at += 1;
      while (at < words.length && words[at]!.startsWith('-')) {
        const option = words[at]!;
        at += 1;
        // `wsl -e cmd …`: the word after the flag is the program.
        if (program === 'wsl' && /^(-e|--exec)$/.test(option)) break;
        if (WRAPPER_VALUE_OPTION.test(option)) at += 1;
      }
      if (program === 'timeout' && at < words.length) at += 1;
    } else break;
  }
  const program = programName(words[at] ?? '');
  const rest = words.slice(at + 1);
  // Text-level checks on the whole line: they matter inside scripts and plain arguments alike.
  const line = words.slice(at).join(' ');
  if (PIPE_TO_SHELL.test(line))
    add({ kind: 'pipe-to-shell', message: 'pipes text into a shell or interpreter (| sh)' });
  if (RECURSIVE_DELETE.test(line)) add({ kind: 'delete', message: 'deletes files recursively (rm -rf)' });
  if (depth > 4 || program === '') return;

  const multiCall = MULTI_CALL.has(program) && isShell(programName(rest[0] ?? ''));
  if (isShell(program) || multiCall) {
    const args = multiCall ? rest.slice(1) : rest;
    const shell = multiCall ? `${program} ${programName(rest[0]!)}` : program;
    const flag = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg) || arg === '--command');
    if (flag >= 0) {
      const script = args.slice(flag + 1).find((arg) => !arg.startsWith('-')) ?? '';
      add({
        kind: 'inline-script',
        message: `runs a shell script inline (${shell} ${args[flag]})`,
        code: script,
      });
      inspectScript(script, add, depth);
    } else {
      const file = args.find((arg) => !arg.startsWith('-'));
      if (file !== undefined)
        add({ kind: 'script-file', message: `runs the shell script ${file} (${shell})` });
    }
    return;
  }
  if (program === 'cmd') {
    const flag = rest.findIndex((arg) => /^\/[ck]$/i.test(arg) || /^\/[ck]\S/i.test(arg));
    if (flag >= 0) {
      const script = /^\/[ck]$/i.test(rest[flag]!) ? rest.slice(flag + 1).join(' ') : rest[flag]!.slice(2);
      add({
        kind: 'inline-script',
        message: `runs a Windows command script inline (cmd ${rest[flag]!.slice(0, 2)})`,
        code: script,
      });
      inspectScript(script, add, depth);
    }
    return;
  }
  if (program === 'powershell' || program === 'pwsh') {
    const encoded = rest.findIndex((arg) => POWERSHELL_ENCODED.test(arg));
    const plain = rest.findIndex((arg) => POWERSHELL_COMMAND.test(arg));
    if (encoded >= 0) {
      const script = decodePowerShell(rest[encoded + 1] ?? '');
      add({
        kind: 'inline-script',
        message: `runs an encoded PowerShell script (${program} ${rest[encoded]})`,
        code: script,
      });
      inspectScript(script, add, depth);
    } else if (plain >= 0) {
      const script = rest.slice(plain + 1).join(' ');
      add({
        kind: 'inline-script',
        message: `runs a PowerShell script inline (${program} ${rest[plain]})`,
        code: script,
      });
      inspectScript(script, add, depth);
    } else {
      const file = rest.findIndex((arg) => /^[-/]f(i(l(e)?)?)?$/i.test(arg));
      if (file >= 0)
        add({ kind: 'script-file', message: `runs the PowerShell script ${rest[file + 1] ?? ''}` });
    }
    return;
  }
  for (const interpreter of CODE_FLAGS) {
    if (!interpreter.test(program)) continue;
    const flag = rest.findIndex((arg) => interpreter.flags.test(arg) || /^--(eval|print)=/.test(arg));
    if (flag >= 0) {
      const arg = rest[flag]!;
      const code =
        arg.includes('=') && arg.startsWith('--') ? arg.slice(arg.indexOf('=') + 1) : (rest[flag + 1] ?? '');
      add({
        kind: 'inline-script',
        message: `runs ${interpreter.what} inline (${program} ${arg.split('=')[0]})`,
        code,
      });
      inspectScript(code, add, depth);
    }
    return;
  }
}

/** A script's own text: its commands are looked at like a command line (sudo, rm -rf, pipes, nested shells). */
function inspectScript(script: string, add: (callout: CommandCallout) => void, depth: number): void {
  for (const part of script.split(/&&|\|\||[;\n&|]|\$\(|`/)) {
    const split = splitCommandLine(part);
    const words = split.ok ? split.words : part.trim().split(/\s+/);
    if (words.some((word) => word !== '')) examine(words, add, depth + 1);
  }
  if (PIPE_TO_SHELL.test(script))
    add({ kind: 'pipe-to-shell', message: 'pipes text into a shell or interpreter (| sh)' });
}

/** -EncodedCommand takes base64 of UTF-16LE text; show what it says. */
function decodePowerShell(value: string): string {
  try {
    // atob and TextDecoder, not Buffer: the renderer runs this too.
    const bytes = Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
    const text = new TextDecoder('utf-16le').decode(bytes);
    return text === '' ? value : text;
  } catch {
    return value;
  }
}
