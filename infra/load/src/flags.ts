// One reader for the command lines of `npm run load` and `npm run chaos`: `--name value`,
// `--name=value`, bare switches, and flags whose value may be left out (`--traces [URL]`).

export interface FlagSpec {
  /** Flags without a value (`--smoke`). */
  switches?: readonly string[];
  /** Flags that need a value. */
  values: readonly string[];
  /** Flags whose value may be left out: the next word is theirs unless it is a flag itself. */
  optional?: readonly string[];
}

export interface Flags {
  has(name: string): boolean;
  /** The flag's value; '' for an optional flag given without one. */
  text(name: string): string | undefined;
  /** The flag's value as a number, or the fallback; throws when the value fails the check. */
  number(name: string, fallback: number, check: (n: number) => boolean): number;
}

/** Reads argv by the spec (names without the dashes); throws with a message for anything else. */
export function readFlags(argv: readonly string[], spec: FlagSpec): Flags {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    if (spec.switches?.includes(name) && inline === undefined) {
      values.set(name, '');
    } else if (spec.optional?.includes(name)) {
      const next = argv[i + 1];
      values.set(name, inline ?? (next !== undefined && !next.startsWith('--') ? argv[++i]! : ''));
    } else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`${flag} needs a value`);
      values.set(name, value);
    } else {
      throw new Error(`unknown option ${arg}`);
    }
  }
  return {
    has: (name) => values.has(name),
    text: (name) => values.get(name),
    number(name, fallback, check) {
      const text = values.get(name);
      if (text === undefined) return fallback;
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Error(`--${name}: ${text} is not allowed`);
      return n;
    },
  };
}
