// Enough of semver to check a remote's required range against the version the shell provides:
// `^`, `~`, exact, `x`-wildcards, comparators (`>=1.2.0 <2`) and `||`. Pre-release tags are ignored.

type Triple = [number, number, number];

function parse(version: string): Triple | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

const compare = (a: Triple, b: Triple) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** `1`, `1.2`, `1.x`, `1.2.3`: the lowest version it names and how many parts it fixes. */
function partial(text: string): { low: Triple; fixed: number } | undefined {
  const parts = text.replace(/^v/, '').split('.');
  if (parts.length > 3) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    if (/^[x*]$/i.test(part)) break;
    if (!/^\d+$/.test(part)) return undefined;
    numbers.push(Number(part));
  }
  const [major = 0, minor = 0, patch = 0] = numbers;
  return { low: [major, minor, patch], fixed: numbers.length };
}

/** The exclusive upper bound of versions that keep the first `fixed` parts of `low`. */
function bumped(low: Triple, fixed: number): Triple | undefined {
  if (fixed === 0) return undefined;
  if (fixed === 1) return [low[0] + 1, 0, 0];
  if (fixed === 2) return [low[0], low[1] + 1, 0];
  return [low[0], low[1], low[2] + 1];
}

function comparatorHolds(version: Triple, comparator: string): boolean {
  const match = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (!match) return false;
  const [, op = '', text = ''] = match;
  if (/^[x*]$/i.test(text)) return true;
  const bound = partial(text);
  if (!bound) return false;
  const { low, fixed } = bound;
  const from = compare(version, low);
  switch (op) {
    case '>=':
      return from >= 0;
    case '>':
      return from > 0;
    case '<':
      return from < 0;
    case '<=':
      return from <= 0;
    case '^': {
      // The left-most non-zero part may not change (^0.2.3 := >=0.2.3 <0.3.0).
      const keep = low[0] > 0 || fixed <= 1 ? 1 : low[1] > 0 || fixed <= 2 ? 2 : 3;
      const upper = bumped(low, keep)!;
      return from >= 0 && compare(version, upper) < 0;
    }
    case '~': {
      const upper = bumped(low, Math.min(Math.max(fixed, 1), 2))!;
      return from >= 0 && compare(version, upper) < 0;
    }
    default: {
      const upper = bumped(low, fixed);
      return from >= 0 && (!upper || compare(version, upper) < 0);
    }
  }
}

/** Whether `version` (like `19.3.1`) lies in `range` (like `^19.3.1`); false when either cannot be read. */
export function satisfies(version: string, range: string): boolean {
  const parsed = parse(version);
  if (!parsed) return false;
  return range.split('||').some((alternative) => {
    const comparators = alternative.trim().replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1').split(/\s+/).filter(Boolean);
    if (comparators.length === 0) return true;
    return comparators.every((comparator) => comparatorHolds(parsed, comparator));
  });
}
